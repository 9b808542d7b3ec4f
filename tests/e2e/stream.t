#!/bin/sh
# stream.t — run --json-stream: one JSON object per line as each interval
# of a long operation closes, for disk, net and time alike; the lines agree
# with the intervals the result keeps; a reader that goes away or falls
# behind never stops the run, which says so once; bad input exits 2.
. tests/e2e/lib.sh
D=$TMP/d
mkdir "$D"
Q="-q --quick --reps 1 --size 4M --jobs 1 --iodepth 4 --dir $D"

# shellcheck disable=SC2086
"$BAKEOFF" run $Q --runtime 1s --interval 250ms --json-stream "$TMP/s.nd" -o "$TMP/r.json" \
	disk.rand net.tcp.bw >"$TMP/out" 2>"$TMP/err"
ok $? "a run with --json-stream FILE exits 0"
check "nothing said on stderr" [ -z "$(grep -v 'result saved' "$TMP/err")" ]
check "every line is one JSON object of type interval" perl -MJSON::PP -ne '
	my $o = eval { decode_json($_) } or exit 1; exit 1 unless $o->{type} eq "interval"; END { exit !$. }' "$TMP/s.nd"
for m in "randread 4k QD1" "randwrite 4k QD1" "randread 4k QD4" "randwrite 4k QD4"; do
	check "disk.rand $m: a line per interval the result keeps, with the same values" perl -MJSON::PP -e '
		my ($f, $r, $m) = @ARGV; local $/;
		open my $h, "<", $r or exit 1; my $j = decode_json(<$h>);
		my ($b) = grep { $_->{id} eq "disk.rand" } @{$j->{benchmarks}};
		my ($x) = grep { $_->{name} eq $m } @{$b->{metrics}};
		open $h, "<", $f or exit 1; $/ = "\n";
		my @l = grep { $_->{bench} eq "disk.rand" && $_->{metric} eq $m } map { decode_json($_) } <$h>;
		my $iv = $x->{intervals}{value};
		exit 1 unless @l && @l >= @$iv - 1 && @l <= @$iv;	# a sliver may be folded into the last
		for my $i (0 .. $#l - 1) { exit 1 if abs($l[$i]{value} - $iv->[$i]) > 1e-6 * $iv->[$i] }
		exit 1 if grep { $_->{unit} ne "IOPS" || $_->{operations} <= 0 || $_->{t_end_s} <= $_->{t_start_s}
			|| !$_->{latency_us} || $_->{latency_us}{count} != $_->{operations}
			|| $_->{latency_us}{p50} > $_->{latency_us}{max} } @l;
		exit 0' "$TMP/s.nd" "$TMP/r.json" "$m"
done
"$BAKEOFF" report "$TMP/s.nd" >"$TMP/rep" 2>&1
ok $? "report reads the stream file back"
check "  each streamed figure with as many intervals as it has lines" perl -MJSON::PP -e '
	my ($f, $rep) = @ARGV; open my $h, "<", $f or exit 1; my %n;
	while (<$h>) { my $o = decode_json($_); $n{"$o->{bench}:$o->{metric}"}++ if $o->{bench} eq "disk.rand" }
	local $/; open $h, "<", $rep or exit 1; my $t = <$h>;
	for my $k (keys %n) { exit 1 unless $t =~ /^\Q$k\E .*\n    $n{$k} intervals: lowest/m } exit 0' "$TMP/s.nd" "$TMP/rep"
"$BAKEOFF" report --format html "$TMP/s.nd" >"$TMP/s.html" 2>&1
check "  and draws their per-interval series in html (disk.rand's four)" [ "$(grep -c 'disk.rand:rand[a-z]* 4k QD[14] per interval (' "$TMP/s.html")" = 4 ]
check "net.tcp.bw: lines in MB/s with the bytes of each interval" perl -MJSON::PP -ne '
	my $o = decode_json($_); next unless $o->{bench} eq "net.tcp.bw"; $n++;
	exit 1 unless $o->{unit} eq "MB/s" && $o->{bytes} > 0 && $o->{value} > 0;
	END { exit !$n }' "$TMP/s.nd"
check "the stream names an existing file: exit 2" sh -c \
	"'$BAKEOFF' run $Q --json-stream '$TMP/s.nd' -o '$TMP/r2.json' disk.rand 2>'$TMP/e2'; [ \$? = 2 ] && grep -q 'the file exists' '$TMP/e2' && [ ! -e '$TMP/r2.json' ]"
check "--json-stream - with -o -: exit 2" sh -c \
	"'$BAKEOFF' run $Q --json-stream - -o - disk.rand >/dev/null 2>'$TMP/e3'; [ \$? = 2 ] && grep -q 'both want standard output' '$TMP/e3'"
check "nothing left in the --dir" [ -z "$(ls -A "$D")" ]

# A reader that goes away after its first bytes: the run goes on, says so once.
mkfifo "$TMP/fifo" || skip_all "no mkfifo"
head -c 100 <"$TMP/fifo" >/dev/null &
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --runtime 500ms --interval 100ms --json-stream "$TMP/fifo" -o "$TMP/r3.json" \
	disk.rand >/dev/null 2>"$TMP/err3"
ok $? "the reader gone: the run exits 0"
check "  and says once that the stream stopped" sh -c \
	"[ \$(grep -c 'json-stream .*stopped after [0-9]* lines' '$TMP/err3') = 1 ]"
check "  every figure is in the result" [ "$(jget "$TMP/r3.json" "scalar @{bench('disk.rand')->{metrics}}")" = 4 ]
wait

# A reader that never reads: its pipe (made one page small, Linux's
# F_SETPIPE_SZ) fills, lines are lost, the run never waits.
perl -e 'open my $f, "<", $ARGV[0] or exit 1; fcntl($f, 1031, 4096) and print "small\n";
	close STDOUT; sleep 60' "$TMP/fifo" >"$TMP/small" &
sleeper=$!
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --runtime 1s --interval 100ms --json-stream "$TMP/fifo" -o "$TMP/r4.json" \
	disk.rand >/dev/null 2>"$TMP/err4"
ok $? "a reader too slow: the run exits 0"
if [ "$(cat "$TMP/small")" = small ]; then
	check "  and says how many lines were lost" grep -Eq 'json-stream .*: [0-9]+ of [0-9]+ lines lost' "$TMP/err4"
else
	skip "no F_SETPIPE_SZ here: the pipe holds every line"
fi
check "  every figure is in the result" [ "$(jget "$TMP/r4.json" "scalar @{bench('disk.rand')->{metrics}}")" = 4 ]
kill "$sleeper" 2>/dev/null
wait

# bakeoff time: a line per timed run.
"$BAKEOFF" time -q -n 3 --json-stream "$TMP/t.nd" -o "$TMP/t.json" -- true >/dev/null 2>&1
ok $? "time --json-stream: exit 0"
check "  three lines, runs 1 to 3, in seconds" perl -MJSON::PP -ne '
	my $o = decode_json($_); exit 1 unless $o->{bench} eq "time" && $o->{rep} == $. && $o->{unit} eq "s";
	END { exit($. != 3) }' "$TMP/t.nd"
done_testing
