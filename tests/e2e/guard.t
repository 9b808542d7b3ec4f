#!/bin/sh
# guard.t — the guard during the run: with busy loops in the background, a
# benchmark's run is marked with a not-idle finding naming it, the verdict
# is "warn", and compare calls the file busy. (Only the busy case is
# checked: whether a machine is quiet is not the test's to decide.)
. tests/e2e/lib.sh

os_linux || skip_all "the CPU counters are read from /proc/stat"
# two busy loops, bounded in time, on this 2-CPU class of machine
n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
pids=
i=0
while [ $i -lt "$n" ] && [ $i -lt 8 ]; do
	timeout 60 sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
sleep 1
"$BAKEOFF" run -q --samples 11 --sample-time 20ms -o "$TMP/busy.json" proc.syscall.null \
	>/dev/null 2>"$TMP/err"
rc=$?
# shellcheck disable=SC2086
kill $pids 2>/dev/null
wait 2>/dev/null
ok $rc "a run beside $n busy loops"
check "a finding names the benchmark and says not idle" \
	[ "$(jget "$TMP/busy.json" 'scalar grep { /^during proc\.syscall\.null: machine not idle: other processes used \d+% of the CPUs while it ran$/ } @{$r->{guard}{findings}}')" -ge 1 ]
check "the verdict is warn" [ "$(jget "$TMP/busy.json" '$r->{guard}{verdict}')" = warn ]
"$BAKEOFF" report "$TMP/busy.json" >"$TMP/o"
check "the table's guard lines show it" grep -q '^  - during proc.syscall.null: machine not idle' "$TMP/o"
"$BAKEOFF" compare "$TMP/busy.json" "$TMP/busy.json" >"$TMP/o"
check "compare: the file was measured on a busy machine" \
	grep -q 'guard: A was measured on a busy machine: .*busy during 1 benchmark run (proc.syscall.null)' "$TMP/o"
"$BAKEOFF" compare --strict "$TMP/busy.json" "$TMP/busy.json" >/dev/null 2>&1
ok $(($? != 3)) "compare --strict refuses it (exit 3)"
done_testing
