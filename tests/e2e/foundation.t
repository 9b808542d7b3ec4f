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
# --parallel: the aggregate, and each copy's median in the table and the file.
"$BAKEOFF" run -q --quick --samples 3 --parallel 2 -o "$TMP/p.json" mem.bw.read >"$TMP/pout" 2>&1
ok $? "--parallel 2 run"
check "two per-copy medians in the file" [ "$(jget "$TMP/p.json" 'scalar @{metric("mem.bw.read","")->{per_copy}}')" = 2 ]
# Added, not averaged: aggregate sample k is the sum of every copy's sample
# k, so it is above each copy's sample k, and the aggregate's median is
# above each copy's median whatever the load (a mean would be below the
# larger copy's, or equal to it).
check "bandwidth of the copies added" [ "$(jget "$TMP/p.json" 'my $m = metric("mem.bw.read","");
	my ($a, $b) = @{$m->{per_copy}}; $m->{median} > ($a > $b ? $a : $b) ? 1 : 0')" = 1 ]
check "the table shows each copy" grep -Eq "^mem.bw.read .*\(2 copies: [0-9.]+ [0-9.]+\)" "$TMP/pout"
done_testing
