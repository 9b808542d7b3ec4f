#!/bin/sh
# reliability.t — issue 26: what a new user and an attacker broke. Output
# that did not arrive (a full disk, a closed pipe) is an error; -o naming
# something that is not a file says what it is; a refused run leaves
# nothing behind; contradicting options are refused before anything runs;
# the result file's name and run.start are the same second.
. tests/e2e/lib.sh
mkdir "$TMP/w"
cd "$TMP/w" || exit 1

R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 3 -o "$R" proc.syscall.null >/dev/null 2>&1
ok $? "a result to read"

# ---- 3. output that did not arrive
if [ -w /dev/full ]; then
	"$BAKEOFF" run -q --quick --samples 3 -o - proc.syscall.null >/dev/full 2>"$TMP/e"
	rc=$?
	check "run -o - >/dev/full: non-zero (was $rc)" [ "$rc" -ne 0 ]
	check "run -o - >/dev/full: says standard output is full" grep -q 'cannot write the result to standard output: No space left on device' "$TMP/e"
	f=$(sed -n 's/^bakeoff: the result is saved to \(.*\) instead$/\1/p' "$TMP/e")
	v=$([ -n "$f" ] && status "$f" proc.syscall.null)
	check "run -o - >/dev/full: the figures are saved instead ($f: $v)" [ "$v" = ok ]
	rm -rf results
	"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/t.json" proc.syscall.null >/dev/full 2>"$TMP/e"
	rc=$?
	check "run >/dev/full: non-zero (was $rc)" [ "$rc" -ne 0 ]
	check "run >/dev/full: the table is named, the file saved" \
		sh -c "grep -q 'cannot write the table to standard output' '$TMP/e' && grep -q 'result saved to $TMP/t.json' '$TMP/e'"
	for v in "report $R" "report --format html $R" "report --format csv $R" "compare $R $R" "chart $R" \
		"list" "sysinfo" "version" "--help" "run --help" "help proc.syscall.null"; do
		# shellcheck disable=SC2086
		"$BAKEOFF" $v >/dev/full 2>"$TMP/e"
		rc=$?
		check "$v >/dev/full: non-zero, one line (was $rc)" \
			sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$TMP/e') -eq 1 ] && grep -q 'cannot write .* to standard output: No space left' '$TMP/e'"
	done
	"$BAKEOFF" time -n 1 -o - -- true >/dev/full 2>"$TMP/e"
	rc=$?
	check "time -o - >/dev/full: non-zero, the result saved instead (was $rc)" \
		sh -c "[ $rc -ne 0 ] && grep -q 'saved to results/.*-time.json instead' '$TMP/e'"
	rm -rf results
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do skip "no writable /dev/full here"; done
fi
# A reader that closed the pipe before the result came: EPIPE, not exit 0.
"$BAKEOFF" run -q --quick --samples 3 -o - proc.syscall.null 2>"$TMP/e" | (exec 0<&-; sleep 3)
check "run -o - into a closed pipe: says Broken pipe and where the result went" \
	sh -c "grep -q 'cannot write the result to standard output: Broken pipe' '$TMP/e' && grep -q 'saved to results/' '$TMP/e'"
rm -rf results
perl -e '
	pipe(my $r, my $w) or die; close $r; open(STDOUT, ">&", $w) or die; $SIG{PIPE} = "IGNORE";
	exec @ARGV' "$BAKEOFF" run -q --quick --samples 3 -o - proc.syscall.null 2>"$TMP/e"
rc=$?
check "run -o - into a closed pipe: non-zero (was $rc)" [ "$rc" -ne 0 ]
rm -rf results

# ---- 9. -o naming what is not a file
mkdir "$TMP/adir"
mkfifo "$TMP/fifo" 2>/dev/null
for t in "$TMP/adir:is a directory" "/dev/null:is a device, not a file" "$TMP/fifo:is a FIFO"; do
	o=${t%%:*} want=${t#*:}
	[ -e "$o" ] || { skip "$o not here"; continue; }
	"$BAKEOFF" run -q --quick -o "$o" proc.syscall.null >/dev/null 2>"$TMP/e"
	rc=$?
	check "-o $o: exit 2, '$want' (was $rc: $(cat "$TMP/e"))" sh -c "[ $rc -eq 2 ] && grep -q '$want' '$TMP/e' && ! grep -q 'never overwrites' '$TMP/e'"
done

# ---- 10. a refused run leaves nothing: no results/, no scratch
for args in "--direct --no-direct disk.seq" "--dir $TMP/nonexistent disk.seq" "--reverse --bidir net.tcp.bw"; do
	rm -rf results
	# shellcheck disable=SC2086
	"$BAKEOFF" run -q --quick $args >/dev/null 2>"$TMP/e"
	rc=$?
	check "run $args: exit 2, one line (was $rc)" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/e') -eq 1 ]"
	check "run $args: no results/ left" [ ! -e results ]
done
mkdir results
touch results/keep.json
"$BAKEOFF" run -q --quick --dir "$TMP/nonexistent" disk.seq >/dev/null 2>&1
check "a refused run leaves an existing results/ and its files alone" [ -f results/keep.json ]
rm -rf results
mkdir "$TMP/tmpd"
(ulimit -n 4 && TMPDIR=$TMP/tmpd exec "$BAKEOFF" run -q --quick -o "$TMP/u.json" proc.syscall.null) >/dev/null 2>&1
check "ulimit -n 4: no scratch directory left in TMPDIR ($(ls "$TMP/tmpd" | tr '\n' ' '))" [ -z "$(ls -A "$TMP/tmpd")" ]

# ---- 11. contradicting options, caught before anything runs
"$BAKEOFF" run --reverse --bidir net.tcp.bw >/dev/null 2>"$TMP/e"
rc=$?
check "--reverse --bidir: exit 2 (was $rc)" [ "$rc" -eq 2 ]
check "--reverse --bidir: both named" grep -q -- '--reverse and --bidir exclude each other' "$TMP/e"

# ---- 14. the file's name and run.start are the same second
"$BAKEOFF" run -q --quick --samples 3 proc.syscall.null >/dev/null 2>"$TMP/e"
f=$(ls results/*.json)
stamp=$(basename "$f" .json | sed 's/.*-\([0-9]\{8\}T[0-9]\{6\}Z\)$/\1/')
start=$(jget "$f" '$r->{run}{start}' | tr -d ':-')
check "the file name's time is run.start ($stamp, $start)" [ "$stamp" = "$start" ]
rm -rf results

# ---- 7. the first screen: a busy run's 55 guard findings grouped and
# counted before the figures, every one after them (text and HTML)
"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/g.json" proc.syscall >/dev/null 2>&1
perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); my $g = $r->{guard}; $g->{verdict} = "suspect";
	my @ids = map { $_->{id} } @{$r->{benchmarks}};
	$g->{findings} = ["virtual machine (kvm): the host'"'"'s other guests can perturb timings",
		"load average 1.9 is above half the CPUs (2): the machine is busy",
		"CPU boost (turbo) is on: the clock depends on temperature and load"];
	for my $i (0 .. 51) { push @{$g->{findings}}, sprintf "during %s: machine not idle: other processes used %d%% of the CPUs while it ran",
		$ids[$i % @ids] . ($i >= @ids ? "#$i" : ""), 40 + ($i * 39) / 51 }
	print JSON::PP->new->encode($r)' <"$TMP/g.json" >"$TMP/busy.json"
"$BAKEOFF" report "$TMP/busy.json" >"$TMP/o"
n=$(awk '/^benchmark /{ print NR - 1; exit }' "$TMP/o")
check "55 findings: the figures start on line $((n + 1)), within the first screen" [ "${n:-99}" -le 14 ]
check "... the busy ones counted and their range given" grep -q '^  - busy during 52 of [0-9]* benchmarks (.*, \.\.\.): other processes used 40-79% of the CPUs$' "$TMP/o"
check "... and every one of the 55 after the figures" sh -c "grep -q '^guard findings, all 55:' '$TMP/o' && [ \$(sed -n '/^guard findings, all/,\$p' '$TMP/o' | grep -c '^  - ') -eq 55 ]"
"$BAKEOFF" report --format html "$TMP/busy.json" >"$TMP/o.html"
check "HTML: the hosts' guard list is grouped, the 55 findings after the figures" perl -e '
	local $/; my $h = <STDIN>; my ($host) = $h =~ m{<h2>Hosts</h2>(.*?)</section>}s or exit 1;
	my @li = $host =~ /<li>/g; my ($all) = $h =~ m{<h2>Guard findings</h2>(.*?)</section>}s or exit 1;
	my @all = $all =~ /<li>/g; exit !(@li <= 8 && @all == 55 && index($h, "<h2>Results</h2>") < index($h, "<h2>Guard findings</h2>"))' <"$TMP/o.html"

# ---- 12. nonsense in a result file
# setfig FILE EXPR — the file's first metric with every figure set to EXPR
setfig() {
	perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); my $m = $r->{benchmarks}[0]{metrics}[0];
		my $v = eval $ARGV[0]; $_ = $v for @{$m->{samples}}; $m->{$_} = $v for qw(median min max mean);
		$m->{ci95} = [$v, $v]; print JSON::PP->new->encode($r)' -- "$2" <"$R" >"$1"
}
setfig "$TMP/neg.json" '-5'
"$BAKEOFF" compare "$R" "$TMP/neg.json" >"$TMP/o" 2>"$TMP/e"
rc=$?
check "a negative figure: refused, exit 2, with its offset (was $rc: $(cat "$TMP/e"))" \
	sh -c "[ $rc -eq 2 ] && grep -q 'neg.json: byte [0-9]*: a sample of -5 is impossible' '$TMP/e' && [ ! -s '$TMP/o' ]"
setfig "$TMP/big.json" '1e308'
"$BAKEOFF" report "$TMP/big.json" >/dev/null 2>"$TMP/e"
rc=$?
check "a figure of 1e308: refused, exit 2 (was $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'is impossible' '$TMP/e'"
setfig "$TMP/tiny.json" '1e-6'
setfig "$TMP/huge.json" '1e29'
"$BAKEOFF" compare "$TMP/tiny.json" "$TMP/huge.json" >"$TMP/o" 2>&1
w=$(awk '/^proc.syscall.null / { print length($0) }' "$TMP/o")
check "a ratio of 1e35 prints in a bounded width (the row: ${w:-none} columns)" sh -c "[ 0${w} -gt 0 ] && [ 0${w} -le 120 ] && grep -q '1e+35' '$TMP/o'"
perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); $r->{benchmarks}[0]{title} = "evil \x{202e}txt.exe\x{2066}";
	print JSON::PP->new->utf8->encode($r)' <"$R" >"$TMP/bidi.json"
"$BAKEOFF" report "$TMP/bidi.json" >"$TMP/o" 2>&1
check "U+202E and U+2066 in a title are escaped like other controls" \
	sh -c "grep -q 'evil \\\\xe2\\\\x80\\\\xaetxt.exe\\\\xe2\\\\x81\\\\xa6' '$TMP/o' && ! LC_ALL=C grep -q \"\$(printf '\\342\\200\\256')\" '$TMP/o'"
"$BAKEOFF" report --format html "$TMP/bidi.json" >"$TMP/o" 2>&1
check "... and in the HTML page" sh -c "! LC_ALL=C grep -q \"\$(printf '\\342\\200\\256')\" '$TMP/o'"

# ---- 13. a big result file is read within about twice its size: 150,000
# benchmarks (29 MB) under a virtual memory limit of 2x the file + 64 MiB
# (the binary, libc, stacks); before, reading cost 5-11x the file.
if "$BAKEOFF" version | grep -q -- '-fsanitize'; then
	skip "memory bound: a sanitizer build reserves terabytes of address space"
else
	perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); my $b = $r->{benchmarks}[0];
		$b->{metrics} = []; $b->{status} = "unsupported"; $b->{reason} = "none";
		$r->{benchmarks} = []; my $j = JSON::PP->new->canonical; my $t = $j->encode($r);
		my $one = $j->encode($b); $one =~ s/"id":"[^"]*"/"id":"b%d"/;
		my ($head, $tail) = split /"benchmarks":\[\]/, $t, 2;
		print $head, q("benchmarks":[), join(",", map { sprintf $one, $_ } 1 .. 150000), "]", $tail' \
		<"$R" >"$TMP/big.json"
	sz=$(wc -c <"$TMP/big.json")
	lim=$(((sz * 2 + 64 * 1048576) / 1024))
	(ulimit -v "$lim" && exec "$BAKEOFF" report "$TMP/big.json") >"$TMP/o" 2>"$TMP/e"
	rc=$?
	check "a $sz-byte file of 150000 benchmarks reads within 2x its size + 64 MiB (was $rc: $(head -c 200 "$TMP/e"))" \
		sh -c "[ $rc -eq 0 ] && [ \$(grep -c '  unsupported: none' '$TMP/o') -eq 150000 ]"
	rm -f "$TMP/big.json"
fi

# ---- 14. smaller inconsistencies
# the dhrystone lines: loops / time is the rate of the next line (to the
# rounding of the time's four decimals)
"$BAKEOFF" run -q --quick --samples 5 -o "$TMP/c.json" cpu.int >/dev/null 2>&1
"$BAKEOFF" report --format dhrystone "$TMP/c.json" >"$TMP/dh"
check "dhrystone: loops / time is the rate below it" perl -e '
	local $/; my $t = <STDIN>; my ($l, $s) = $t =~ /time for (\d+) loops = ([\d.]+)/; my ($r) = $t =~ /benchmarks at (\d+)/;
	exit !($s > 0 && abs($l / $s / $r - 1) <= 0.00005 / $s + 1e-6)' <"$TMP/dh"
# dd: whole blocks, the line's bytes/sec a repetition's figure (odd count: the median)
mkdir "$TMP/dd"
"$BAKEOFF" run -q --quick --reps 3 --size 8M --runtime 100ms --block-sizes 4k -o "$TMP/dd.json" --dir "$TMP/dd" disk.seq >/dev/null 2>&1
"$BAKEOFF" report --format dd "$TMP/dd.json" >"$TMP/ddout"
check "dd: each line's bytes are a whole number of 4k blocks" perl -e '
	my $n = 0; while (<STDIN>) { next unless /^(\d+) bytes transferred/; $n++; exit 1 if $1 % 4096 } exit !$n' <"$TMP/ddout"
med=$(median "$TMP/dd.json" disk.seq "write 4k")
check "dd: the write line's rate is the median ($med MB/s)" perl -e '
	local $/; my $t = <STDIN>; my ($r) = $t =~ /# write 4k\n\d+ bytes transferred in [\d.]+ secs \((\d+) bytes\/sec\)/;
	exit !($r && abs($r / 1e6 / $ARGV[0] - 1) < 1e-6)' "$med" <"$TMP/ddout"
# bonnie's latency lines in one unit
"$BAKEOFF" run -q --quick --size 1M --files 1 -o "$TMP/bo.json" --dir "$TMP/dd" disk.bonnie >/dev/null 2>&1
"$BAKEOFF" report "$TMP/bo.json" >"$TMP/bo"
n=$(sed -n 's/^    latency of .* \([a-z]*\)$/\1/p' "$TMP/bo" | sort -u | wc -l)
check "bonnie: its latency lines share one unit ($(sed -n 's/^    latency of .* \([a-z]*\)$/\1/p' "$TMP/bo" | sort -u | tr '\n' ' '))" [ "$n" -eq 1 ]
# compare a file with itself: the two counts agree, also when a figure is
# 0 in both (a loss of 0%: no ratio)
perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); my $m = $r->{benchmarks}[0]{metrics}[0];
	$_ = 0 for @{$m->{samples}}; $m->{$_} = 0 for qw(median min max mean stddev cv); $m->{ci95} = [0, 0];
	print JSON::PP->new->encode($r)' <"$TMP/bo.json" >"$TMP/zero.json"
"$BAKEOFF" compare "$TMP/zero.json" "$TMP/zero.json" >"$TMP/self"
a=$(sed -n 's/^\([0-9]*\) comparisons.*/\1/p' "$TMP/self")
b=$(sed -n 's/^(\([0-9]*\) judged by the noise floor.*/\1/p' "$TMP/self")
check "compare with itself: $a comparisons, $b judged by the noise floor" [ -n "$a" -a "$a" = "$b" ]
# a format without its benchmark: exit 2, one line on stderr, nothing on stdout
for fmt in ttcp dhrystone dd bonnie iozone time; do
	"$BAKEOFF" report --format $fmt "$R" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	check "report --format $fmt of a file without its benchmark: exit 2, stderr only (was $rc)" \
		sh -c "[ $rc -eq 2 ] && [ ! -s '$TMP/o' ] && [ \$(wc -l <'$TMP/e') -eq 1 ]"
done
"$BAKEOFF" fleet --hosts "$TMP" -- run proc.syscall.null >/dev/null 2>"$TMP/e"
rc=$?
check "fleet --hosts DIR: exit 2, says it is a directory (was $rc)" sh -c "[ $rc -eq 2 ] && grep -q 'a directory, not a file of host names' '$TMP/e'"

done_testing
