#!/bin/sh
# verdicts.t — compare's verdicts measured with real timing noise (issue 11):
# test.work does --test-work N units of work per operation. In 20 clean
# trials (see busy and drift below), work 100 against work 100 must be
# "within noise" in at least 19, and work 100 against work 110 "slower" in
# at least 19.
#
# How the pair is measured, and why: each trial is ONE run of test.work
# (work 100) and test.work2 (work 100, or 110) with --runs 5, so the two
# are measured interleaved in time (work, work2, work, work2, ...), each
# run in a fresh process; the file is then split into the two files compare
# reads (test.work2 renamed test.work). compare judges them by their
# between-run spread (a Welch interval on the run medians, floor 1%).
# Measured one file after the other instead, this shared 2-vCPU VM moves a
# run's speed by up to 30% for seconds at a time (another guest, another
# session's build): same-work pairs were called "slower" or "faster" and
# 10% was missed in most trials (5 and 8 of 20 slower; 13 to 19 of 20
# within noise). Interleaved, such a phase slows both alike. Samples of
# 100 us (51 per run) are shorter than a scheduler slice, so most samples
# of a run that shares its CPU are still whole: the medians hold beside a
# busy loop. docs/compare.md gives the figures. Where the guard finds the
# machine busy before a trial's run, the rates are printed, not judged.
. tests/e2e/lib.sh
B=${BAKEOFF_TESTING:-}
case $B in "" | /*) ;; *) B=$(pwd)/$B ;; esac
[ -n "$B" ] && [ -x "$B" ] || skip_all "no test build (make check sets BAKEOFF_TESTING)"

# split RUN A B — the run's test.work into A, its test.work2 (as test.work) into B
split() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n"; my $r = decode_json(<$f>);
		my ($w) = grep { $_->{id} eq "test.work" } @{$r->{benchmarks}};
		my ($w2) = grep { $_->{id} eq "test.work2" } @{$r->{benchmarks}};
		die "no test.work or test.work2\n" unless $w && $w2;
		$w2->{id} = "test.work";
		$w2->{title} = $w->{title};
		for ([$ARGV[1], $w], [$ARGV[2], $w2]) {
			$r->{benchmarks} = [$_->[1]];
			open my $o, ">", $_->[0] or die; print $o JSON::PP->new->canonical->encode($r);
		}' "$@"
}
# verdict A B — compare's verdict for test.work
verdict() {
	"$B" compare "$1" "$2" | sed -n 's/^test\.work .* runs \(.*[a-z]\) *$/\1/p'
}

# busy FILE — 1 when the guard found the machine disturbed in the 250 ms
# before that run (other processes' CPU time, runnable tasks, steal: what
# it measured then, not the load average, which lingers for minutes)
busy() {
	jget "$1" 'scalar(grep { /^(machine not idle|runnable tasks|the hypervisor stole)/ } @{$r->{guard}{findings}}) ? 1 : 0'
}

# drift FILE — the largest spread (CV, %) of a benchmark's run medians in
# the file: how far the machine's speed moved from one run to the next.
# With 5 runs a side the standard error of the difference of the two means
# is 0.63 x that CV and the Welch interval's half-width (t = 2.3) 1.46 x:
# a 10% difference clears the 1% floor in 99% of trials up to a CV of 3%
# (9 >= (2.3 + 2.33) x 0.63 x CV), in about 70% at 5%. Past 3% a trial
# cannot resolve 10% reliably, and compare rightly says "within noise"
# (or "bimodal", when the runs fall at two levels): such trials are not
# counted.
drift() {
	jget "$1" 'my $w = 0; for my $b (@{$r->{benchmarks}}) { my @x = @{$b->{metrics}[0]{runs}{median} || []};
		next if @x < 2; my $m = 0; $m += $_ / @x for @x; my $v = 0; $v += ($_ - $m) ** 2 / (@x - 1) for @x;
		my $cv = 100 * sqrt($v) / $m; $w = $cv if $cv > $w } sprintf "%.1f", $w'
}

start=$(date +%s)
# Trials go on until 20 were clean (neither busy nor drifting), at most 100.
fails=0 same=0 slower=0 i=0 seen= nbusy=0 clean=0
while [ $clean -lt 20 ] && [ $i -lt 100 ]; do
	i=$((i + 1))
	for w in 100 110; do
		"$B" run -q --runs 5 --samples 51 --sample-time 100us --test-work 100 --test-work2 $w \
			-o "$TMP/r$w-$i.json" test.work test.work2 >/dev/null 2>"$TMP/err" &&
			split "$TMP/r$w-$i.json" "$TMP/a$w-$i.json" "$TMP/b$w-$i.json" || fails=$((fails + 1))
	done
	b=$(( $(busy "$TMP/r100-$i.json") + $(busy "$TMP/r110-$i.json") ))
	cvs=
	for w in 100 110; do
		dr=$(drift "$TMP/r$w-$i.json")
		cvs="$cvs${cvs:+ }${dr:-?}%"
		[ "$dr" ] && perl -e 'exit !($ARGV[0] > $ARGV[1])' "$dr" "${maxdrift:-0}" && maxdrift=$dr
		[ "$dr" ] && perl -e 'exit !($ARGV[0] > 3)' "$dr" && b=$((b + 1))
	done
	v=$(verdict "$TMP/a100-$i.json" "$TMP/b100-$i.json")
	d=$(verdict "$TMP/a110-$i.json" "$TMP/b110-$i.json")
	if [ "$b" -gt 0 ]; then
		nbusy=$((nbusy + 1))
	else
		clean=$((clean + 1))
		[ "$v" = "within noise" ] && same=$((same + 1))
		[ "$d" = slower ] && slower=$((slower + 1))
	fi
	seen="$seen${seen:+, }$i: ${v:-?} / ${d:-?} (CV $cvs)$([ "$b" -gt 0 ] && echo " busy or drifting")"
	rm -f "$TMP/r100-$i.json" "$TMP/r110-$i.json" "$TMP/a100-$i.json" "$TMP/b100-$i.json" "$TMP/a110-$i.json" "$TMP/b110-$i.json"
done
ok $fails "$((2 * i)) interleaved runs of --runs 5 (work 100 against 100, and against 110) all ran"
diag "verdicts per trial (100 vs 100 / 100 vs 110): $seen"
diag "of $clean clean trials: within noise $same, slower $slower; $nbusy more busy or drifting (largest run-to-run CV ${maxdrift:-0}%); $(($(date +%s) - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
# The rates hold on a machine that lets the trials run: no other work
# beside them (CI runs the suite once beside a busy loop) and a speed that
# moves by at most 3% (CV) from one run to the next (this 2-vCPU guest's
# moves by up to 22% between consecutive runs at times, with nothing else
# running and no steal: the host's other guests). Trials that are not are
# printed above but not counted: a test may not check what load can invert.
# Judged from as many clean trials as there were, 8 at least: one miss in
# 20 allowed (19 of 20 clean trials, 7 of 8); fewer than 8 clean trials in
# 100 (a machine busy all along, as beside CI's busy loop) is a visible skip.
if [ "$clean" -ge 8 ]; then
	need=$((clean - (clean + 19) / 20))
	check "work 100 against work 100: within noise in $same of $clean clean trials (at least $need)" [ "$same" -ge "$need" ]
	check "work 100 against work 110: slower in $slower of $clean clean trials (at least $need)" [ "$slower" -ge "$need" ]
	# a miss reaches the CI log with every trial's verdicts and spreads
	[ "$same" -ge "$need" ] && [ "$slower" -ge "$need" ] || echo "# trials: $seen" >&2
else
	skip "only $clean of $i trials clean (busy, or speed drifting over 3% between runs): rates not judged"
	skip "only $clean of $i trials clean (largest run-to-run CV ${maxdrift:-0}%)"
fi
done_testing
