#!/bin/sh
# cli.t — verbs, help, exit codes and one-line errors for bad input.
. tests/e2e/lib.sh

# expect_usage DESCRIPTION PATTERN ARGS... — exit 2, one stderr line matching PATTERN
expect_usage() {
	_d=$1 _p=$2
	shift 2
	"$BAKEOFF" "$@" >"$TMP/o" 2>"$TMP/e"
	_rc=$?
	ok $((_rc != 2)) "$_d: exit 2 (got $_rc)"
	check "$_d: one line on stderr naming it" sh -c "[ \$(wc -l <'$TMP/e') -eq 1 ] && grep -q -- \"\$1\" '$TMP/e'" _ "$_p"
}

"$BAKEOFF" >/dev/null 2>&1
ok $(($? != 2)) "no verb: exit 2"
"$BAKEOFF" --help | grep -q "^usage: bakeoff VERB"
ok $? "bakeoff --help"
for v in run list report sysinfo version; do
	"$BAKEOFF" $v --help | grep -q "^usage: bakeoff $v"
	ok $? "bakeoff $v --help"
	"$BAKEOFF" help $v | grep -q "^usage: bakeoff $v"
	ok $? "bakeoff help $v"
done
expect_usage "help of an unknown verb" "'frob' is neither a verb" help frob
expect_usage "unknown verb" "unknown verb 'frob'" frob
expect_usage "unknown benchmark" "did you mean 'mem.bw.copy'" run mem.bw.cpy
expect_usage "unknown group" "did you mean 'proc'" run prc
expect_usage "unknown option" "unknown option '--frob'" run --frob
expect_usage "size with a bad suffix" "invalid value '12Q' for --mem-size" run --mem-size 12Q mem.bw.read
expect_usage "negative size" "invalid value '-5' for --mem-size" run --mem-size -5 mem.bw.read
expect_usage "size too large" "invalid value '99999999999T' for --mem-size" run --mem-size 99999999999T mem.bw.read
expect_usage "empty size" "invalid value '' for --mem-size" run --mem-size "" mem.bw.read
expect_usage "bad duration" "invalid value '10x' for --sample-time" run --sample-time 10x
expect_usage "negative duration" "invalid value '-1s' for --budget" run --budget -1s
expect_usage "empty duration" "invalid value '' for --budget" run --budget ""
expect_usage "zero samples" "invalid value '0' for --samples" run --samples 0
expect_usage "bad parallel" "invalid value 'two' for --parallel" run --parallel two
expect_usage "bad procs list" "invalid value '2,,4' for --procs" run --procs 2,,4
expect_usage "bad ctx-sizes" "invalid value '16q' for --ctx-sizes" run --ctx-sizes 16q
expect_usage "missing option value" "needs a value" run --mem-size
echo keep >"$TMP/existing.json"
expect_usage "existing output file" "never overwrites" run -q -o "$TMP/existing.json" proc.syscall.null
check "existing output file untouched" grep -qx keep "$TMP/existing.json"
expect_usage "report of a missing file" "nope.json" report "$TMP/nope.json"
printf '{"schema": "bakeoff-result/1", "run": {' >"$TMP/trunc.json"
expect_usage "report of a truncated file" "trunc.json: byte 39: unexpected end of input" report "$TMP/trunc.json"
printf '{"schema": "other/2"}' >"$TMP/schema.json"
expect_usage "report of a wrong schema" "schema.json: byte 11: schema is \"other/2\"" report "$TMP/schema.json"
expect_usage "report with a bad format" "invalid value 'xml' for --format" report --format xml "$TMP/schema.json"
expect_usage "sysinfo with junk" "unknown argument" sysinfo --frob

"$BAKEOFF" version | grep -q "^bakeoff [0-9]"
ok $? "version"
"$BAKEOFF" sysinfo >"$TMP/si"
ok $? "sysinfo exits 0"
check "sysinfo names the host" grep -q "$(uname -n)" "$TMP/si"
"$BAKEOFF" sysinfo --json | perl -MJSON::PP -e 'local $/; my $h = decode_json(<STDIN>); exit !($h->{threads} > 0)'
ok $? "sysinfo --json is valid JSON with threads"
"$BAKEOFF" list >"$TMP/list"
ok $? "list exits 0"
check "list shows ids, units and runs-here" grep -q "^mem.bw.copy .*MB/s .*yes" "$TMP/list"
"$BAKEOFF" list mem.bw >"$TMP/list"
check "list filters" sh -c "! grep -q '^proc' '$TMP/list' && grep -q '^mem.bw.read' '$TMP/list'"

# -o - writes JSON on stdout; options may follow benchmark names.
"$BAKEOFF" run proc.syscall.null -q --quick --samples 3 -o - >"$TMP/stdout.json"
ok $? "run -o - exits 0"
check "run -o - prints a result" [ "$(status "$TMP/stdout.json" proc.syscall.null)" = ok ]
# The default file name, in a fresh directory.
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$BAKEOFF" run -q --quick --samples 3 proc.syscall.null >/dev/null 2>&1)
ok $? "run with the default output"
f=$(ls "$TMP/cwd/results/" 2>/dev/null | head -n 1)
check "saved as results/HOST-UTC.json" sh -c "echo '$f' | grep -Eq '^.+-[0-9]{8}T[0-9]{6}Z\\.json\$'"
check "the default result reads back" sh -c "'$BAKEOFF' report '$TMP/cwd/results/$f' >/dev/null"

# Three runs started at once in one directory: each keeps its result (the
# name is claimed exclusively, the next free one taken).
mkdir "$TMP/same"
(cd "$TMP/same" && for k in 1 2 3; do "$BAKEOFF" run -q --quick --samples 3 proc.syscall.null \
	>/dev/null 2>&1 & done; wait)
check "three runs in the same second: three result files" [ "$(ls "$TMP/same/results" | wc -l)" = 3 ]
for f in "$TMP"/same/results/*; do
	check "$(basename "$f") holds a finished run" [ "$(jget "$f" 'bench("proc.syscall.null")->{status} . ($r->{run}{incomplete} ? " incomplete" : "")')" = ok ]
done

# Exit status 1 when a benchmark fails (a test-only benchmark of the test
# build); the run goes on.
TB=${BAKEOFF_TESTING:-}
if [ -n "$TB" ] && [ -x "$TB" ]; then
	"$TB" run -q --quick --samples 3 -o "$TMP/fail.json" test.fail proc.syscall.null >/dev/null 2>&1
	ok $(($? != 1)) "a failed benchmark gives exit 1"
	check "it is marked failed with a reason" [ -n "$(jget "$TMP/fail.json" 'bench("test.fail")->{status} eq "failed" && bench("test.fail")->{reason}')" ]
	check "the run went on" [ "$(status "$TMP/fail.json" proc.syscall.null)" = ok ]
else
	skip "no test build (make check sets BAKEOFF_TESTING)"
	skip "(same)"
	skip "(same)"
fi
# A buffer larger than the memory available is refused before measuring.
"$BAKEOFF" run -q --quick --mem-size 1T -o "$TMP/big.json" mem.bw.read >/dev/null 2>"$TMP/big.err"
ok $(($? != 2)) "--mem-size 1T: exit 2"
check "one line naming both figures" sh -c "[ \$(wc -l <'$TMP/big.err') = 1 ] && grep -Eq -- '--mem-size 1 TiB needs 1 TiB of memory, [0-9.]+ [KMG]iB available' '$TMP/big.err'"

# The docs name only what runs (issue 7 item 9): every group and verb the
# man page and README name exists, every group that exists is named, and
# tools whose groups do not exist yet (disk, network) are not promised.
"$BAKEOFF" list | awk 'NR > 1 && /^[a-z]+\./ { sub(/\..*/, "", $1); print $1 }' | sort -u >"$TMP/groups"
sed -n '/^\.SH GROUPS/,/^\.SH [^G]/p' docs/bakeoff.1 | sed -n 's/^\.B \([a-z]*\)$/\1/p' | sort -u >"$TMP/man-groups"
check "the man page's GROUPS are exactly the groups that exist" cmp -s "$TMP/groups" "$TMP/man-groups"
sed -n 's/^| `\([a-z]*\)` |.*/\1/p' README.md | sort -u >"$TMP/readme-groups"
check "README's group table names exactly the groups that exist" cmp -s "$TMP/groups" "$TMP/readme-groups"
for v in $(sed -n 's/^\.B bakeoff \([a-z]*\)$/\1/p' docs/bakeoff.1); do
	check "the man page's verb '$v' exists" sh -c "'$BAKEOFF' --help | grep -q '^  $v '"
done
for v in $("$BAKEOFF" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p'); do
	check "the verb '$v' is in the man page's SYNOPSIS" grep -q "^\.B bakeoff $v\$" docs/bakeoff.1
done
for w in disk net bonnie iozone ttcp dhrystone serve html csv chart compare; do
	# (a report format that exists, such as csv or html, is no false promise: issue 12)
	if "$BAKEOFF" list "$w" >/dev/null 2>&1 || "$BAKEOFF" help "$w" >/dev/null 2>&1 ||
	   "$BAKEOFF" report --help | grep -qw -- "$w"; then
		continue
	fi
	check "docs do not promise '$w', which does not exist" sh -c \
		"! grep -iwh -- '$w' docs/bakeoff.1 README.md | grep -v 'No disk or\\|network group yet' | grep -qiw -- '$w'"
done

# make install puts the binary and the man page under DESTDIR/PREFIX.
if command -v make >/dev/null && [ -f Makefile ]; then
	make -s install BUILD="${BUILD:-build}" DESTDIR="$TMP/dest" PREFIX=/usr >/dev/null 2>&1
	ok $? "make install"
	# (under make cross, BAKEOFF_RUNNER is the emulator that runs the binary)
	check "installed binary runs" sh -c "${BAKEOFF_RUNNER:-} '$TMP/dest/usr/bin/bakeoff' version >/dev/null"
	check "installed man page" test -s "$TMP/dest/usr/share/man/man1/bakeoff.1"
	if [ -z "${BAKEOFF_RUNNER:-}" ]; then
		check "installed bash completion" grep -q '^complete -F _bakeoff bakeoff$' \
			"$TMP/dest/usr/share/bash-completion/completions/bakeoff"
	else
		skip "a cross build's completion is not made at install (the binary does not run natively)"
	fi
else
	skip "make not available"
fi
done_testing
