#!/bin/sh
# cpu.t — the cpu family (lat_ops / par_ops, mhz) end to end, quick sizes.
. tests/e2e/lib.sh
R=$TMP/r.json
# jtrue FILE EXPR — true when EXPR holds for the result file (exit 1 in EXPR)
jtrue() { jget "$@" >/dev/null; }
OPS="int.bit int.add int.mul int.div int.mod int64.bit int64.add int64.mul int64.div int64.mod
float.add float.mul float.div double.add double.mul double.div"
"$BAKEOFF" run -q --quick --samples 3 -o "$R" cpu >"$TMP/out" 2>"$TMP/err"
ok $? "run exits 0"
for o in $OPS; do
	id=cpu.ops.$o
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	# Every operation takes between a fraction of a cycle and ~100 cycles
	# (on any CPU from 100 MHz to 10 GHz), latency and throughput alike.
	check "$id latency in ns is plausible" num_between "$(median "$R" $id)" 0.02 1000
	check "$id par figure present and plausible" num_between "$(median "$R" $id par)" 0.005 1000
done
check "cpu.mhz is ok" [ "$(status "$R" cpu.mhz)" = ok ]
# No core retires more than 8 of one arithmetic operation per cycle (4 to 6
# integer ALUs, 2 to 4 FP pipes today), so no :par figure may be below
# 1/(8 x clock). The clock is cpu.mhz's fastest sample (load only slows a
# sample, so it is the one nearest the real clock) or the OS's figure,
# whichever is higher: a clock read low would raise the bound, and load
# must not be able to fail this test; it can only make :par slower.
MHZ=$(jget "$R" 'my $m = metric("cpu.mhz", "") // {}; my $os = $r->{host}{cpu_mhz} // 0;
	my $x = $m->{max} // 0; $x > $os ? $x : $os')
check "a clock rate to bound :par with" num_between "$MHZ" 100 20000
for o in $OPS; do
	id=cpu.ops.$o
	par=$(median "$R" $id par)
	check "$id:par ($par ns) is at least 1/(8 x $MHZ MHz)" \
		perl -e 'exit !($ARGV[0] >= 1000 / (8 * $ARGV[1]))' "${par:-0}" "$MHZ"
	check "$id:par and the latency are derived from two unrolls, all four kept" \
		jtrue "$R" "metric('$id', 'par')->{derived} && metric('$id', '')->{derived} && metric('$id', 'raw128') && metric('$id', 'raw256')
			&& metric('$id', 'par/raw' . bench('$id')->{params}{par_ops_per_call})
			&& metric('$id', 'par/raw' . 2 * bench('$id')->{params}{par_ops_per_call}) or exit 1"
	check "$id:par keeps its raw and corrected per-op time" \
		jtrue "$R" "my \$m = metric('$id', 'par'); \$m->{raw_ns_per_op} >= \$m->{ns_per_op} && \$m->{ns_per_op} > 0 or exit 1"
done
check "int add latency between 0.05 and 5 ns" num_between "$(median "$R" cpu.ops.int.add)" 0.05 5
check "double div latency above double add latency" \
	perl -e 'exit !($ARGV[0] > $ARGV[1])' "$(median "$R" cpu.ops.double.div)" "$(median "$R" cpu.ops.double.add)"
check "int64 div latency above int64 add latency" \
	perl -e 'exit !($ARGV[0] > $ARGV[1])' "$(median "$R" cpu.ops.int64.div)" "$(median "$R" cpu.ops.int64.add)"
check "cpu.mhz between 200 and 10000 MHz" num_between "$(median "$R" cpu.mhz)" 200 10000
check "cpu.mhz unit is MHz" [ "$(jget "$R" 'metric("cpu.mhz","")->{unit}')" = MHz ]
check "par chains recorded" [ "$(jget "$R" 'bench("cpu.ops.int.add")->{params}{par_chains}')" = 8 ]
check "par figure appears in the table" grep -q "^cpu.ops.double.div:par " "$TMP/out"
done_testing
