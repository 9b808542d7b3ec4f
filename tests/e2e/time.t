#!/bin/sh
# time.t — `bakeoff time` end to end: sleep's wall time, csh lines, the
# table and the result file; a failing or killed command; --ignore-status,
# --prepare, --warmup, --cwd, the log file and --show-output; bad usage.
# Timings are checked for plausibility only: sleep's wall time can only grow
# under load, so 0.2 s must come out between 0.19 and 0.3 s.
. tests/e2e/lib.sh
cd "$TMP" || exit 1
T1=$TMP/sleep.json
"$BAKEOFF" time -q -n 5 -o "$T1" -- sleep 0.2 >"$TMP/out" 2>"$TMP/err"
ok $? "time -n 5 -- sleep 0.2 exits 0"
REAL=$(median "$T1" time)
diag "sleep 0.2: median real $REAL s"
check "median real time between 0.19 and 0.3 s ($REAL)" num_between "$REAL" 0.19 0.3
check "five runs recorded" [ "$(jget "$T1" 'metric("time", "")->{n}')" = 5 ]
check "five csh lines" [ "$(grep -Ec '^[0-9]+\.[0-9]{3}u [0-9]+\.[0-9]{3}s [0-9]+:[0-9]{2}\.[0-9]{2} [0-9]+\.[0-9]% [0-9]+\+[0-9]+k [0-9]+\+[0-9]+io [0-9]+pf\+[0-9]+w$' "$TMP/out")" = 5 ]
check "elapsed 0:00.20 or so" grep -Eq ' 0:00\.(19|2[0-9]) ' "$TMP/out"
check "table with median, min and max rows" sh -c "grep -q '^median ' '$TMP/out' && grep -q '^min ' '$TMP/out' && grep -q '^max ' '$TMP/out'"
for f in user sys cpu maxrss inblock oublock majflt minflt nvcsw nivcsw; do
	check "figure $f has five samples" [ "$(jget "$T1" "(metric('time', '$f') // {})->{n}")" = 5 ]
done
check "sleep uses under 10% CPU" num_between "$(median "$T1" time cpu)" 0 10
check "max RSS is plausible (100 KiB .. 100 MiB)" num_between "$(median "$T1" time maxrss)" 100 102400
check "the command is recorded" [ "$(jget "$T1" 'bench("time")->{params}{command}')" = "sleep 0.2" ]
"$BAKEOFF" report "$T1" >"$TMP/rep" 2>&1
ok $? "report reads the result"
check "  and shows time:maxrss" grep -q "^time:maxrss " "$TMP/rep"
"$BAKEOFF" report --format time "$T1" >"$TMP/rep2"
check "report --format time prints the csh lines again" \
	[ "$(grep -c 'pf+' "$TMP/rep2")" = 5 ]

# Max RSS is the command's own: perl holding a 64 MB string.
if command -v perl >/dev/null; then
	"$BAKEOFF" time -q -o "$TMP/rss.json" -- perl -e '$x = "a" x 64e6; 1' >/dev/null 2>&1
	check "perl holding 64 MB: max RSS at least 60000 KiB" \
		num_between "$(median "$TMP/rss.json" time maxrss)" 60000 10000000
	"$BAKEOFF" time -q -o "$TMP/rss2.json" -- true >/dev/null 2>&1
	check "and true run afterwards does not inherit it (each run has its own)" \
		num_between "$(median "$TMP/rss2.json" time maxrss)" 1 30000
fi

# A failing command: exit 1, its status reported.
"$BAKEOFF" time -q -o "$TMP/f.json" -- false >"$TMP/out" 2>"$TMP/err"
check "time -- false exits 1" [ $? -eq 1 ]
check "  its status on stderr" grep -q "exited with status 1" "$TMP/err"
check "  and in the output" grep -q "exited with status 1" "$TMP/out"
check "  the result says failed" [ "$(status "$TMP/f.json" time)" = failed ]
"$BAKEOFF" time -q -o "$TMP/k.json" -- sh -c 'kill -9 $$' >/dev/null 2>"$TMP/err"
check "a command killed by a signal exits 1" [ $? -eq 1 ]
check "  naming the signal" grep -q "signal 9" "$TMP/err"
"$BAKEOFF" time -q -o "$TMP/nf.json" -- ./no-such-command >/dev/null 2>"$TMP/err"
check "a command that cannot run exits 1 with status 127" sh -c "[ $? -eq 1 ] && grep -q 'status 127' '$TMP/err'"

# --ignore-status keeps going and records the status.
"$BAKEOFF" time -q -n 2 --ignore-status -o "$TMP/i.json" -- sh -c 'exit 3' >"$TMP/out" 2>&1
ok $? "--ignore-status: exit 0"
check "  status 3 recorded for both runs" [ "$(jget "$TMP/i.json" 'join ",", @{metric("time", "status")->{samples}}')" = 3,3 ]
check "  and a warning printed" grep -q "exited with status 3" "$TMP/out"

# --prepare before every run, --warmup runs discarded, output to the log.
"$BAKEOFF" time -q -n 2 --warmup 1 --prepare 'echo p >>prep.txt' -o "$TMP/p.json" -- \
	sh -c 'echo run >>runs.txt; echo hello-from-the-command' >"$TMP/out" 2>&1
ok $? "--prepare and --warmup: exit 0"
check "  prepare ran before each of 3 runs" [ "$(wc -l <prep.txt)" -eq 3 ]
check "  the command ran 3 times" [ "$(wc -l <runs.txt)" -eq 3 ]
check "  2 timed runs kept" [ "$(jget "$TMP/p.json" 'metric("time", "")->{n}')" = 2 ]
check "  the command's output is not on the terminal" sh -c "! grep -q '^hello-from' '$TMP/out'"
check "  it is in the log next to the result" [ "$(grep -c hello-from-the-command "$TMP/p.log")" = 3 ]
"$BAKEOFF" time -q --show-output -o "$TMP/s.json" -- echo shown-here >"$TMP/out" 2>&1
check "--show-output: the output on the terminal" grep -q shown-here "$TMP/out"
"$BAKEOFF" time -q --prepare 'exit 4' -o "$TMP/pf.json" -- true >/dev/null 2>"$TMP/err"
check "a failing --prepare exits 1 naming it" sh -c "[ $? -eq 1 ] && grep -q 'prepare command exited with status 4' '$TMP/err'"
mkdir -p sub && : >sub/marker
"$BAKEOFF" time -q --cwd sub -o "$TMP/c.json" -- test -f marker >/dev/null 2>&1
ok $? "--cwd runs the command there"

# Bad usage: exit 2.
"$BAKEOFF" time >/dev/null 2>"$TMP/err"
check "time with no command exits 2" [ $? -eq 2 ]
check "  saying a COMMAND is expected" grep -q "COMMAND" "$TMP/err"
"$BAKEOFF" time -n 0 -- true >/dev/null 2>&1
check "-n 0 exits 2" [ $? -eq 2 ]
"$BAKEOFF" time --cwd "$TMP/nowhere" -- true >/dev/null 2>&1
check "--cwd to a missing directory exits 2" [ $? -eq 2 ]
"$BAKEOFF" time --frobnicate -- true >/dev/null 2>&1
check "an unknown option exits 2" [ $? -eq 2 ]
"$BAKEOFF" time --help | grep -q "usage: bakeoff time"
ok $? "time --help"
"$BAKEOFF" help time | grep -q -- "--prepare"
ok $? "help time"
done_testing
