#!/bin/sh
# interrupt.t — SIGINT mid-run: no scratch file left, the finished
# benchmarks saved in a result marked interrupted, exit status 130.
. tests/e2e/lib.sh
mkdir "$TMP/scratch"
R=$TMP/r.json
# A file-making benchmark runs second, long enough to be hit by the signal;
# its file appearing in the scratch directory says the first one finished.
second=vm.file.reread
"$BAKEOFF" list $second >/dev/null 2>&1 || skip_all "$second is not built"
"$BAKEOFF" run -q --dir "$TMP/scratch" -o "$R" --sample-time 100ms --samples 5 --budget 30s \
	proc.syscall.null $second >/dev/null 2>"$TMP/err" &
pid=$!
# Wait until the first benchmark is done and the second has started.
i=0
while [ $i -lt 600 ] && [ -z "$(ls "$TMP/scratch"/*/* 2>/dev/null)" ]; do
	sleep 0.1
	i=$((i + 1))
done
diag "signalled after $i polls of 0.1 s"
check "the second benchmark made its scratch file" [ $i -lt 600 ]
kill -INT $pid
wait $pid
ok $(($? != 130)) "interrupted run exits 130"
check "result saved" test -s "$R"
check "result marked interrupted" [ "$(jget "$R" '$r->{run}{interrupted} ? 1 : 0')" = 1 ]
jget "$R" "join q( ), map { \$_->{id}.q(=).\$_->{status} } @{\$r->{benchmarks}}" | sed "s/^/# /"
check "finished benchmark kept" [ "$(status "$R" proc.syscall.null)" = ok ]
check "running benchmark marked interrupted" [ "$(status "$R" $second)" = interrupted ]
check "no scratch file or directory left" [ -z "$(ls -A "$TMP/scratch")" ]
check "stderr says it was interrupted" grep -q "interrupted" "$TMP/err"
done_testing
