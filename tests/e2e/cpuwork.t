#!/bin/sh
# cpuwork.t — cpu.int, cpu.float and cpu.scaling end to end at quick sizes,
# the dhrystone personality, and --copies. Figures are checked for
# plausibility only (the machine is shared): a loop of cpu.int is some
# hundred instructions, a cpu.float operation at most a libm call.
. tests/e2e/lib.sh
R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 3 --copies 2 -o "$R" cpu.int cpu.float cpu.scaling >"$TMP/out" 2>"$TMP/err"
ok $? "run exits 0 ($(head -c 200 "$TMP/err"))"
for id in cpu.int cpu.float cpu.scaling; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
done
check "cpu.int between 10^4 and 10^10 loops/s" num_between "$(median "$R" cpu.int)" 1e4 1e10
check "cpu.int unit is loops/s" [ "$(jget "$R" 'metric("cpu.int", "")->{unit}')" = loops/s ]
check "cpu.float between 1 and 10^6 Mops/s" num_between "$(median "$R" cpu.float)" 1 1e6
check "cpu.float unit is Mops/s" [ "$(jget "$R" 'metric("cpu.float", "")->{unit}')" = Mops/s ]
for id in cpu.int cpu.float; do
	check "$id records its compiler, flags, checksum and the loops checked" \
		[ -n "$(jget "$R" "my \$p = bench('$id')->{params}; \$p->{compiler} && \$p->{cflags} &&
			\$p->{checksum} =~ /^[0-9a-f]{16}\$/ && \$p->{loops_checked} > 0 ? 1 : undef")" ]
	check "$id: the loops checked are at least those sampled" \
		[ -n "$(jget "$R" "my \$m = metric('$id', ''); bench('$id')->{params}{loops_checked} >= \$m->{iterations} * \$m->{n} ? 1 : undef")" ]
done
check "cpu.float counts 169 operations a loop" [ "$(jget "$R" 'bench("cpu.float")->{params}{ops_per_loop}')" = 169 ]
check "cpu.scaling ran 1 and 2 copies" [ "$(jget "$R" 'bench("cpu.scaling")->{params}{copies}')" = 1,2 ]
for w in int float; do
	check "cpu.scaling $w/1 and $w/2 present, $w/2 with two copies' medians" \
		[ -n "$(jget "$R" "metric('cpu.scaling', '$w/1') && scalar(@{metric('cpu.scaling', '$w/2')->{per_copy}}) == 2 ? 1 : undef")" ]
	# Efficiency = aggregate / (2 x one copy), the two measured at different
	# moments: load on either side moves it either way, so only its sign and
	# its arithmetic are checked.
	check "cpu.scaling $w/2/eff is a positive percentage" \
		num_between "$(median "$R" cpu.scaling "$w/2/eff")" 0.001 1e6
	check "cpu.scaling $w/2/eff is the ratio of the medians" \
		[ -n "$(jget "$R" "my \$e = metric('cpu.scaling', '$w/2/eff')->{median};
			my \$r = 100 * metric('cpu.scaling', '$w/2')->{median} / (2 * metric('cpu.scaling', '$w/1')->{median});
			abs(\$e - \$r) < 1e-6 * \$r ? 1 : undef")" ]
done
check "the table shows cpu.scaling:int/2/eff" grep -q "^cpu.scaling:int/2/eff " "$TMP/out"

# The dhrystone personality: Dhrystone 1.1's two lines, under bakeoff's name.
"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/d.json" dhrystone >"$TMP/dout" 2>"$TMP/err"
ok $? "run dhrystone exits 0"
check "dhrystone: the rate line" grep -Eq '^This machine benchmarks at [0-9]+ bakeoff-int loops/second$' "$TMP/dout"
check "dhrystone: the time line" grep -Eq '^bakeoff-int\(1\) time for [0-9]+ loops = [0-9]+\.[0-9]{4}$' "$TMP/dout"
check "dhrystone: the compiler and flags" grep -q "^bakeoff-int on .*: (.*-O" "$TMP/dout"
check "dhrystone selects cpu.int alone" [ "$(jget "$TMP/d.json" 'scalar @{$r->{benchmarks}}')" = 1 ]
"$BAKEOFF" report --format dhrystone "$TMP/d.json" >"$TMP/dout2"
check "report --format dhrystone prints the same" cmp -s "$TMP/dout" "$TMP/dout2"
RATE=$(sed -n 's/^This machine benchmarks at \([0-9]*\) .*/\1/p' "$TMP/dout")
check "the rate printed is cpu.int's median" \
	perl -e 'exit !(abs($ARGV[0] - $ARGV[1]) <= 0.5)' "$RATE" "$(median "$TMP/d.json" cpu.int)"

# --copies: checked, and read only by cpu.scaling.
"$BAKEOFF" run -q --copies 0 cpu.scaling >/dev/null 2>"$TMP/err"
check "--copies 0 exits 2" [ $? -eq 2 ]
check "  naming the option" grep -q -- "--copies" "$TMP/err"
"$BAKEOFF" run -q --copies 2 cpu.int >/dev/null 2>"$TMP/err"
check "--copies without cpu.scaling exits 2" [ $? -eq 2 ]
done_testing
