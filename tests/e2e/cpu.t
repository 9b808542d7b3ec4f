#!/bin/sh
# cpu.t — the cpu family (lat_ops / par_ops, mhz) end to end, quick sizes.
. tests/e2e/lib.sh
R=$TMP/r.json
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
