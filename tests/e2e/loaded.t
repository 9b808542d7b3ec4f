#!/bin/sh
# loaded.t — mem.loaded end to end at --quick sizes: the idle point, the
# sweep (lat/<D> beside bw/<D>), the figures read off it, the table and the
# HTML curve, loaders sharing CPUs, the loaders' CPU share and its note,
# bad sweeps, a loader killed mid-run
# (the benchmark fails naming it, no loader left), and "unsupported" on
# one CPU. Plausibility only: no relation between two timings is checked.
. tests/e2e/lib.sh
R=$TMP/r.json
# loaders: the processes whose parent is a child of bakeoff ($1)
loaders() {
	for c in $(awk -v p="$1" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null); do
		awk -v p="$c" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null
	done
}
ncpu=$(nproc 2>/dev/null || echo 1)
[ "$ncpu" -ge 2 ] || {
	"$BAKEOFF" run -q --quick -o "$R" mem.loaded >"$TMP/out" 2>&1
	check "one CPU: unsupported, saying so" [ "$(status "$R" mem.loaded)" = unsupported ]
	done_testing
	exit 0
}
"$BAKEOFF" run -q --quick --samples 3 -o "$R" mem.loaded >"$TMP/out" 2>"$TMP/err"
ok $? "run mem.loaded exits 0"
check "mem.loaded is ok" [ "$(status "$R" mem.loaded)" = ok ]
check "  one loader per other CPU ($((ncpu - 1)))" [ "$(jget "$R" 'bench("mem.loaded")->{params}{loaders}')" = $((ncpu - 1)) ]
check "  --quick's sweep: lat/, bw/ and cpu/ at delays 100, 10, 0, and idle" [ "$(jget "$R" 'join " ", map { $_->{name} } @{bench("mem.loaded")->{metrics}}')" = \
	"idle lat/100 lat/10 lat/0 bw/100 cpu/100 bw/10 cpu/10 bw/0 cpu/0 peak " ]
check "  latencies from 1 ns to 100 us a load" [ "$(jget "$R" 'scalar grep { $_->{name} =~ m{^(idle|lat/\d+)$} && $_->{unit} eq "ns" && $_->{median} >= 1 && $_->{median} <= 1e5 } @{bench("mem.loaded")->{metrics}}')" = 4 ]
check "  bandwidths from 0 to 10 TB/s, derived" [ "$(jget "$R" 'scalar grep { $_->{name} =~ m{^bw/\d+$} && $_->{unit} eq "MB/s" && $_->{derived} && $_->{median} >= 0 && $_->{median} <= 1e7 } @{bench("mem.loaded")->{metrics}}')" = 3 ]
check "  the loaders' CPU shares from 0 to 100%, derived (a little over 100 from the counters' steps)" [ "$(jget "$R" 'scalar grep { $_->{name} =~ m{^cpu/\d+$} && $_->{unit} eq "%" && $_->{derived} && $_->{median} >= 0 && $_->{median} <= 110 } @{bench("mem.loaded")->{metrics}}')" = 3 ]
check "  peak is the largest bw/, the figure lat/ at it" [ "$(jget "$R" 'my ($best) = sort { metric("mem.loaded", "bw/$b")->{median} <=> metric("mem.loaded", "bw/$a")->{median} } (100, 10, 0);
	metric("mem.loaded", "peak")->{median} == metric("mem.loaded", "bw/$best")->{median} &&
	metric("mem.loaded")->{median} == metric("mem.loaded", "lat/$best")->{median} ? 1 : 0')" = 1 ]
check "the text report has the sweep's table" sh -c "grep -q '^mem.loaded: latency under load' '$TMP/out' && grep -Eq '^ +idle +0 +[0-9.]+$' '$TMP/out' && grep -Eq '^ +10 +[0-9.]+ +[0-9.]+ +[0-9]+%$' '$TMP/out'"
"$BAKEOFF" report --format html "$R" >"$TMP/r.html"
check "the HTML report draws latency over bandwidth" grep -q "mem.loaded latency over the loaders&#39; bandwidth\|mem.loaded latency over the loaders' bandwidth" "$TMP/r.html"

# more loaders than CPUs: allowed, and the peak says so
"$BAKEOFF" run -q --quick --samples 3 --copies "$ncpu" -o "$TMP/c.json" mem.loaded >/dev/null 2>&1
ok $? "--copies $ncpu (more loaders than other CPUs) runs"
check "  the peak's note says the loaders share CPUs" [ "$(jget "$TMP/c.json" '(metric("mem.loaded", "peak")->{note} // "") =~ /'"$ncpu"' loaders on '"$((ncpu - 1))"' other CPUs?: loaders share CPUs/ ? 1 : 0')" = 1 ]

# bad sweeps and counts: one line, exit 2, no file
"$BAKEOFF" run -q --delays 5 -o "$TMP/bad.json" mem.loaded >"$TMP/bad" 2>&1
check "--delays of one point: exit 2, one line" sh -c "[ $? = 2 ] && [ \$(wc -l <'$TMP/bad') = 1 ] && grep -q 'needs two points or more' '$TMP/bad' && [ ! -e '$TMP/bad.json' ]"
"$BAKEOFF" run -q --copies 0 -o "$TMP/bad.json" mem.loaded >"$TMP/bad" 2>&1
check "--copies 0: exit 2" sh -c "[ $? = 2 ] && grep -q \"invalid value '0' for --copies\" '$TMP/bad'"

# a loader killed mid-run: the benchmark fails naming it; none is left
"$BAKEOFF" run -q --quick --samples 400 -o "$TMP/k.json" mem.loaded >/dev/null 2>&1 &
bk=$!
pids=
for i in $(seq 1 100); do
	pids=$(loaders $bk)
	[ -n "$pids" ] && break
	sleep 0.1
done
sleep 0.5
victim=$(echo $pids | cut -d' ' -f1)
[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
wait $bk
rc=$?
check "a run whose loader was killed ends with exit 1 (a benchmark failed), its result saved" sh -c "[ $rc = 1 ] && [ -s '$TMP/k.json' ]"
check "  mem.loaded failed: loader 1 ended: killed by signal 9" [ "$(jget "$TMP/k.json" 'my $b = bench("mem.loaded"); "$b->{status}: $b->{reason}"')" = "failed: loader 1 ended: killed by signal 9" ]
left=0
for p in $pids; do [ -d /proc/$p ] && [ "$(awk '{ print $3 }' /proc/$p/stat 2>/dev/null)" != Z ] && left=$((left + 1)); done
check "  no loader left behind (of: ${pids:-none found})" sh -c "[ -n '$pids' ] && [ $left = 0 ]"

# the loader's CPU shared with a busy loop: its CPU share (about half)
# shows in cpu/<D>, and a note on peak says the bandwidths are not the memory's
if command -v taskset >/dev/null 2>&1 && taskset -c 0,1 true 2>/dev/null; then
	taskset -c 1 sh -c 'while :; do :; done' &
	hog=$!
	taskset -c 0,1 "$BAKEOFF" run -q --quick --samples 3 --copies 1 -o "$TMP/h.json" mem.loaded >/dev/null 2>&1
	kill $hog
	check "a loader sharing its CPU with a busy loop: peak's note says what share it ran" [ "$(jget "$TMP/h.json" '(metric("mem.loaded", "peak")->{note} // "") =~ /the loaders ran only \d+% of lat\/\d+.s time .*not what the memory gives/ ? 1 : 0')" = 1 ]
else
	skip "no taskset here, or no CPUs 0 and 1"
fi

# one CPU allowed (taskset, util-linux): unsupported with the reason
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$BAKEOFF" run -q --quick -o "$TMP/one.json" mem.loaded >/dev/null 2>&1
	check "under taskset -c 0: unsupported, no CPU for a loader" [ "$(jget "$TMP/one.json" 'my $b = bench("mem.loaded"); "$b->{status}: $b->{reason}"')" = "unsupported: one CPU to run on: no CPU left for a loader" ]
else
	skip "no taskset here"
fi
done_testing
