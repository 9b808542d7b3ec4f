#!/bin/sh
# c2c.t — cpu.c2c end to end: a line bounced between pinned processes, a
# figure per pair of CPUs, their median, the matrix in the text and HTML
# reports, and "unsupported" where only one CPU may be used. Plausibility
# only: no relation between two timings is checked.
. tests/e2e/lib.sh
R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 3 -o "$R" cpu.c2c >"$TMP/out" 2>"$TMP/err"
ok $? "run cpu.c2c exits 0"
ncpu=$(jget "$R" 'bench("cpu.c2c")->{params}{cpus} // 0')
st=$(status "$R" cpu.c2c)
if [ "$ncpu" -ge 2 ]; then
	check "cpu.c2c is ok ($ncpu CPUs)" [ "$st" = ok ]
	check "  pairs: n(n-1)/2 of the $ncpu CPUs" [ "$(jget "$R" 'bench("cpu.c2c")->{params}{pairs}')" = $((ncpu * (ncpu - 1) / 2)) ]
	np=$(jget "$R" 'bench("cpu.c2c")->{params}{pairs_measured}')
	check "  a pair/A-B figure per pair measured ($np), A < B, from 5 ns to 100 us" [ "$(jget "$R" 'scalar grep { $_->{name} =~ m{^pair/(\d+)-(\d+)$} && $1 < $2 && $_->{median} >= 5 && $_->{median} <= 100000 && $_->{unit} eq "ns" } @{bench("cpu.c2c")->{metrics}}')" = "$np" ]
	check "  at most 8 pairs with --quick" num_between "$np" 1 8
	check "  the figure is the median of the pairs, derived" [ "$(jget "$R" 'my @v = sort { $a <=> $b } map { $_->{median} } grep { $_->{name} =~ m{^pair/} } @{bench("cpu.c2c")->{metrics}};
		my $med = @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
		abs(metric("cpu.c2c")->{median} / $med - 1) < 1e-9 && metric("cpu.c2c")->{derived} ? 1 : 0')" = 1 ]
	"$BAKEOFF" report --all "$R" >"$TMP/all"
	check "  pair notes name what the CPUs share (when /sys tells)" sh -c "[ ! -r /sys/devices/system/cpu/cpu0/topology/core_id ] || grep -Eq 'CPUs [0-9]+ and [0-9]+: (the same|different)' '$TMP/all'"
	check "the text report draws the matrix" grep -q '^cpu.c2c: between CPUs, ns' "$TMP/out"
	a=$(jget "$R" '(map { /^pair\/(\d+)-/ ? $1 : () } map { $_->{name} } @{bench("cpu.c2c")->{metrics}})[0]')
	check "  a row per CPU, \"-\" where it meets itself" grep -Eq "^ +$a( +[0-9.]+| +-| +\\.)+$" "$TMP/out"
	"$BAKEOFF" report --format html "$R" >"$TMP/r.html"
	check "the HTML report has the heat map" grep -q '<table class="matrix"><caption>cpu.c2c: between CPUs' "$TMP/r.html"
else
	check "one CPU: unsupported, saying so" sh -c "[ '$st' = unsupported ] && grep -q 'one CPU' '$TMP/out'"
	skip "fewer than 2 CPUs here: no pairs to check"
fi
# one CPU allowed (taskset, util-linux): unsupported with the reason, the run goes on
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$BAKEOFF" run -q --quick --samples 3 -o "$TMP/one.json" cpu.c2c >"$TMP/one" 2>&1
	ok $? "run under taskset -c 0 exits 0"
	check "  cpu.c2c unsupported: one CPU to run on" [ "$(jget "$TMP/one.json" 'my $b = bench("cpu.c2c"); "$b->{status}: $b->{reason}"')" = "unsupported: one CPU to run on" ]
else
	skip "no taskset here"
fi
done_testing
