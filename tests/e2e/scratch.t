#!/bin/sh
# scratch.t — a run killed with SIGKILL leaves its scratch directory
# (bakeoff.PID.XXXXXX, with a .bakeoff-scratch marker) behind; the next run
# removes it and says so, and leaves alone lookalikes without the marker and
# directories of live processes. (The unit test t-scratch calls
# scratch_reap_stale() directly; this one checks the CLI wiring.)
. tests/e2e/lib.sh

S=$TMP/tmp
mkdir "$S"
# A real run killed in the middle of a benchmark that writes a file.
TMPDIR=$S "$BAKEOFF" run -q -o "$TMP/killed.json" --sample-time 100ms --samples 50 \
	--budget 30s --map-size 1M vm.file.reread >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ] && [ -z "$(ls "$S"/bakeoff.$pid.*/* 2>/dev/null)" ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the run made bakeoff.$pid.XXXXXX with its file" [ $i -lt 300 ]
killed=$(ls -d "$S"/bakeoff.$pid.* 2>/dev/null)
check "with the marker naming its pid" grep -qx "pid $pid" "$killed/.bakeoff-scratch"
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL leaves it behind" test -d "$killed"

# A fake stale directory of a dead pid, a lookalike without the marker, and
# the marker of a live process (this shell).
sh -c 'exit 0' &
dead=$!
wait $dead
mkdir "$S/bakeoff.$dead.stale1" "$S/bakeoff.$dead.nomark" "$S/bakeoff.$$.alive1"
printf 'bakeoff-scratch 1\npid %s\nstart unknown\n' $dead >"$S/bakeoff.$dead.stale1/.bakeoff-scratch"
printf 'bakeoff-scratch 1\npid %s\nstart unknown\n' $$ >"$S/bakeoff.$$.alive1/.bakeoff-scratch"
echo data >"$S/bakeoff.$dead.stale1/f"
echo data >"$S/bakeoff.$dead.nomark/f"

TMPDIR=$S "$BAKEOFF" run proc.syscall.null --quick -q -o "$TMP/r.json" >/dev/null 2>"$TMP/err"
ok $? "the next run succeeds"
check "the killed run's directory is removed" test ! -e "$killed"
check "the stale fake is removed" test ! -e "$S/bakeoff.$dead.stale1"
check "stderr says so, naming the directory and the process" \
	grep -q "^bakeoff: removed stale scratch directory $killed left by process $pid\$" "$TMP/err"
check "the lookalike without a marker is kept" test -f "$S/bakeoff.$dead.nomark/f"
check "a live process's directory is kept" test -f "$S/bakeoff.$$.alive1/.bakeoff-scratch"
check "the run's own directory is gone" [ -z "$(ls -d "$S"/bakeoff.*.* | grep -v "nomark\|alive1\|$killed\|stale1")" ]
done_testing
