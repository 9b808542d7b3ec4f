#!/bin/sh
# foundation.t — the first benchmarks at tiny sizes, end to end.
. tests/e2e/lib.sh
R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 5 --mem-size 1M -o "$R" proc.syscall mem.bw >"$TMP/out" 2>"$TMP/err"
ok $? "run exits 0"
for id in proc.syscall.null proc.syscall.read mem.bw.read mem.bw.write mem.bw.copy; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id median is positive" num_between "$(median "$R" $id)" 0.000001 1e12
	check "$id appears in the table" grep -q "^$id " "$TMP/out"
done
check "syscall under 100 us" num_between "$(median "$R" proc.syscall.null)" 1 100000
check "copy between 100 MB/s and 1 TB/s" num_between "$(median "$R" mem.bw.copy)" 100 1000000
check "samples kept" [ "$(jget "$R" 'scalar @{metric("mem.bw.copy","")->{samples}}')" -ge 5 ]
check "mem_size recorded" [ "$(jget "$R" 'bench("mem.bw.copy")->{params}{mem_size_bytes}')" = 1048576 ]
"$BAKEOFF" report "$R" >"$TMP/report"
ok $? "report exits 0"
check "report reprints the run's table" cmp -s "$TMP/out" "$TMP/report"
done_testing
