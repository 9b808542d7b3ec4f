#!/bin/sh
# export.t — report --format bmf (Bencher Metric Format) and --format
# openmetrics (Prometheus text for node_exporter's textfile collector):
# BMF is one JSON object with a benchmark per main figure, a latency
# measure in nanoseconds (us converted), value and CI bounds; the text
# format has one gauge family per figure with HELP and TYPE, valid names,
# host/benchmark labels, one sample per file, and ends with # EOF.
. tests/e2e/lib.sh
B=$BAKEOFF
"$B" run -q --quick --samples 5 -o "$TMP/a.json" proc.syscall.null ipc.pipe.lat >/dev/null 2>&1
ok $? "a real run"
perl -MJSON::PP -e 'local $/; open my $h, "<", $ARGV[0]; my $r = decode_json(<$h>); $r->{host}{hostname} = "other";
	open $h, ">", $ARGV[1]; print $h encode_json($r)' "$TMP/a.json" "$TMP/b.json"

"$B" report --format bmf "$TMP/a.json" >"$TMP/bmf" 2>&1
ok $? "bmf: exit 0"
check "bmf: JSON with proc.syscall.null's latency in ns, value within its bounds" perl -MJSON::PP -e '
	local $/; open my $h, "<", $ARGV[0]; my $j = decode_json(<$h>);
	my $l = $j->{"proc.syscall.null"}{latency} or exit 1;
	exit !($l->{lower_value} <= $l->{value} && $l->{value} <= $l->{upper_value} && $l->{value} > 10)' "$TMP/bmf"
us=$(jget "$TMP/a.json" 'metric("ipc.pipe.lat")->{median}')
check "bmf: ipc.pipe.lat, in us in the file, is given in ns ($us us)" perl -MJSON::PP -e '
	local $/; open my $h, "<", $ARGV[0]; my $j = decode_json(<$h>);
	exit !(abs($j->{"ipc.pipe.lat"}{latency}{value} - 1000 * $ARGV[1]) < 1e-6 * $ARGV[1] * 1000)' "$TMP/bmf" "$us"
"$B" report --format bmf "$TMP/a.json" "$TMP/b.json" >/dev/null 2>&1
check "bmf takes one file: two are exit 2" [ $? -eq 2 ]

"$B" report --format openmetrics "$TMP/a.json" "$TMP/b.json" >"$TMP/om" 2>&1
ok $? "openmetrics: exit 0"
check "a HELP and a TYPE gauge line per family" \
	sh -c "grep -q '^# HELP bakeoff_proc_syscall_null_ns bakeoff proc.syscall.null: median in ns$' '$TMP/om' && grep -q '^# TYPE bakeoff_proc_syscall_null_ns gauge$' '$TMP/om'"
check "one sample per file, labelled by host and benchmark" \
	sh -c "[ \$(grep -c '^bakeoff_proc_syscall_null_ns{host=\"\\(vm\\|[^\"]*\\)\",benchmark=\"proc.syscall.null\",' '$TMP/om') -eq 2 ] && grep -q 'host=\"other\"' '$TMP/om'"
check "every line is a comment or NAME{LABELS} NUMBER with a valid name" \
	sh -c "! grep -Ev '^#|^[a-zA-Z_:][a-zA-Z0-9_:]*\\{([a-z_]+=\"([^\"\\\\]|\\\\.)*\",?)+\\} [-+0-9.eE]+$' '$TMP/om' | grep -q ."
check "ends with # EOF" sh -c "[ \"\$(tail -1 '$TMP/om')\" = '# EOF' ]"
"$B" help report | grep -q '^  openmetrics ' && "$B" help report | grep -q '^  bmf '
ok $? "help report lists both"
done_testing
