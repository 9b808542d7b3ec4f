#!/bin/sh
# report-formats.t — issue 12's formats: CSV round-trips every median with
# its unit; ASCII charts fit 80 columns and hold no escape sequence under
# NO_COLOR=1; the HTML pages (report --format html, compare --format html)
# are self-contained, their SVG holds as many bars and points as the data,
# compare's page shows the text table's verdicts row for row, and headless
# Chromium renders each page to a non-blank screenshot without a single
# network request (its NetLog says so; a page with external resources shows
# the check catches them). Skipped visibly without chromium.
. tests/e2e/lib.sh

"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/a.json" proc.syscall.null mem.bw.read mem.lat \
	net.tcp.bw --duration 1s --interval 200ms --reps 1 >/dev/null 2>&1
ok $? "a first result, with net.tcp.bw's per-interval series"
"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/b.json" proc.syscall.null mem.bw.read mem.lat \
	disk.seq --size 4M >/dev/null 2>&1
ok $? "a second result, with disk.seq's curve and ceiling"

# ---- CSV ----
"$BAKEOFF" report --format csv "$TMP/a.json" "$TMP/b.json" >"$TMP/r.csv"
ok $? "report --format csv: exit 0"
check "csv: a header first" grep -q '^file,host,start_utc,benchmark,metric,status,unit,better,median,' "$TMP/r.csv"
# Every median of each file appears once, in its row, with its unit (exact).
perl -MJSON::PP -e '
	my ($csv, @files) = @ARGV;
	open my $c, "<", $csv or die; my $h = <$c>; chomp $h; my @h = split /,/, $h;
	my %rows;
	while (my $l = <$c>) {
		chomp $l; my @f;
		while ($l =~ /\G(?:"((?:[^"]|"")*)"|([^,]*))(?:,|$)/g) {
			push @f, defined $1 ? $1 =~ s/""/"/gr : $2; last if pos($l) >= length $l;
		}
		my %r; @r{@h} = @f;
		push @{$rows{"$r{file}|$r{benchmark}|$r{metric}"}}, \%r if length $r{median};
	}
	my ($n, $bad) = (0, 0);
	for my $k (0 .. $#files) {
		local $/; open my $fh, "<", $files[$k] or die; my $r = JSON::PP->new->decode(<$fh>);
		for my $b (@{$r->{benchmarks}}) {
			for my $m (@{$b->{metrics} || []}) {
				my $rs = $rows{($k + 1) . "|$b->{id}|$m->{name}"} || [];
				$n++;
				if (@$rs != 1 || $rs->[0]{median} != $m->{median} || $rs->[0]{unit} ne $m->{unit}) {
					$bad++; print STDERR "# $b->{id}:$m->{name}: ", scalar(@$rs), " rows\n";
				}
			}
		}
	}
	print STDERR "# $n medians checked\n";
	exit($bad || $n < 10 ? 1 : 0);
' "$TMP/r.csv" "$TMP/a.json" "$TMP/b.json"
ok $? "csv round-trips: every median once, exact, with its unit"
check "csv: disk.seq's share of the memory ceiling as a bottleneck note" \
	grep -q 'disk.seq,"write 64k",.*of the memory ceiling' "$TMP/r.csv"

# ---- bottleneck notes in the text table ----
# Every note the CSV gives a file's main figures (report_bottleneck) is on
# that figure's line of `bakeoff report FILE`: disk.seq's rates beside their
# ceiling here, from a real tiny run.
"$BAKEOFF" report "$TMP/b.json" >"$TMP/b.txt"
perl -e '
	my ($csv, $txt, $file) = @ARGV;
	open my $c, "<", $csv or die; my $h = <$c>; chomp $h; my @h = split /,/, $h;
	open my $t, "<", $txt or die; my @lines = <$t>;
	my ($n, $bad) = (0, 0);
	while (my $l = <$c>) {
		chomp $l; my @f;
		while ($l =~ /\G(?:"((?:[^"]|"")*)"|([^,]*))(?:,|$)/g) {
			push @f, defined $1 ? $1 =~ s/""/"/gr : $2; last if pos($l) >= length $l;
		}
		my %r; @r{@h} = @f;
		next unless $r{file} eq $file && $r{detail} eq "0" && length $r{bottleneck};
		$n++;
		my $key = length $r{metric} ? "$r{benchmark}:$r{metric}" : $r{benchmark};
		my @m = grep { /^\Q$key\E  / } @lines;	# the id column is padded: two spaces at least
		next if @m == 1 && index($m[0], "  bottleneck: $r{bottleneck}") >= 0;
		$bad++; print "# $key: expected \"bottleneck: $r{bottleneck}\" on its line\n";
	}
	print "# $n bottleneck notes checked\n";
	exit($bad || !$n ? 1 : 0);
' "$TMP/r.csv" "$TMP/b.txt" 2
ok $? "report (text): every bottleneck note of the CSV on its figure's line"
check "report (text): disk.seq write 64k's share of the memory ceiling" \
	grep -Eq '^disk\.seq:write 64k .*  bottleneck: (.*; )?[0-9.]+% of the memory ceiling' "$TMP/b.txt"
# A network rate whose measured phase used 98% CPU is CPU-bound; a memory
# loop with the same CPU is not (it always uses its whole CPU), and a time
# per operation is not a rate: neither gets a note.
perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = JSON::PP->new->decode(<$f>);
	for my $b (@{$r->{benchmarks}}) { for my $m (@{$b->{metrics} || []}) {
		$m->{cpu} = { user_s => 0.5, sys_s => 0.48, wall_s => 1 } if $m->{name} eq "" &&
			($b->{id} =~ /^(net\.tcp\.bw|mem\.bw\.read|proc\.syscall\.null)$/) } }
	print JSON::PP->new->encode($r)' "$TMP/a.json" >"$TMP/busy.json"
"$BAKEOFF" report "$TMP/busy.json" >"$TMP/busy.txt"
check "report (text): a network rate at 98% CPU is CPU-bound (98% CPU)" \
	grep -Eq '^net\.tcp\.bw .*  bottleneck: CPU-bound \(98% CPU\)' "$TMP/busy.txt"
check "report (text): a memory loop at 98% CPU gets no bottleneck note" \
	sh -c "grep -q '^mem.bw.read ' '$TMP/busy.txt' && ! grep -q '^mem.bw.read .*bottleneck' '$TMP/busy.txt'"
check "report (text): a time per operation gets no bottleneck note" \
	sh -c "grep -q '^proc.syscall.null ' '$TMP/busy.txt' && ! grep -q '^proc.syscall.null .*bottleneck' '$TMP/busy.txt'"

# ---- charts ----
NO_COLOR=1 "$BAKEOFF" chart "$TMP/a.json" "$TMP/b.json" >"$TMP/chart.txt" 2>"$TMP/e"
ok $? "bakeoff chart A B: exit 0"
NO_COLOR=1 "$BAKEOFF" report --format chart "$TMP/a.json" "$TMP/b.json" >"$TMP/chart2.txt"
check "report --format chart draws the same" cmp -s "$TMP/chart.txt" "$TMP/chart2.txt"
check "chart: every line fits 80 columns" \
	awk 'length($0) > 80 { print "# too long: " $0; bad = 1 } END { exit bad }' "$TMP/chart.txt"
check "chart: no escape sequence under NO_COLOR=1" sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TMP/chart.txt'"
check "chart: only printable ASCII" sh -c "! LC_ALL=C grep -q '[^ -~]' '$TMP/chart.txt'"
check "chart: a legend with one symbol per file" grep -q '^legend: \* = .*# = ' "$TMP/chart.txt"
# The hard cases: a long host name with an escape sequence and a bell in
# it, and many files (legends wrap, symbols do not repeat).
perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = JSON::PP->new->decode(<$f>);
	$r->{host}{hostname} = "a-very-long-host-name-that-goes-on.example.org\e[31mRED\a"; print JSON::PP->new->encode($r)' \
	"$TMP/b.json" >"$TMP/long.json"
NO_COLOR=1 "$BAKEOFF" chart "$TMP/long.json" "$TMP/a.json" "$TMP/b.json" "$TMP/long.json" "$TMP/b.json" \
	"$TMP/a.json" "$TMP/b.json" "$TMP/a.json" "$TMP/b.json" "$TMP/a.json" "$TMP/b.json" "$TMP/a.json" >"$TMP/many.txt"
ok $? "chart of 12 files with a hostile long host name: exit 0"
check "  every line fits 80 columns" \
	awk 'length($0) > 80 { print "# too long: " $0; bad = 1 } END { exit bad }' "$TMP/many.txt"
check "  only printable ASCII: no escape sequence, no bell" sh -c "! LC_ALL=C grep -q '[^ -~]' '$TMP/many.txt'"
check "  the long host name, cut, in the legend" grep -q 'a-very-long-host-nam' "$TMP/many.txt"
check "  12 files, 12 different symbols in the legend" sh -c \
	"sed -n '/^legend:/,/^\$/p' '$TMP/many.txt' | grep -o '[^ ] = [^,]* (file [0-9]*)' | cut -c1 | sort -u | wc -l | grep -qx 12"
# Every text renderer under NO_COLOR=1: no escape sequence, even from a
# host name holding one.
for v in "report" "report --all" "report --format lmbench" "compare"; do
	# shellcheck disable=SC2086
	NO_COLOR=1 "$BAKEOFF" $v "$TMP/long.json" "$TMP/a.json" >"$TMP/nc.txt" 2>&1
	check "NO_COLOR=1 bakeoff $v: output, and no escape sequence in it" sh -c \
		"[ -s '$TMP/nc.txt' ] && ! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TMP/nc.txt'"
done
check "chart: disk.seq's block-size curve, vertical" grep -q '^disk.seq:write by size' "$TMP/chart.txt"
check "chart: the ceiling share under it" grep -q 'of the memory ceiling: 4k' "$TMP/chart.txt"
# A log scale when the curve spans more than 50x (the data decide, not the test).
# (over both files the chart draws)
rand_points() {
	jget "$1" 'join "\n", map { $_->{median} } grep { $_->{name} =~ m{^rand/} } @{(bench("mem.lat") // { metrics => [] })->{metrics}}'
}
span=$( (rand_points "$TMP/a.json"; rand_points "$TMP/b.json") | sort -g |
	awk 'NF && $1 > 0 { if (!lo) lo = $1; hi = $1 } END { print (lo && hi / lo > 50) ? "log" : "linear" }')
if [ "$span" = log ]; then
	check "chart: mem.lat's curve (over 50x) on a log scale" grep -q '^mem.lat:rand by size (ns, log scale' "$TMP/chart.txt"
else
	check "chart: mem.lat's curve (under 50x) on a linear scale" sh -c "grep -q '^mem.lat:rand by size (ns' '$TMP/chart.txt' && ! grep -q '^mem.lat:rand by size (ns, log' '$TMP/chart.txt'"
fi
"$BAKEOFF" chart --metric mem.bw.read "$TMP/a.json" >"$TMP/one.txt"
check "chart --metric keeps only that figure" sh -c "grep -q '^mem.bw.read ' '$TMP/one.txt' && ! grep -q '^mem.lat' '$TMP/one.txt'"
"$BAKEOFF" chart --metric no.such "$TMP/a.json" >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "chart --metric matching nothing: exit 2"
check "chart: one line saying so" sh -c "[ \$(wc -l <'$TMP/e') -eq 1 ]"
"$BAKEOFF" chart >/dev/null 2>&1
ok $(($? != 2)) "chart without a file: exit 2"
"$BAKEOFF" report --format nope "$TMP/a.json" >/dev/null 2>"$TMP/e"
check "report --format lists csv, chart, html and the exports" grep -q 'csv, chart, html, bmf or openmetrics' "$TMP/e"

# ---- HTML ----
"$BAKEOFF" report --format html "$TMP/a.json" "$TMP/b.json" >"$TMP/r.html"
ok $? "report --format html: exit 0"
check "html: no script, no external resource" sh -c \
	"! grep -Eiq '<script|<link|<img|<iframe|src=|href=|url\\(|@import|https?:' '$TMP/r.html'"
check "html: guard findings and host facts" grep -q '<dt>Guard</dt>' "$TMP/r.html"
check "html: colored cells" grep -q 'background:hsl(' "$TMP/r.html"
# Expected bars and points from the data: a bar per file per main figure;
# a point per curve point (name "SERIES SIZE" / "SERIES/SIZE") and per
# interval of a main figure's series of at least 3.
expect=$(perl -MJSON::PP -e '
	my ($bars, $pts) = (0, 0);
	my $curve = qr{^(.+)[ /](\d+(?:[kKmMgGtT](?:i?B)?|B)?)$};
	for my $file (@ARGV) {
		local $/; open my $fh, "<", $file or die; my $r = JSON::PP->new->decode(<$fh>);
		for my $b (@{$r->{benchmarks}}) {
			next unless $b->{status} eq "ok";
			my %ser;
			for my $m (@{$b->{metrics} || []}) {
				if ($m->{name} !~ /%/ && $m->{name} =~ $curve) { $ser{$1}++ if $m->{median} > 0; next }
				$bars++ unless $m->{detail} || $m->{name} =~ /% of ceiling/;
			}
			for my $m (@{$b->{metrics} || []}) {
				$pts++ if $m->{name} !~ /%/ && $m->{name} =~ $curve && $m->{median} > 0 && $ser{$1} >= 2;
				my $iv = $m->{intervals};
				$pts += @{$iv->{value}} if !$m->{detail} && $iv && @{$iv->{value}} >= 3;
			}
		}
	}
	print "$bars $pts\n";
' "$TMP/a.json" "$TMP/b.json")
count_in() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
got="$(count_in 'rect class="bar"' "$TMP/r.html") $(count_in 'circle class="pt"' "$TMP/r.html")"
diag "bars points: expected $expect, in the page $got"
check "html: as many SVG bars and points as the data" [ "$got" = "$expect" ]
[ "$got" = "$expect" ] || { echo "# bars points: expected $expect, in the page $got" >&2; cp "$TMP/a.json" "$TMP/b.json" "${TMPDIR:-/tmp}/" 2>/dev/null; }
check "html: the mem.lat curve on log axes" grep -q 'mem.lat:rand by size (ns, log axes' "$TMP/r.html"
check "html: disk.seq's block-size curve" grep -q 'disk.seq:write by size' "$TMP/r.html"
if [ "$(jget "$TMP/a.json" 'my $m = metric("net.tcp.bw"); $m && $m->{intervals} ? scalar @{$m->{intervals}{value}} : 0')" -ge 3 ]; then
	check "html: net.tcp.bw's per-interval series" grep -q 'net.tcp.bw per interval (' "$TMP/r.html"
else
	skip "net.tcp.bw has no per-interval series here (loopback TCP unavailable?)"
fi
# Hostile strings are escaped for HTML.
perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = JSON::PP->new->decode(<$f>);
	$r->{host}{hostname} = "<script>x</script>\e[31m&\"q\x27"; print JSON::PP->new->encode($r)' \
	"$TMP/a.json" >"$TMP/evil.json"
"$BAKEOFF" report --format html "$TMP/evil.json" >"$TMP/evil.html"
check "html: a hostile host name is escaped" sh -c \
	"! grep -q '<script' '$TMP/evil.html' && grep -q '&lt;script&gt;x&lt;/script&gt;\\\\x1b\\[31m&amp;&quot;q&#39;' '$TMP/evil.html'"

# ---- compare --format html: the report's page with compare's verdicts ----
# B' is B with another bakeoff version (a fairness warning for sure, and a
# string to escape in it).
perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $r = JSON::PP->new->decode(<$f>);
	$r->{host}{build}{version} = "0.0.9<x>"; print JSON::PP->new->encode($r)' "$TMP/b.json" >"$TMP/b2.json"
"$BAKEOFF" compare "$TMP/a.json" "$TMP/b2.json" >"$TMP/cmp.txt"
ok $? "compare A B': exit 0 (text, the default)"
"$BAKEOFF" compare --format text "$TMP/a.json" "$TMP/b2.json" >"$TMP/cmp2.txt"
check "compare --format text prints the same" cmp -s "$TMP/cmp.txt" "$TMP/cmp2.txt"
"$BAKEOFF" compare --format html "$TMP/a.json" "$TMP/b2.json" >"$TMP/cmp.html"
ok $? "compare --format html: exit 0"
check "compare html: no script, no external resource" sh -c \
	"! grep -Eiq '<script|<link|<img|<iframe|src=|href=|url\\(|@import|https?:' '$TMP/cmp.html'"
check "compare html: the host facts and guard of each file" \
	sh -c "[ \$(grep -o '<dt>Guard</dt>' '$TMP/cmp.html' | wc -l) -eq 2 ] && [ \$(grep -o '<dt>CPU</dt>' '$TMP/cmp.html' | wc -l) -eq 2 ]"
nw=$(sed -n 's/^fairness warnings (\([0-9]*\)).*/\1/p' "$TMP/cmp.txt")
check "compare html: as many fairness warnings as the text ($nw)" \
	sh -c "[ -n '$nw' ] && grep -q '<h3>Fairness warnings ($nw)' '$TMP/cmp.html' && [ \$(grep -o '<ul class=\"fair\">.*</ul>' '$TMP/cmp.html' | grep -o '<li>' | wc -l) -eq $nw ]"
check "compare html: the version warning, escaped" grep -q 'bakeoff version differs: A [^ ]*, B 0\.0\.9&lt;x&gt;' "$TMP/cmp.html"
# The page draws compare's own rows: each row's medians, ratio, CI, floor
# and verdict are the text table's, row for row.
perl -e '
	my ($txt, $html) = @ARGV;
	open my $t, "<", $txt or die; my (@t, $in);
	while (<$t>) {
		chomp;
		if (/^metric +unit /) { $in = 1; next }
		last if $in && /^$/;
		next unless $in;
		s/ +\(derived: no samples\)$//; s/ +$//;
		my ($key, $unit, $va, $vb, $ratio, $ci, $floor, $v) =
			/^(\S+) +(\S+) +(\S+) +(\S+) +(\S+) +(\(no CI\)|\S+) +(\S+) +(.+)$/ or die "bad row: $_\n";
		push @t, "$key|$va|$vb|$ratio|$ci|$floor|$v";
	}
	local $/; open my $h, "<", $html or die; my $p = <$h>;
	my ($tb) = $p =~ m{<table class="cmp">(.*?)</table>}s or die "no verdict table\n";
	my @h;
	while ($tb =~ m{<tr><td>([^<]*)(?:<br><small>[^<]*</small>)?</td><td>[^<]*</td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td><td>([^<]*)</td><td class="ci">([^<]*)</td><td>([^<]*)</td><td class="v \w+">([^<]*)</td></tr>}g) {
		push @h, join "|", $1, $2, $3, $4, $5, $6, $7;
	}
	print "# ", scalar(@t), " rows in the text, ", scalar(@h), " in the page\n";
	for my $i (0 .. ($#t > $#h ? $#t : $#h)) {
		next if ($t[$i] // "") eq ($h[$i] // "");
		print "# text: ", $t[$i] // "-", "\n# page: ", $h[$i] // "-", "\n"; exit 1;
	}
	exit(@t >= 3 ? 0 : 1);
' "$TMP/cmp.txt" "$TMP/cmp.html"
ok $? "compare html: every row's medians, ratio, CI, floor and verdict as in the text table"
check "compare html: the summary of the verdicts" grep -q 'class="summary">[0-9]* comparisons: [0-9]* within noise' "$TMP/cmp.html"
got="$(count_in 'rect class="bar"' "$TMP/cmp.html") $(count_in 'circle class="pt"' "$TMP/cmp.html")"
diag "compare page: bars points: expected $expect, in the page $got"
check "compare html: as many SVG bars and points as the data" [ "$got" = "$expect" ]
"$BAKEOFF" compare --format html --best "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "compare --format html --best: exit 2 (the best-of tables are text)"
"$BAKEOFF" compare --format pdf "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "compare --format pdf: exit 2"
check "  naming text and html" grep -q 'expected text or html' "$TMP/e"
for f in r cmp; do
	check "$f.html: a Content-Security-Policy that forbids every fetch" \
		grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">" "$TMP/$f.html"
done

# Rendering in headless Chromium.
# ---- issue 26: every chart of a real full run's page is sound. The file
# is a full `bakeoff run` on a 2-vCPU AMD EPYC guest (65 benchmarks). One
# file draws what has a shape (curves by size or count, samples in order,
# intervals over time), no one-bar chart; no tick label is "nan", "inf" or
# a size of a TiB or more; no point leaves its plot; every bar fits.
gzip -dc tests/data/full-run-amd-epyc.json.gz >"$TMP/full.json"
"$BAKEOFF" report --format html "$TMP/full.json" >"$TMP/full.html"
ok $? "the full run's page: exit 0"
check "disk writes also over the bytes written (disk.seq write 1M, bonnie write)" sh -c \
	"grep -q 'disk.seq:write 1M per interval (MB/s over MB moved' '$TMP/full.html' && grep -q 'disk.bonnie:write per interval (MB/s over MB moved' '$TMP/full.html'"
svg_check() {	# FILE — every SVG of the page checked; prints what is wrong, exits 1
	perl -e '
		local $/; my $h = <STDIN>; my ($n, @bad) = (0);
		while ($h =~ m{<figure><figcaption>(.*?)</figcaption>(?:<p[^>]*>)?\s*<svg class="(\w+)" viewBox="0 0 ([\d.]+) ([\d.]+)"[^>]*>(.*?)</svg>}gs) {
			my ($cap, $cls, $vw, $vh, $svg) = ($1, $2, $3, $4, $5); $n++;
			while ($svg =~ m{<text class="tick"[^>]*?(?: text-anchor="(\w+)")?>([^<]*)</text>}g) {
				my ($anchor, $t) = ($1 // "", $2);
				push @bad, "$cap: tick \"$t\"" if $t =~ /nan|inf|[TPE]iB/i;
				push @bad, "$cap: x tick \"$t\" is not a count" if $cap =~ / by count / && $anchor eq "middle" && $t !~ /^\d+$/;
			}
			if ($cls eq "curve") {
				my ($l, $t, $b, $r) = $svg =~ m{<path class="axis" d="M([\d.]+) ([\d.]+)V([\d.]+)H([\d.]+)"/>} or do { push @bad, "$cap: no axes"; next };
				my @xy = $svg =~ m{cx="([^"]*)" cy="([^"]*)"}g;
				push @xy, map { split /,/ } map { split / / } $svg =~ m{points="([^"]*)"}g;
				while (my ($x, $y) = splice @xy, 0, 2) {
					push @bad, "$cap: point ($x, $y) outside [$l..$r] x [$t..$b]"
						unless $x =~ /^[\d.]+$/ && $y =~ /^[\d.]+$/ && $x >= $l - 0.5 && $x <= $r + 0.5 && $y >= $t - 0.5 && $y <= $b + 0.5;
				}
			} else {
				while ($svg =~ m{<rect class="bar" x="([\d.]+)" y="[\d.]+" width="(-?[\d.]+)"}g) {
					push @bad, "$cap: bar at $1 of $2 outside 0..$vw" unless $2 >= 0 && $1 + $2 <= $vw + 0.5;
				}
			}
		}
		print "$n charts\n"; print "$_\n" for @bad[0 .. ($#bad < 9 ? $#bad : 9)]; exit(@bad ? 1 : 0)' <"$1"
}
svg_check "$TMP/full.html" >"$TMP/svg.out"
rc=$?
check "the full run's page: every chart sound ($(head -n 1 "$TMP/svg.out"))" [ "$rc" = 0 ]
[ "$rc" = 0 ] || diag "$(tail -n +2 "$TMP/svg.out")"
check "one file: no one-bar chart, over 60 charts with a shape" \
	sh -c "! grep -q '<svg class=\"bars\"' '$TMP/full.html' && [ \$(grep -o '<svg class=\"curve\"' '$TMP/full.html' | wc -l) -gt 60 ]"
check "proc.ctxsw's working sets from 0 B on a linear axis" grep -q 'proc.ctxsw:2p by size (us, lower is better)' "$TMP/full.html"
check "mem.tlb's pages are a count, not bytes" grep -q 'mem.tlb:pages by count (ns, log x axis' "$TMP/full.html"
perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); $r->{host}{hostname} = "vm2";
	for my $b (@{$r->{benchmarks}}) { for my $m (@{$b->{metrics}}) { $_ *= 1.1 for @{$m->{samples}}; $m->{$_} *= 1.1 for qw(median min max mean) } }
	print JSON::PP->new->encode($r)' <"$TMP/full.json" >"$TMP/full2.json"
"$BAKEOFF" report --format html "$TMP/full.json" "$TMP/full2.json" >"$TMP/full12.html"
svg_check "$TMP/full12.html" >"$TMP/svg.out"
rc=$?
check "two files: every chart sound ($(head -n 1 "$TMP/svg.out"))" [ "$rc" = 0 ]
check "two files: grouped bars relative to the first, 1.10x" \
	sh -c "grep -q 'proc.syscall.null relative to the first file' '$TMP/full12.html' && grep -q '(1.10x)</text>' '$TMP/full12.html'"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip "chromium not installed (Debian package chromium; .ci/run installs it): no rendering check"
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "(same)"; done
else
	# run_chromium NAME ARGS... — one headless run with its own profile,
	# logging every request of the network stack to $TMP/NAME.netlog
	run_chromium() {
		_prof=$1
		shift
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--disable-dev-shm-usage --user-data-dir="$TMP/profile-$_prof" \
			--log-net-log="$TMP/$_prof.netlog" "$@" 2>>"$TMP/chromium.log"
	}
	# page_requests NETLOG — print the URLs the page asked for. Chromium's
	# NetLog (JSON) has an event URL_REQUEST_START_JOB per request; the
	# browser's own (update checks, the clock, even with
	# --disable-background-networking) have the initiator "not an origin",
	# a file:// page's have the initiator "null" and a file:// network
	# isolation key. Exit 2 when the log cannot be read.
	page_requests() {
		perl -MJSON::PP -e '
			local $/; open my $f, "<", $ARGV[0] or exit 2; my $t = <$f>;
			my $d = eval { JSON::PP->new->decode($t) } or do { print STDERR "# not a net log: $@"; exit 2 };
			my $start = $d->{constants}{logEventTypes}{URL_REQUEST_START_JOB} // exit 2;
			my ($all, $page) = (0, 0);
			for my $e (@{$d->{events}}) {
				my $p = $e->{params} || {};
				next unless $e->{type} == $start && defined $p->{url};
				$all++;
				next if ($p->{initiator} // "") eq "not an origin" &&
					($p->{network_isolation_key} // "") !~ /file:/;
				$page++;
				print "$p->{url}\n";
			}
			print STDERR "# $ARGV[0]: $all requests, $page from the page\n";
		' "$1"
	}
	# not_blank PNG — the decoded pixels are not all one color (perl reads
	# the PNG with core modules: zlib via Compress::Zlib)
	not_blank() {
		perl -MCompress::Zlib -e '
			local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
			substr($d, 0, 8) eq "\x89PNG\r\n\x1a\n" or die "not a PNG\n";
			my ($w, $h, $idat, $p) = (0, 0, "", 8);
			while ($p < length $d) {
				my ($len, $type) = unpack "Na4", substr($d, $p, 8);
				($w, $h) = unpack "NN", substr($d, $p + 8, 8) if $type eq "IHDR";
				$idat .= substr($d, $p + 8, $len) if $type eq "IDAT";
				$p += 12 + $len;
			}
			my $raw = uncompress($idat) // die "bad zlib\n";
			# distinct byte values over the scanlines (filter bytes included)
			my %seen; $seen{$_}++ for unpack "C*", substr($raw, 0, 4_000_000);
			printf "# %dx%d, %d distinct byte values\n", $w, $h, scalar keys %seen;
			exit(keys %seen > 8 && $w > 0 ? 0 : 1);
		' "$1"
	}

	# The check must be able to fail: a page with an image, a CSS background
	# and an SVG image from elsewhere is caught, all three.
	printf '%s\n' '<!DOCTYPE html><html><head><style>div{width:50px;height:50px;background:url(http://127.0.0.1:9/bg.png)}</style></head>' \
		'<body><p>external</p><img src="http://127.0.0.1:9/img.png" width="20" height="20"><div></div>' \
		'<svg width="40" height="40"><image href="http://127.0.0.1:9/svg.png" width="40" height="40"/></svg></body></html>' \
		>"$TMP/ext.html"
	run_chromium ext --window-size=400,300 --screenshot="$TMP/ext.png" "file://$TMP/ext.html" >/dev/null
	page_requests "$TMP/ext.netlog" >"$TMP/ext.req"
	check "chromium: the net-log check catches a page's own requests (img, CSS, SVG)" sh -c \
		"grep -qx 'http://127.0.0.1:9/img.png' '$TMP/ext.req' && grep -qx 'http://127.0.0.1:9/bg.png' '$TMP/ext.req' && grep -qx 'http://127.0.0.1:9/svg.png' '$TMP/ext.req'"

	# report's page (A and B) and compare's page (A against B')
	for f in r cmp; do
		run_chromium "$f-shot" --window-size=480,900 --screenshot="$TMP/$f.png" "file://$TMP/$f.html" >/dev/null
		check "chromium: a screenshot of $f.html in a narrow window" [ -s "$TMP/$f.png" ]
		not_blank "$TMP/$f.png"
		ok $? "chromium: the screenshot of $f.html is not blank"
		run_chromium "$f-dom" --dump-dom "file://$TMP/$f.html" >"$TMP/$f.dom"
		got="$(count_in 'rect class="bar"' "$TMP/$f.dom") $(count_in 'circle class="pt"' "$TMP/$f.dom")"
		check "chromium: $f.html's rendered DOM holds the bars and points ($got)" [ "$got" = "$expect" ]
		page_requests "$TMP/$f-shot.netlog" >"$TMP/$f.req" && page_requests "$TMP/$f-dom.netlog" >>"$TMP/$f.req"
		st=$?
		sed 's/^/# requested: /' "$TMP/$f.req"
		check "chromium: $f.html made no network request (net logs read: exit $st)" \
			sh -c "[ $st -eq 0 ] && [ ! -s '$TMP/$f.req' ]"
	done
fi
done_testing
