#!/bin/sh
# numa.t — mem.numa end to end: "unsupported: one NUMA node" where the OS
# lists one (never a made-up matrix), the node list read as Linux lays it
# out (the test build reads it from $BAKEOFF_TEST_NODES), a node whose
# memory cannot be placed on it left out and named, and the node x node
# matrices in the text and HTML reports. Plausibility only.
. tests/e2e/lib.sh
TESTING=${BAKEOFF_TESTING:-./build/bakeoff-testing}
R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 3 -o "$R" mem.numa >"$TMP/out" 2>"$TMP/err"
ok $? "run mem.numa exits 0"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
st=$(jget "$R" 'my $b = bench("mem.numa"); "$b->{status}: " . ($b->{reason} // "")')
if ! os_linux; then
	check "no NUMA information: unsupported, saying so" [ "$st" = "unsupported: no NUMA information on this OS" ]
elif [ "$nodes" -le 1 ]; then
	check "one node here ($nodes listed): unsupported: one NUMA node" [ "$st" = "unsupported: one NUMA node" ]
	check "  the run's table says so" grep -q "unsupported: one NUMA node" "$TMP/out"
	check "  no figure made up" [ "$(jget "$R" 'scalar @{bench("mem.numa")->{metrics}}')" = 0 ]
else
	check "$nodes nodes here: mem.numa is ok" [ "$st" = "ok: " ]
	check "  a lat/I-J figure from 10 ns to 10 us per pair measured" [ "$(jget "$R" 'scalar grep { $_->{name} =~ m{^lat/\d+-\d+$} && ($_->{median} < 10 || $_->{median} > 10000) } @{bench("mem.numa")->{metrics}}')" = 0 ]
	check "  the text report draws the latency matrix" grep -q '^mem.numa: latency' "$TMP/out"
fi

if [ ! -x "$TESTING" ]; then
	skip "no $TESTING: the node list cannot be faked"
	done_testing
	exit
fi
# a node list like Linux's, in a directory
mk_node() {	# mk_node ROOT N CPULIST
	mkdir -p "$1/node$2" && echo "$3" >"$1/node$2/cpulist"
}
mk_node "$TMP/one" 0 0-1
mkdir -p "$TMP/one/power"	# not a node
BAKEOFF_TEST_NODES=$TMP/one "$TESTING" run -q --quick -o "$TMP/one.json" mem.numa >/dev/null 2>&1
ok $? "one listed node: exits 0"
check "  unsupported: one NUMA node" [ "$(jget "$TMP/one.json" 'my $b = bench("mem.numa"); "$b->{status}: $b->{reason}"')" = "unsupported: one NUMA node" ]
BAKEOFF_TEST_NODES=$TMP/none "$TESTING" run -q --quick -o "$TMP/none.json" mem.numa >/dev/null 2>&1
check "no node list: unsupported: one NUMA node" [ "$(jget "$TMP/none.json" 'my $b = bench("mem.numa"); "$b->{status}: $b->{reason}"')" = "unsupported: one NUMA node" ]
if os_linux && [ ! -e /sys/devices/system/node/node7 ]; then
	# node 7 is listed but does not exist: its memory lands elsewhere, and
	# the read-back says so instead of drawing node 0's memory as node 7's
	mk_node "$TMP/two" 0 0
	mk_node "$TMP/two" 7 0
	BAKEOFF_TEST_NODES=$TMP/two "$TESTING" run -q --quick -o "$TMP/two.json" mem.numa >"$TMP/two.out" 2>&1
	ok $(($? != 1)) "a node that is not there: the run exits 1 (a benchmark failed)"
	check "  mem.numa failed, naming node 7 left out" [ "$(jget "$TMP/two.json" 'my $b = bench("mem.numa"); $b->{status} eq "failed" && $b->{reason} =~ /^node 7: left out, / ? 1 : 0')" = 1 ]
	check "  no figure of node 7" [ "$(jget "$TMP/two.json" 'scalar grep { $_->{name} =~ m{-7$} } @{bench("mem.numa")->{metrics}}')" = 0 ]
else
	skip "a node 7 here (or not Linux)"
fi

# The matrices, from a crafted result of two nodes (the renderers only read
# results): rows the CPUs' node, columns the memory's, the diagonal local.
"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/base.json" mem.line >/dev/null 2>&1
perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $r = decode_json(<$f>);
	my $m = $r->{benchmarks}[0]{metrics}[0];
	my %lat = ("0-0" => 91, "0-1" => 142, "1-0" => 139, "1-1" => 93);
	my %bw = ("0-0" => 9100, "0-1" => 5200, "1-0" => 5300, "1-1" => 9050);
	my @ms = ((map { { %$m, name => "lat/$_", unit => "ns", median => $lat{$_}, detail => JSON::PP::true } } sort keys %lat),
		  (map { { %$m, name => "bw/$_", unit => "MB/s", better => "higher", median => $bw{$_}, detail => JSON::PP::true } } sort keys %bw),
		  { %$m, name => "", unit => "ns", median => 92 });
	$r->{benchmarks} = [{ %{$r->{benchmarks}[0]}, id => "mem.numa", title => "NUMA", params => {}, metrics => \@ms }];
	print JSON::PP->new->canonical->encode($r);
' "$TMP/base.json" >"$TMP/two-nodes.json"
"$BAKEOFF" report "$TMP/two-nodes.json" >"$TMP/m.txt" 2>"$TMP/m.err"
ok $? "report of a two-node result exits 0"
check "  the latency matrix, rows and columns nodes" grep -q "^mem.numa: latency, the row's node's CPU reading the column's node's memory, ns" "$TMP/m.txt"
check "  its rows as measured: 0 -> 91 142, 1 -> 139 93" sh -c "grep -Eq '^ +0 +91.00 +142.0$' '$TMP/m.txt' && grep -Eq '^ +1 +139.0 +93.00$' '$TMP/m.txt'"
check "  the bandwidth matrix" grep -q "^mem.numa: one CPU's read bandwidth, .*, MB/s" "$TMP/m.txt"
check "  its first row: 9100 5200" grep -Eq '^ +0 +9100 +5200$' "$TMP/m.txt"
"$BAKEOFF" report --format html "$TMP/two-nodes.json" >"$TMP/m.html"
check "the HTML report has both heat maps" [ "$(grep -c '<table class="matrix"><caption>mem.numa: ' "$TMP/m.html")" = 2 ]
check "  a cell says what it is" grep -q 'title="node 1 reading node 0">139.0<' "$TMP/m.html"
done_testing
