#!/bin/sh
# harness.t — the harness's guarantees, end to end, with the test-only
# benchmarks of the test build (bakeoff-testing): a crash fails only its
# benchmark; Ctrl-C ends a run within a second even when the benchmark
# ignores it, and leaves no scratch; --op-timeout ends an operation that
# blocks forever; kill -9 of bakeoff leaves a valid result with what
# finished; a long operation keeps intervals and latency percentiles, and
# shows progress only on a terminal; --warmup reaches calibrated loops; a
# calibrated figure carries the core gauge read between its samples.
. tests/e2e/lib.sh
B=${BAKEOFF_TESTING:-}
case $B in "" | /*) ;; *) B=$(pwd)/$B ;; esac
[ -n "$B" ] && [ -x "$B" ] || skip_all "no test build (make check sets BAKEOFF_TESTING)"

# now_ms — milliseconds since the epoch (perl: POSIX sh has no clock)
now_ms() { perl -MTime::HiRes=time -e 'printf "%d\n", time * 1000'; }
# wait_for CMD... — up to 30 s for CMD to succeed
wait_for() {
	_i=0
	while [ $_i -lt 300 ] && ! "$@" 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	"$@" 2>/dev/null
}

# 1. A crash fails only its benchmark.
"$B" run -q --quick --samples 3 -o "$TMP/crash.json" test.ok test.segv test.fail >"$TMP/out" 2>&1
ok $(($? != 1)) "a crashed and a failed benchmark: exit 1"
check "test.segv: killed by signal 11 (SIGSEGV)" \
	[ "$(jget "$TMP/crash.json" 'bench("test.segv")->{status} . ": " . bench("test.segv")->{reason}')" = "failed: killed by signal 11 (SIGSEGV)" ]
check "test.fail: failed with its reason" \
	[ "$(jget "$TMP/crash.json" 'bench("test.fail")->{reason}')" = "deliberate failure of a test benchmark" ]
check "the others are ok" [ "$(status "$TMP/crash.json" test.ok)" = ok ]
check "the table says why" grep -q "test.segv .*failed: killed by signal 11 (SIGSEGV)" "$TMP/out"
g=$(jget "$TMP/crash.json" 'my $g = bench("test.ok")->{metrics}[0]{core_gauge}; defined $g && $g > 0.01 && $g < 50 ? "yes" : "no"')
check "a calibrated figure records its core gauge (a ratio, 0.01-50)" [ "$g" = yes ]

# 2. SIGINT while a benchmark sleeps and ignores it: the run ends within a
# second, exit 130, scratch gone, what finished is kept.
mkdir "$TMP/s"
TMPDIR=$TMP/s "$B" run -q --quick --samples 3 -o "$TMP/int.json" test.ok test.sleep >/dev/null 2>&1 &
pid=$!
wait_for [ -e "$(ls -d "$TMP"/s/bakeoff.*/test-sleep 2>/dev/null | head -n 1)" ]
check "test.sleep is running with its scratch file" [ -n "$(ls "$TMP"/s/bakeoff.*/test-sleep 2>/dev/null)" ]
t0=$(now_ms)
kill -INT $pid
wait $pid
rc=$?
t1=$(now_ms)
diag "SIGINT to exit: $((t1 - t0)) ms"
ok $((rc != 130)) "exit 130 (got $rc)"
check "within one second of SIGINT ($((t1 - t0)) ms)" [ $((t1 - t0)) -le 1000 ]
check "the scratch directory is gone" [ -z "$(ls -A "$TMP/s")" ]
check "test.sleep marked interrupted" [ "$(status "$TMP/int.json" test.sleep)" = interrupted ]
check "test.ok kept" [ "$(status "$TMP/int.json" test.ok)" = ok ]

# 3. --op-timeout: an operation that blocks forever fails "timed out"; one
# that also ignores the interruption is ended a second later; the run goes on.
"$B" run -q --quick --samples 3 --op-timeout 1s -o "$TMP/to.json" test.block test.stuck test.ok \
	>/dev/null 2>&1
ok $(($? != 1)) "timed-out benchmarks: exit 1"
why=$(jget "$TMP/to.json" 'bench("test.block")->{reason}')
diag "test.block: $why"
check "test.block: timed out" sh -c "echo '$why' | grep -q '^timed out'"
why=$(jget "$TMP/to.json" 'bench("test.stuck")->{reason}')
diag "test.stuck: $why"
check "test.stuck: timed out too" sh -c "echo '$why' | grep -q '^timed out'"
check "the run went on" [ "$(status "$TMP/to.json" test.ok)" = ok ]

# 4. kill -9 of bakeoff after two benchmarks finished: the file holds both.
"$B" run -q --quick --samples 3 -o "$TMP/k9.json" test.ok test.fail test.sleep >/dev/null 2>&1 &
pid=$!
wait_for [ "$(jget "$TMP/k9.json" 'scalar @{$r->{benchmarks}}' 2>/dev/null)" = 2 ]
child=$(pgrep -P $pid | head -n 1)
kill -9 $pid
wait $pid 2>/dev/null
check "report reads the file of the killed run" sh -c "'$B' report '$TMP/k9.json' >'$TMP/k9.txt'"
check "with both finished benchmarks" sh -c "grep -q '^test.ok ' '$TMP/k9.txt' && grep -q '^test.fail ' '$TMP/k9.txt'"
check "marked incomplete" [ "$(jget "$TMP/k9.json" '$r->{run}{incomplete} ? 1 : 0')" = 1 ]
sleep 0.3
if [ -n "$child" ]; then
	# gone, or a zombie its new parent has not reaped yet
	check "the benchmark's process died with bakeoff" \
		sh -c "! ps -o stat= -p $child 2>/dev/null | grep -qv Z"
	kill -9 "$child" 2>/dev/null
else
	skip "no pgrep to find the benchmark's process"
fi

# 5. A long operation: intervals and latency percentiles in the file.
"$B" run --reps 1 --duration 2s -o "$TMP/long.json" test.long >"$TMP/long.txt" 2>"$TMP/long.err"
ok $? "time-based long operation runs"
check "two intervals of about a second" \
	[ "$(jget "$TMP/long.json" 'my $m = metric("test.long"); scalar grep { $_ > 0 } @{$m->{intervals}{amount}}')" = 2 ]
check "the intervals add up to the figure's bytes" [ "$(jget "$TMP/long.json" '
	my $m = metric("test.long"); my $s = 0; $s += $_ for @{$m->{intervals}{amount}};
	my $t = $m->{intervals}{t_s}[-1]; abs($s / $t / 1e6 - $m->{median}) / $m->{median} < 0.02 ? 1 : 0')" = 1 ]
check "latency percentiles of each 10 ms step" [ "$(jget "$TMP/long.json" '
	my $l = metric("test.long")->{latency}; ($l->{unit} eq "ms" && $l->{p50} >= 9.9 && $l->{p50} < 1000
	&& $l->{p99} >= $l->{p50} && $l->{max} >= $l->{p99.9}) ? 1 : 0')" = 1 ]
check "CPU of the measured phase recorded" [ "$(jget "$TMP/long.json" 'metric("test.long")->{cpu}{wall_s} > 1.9 ? 1 : 0')" = 1 ]
check "the table shows the percentiles" grep -Eq "latency of .* operations: (mean [0-9.]+, )?p50 .* p99.9 .* max .* ms" "$TMP/long.txt"

# ("N s left", not "s left": the stale scratch directory the killed run of
# part 4 left is removed with a message naming it, "bakeoff.XXXXXX left by
# process", and a random suffix can end in s.)
check "no progress line when stderr is not a terminal" sh -c "! grep -q '[0-9] s left' '$TMP/long.err'"

# 6. On a terminal: a progress line with the rate and the time left, drawn
# at most 4 times a second (script(1) gives the run a terminal).
if command -v script >/dev/null 2>&1 && script -qc true /dev/null >/dev/null 2>&1; then
	script -qc "'$B' run --reps 1 --duration 2s -o '$TMP/tty.json' test.long 2>&1" /dev/null \
		>"$TMP/tty.out" </dev/null
	check "progress shows the rate and the time left" grep -q "test.long: rep 1/1, .* MB/s, [0-9]* s left" "$TMP/tty.out"
	n=$(grep -o "[0-9] s left" "$TMP/tty.out" | wc -l)
	check "drawn a few times a second, not more ($n times in 2 s)" [ "$n" -ge 2 -a "$n" -le 10 ]
	script -qc "'$B' run -q --reps 1 --duration 1s -o '$TMP/tty-q.json' test.long 2>&1" /dev/null \
		>"$TMP/tty-q.out" </dev/null
	check "silent with -q" sh -c "! grep -q '[0-9] s left' '$TMP/tty-q.out'"
else
	skip "script(1) cannot give a terminal here"
	skip "script(1) cannot give a terminal here"
	skip "script(1) cannot give a terminal here"
fi

# 7. Options: one that no selected benchmark reads is refused, naming who reads it.
"$B" run -q --reps 3 test.ok -o "$TMP/x.json" 2>"$TMP/e"
ok $(($? != 2)) "--reps with no long operation selected: exit 2"
check "names the option and its readers" grep -q -- "--reps is not read by any benchmark selected; it is read by [a-z]" "$TMP/e"
check "nothing written" [ ! -e "$TMP/x.json" ]

# 8. --ci-target: every figure records the target, what it reached and
# whether it met it, consistently; a miss is printed. (Whether a target is
# met depends on the machine's noise: only the record's consistency is
# checked. tests/unit/t-harness.c checks met and missed on a fake clock.)
for t in 50% 0.1%; do
	"$B" run --ci-target $t --samples 3 --sample-time 1ms --budget 100ms -o "$TMP/ci$t.json" \
		test.ok >"$TMP/ci.out" 2>/dev/null
	ok $? "--ci-target $t: a run"
	want=$(perl -e 'print $ARGV[0] / 100' "${t%\%}")
	check "  the run records the target ($want)" \
		[ "$(jget "$TMP/ci$t.json" '$r->{run}{harness}{ci_target}')" = "$want" ]
	check "  the figure records target, reached and met, consistently" \
		[ "$(jget "$TMP/ci$t.json" 'my $c = metric("test.ok")->{ci_target}; $c && $c->{target} == '"$want"' && $c->{reached} >= 0 && ($c->{met} ? 1 : 0) == ($c->{reached} <= $c->{target} ? 1 : 0) ? 1 : 0')" = 1 ]
	if [ "$(jget "$TMP/ci$t.json" 'metric("test.ok")->{ci_target}{met} ? 1 : 0')" = 1 ]; then
		check "  met: no miss printed" sh -c "! grep -q 'CI target .* missed' '$TMP/ci.out'"
	else
		check "  missed: the table says so" grep -q "test.ok .*\[CI target +-${t%\%}% missed: +-[0-9.]*% after [0-9]* samples\]" "$TMP/ci.out"
	fi
done
"$B" run --samples 3 --sample-time 1ms -o "$TMP/noci.json" test.ok >/dev/null 2>&1
check "without --ci-target, no target is recorded" \
	[ -z "$(jget "$TMP/noci.json" '$r->{run}{harness}{ci_target} // metric("test.ok")->{ci_target}')" ]

# --warmup reaches a calibrated loop (it was for long operations alone):
# N samples or DUR of calls, untimed, recorded as a parameter.
"$B" run -q --samples 3 --sample-time 1ms --warmup 2 -o "$TMP/wn.json" test.ok >/dev/null 2>&1
ok $? "--warmup 2 on a calibrated loop: exit 0"
check "  warmup_samples 2 recorded" [ "$(jget "$TMP/wn.json" 'bench("test.ok")->{params}{warmup_samples}')" = 2 ]
"$B" run -q --samples 3 --sample-time 1ms --warmup 30ms -o "$TMP/wd.json" test.ok >/dev/null 2>&1
ok $? "--warmup 30ms on a calibrated loop: exit 0"
check "  warmup_s 0.03 recorded, no warmup_samples" \
	[ "$(jget "$TMP/wd.json" 'my $p = bench("test.ok")->{params}; ($p->{warmup_s} // "") . "/" . ($p->{warmup_samples} // "")')" = 0.03/ ]
done_testing
