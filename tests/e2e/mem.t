#!/bin/sh
# mem.t — the mem family (bw_mem, STREAM, lat_mem_rd, tlb, line, par_mem,
# MLC's peak mixes) at tiny sizes.
# Figures are checked for plausibility only: a relation between two timings
# (this one faster than that one) is something a busy machine can invert.
. tests/e2e/lib.sh
R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 3 --mem-size 2M -o "$R" mem >"$TMP/out" 2>"$TMP/err"
ok $? "run exits 0"
for id in mem.bw.read mem.bw.write mem.bw.rmw mem.bw.copy mem.bw.copy_hand mem.bw.bzero \
	mem.stream.copy mem.stream.scale mem.stream.add mem.stream.triad mem.lat mem.tlb mem.line mem.mlp mem.peak; do
	st=$(status "$R" $id)
	check "$id is ok${st:+ ($st)}" [ "$st" = ok ]
done
for id in mem.bw.read mem.bw.write mem.bw.rmw mem.bw.copy mem.bw.copy_hand mem.bw.bzero; do
	check "$id between 100 MB/s and 2 TB/s" num_between "$(median "$R" $id)" 100 2000000
	check "$id records mem_size_bytes" \
		[ "$(jget "$R" "bench('$id')->{params}{mem_size_bytes}")" = 2097152 ]
done
for k in copy scale add triad; do
	id=mem.stream.$k
	check "$id between 100 MB/s and 2 TB/s" num_between "$(median "$R" $id)" 100 2000000
	check "$id validated" [ "$(jget "$R" "bench('$id')->{params}{validated}")" = yes ]
	check "$id ran its kernel" num_between "$(jget "$R" "bench('$id')->{params}{kernel_runs}")" 3 1e12
	check "$id arrays are --mem-size when quick" \
		[ "$(jget "$R" "bench('$id')->{params}{array_bytes}")" = 2097152 ]
	m4=$(jget "$R" "bench('$id')->{params}{meets_4x_llc}")
	check "$id says whether it meets 4x LLC ($m4)" [ "$m4" = yes -o "$m4" = no ]
done
check "the four STREAM kernels were measured interleaved" \
	[ "$(jget "$R" "join ',', map { bench(\"mem.stream.\$_\")->{params}{interleaved} } qw(copy scale add triad)")" = \
	  "copy scale add triad,copy scale add triad,copy scale add triad,copy scale add triad" ]
check "  in rounds: as many samples each" \
	[ "$(jget "$R" "my %n = map { metric(\"mem.stream.\$_\")->{n} => 1 } qw(copy scale add triad); scalar keys %n")" = 1 ]
# One kernel alone, and two with --runs 2: the family splits its figures.
"$BAKEOFF" run -q --quick --samples 3 --mem-size 2M -o "$TMP/t.json" mem.stream.triad >/dev/null 2>&1
ok $? "mem.stream.triad alone: a run"
check "  ok and validated, not interleaved" \
	[ "$(jget "$TMP/t.json" "my \$b = bench('mem.stream.triad'); \$b->{status} eq 'ok' && \$b->{params}{validated} eq 'yes' && !defined \$b->{params}{interleaved} ? 1 : 0")" = 1 ]
"$BAKEOFF" run -q --quick --samples 3 --runs 2 --mem-size 2M -o "$TMP/r2.json" mem.stream.copy mem.stream.add >/dev/null 2>&1
ok $? "mem.stream.copy and add, --runs 2: a run"
check "  two runs of each, interleaved with each other only" \
	[ "$(jget "$TMP/r2.json" "join ',', map { my \$i = \$_; scalar(@{metric(\$i)->{runs}{median}}) . ' ' . bench(\$i)->{params}{interleaved} } qw(mem.stream.copy mem.stream.add)")" = \
	  "2 copy add,2 copy add" ]
# Over a hundred rounds (each multiplies the values about 15-fold, so
# they pass 1e100 after about 85): the arrays are checked and set back
# before they overflow. --samples 150 asks for the rounds by count, not
# by time (a time budget gave 14 rounds once, on a slow moment of the host).
"$BAKEOFF" run -q --quick --mem-size 64K --sample-time 100us --samples 150 \
	-o "$TMP/ov.json" mem.stream.copy mem.stream.triad >/dev/null 2>&1
n=$(jget "$TMP/ov.json" "metric('mem.stream.triad')->{n}")
check "many rounds ($n) still validate" \
	[ "$(jget "$TMP/ov.json" "bench('mem.stream.triad')->{params}{validated}")" = yes ]
check "  over a hundred of them ($n)" num_between "$n" 100 1e9
check "STREAM add counts 24 bytes per element" \
	[ "$(jget "$R" "bench('mem.stream.add')->{params}{bytes_per_element}")" = 24 ]
check "STREAM copy counts 16 bytes per element" \
	[ "$(jget "$R" "bench('mem.stream.copy')->{params}{bytes_per_element}")" = 16 ]
npts=$(jget "$R" 'scalar grep { $_->{name} =~ m{^rand/} } @{bench("mem.lat")->{metrics}}')
check "mem.lat has rand/ points ($npts)" num_between "$npts" 10 100
check "mem.lat has stride/ points" num_between \
	"$(jget "$R" 'scalar grep { $_->{name} =~ m{^stride/} } @{bench("mem.lat")->{metrics}}')" 10 100
check "mem.lat rand/512B and rand/2M measured" \
	[ -n "$(median "$R" mem.lat rand/512B)" -a -n "$(median "$R" mem.lat rand/2M)" ]
check "mem.lat chain checked" [ "$(jget "$R" 'bench("mem.lat")->{params}{chain_checked}')" = yes ]
check "mem.lat chain node count" [ "$(jget "$R" 'bench("mem.lat")->{params}{chain_nodes}')" = 32768 ]
l1=$(median "$R" mem.lat L1)
check "L1 latency plausible ($l1 ns)" num_between "$l1" 0.3 50
r2m=$(median "$R" mem.lat rand/2M)
check "rand/2M latency plausible ($r2m ns)" num_between "$r2m" 0.3 10000
check "L1 end recorded" num_between "$(jget "$R" 'bench("mem.lat")->{params}{L1_end_bytes}')" 512 2097152
check "the cache levels are marked derived" \
	[ "$(jget "$R" 'metric("mem.lat","L1")->{derived} =~ /rand curve/ ? 1 : 0')" = 1 ]
# 2 MiB is inside the caches here: main memory is not claimed.
mm=$(jget "$R" 'bench("mem.lat")->{params}{main_measured}')
check "main_measured is yes or no ($mm)" [ "$mm" = yes -o "$mm" = no ]
if [ "$mm" = no ]; then
	check "no main figure when main is not reached" [ -z "$(median "$R" mem.lat main)" ]
fi
s128=$(median "$R" mem.lat main_stride128)
check "main_stride128 plausible ($s128 ns)" num_between "$s128" 0.3 10000
check "main_stride128 is in ns, not a curve point" \
	[ "$(jget "$R" 'my $m = metric("mem.lat","main_stride128"); $m->{unit} eq "ns" && !$m->{detail} ? 1 : 0')" = 1 ]
check "main_stride128 walks the largest buffer" \
	[ "$(jget "$R" 'bench("mem.lat")->{params}{main_stride128_bytes}')" = 2097152 ]
line=$(median "$R" mem.line)
check "mem.line in {32,64,128,256} ($line)" [ "$line" = 32 -o "$line" = 64 -o "$line" = 128 -o "$line" = 256 ]
check "mem.line unit is B" [ "$(jget "$R" 'metric("mem.line")->{unit}')" = B ]
check "mem.line is derived from repeated curves" \
	[ "$(jget "$R" 'metric("mem.line")->{derived} =~ /repetition|curves/ ? 1 : 0')" = 1 ]
check "mem.line records its repetitions" num_between \
	"$(jget "$R" 'bench("mem.line")->{params}{repetitions}')" 3 15
pages=$(median "$R" mem.tlb)
check "mem.tlb pages plausible ($pages)" num_between "$pages" 4 1024
check "mem.tlb before and after plausible" num_between \
	"$(jget "$R" 'metric("mem.tlb","after")->{median} + metric("mem.tlb","before")->{median}')" 0.6 20000
check "mem.tlb is marked derived" [ "$(jget "$R" 'metric("mem.tlb")->{derived} ? 1 : 0')" = 1 ]
# mem.mlp: the curve of --quick's chaser counts, and the figure read off it
check "mem.mlp has the curve chains/1, 2, 4, 8, 16" [ "$(jget "$R" 'join ",", map { $_->{name} } grep { $_->{detail} } @{bench("mem.mlp")->{metrics}}')" = \
	"chains/1,chains/2,chains/4,chains/8,chains/16" ]
check "  each point from 0.05 ns to 10 us a load" [ "$(jget "$R" 'scalar grep { $_->{median} >= 0.05 && $_->{median} <= 10000 } grep { $_->{detail} } @{bench("mem.mlp")->{metrics}}')" = 5 ]
check "mem.mlp is the largest chains/1 / chains/K, at best_chains" [ "$(jget "$R" 'my $b = bench("mem.mlp"); my $one = metric("mem.mlp", "chains/1")->{median};
	my ($best, $k) = (1, 1); for my $c (2, 4, 8, 16) { my $v = $one / metric("mem.mlp", "chains/$c")->{median}; ($best, $k) = ($v, $c) if $v > $best }
	abs(metric("mem.mlp")->{median} / $best - 1) < 1e-9 && $b->{params}{best_chains} == $k ? 1 : 0')" = 1 ]
check "  plausible: 1 to 24 loads in flight with 16 chasers" num_between "$(median "$R" mem.mlp)" 1 24
check "  marked derived" [ "$(jget "$R" 'metric("mem.mlp")->{derived} =~ m{^chains/1 / chains/} ? 1 : 0')" = 1 ]
check "  over --mem-size (2 MiB), noted where under 4x the last-level cache" [ "$(jget "$R" 'my $b = bench("mem.mlp"); my $llc = 0;
	$llc = $_->{size_bytes} for grep { $_->{type} ne "instruction" } @{$r->{host}{caches} || []};
	my $noted = (metric("mem.mlp")->{note} // "") =~ /under 4x the .* last-level cache/ ? 1 : 0;
	$b->{params}{buffer_bytes} == 2097152 && $noted == ($llc && 2097152 < 4 * $llc ? 1 : 0) ? 1 : 0')" = 1 ]
"$BAKEOFF" report --format lmbench "$R" >"$TMP/lmb" 2>&1
mlp=$(awk '/^Basic system parameters/ { s = 1 } s && /^--------- / { d = 1; next } d { print $(NF - 1); exit }' "$TMP/lmb")
check "  the lmbench summary's mem par column reads it ($mlp)" sh -c "perl -e 'exit !(\$ARGV[0] =~ /^[0-9.]+\$/ && abs(\$ARGV[0] / \$ARGV[1] - 1) < 0.01)' '$mlp' '$(median "$R" mem.mlp)' && ! grep -q 'not understood' '$TMP/lmb'"
rand=$(awk '/^Memory latencies/ { s = 1 } s && /^--------- / { d = 1; next } d { print $(NF - 1); exit }' "$TMP/lmb")
if [ "$rand" = - ]; then
	check "  Rand mem blank at 2 MiB (no main plateau), and no note on its method" sh -c "! grep -q '^Rand mem:' '$TMP/lmb'"
else
	check "  Rand mem filled ($rand ns), with the note on its method" grep -q "^Rand mem: mem.lat's main-memory plateau of its random walk" "$TMP/lmb"
fi
# mem.peak: the mixes on every CPU at once, summed
ncpu=$(nproc 2>/dev/null || echo 1)
check "mem.peak ran one copy per CPU ($ncpu)" [ "$(jget "$R" 'bench("mem.peak")->{params}{copies}')" = "$ncpu" ]
want="1:1 2:1 3:1 main"
[ "$(jget "$R" '$r->{host}{arch}')" = x86_64 ] && want="$want ntw"
[ "$ncpu" -gt 1 ] && want="$want read/1"
check "  its figures: $want" [ "$(jget "$R" 'join " ", sort map { $_->{name} eq "" ? "main" : $_->{name} } @{bench("mem.peak")->{metrics}}')" = "$want" ]
check "  each from 100 MB/s to 10 TB/s, in MB/s" [ "$(jget "$R" 'scalar grep { $_->{unit} eq "MB/s" && $_->{median} >= 100 && $_->{median} <= 1e7 } @{bench("mem.peak")->{metrics}}')" = "$(echo $want | wc -w)" ]
check "  the all-CPU figures keep each copy's median" [ "$(jget "$R" 'my $c = bench("mem.peak")->{params}{copies}; scalar grep { $_->{name} ne "read/1" && ($c == 1 || scalar(@{$_->{per_copy} || []}) == $c) } @{bench("mem.peak")->{metrics}}')" = "$(echo $want | sed 's| read/1||' | wc -w)" ]
check "  its arrays per copy, named" [ "$(jget "$R" 'bench("mem.peak")->{params}{arrays_per_copy} =~ /^read 1 x .*, 3:1 4 x .*, 2:1 3 x .*, 1:1 2 x .*, ntw 1 x / ? 1 : 0')" = 1 ]
check "table says mem.line is derived" grep -q "^mem.line .*derived from" "$TMP/out"
check "table lists mem.lat:L1" grep -q "^mem.lat:L1 " "$TMP/out"
check "curve points are marked detail" [ "$(jget "$R" 'metric("mem.lat","rand/512B")->{detail} ? 1 : 0')" = 1 ]
check "the table leaves curve points out" sh -c "! grep -q '^mem.lat:rand/' '$TMP/out'"
check "and says how many" grep -q "curve points and intermediate figures not shown" "$TMP/out"
"$BAKEOFF" report --all "$R" >"$TMP/all"
check "report --all shows them" grep -q "^mem.lat:rand/512B " "$TMP/all"
done_testing
