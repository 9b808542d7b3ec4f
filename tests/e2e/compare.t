#!/bin/sh
# compare.t — `bakeoff compare` on result files from tiny real runs with
# different parameters (--mem-size 1M against 2M), and on copies of them
# edited with perl to make each fairness warning and each verdict happen.
# No check depends on how two real timings relate: a verdict is checked
# only where the samples were set by the test.
. tests/e2e/lib.sh

run() {	# run OUT ARGS... — a tiny real run
	_o=$1
	shift
	"$BAKEOFF" run -q --quick --samples 3 --sample-time 1ms -o "$_o" "$@" \
		mem.bw.copy proc.syscall.null >/dev/null 2>"$TMP/err"
}
run "$TMP/a.json" --mem-size 1M
ok $? "run A (--mem-size 1M)"
run "$TMP/a2.json" --mem-size 1M
ok $? "run A2 (--mem-size 1M again)"
run "$TMP/b.json" --mem-size 2M
ok $? "run B (--mem-size 2M)"

# edit IN OUT PERL — OUT is IN with $r (the decoded result) changed by PERL;
# mt('id') is the main metric of a benchmark.
edit() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die; my $r = decode_json(<$f>);
		sub bench { my ($id) = @_; (grep { $_->{id} eq $id } @{$r->{benchmarks}})[0] }
		sub mt { (grep { $_->{name} eq "" } @{bench($_[0])->{metrics}})[0] }
		sub set { my ($m, @s) = @_; my @o = sort { $a <=> $b } @s;
			$m->{samples} = [@s]; $m->{n} = @s; $m->{median} = $o[$#o / 2];
			delete @$m{qw(core_gauges core_quiet)}; }
		eval $ARGV[1]; die $@ if $@;
		open my $o, ">", $ARGV[2] or die; print $o JSON::PP->new->canonical->encode($r);
	' "$1" "$3" "$2"
}
# quiet FILE — no guard findings (a busy machine must not fail the checks
# that expect no warning)
quiet() {
	edit "$1" "$1.q" '$r->{guard} = { verdict => "valid", findings => [] }' && mv "$1.q" "$1"
}
quiet "$TMP/a.json"
quiet "$TMP/a2.json"
quiet "$TMP/b.json"

# ---- like for like: a table, a ratio and a verdict per shared figure ----
"$BAKEOFF" compare "$TMP/a.json" "$TMP/a2.json" >"$TMP/o" 2>"$TMP/e"
ok $? "compare A A2 exits 0"
check "it names the files, A the baseline" \
	sh -c "grep -q '^files A = .*a.json: .*(baseline)' '$TMP/o' && grep -q '^ *B = .*a2.json' '$TMP/o'"
check "a header with B/A, the CI, the floor and the verdict" \
	grep -Eq '^metric +unit +A +B +B/A +95% CI +floor +verdict' "$TMP/o"
for id in mem.bw.copy proc.syscall.null; do
	check "$id: two values, a ratio, a CI, a floor and a verdict" \
		grep -Eq "^$id +(ns|MB/s) +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]{3} +[0-9.]+\.\.[0-9.]+ +[0-9]+% +(within noise|faster|slower|bimodal)" "$TMP/o"
done
check "a summary line counts the verdicts" grep -Eq '^2 comparisons: [0-9]+ within noise' "$TMP/o"
check "no fairness warning for like files" sh -c "! grep -q 'fairness warnings' '$TMP/o'"
"$BAKEOFF" compare --strict "$TMP/a.json" "$TMP/a2.json" >"$TMP/o" 2>"$TMP/e"
ok $? "--strict on like files: exit 0 and the table"
check "  the table is there" grep -q '^mem.bw.copy ' "$TMP/o"

# ---- different parameters: warned; --strict refuses with exit 3 ----
"$BAKEOFF" compare "$TMP/a.json" "$TMP/b.json" >"$TMP/o" 2>"$TMP/e"
ok $? "compare A B (1M against 2M) exits 0"
check "the setting that differs, with both values and the benchmark" \
	grep -q 'setting differs: mem_size_bytes: A 1 MiB, B 2 MiB (mem.bw.copy)' "$TMP/o"
check "the table is still printed" grep -q '^mem.bw.copy ' "$TMP/o"
"$BAKEOFF" compare --strict "$TMP/a.json" "$TMP/b.json" >"$TMP/o" 2>"$TMP/e"
ok $(($? != 3)) "--strict on the mismatched pair exits 3"
check "  without a table" sh -c "! grep -q 'mem.bw.copy ' '$TMP/o' && [ ! -s '$TMP/o' ]"
check "  saying why on stderr" grep -q 'mem_size_bytes: A 1 MiB, B 2 MiB' "$TMP/e"

# ---- each fairness warning names both values ----
edit "$TMP/a.json" "$TMP/w.json" '
	$r->{host}{build}{cflags} = "-O0 -g"; $r->{host}{build}{version} = "0.0.9";
	$r->{host}{build}{compiler} = "cc (other 1.0)"; $r->{run}{profile} = "standard";
	$r->{run}{parallel} = 2;
	bench("mem.bw.copy")->{params}{pinned} = "yes";
	mt("mem.bw.copy")->{cache_suspect} = JSON::PP::true;
	$r->{guard} = { verdict => "suspect", findings => [
		"machine not idle: other processes used 60% of the CPUs in the 250 ms before the run",
		"cpufreq governor is \"powersave\", not \"performance\": the clock may change during the run" ] };'
ok $? "a file that differs in every way"
"$BAKEOFF" compare "$TMP/a.json" "$TMP/w.json" >"$TMP/o" 2>"$TMP/e"
ok $? "compare exits 0 with warnings"
while IFS='|' read -r what pat; do
	check "warns: $what" grep -qF -- "$pat" "$TMP/o"
done <<'EOF'
tool version|bakeoff version differs: A 0.1.0, B 0.0.9
compiler|compiler differs: A "
profile|profile differs: A quick, B standard
parallel copies|parallel copies differ: A 1, B 2
pinning|setting differs: pinned: A (not recorded), B "yes" (mem.bw.copy)
a busy machine|guard: B is suspect, measured on a busy machine: machine not idle: other processes used 60% of the CPUs in the 250 ms before the run (A: no such finding)
a guard finding one file lacks|guard findings differ: B: cpufreq governor is "powersave"
a figure that may be cached|mem.bw.copy may be the page cache's figure: A not marked, B cached?
EOF
cf=$(jget "$TMP/a.json" '$r->{host}{build}{cflags}')
check "warns: build flags" grep -qF -- "build flags differ: A \"$cf\", B \"-O0 -g\"" "$TMP/o"
"$BAKEOFF" compare --strict "$TMP/a.json" "$TMP/w.json" >"$TMP/o" 2>"$TMP/e"
ok $(($? != 3)) "--strict: exit 3"
check "  every warning on stderr" sh -c "[ \$(grep -c '^  - ' '$TMP/e') -ge 9 ]"
check "  no table" sh -c "[ ! -s '$TMP/o' ]"
edit "$TMP/a.json" "$TMP/s.json" '$r->{guard}{verdict} = "suspect"'
"$BAKEOFF" compare "$TMP/a.json" "$TMP/s.json" >"$TMP/o" 2>&1
check "a guard verdict \"suspect\" is a warning" grep -q 'B (.*s.json) has the verdict "suspect"' "$TMP/o"
edit "$TMP/a.json" "$TMP/crafted/s.json" '$r->{guard}{verdict} = "doubtful"'	# a later version's
"$BAKEOFF" compare "$TMP/a.json" "$TMP/crafted/s.json" >"$TMP/o" 2>&1
check "a guard verdict this version does not know is a warning" \
	grep -q 'B (.*s.json) has the verdict "doubtful"' "$TMP/o"
edit "$TMP/a.json" "$TMP/v1.json" '$r->{guard} = { verdict => "warn", findings => ["virtual machine (kvm): the host'"'"'s other guests can perturb timings"] }'
"$BAKEOFF" compare --strict "$TMP/v1.json" "$TMP/v1.json" >"$TMP/o" 2>&1
ok $? "a standing finding both files share is not a warning (--strict passes)"
check "  it is a note" grep -q '^  - every file: virtual machine (kvm)' "$TMP/o"
"$BAKEOFF" report "$TMP/v1.json" >"$TMP/o" 2>&1
check "an old file's \"warn\" for a standing finding reads as valid" grep -q '^guard: valid$' "$TMP/o"
edit "$TMP/a.json" "$TMP/v2.json" '$r->{guard} = { verdict => "warn", findings => ["load average 3.00 on 2 CPUs: the machine is busy"] }'
"$BAKEOFF" report "$TMP/v2.json" >"$TMP/o" 2>&1
check "an old file's \"warn\" for a busy machine reads as suspect" grep -q '^guard: suspect$' "$TMP/o"

# ---- verdicts from samples the test sets (no real timing relation) ----
edit "$TMP/a.json" "$TMP/base.json" '
	set(mt("proc.syscall.null"), map { 100 * (1 + 0.002 * ($_ % 5)) } 1 .. 11);
	set(mt("mem.bw.copy"), map { 5000 * (1 + 0.002 * ($_ % 5)) } 1 .. 11);'
edit "$TMP/base.json" "$TMP/shift.json" '
	set(mt("proc.syscall.null"), map { 150 * (1 + 0.002 * ($_ % 5)) } 1 .. 11);
	set(mt("mem.bw.copy"), map { 15000 * (1 + 0.002 * ($_ % 5)) } 1 .. 11);'
"$BAKEOFF" compare "$TMP/base.json" "$TMP/base.json" >"$TMP/o"
check "identical samples: within noise" sh -c "[ \$(grep -c 'within noise *\$' '$TMP/o') -eq 2 ]"
check "  ratio 1.000" grep -Eq '^proc.syscall.null +ns +100\.[0-9] +100\.[0-9] +1\.000 ' "$TMP/o"
"$BAKEOFF" compare "$TMP/base.json" "$TMP/shift.json" >"$TMP/o"
check "a time 1.5x longer: slower" grep -Eq '^proc.syscall.null .* 1\.500 .* slower' "$TMP/o"
check "a bandwidth 3x higher: faster" grep -Eq '^mem.bw.copy .* 3\.000 .* faster' "$TMP/o"
check "  the summary counts them" grep -q '^2 comparisons: 0 within noise, 1 faster, 1 slower' "$TMP/o"
"$BAKEOFF" compare "$TMP/shift.json" "$TMP/base.json" >"$TMP/o"
check "the other way round: faster and slower swap" \
	sh -c "grep -Eq '^proc.syscall.null .* 0\.667 .* faster' '$TMP/o' && grep -Eq '^mem.bw.copy .* 0\.333 .* slower' '$TMP/o'"
edit "$TMP/base.json" "$TMP/small.json" 'set(mt("proc.syscall.null"), map { 110 * (1 + 0.002 * ($_ % 5)) } 1 .. 11);'
"$BAKEOFF" compare "$TMP/base.json" "$TMP/small.json" >"$TMP/o"
check "+10% on a system call, under its noise floor (40%): within noise" \
	grep -Eq '^proc.syscall.null .* 1\.100 .* within noise' "$TMP/o"
edit "$TMP/base.json" "$TMP/bi.json" 'set(mt("mem.bw.copy"), map { ($_ % 2 ? 2100 : 12000) * (1 + 0.002 * ($_ % 5)) } 1 .. 12);'
"$BAKEOFF" compare "$TMP/base.json" "$TMP/bi.json" >"$TMP/o"
check "two levels in B's samples: bimodal, not a shift" grep -Eq '^mem.bw.copy .* bimodal' "$TMP/o"
check "  the levels are named" grep -q "mem.bw.copy: bimodal, not a shift: B's values fall at" "$TMP/o"

# ---- between-run spread (run --runs K) ----
"$BAKEOFF" run -q --quick --samples 3 --sample-time 1ms --runs 2 -o "$TMP/runs.json" \
	proc.syscall.null >/dev/null 2>"$TMP/err"
ok $? "run --runs 2"
check "run.runs is 2" [ "$(jget "$TMP/runs.json" '$r->{run}{runs}')" = 2 ]
check "two run medians and CVs kept" \
	[ "$(jget "$TMP/runs.json" 'scalar @{metric("proc.syscall.null")->{runs}{median}} . "," . scalar @{metric("proc.syscall.null")->{runs}{cv}}')" = 2,2 ]
check "the samples of both runs pooled" \
	[ "$(jget "$TMP/runs.json" 'my $m = metric("proc.syscall.null"); $m->{n} == @{$m->{samples}} && $m->{n} >= 6 ? 1 : 0')" = 1 ]
"$BAKEOFF" report "$TMP/runs.json" >"$TMP/o"
ok $? "report reads a --runs result"
edit "$TMP/base.json" "$TMP/ra.json" 'mt("proc.syscall.null")->{runs} = { median => [100, 101, 99, 100], cv => [0.01, 0.01, 0.01, 0.01] }'
edit "$TMP/small.json" "$TMP/rb.json" 'mt("proc.syscall.null")->{runs} = { median => [110, 111, 109, 110], cv => [0.01, 0.01, 0.01, 0.01] }'
"$BAKEOFF" compare "$TMP/ra.json" "$TMP/rb.json" >"$TMP/o"
check "with runs on both sides the between-run spread decides: +10% is slower" \
	grep -Eq '^proc.syscall.null .* 1\.100 .* runs slower' "$TMP/o"
"$BAKEOFF" run -q --runs 1 proc.syscall.null >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "--runs 1: usage error"

# ---- figures in only some files; three files; --baseline; --best ----
edit "$TMP/a2.json" "$TMP/c.json" '$r->{benchmarks} = [ bench("mem.bw.copy") ]'
"$BAKEOFF" compare "$TMP/a.json" "$TMP/c.json" >"$TMP/o"
check "a figure one file lacks is listed" grep -Eq '^  proc.syscall.null +in A; not in B' "$TMP/o"
check "  and left out of the table" sh -c "! grep -q '^proc.syscall.null ' '$TMP/o'"
"$BAKEOFF" compare --best "$TMP/base.json" "$TMP/shift.json" "$TMP/small.json" >"$TMP/o"
ok $? "three files with --best"
check "a ratio column per other file" grep -Eq '^metric .* B/A .* C/A ' "$TMP/o"
check "latencies: factor slower than the best" grep -q 'factor slower than the best' "$TMP/o"
check "  the best starred with its figure, the others as factors" \
	sh -c "grep -Eq '^A: .*base.json +\*100\.[0-9]( |\$)' '$TMP/o' && grep -Eq '^B: .*shift.json +1\.5( |\$)' '$TMP/o'"
check "bandwidths: percentage of the best" grep -q 'percentage of the best' "$TMP/o"
check "  B is the best (*15060), A 33% of it" \
	sh -c "grep -Eq '^B: .*shift.json +\*15060( |\$)' '$TMP/o' && grep -Eq '^A: .*base.json +33%( |\$)' '$TMP/o'"
"$BAKEOFF" compare --baseline "$TMP/shift.json" "$TMP/base.json" "$TMP/shift.json" >"$TMP/o"
check "--baseline: that file is A" grep -q '^files A = .*shift.json.*(baseline)' "$TMP/o"
check "  and the ratios are to it" grep -Eq '^proc.syscall.null .* 0\.667 ' "$TMP/o"

# ---- a file from anyone: its strings are printed escaped ----
edit "$TMP/a.json" "$TMP/evil.json" '
	my $e = "\e]0;pwned\a\e[2J";
	bench("mem.bw.copy")->{params}{mem_size_bytes} = 2097152;
	bench("mem.bw.copy")->{params}{direct} = "no$e";
	$r->{host}{build}{cflags} .= $e; $r->{host}{hostname} .= $e;
	$r->{guard}{findings} = ["machine not idle: x$e"];
	mt("mem.bw.copy")->{unit} = "MB/s";
	my %n = %{bench("proc.syscall.null")}; $n{id} = "proc.x$e"; push @{$r->{benchmarks}}, \%n;'
"$BAKEOFF" compare --best "$TMP/a.json" "$TMP/evil.json" >"$TMP/o" 2>&1
ok $? "a file with escape sequences compares"
check "  no control character reaches the terminal" sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TMP/o'"
check "  they are printed as \\xNN" grep -q 'x\\x1b\]0;pwned' "$TMP/o"

# ---- usage ----
"$BAKEOFF" compare "$TMP/a.json" >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "one file: exit 2"
printf '{"schema": "bakeoff-result/1"' >"$TMP/bad.json"
"$BAKEOFF" compare "$TMP/a.json" "$TMP/bad.json" >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "a truncated file: exit 2"
check "  naming the file and the byte" grep -q 'bad.json: byte' "$TMP/e"
"$BAKEOFF" compare --nope "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "an unknown option: exit 2"
"$BAKEOFF" help compare | grep -q -- '--strict'
ok $? "help compare describes --strict"
"$BAKEOFF" --help | grep -q '^  compare '
ok $? "the verb is in the main help"
done_testing
