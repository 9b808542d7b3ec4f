#!/bin/sh
# completion.t — `bakeoff completion bash|zsh`: the script is made from the
# program's tables, so what it offers is checked against what the program
# says elsewhere (its --help texts, its benchmark list), in a real bash
# (and zsh where there is one).
. tests/e2e/lib.sh
"$BAKEOFF" completion bash >"$TMP/c.bash" 2>"$TMP/err"
ok $? "completion bash exits 0"
check "  bash reads it (bash -n)" bash -n "$TMP/c.bash"
"$BAKEOFF" completion fish >/dev/null 2>"$TMP/err"
ok $(($? != 2)) "completion fish: exit 2"
check "  one line naming the shells" sh -c "[ \$(wc -l <'$TMP/err') = 1 ] && grep -q 'bash or zsh' '$TMP/err'"

# comp WORD... — what completing the last word offers, space-separated
cat >"$TMP/comp.sh" <<'EOS'
. "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
_bakeoff
echo "${COMPREPLY[*]}"
EOS
comp() { bash "$TMP/comp.sh" "$TMP/c.bash" "$@"; }
check "'bakeoff r' offers run and report" [ "$(comp bakeoff r)" = "run report" ]
verbs=$("$BAKEOFF" --help | awk '/^verbs:/ { v = 1; next } v && /^  [a-z]/ { print $1 } v && /^$/ { exit }' | sort | tr '\n' ' ')
got=$(comp bakeoff '' | tr ' ' '\n' | grep -v '^-' | sort | tr '\n' ' ')
check "every verb --help lists is offered ($verbs)" [ "$got" = "$verbs" ]
check "'bakeoff run mem.l' offers mem.lat, mem.line, mem.loaded" [ "$(comp bakeoff run mem.l)" = "mem.lat mem.line mem.loaded" ]
ids=$("$BAKEOFF" list 2>/dev/null | awk 'NR > 1 && $1 ~ /^[a-z]+\.[a-z0-9_.]+$/ { print $1 }' | sort)
all=$(comp bakeoff run '' | tr ' ' '\n' | sort)
miss=$(printf '%s\n' "$ids" | while read -r id; do printf '%s\n' "$all" | grep -qx "$id" || echo "$id"; done)
check "every benchmark bakeoff list shows is offered to run ($(printf '%s\n' "$ids" | wc -l))" [ -n "$ids" ] && [ -z "$miss" ]
check "  with groups and personalities: mem, lmbench" sh -c "printf '%s\n' '$all' | grep -qx mem && printf '%s\n' '$all' | grep -qx lmbench"
check "'bakeoff run --quic' offers --quick" [ "$(comp bakeoff run --quic)" = "--quick" ]
opts=$("$BAKEOFF" run --help | grep -oE '(^|[ ,[])--[a-z][a-z0-9-]*[a-z0-9]' | sed 's/^[ ,[]//' | sort -u)
runopts=$(comp bakeoff run - | tr ' ' '\n' | sort -u)
miss=$(printf '%s\n' "$opts" | while read -r o; do printf '%s\n' "$runopts" | grep -qx -- "$o" || echo "$o"; done)
check "every option run --help names is offered ($(printf '%s\n' "$opts" | wc -l))${miss:+: missing $miss}" [ -n "$opts" ] && [ -z "$miss" ]
check "'bakeoff report --format l' offers lmbench" [ "$(comp bakeoff report --format l)" = lmbench ]
fmts=$(comp bakeoff compare --format '')
check "compare --format offers what compare takes ($fmts), not lmbench" sh -c "echo ' $fmts ' | grep -q ' html ' && ! echo ' $fmts ' | grep -q ' lmbench '"
check "'bakeoff time --pre' offers --prepare" [ "$(comp bakeoff time --pre)" = "--prepare" ]
check "'bakeoff report -t' offers nothing (ttcp's -t in its help is prose)" [ -z "$(comp bakeoff report -t)" ]
mkdir "$TMP/d" && : >"$TMP/d/result-one.json"
check "'bakeoff run -o res' completes a file name" [ "$(cd "$TMP/d" && comp bakeoff run -o res)" = result-one.json ]
check "'bakeoff compare res' completes a file name" [ "$(cd "$TMP/d" && comp bakeoff compare res)" = result-one.json ]
check "'bakeoff completion ' offers bash and zsh" [ "$(comp bakeoff completion '')" = "bash zsh" ]

if command -v zsh >/dev/null 2>&1; then
	"$BAKEOFF" completion zsh >"$TMP/c.zsh"
	got=$(zsh -f -c 'autoload -U compinit && compinit -u -D; source "$1"; print -r -- ${_comps[bakeoff]}' zsh "$TMP/c.zsh" 2>&1)
	check "zsh: sourcing it after compinit binds bakeoff to the function ($got)" [ "$got" = "_bash_complete -F _bakeoff" ]
else
	skip "no zsh here"
fi
done_testing
