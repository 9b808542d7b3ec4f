#!/bin/sh
# guard.t — the guard before and during the run: with one busy loop in the
# background, the run is marked "suspect" with not-idle findings, before the
# run and during the benchmark (naming it), the table prints them after the
# verdict, and compare calls the file suspect, measured on a busy machine.
# (Only the busy case is checked: whether a machine is quiet is not the
# test's to decide.)
. tests/e2e/lib.sh

os_linux || skip_all "the CPU counters are read from /proc/stat"
n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
timeout 60 sh -c 'while :; do :; done' &
hog=$!
sleep 1
"$BAKEOFF" run -q --samples 11 --sample-time 20ms -o "$TMP/busy.json" proc.syscall.null \
	>/dev/null 2>"$TMP/err"
rc=$?
kill $hog 2>/dev/null
wait 2>/dev/null
ok $rc "a run beside a busy loop"
check "the verdict is suspect" [ "$(jget "$TMP/busy.json" '$r->{guard}{verdict}')" = suspect ]
check "a finding before the run says not idle" \
	[ "$(jget "$TMP/busy.json" 'scalar grep { /^machine not idle: other processes used \d+% of the CPUs in the 250 ms before the run$/ } @{$r->{guard}{findings}}')" -ge 1 ]
check "a finding names the benchmark and says not idle" \
	[ "$(jget "$TMP/busy.json" 'scalar grep { /^during proc\.syscall\.null: machine not idle: other processes used \d+% of the CPUs while it ran$/ } @{$r->{guard}{findings}}')" -ge 1 ]
# the loop is always runnable: on up to 3 CPUs it is over a quarter of them
if [ "$n" -le 3 ]; then
	check "the runnable tasks are counted" \
		[ "$(jget "$TMP/busy.json" 'scalar grep { /^runnable tasks: \d+\.\d besides bakeoff on average \(\d+ samples in 250 ms\) on \d+ CPUs: the machine is busy$/ } @{$r->{guard}{findings}}')" -ge 1 ]
else
	skip "one busy loop is under a quarter of $n CPUs"
fi
"$BAKEOFF" report "$TMP/busy.json" >"$TMP/o"
check "the table prints the verdict" grep -Eq '^guard: suspect( \([0-9]+ findings, grouped here; each one after the figures\))?$' "$TMP/o"
check "  and the findings under it" grep -q '^  - during proc.syscall.null: machine not idle' "$TMP/o"
"$BAKEOFF" compare "$TMP/busy.json" "$TMP/busy.json" >"$TMP/o"
check "compare: the file is suspect, measured on a busy machine" \
	grep -q 'guard: A is suspect, measured on a busy machine: .*busy during 1 benchmark run (proc.syscall.null)' "$TMP/o"
"$BAKEOFF" compare --strict "$TMP/busy.json" "$TMP/busy.json" >/dev/null 2>&1
ok $(($? != 3)) "compare --strict refuses it (exit 3)"
# throttling counters: where the OS shows none (a guest), nothing is invented
if ! ls /sys/devices/system/cpu/cpu*/thermal_throttle/*_throttle_count >/dev/null 2>&1; then
	check "no throttling counters here: no throttling finding" \
		[ "$(jget "$TMP/busy.json" 'scalar grep { /throttl/ } @{$r->{guard}{findings}}')" -eq 0 ]
else
	skip "this machine has throttling counters"
fi
done_testing
