#!/bin/sh
# parallel.t — --parallel copies under trouble: a copy that dies fails the
# benchmark (the run does not hang); SIGTERM to bakeoff alone stops its
# copies and saves what finished.
. tests/e2e/lib.sh
[ -d /proc/self ] || skip_all "needs /proc to find the copies"

# children PID — the pids whose parent is PID (pgrep when there is one: one
# awk per process is slow enough on a loaded machine to miss a short run)
children() {
	if command -v pgrep >/dev/null 2>&1; then
		pgrep -P "$1"
		return
	fi
	for f in /proc/[0-9]*/status; do
		awk -v p="$1" '$1 == "PPid:" && $2 == p { ok = 1 } $1 == "Pid:" { pid = $2 } END { if (ok) print pid }' "$f" 2>/dev/null
	done
}
# copies PID — the parallel copies of bakeoff PID: each benchmark runs in a
# child process of bakeoff, and its copies are that child's children
copies() {
	for _c in $(children "$1"); do children "$_c"; done
}
# wait_children PID N — wait up to 20 s for N copies
wait_children() {
	_i=0
	while [ $_i -lt 200 ] && [ "$(copies "$1" | wc -l)" -lt "$2" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# wait_gone PID — wait up to 60 s for PID to exit; 0 when it did
wait_gone() {
	_i=0
	while [ $_i -lt 600 ] && kill -0 "$1" 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# 1. A copy killed during calibration.
"$BAKEOFF" run -q --parallel 2 --sample-time 1s -o "$TMP/k.json" cpu.mhz >/dev/null 2>&1 &
pid=$!
wait_children $pid 2
victim=$(copies $pid | head -n 1)
check "two copies running" [ -n "$victim" ]
kill -9 "$victim" 2>/dev/null
if wait_gone $pid; then
	wait $pid
	ok $(($? != 1)) "run ends with exit 1"
	check "benchmark failed: a copy died" [ -n "$(jget "$TMP/k.json" 'bench("cpu.mhz")->{status} eq "failed" && bench("cpu.mhz")->{reason} =~ /copy/')" ]
else
	ok 1 "run ends with exit 1 (it hung; killed)"
	kill -9 $pid $(copies $pid) $(children $pid) 2>/dev/null
	skip "no result to read"
fi

# 2. SIGTERM to bakeoff alone (not its process group, nor the benchmark's).
"$BAKEOFF" run -q --parallel 2 --sample-time 1s -o "$TMP/t.json" cpu.mhz >/dev/null 2>&1 &
pid=$!
wait_children $pid 2
cps=$(copies $pid)
kill -TERM $pid
if wait_gone $pid; then
	wait $pid
	rc=$?
	ok $((rc != 130)) "SIGTERM: exit 130 (got $rc)"
else
	ok 1 "SIGTERM: exit 130 (it hung; killed)"
	kill -9 $pid 2>/dev/null
fi
sleep 0.5
left=
for c in $cps; do kill -0 "$c" 2>/dev/null && left="$left $c"; done
check "no copy outlives bakeoff (${left:-none left})" [ -z "$left" ]
check "result marked interrupted" [ "$(jget "$TMP/t.json" '$r->{run}{interrupted} ? 1 : 0')" = 1 ]
done_testing
