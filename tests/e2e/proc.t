#!/bin/sh
# proc.t — system calls, signals, process creation and context switches at
# tiny sizes: status, plausible figures (ranges catch a 1000x unit error),
# the context-switch grid asked for, no child left behind, --parallel.
. tests/e2e/lib.sh
R=$TMP/r.json
t0=$(date +%s)
"$BAKEOFF" run -q --quick --samples 3 --procs 2,4 --ctx-sizes 0,16k -o "$R" proc \
	>"$TMP/out" 2>"$TMP/err"
ok $? "run exits 0"
t1=$(date +%s)
check "run finishes in under 60 s" [ $((t1 - t0)) -lt 60 ]

# id lo hi (in the benchmark's unit)
while read -r id unit lo hi; do
	check "$id is ok" [ "$(status "$R" "$id")" = ok ]
	check "$id unit is $unit" [ "$(jget "$R" "metric('$id','')->{unit}")" = "$unit" ]
	check "$id median within $lo..$hi $unit" num_between "$(median "$R" "$id")" "$lo" "$hi"
done <<EOF2
proc.syscall.null ns 5 20000
proc.syscall.read ns 5 50000
proc.syscall.write ns 5 50000
proc.syscall.stat ns 20 500000
proc.syscall.fstat ns 10 100000
proc.syscall.open ns 20 1000000
proc.signal.install ns 5 50000
proc.signal.catch ns 50 500000
proc.signal.prot us 0.05 1000
proc.fork.exit us 5 100000
proc.fork.exec us 20 500000
proc.fork.sh us 20 1000000
EOF2
# Only plausibility: load can invert any relation between two timings
# (exec vs fork+exit, read vs null), so none is checked.
check "proc.signal.catch kill0 (kill(me, 0)) within 5..50000 ns" \
	num_between "$(median "$R" proc.signal.catch kill0)" 5 50000
check "kill0 unit is ns" [ "$(jget "$R" 'metric("proc.signal.catch","kill0")->{unit}')" = ns ]
check "kill0 is a detail figure" [ "$(jget "$R" 'metric("proc.signal.catch","kill0")->{detail} ? 1 : 0')" = 1 ]
check "catch's main figure comes first" \
	[ "$(jget "$R" 'bench("proc.signal.catch")->{metrics}[0]{name}')" = "" ]
prog=$(jget "$R" 'bench("proc.fork.exec")->{params}{program}')
check "exec program recorded ($prog)" [ "$prog" = /bin/true -o "$prog" = /usr/bin/true ]
check "sh shell recorded" [ "$(jget "$R" 'bench("proc.fork.sh")->{params}{shell}')" = /bin/sh ]
# The lmbench summary says where the exec columns' method differs from lmbench's.
"$BAKEOFF" report --format lmbench "$R" >"$TMP/lm"
check "lmbench summary: a note on exec proc's program" grep -q "^exec proc: the child execs /bin/true (lmbench's its own small hello program)$" "$TMP/lm"
check "lmbench summary: a note on sh proc's" grep -q "^sh proc: /bin/sh -c /bin/true" "$TMP/lm"
check "lmbench summary: a note on fork proc's exit" grep -q "^fork proc: the child _exit()s (lmbench's exit() also" "$TMP/lm"
check "lmbench summary: no Rand mem note without a mem.lat figure" sh -c "! grep -q '^Rand mem:' '$TMP/lm'"

# Context switches: exactly the grid asked for, raw and corrected.
C=proc.ctxsw
check "$C is ok" [ "$(status "$R" $C)" = ok ]
for s in 0K 16K; do
	check "$C overhead/$s recorded" num_between "$(median "$R" $C "overhead/$s")" 0.001 1000
	for p in 2 4; do
		check "$C raw/${p}p/$s within 0.05..1000 us" \
			num_between "$(median "$R" $C "raw/${p}p/$s")" 0.05 1000
		check "$C ${p}p/$s within 0..1000 us" \
			num_between "$(median "$R" $C "${p}p/$s")" 0 1000
		check "$C ${p}p/$s is below raw" perl -e 'exit !($ARGV[0] <= $ARGV[1])' \
			"$(median "$R" $C "${p}p/$s")" "$(median "$R" $C "raw/${p}p/$s")"
	done
done
n=$(jget "$R" 'scalar grep { $_->{name} =~ m{^\d+p/[\d.]+K$} } @{bench("proc.ctxsw")->{metrics}}')
check "$C records 4 corrected figures, not more ($n)" [ "$n" = 4 ]
check "$C procs param" [ "$(jget "$R" 'bench("proc.ctxsw")->{params}{procs}')" = 2,4 ]
check "$C ctx_sizes_bytes param" \
	[ "$(jget "$R" 'bench("proc.ctxsw")->{params}{ctx_sizes_bytes}')" = 0,16384 ]
check "$C pinned param is no" [ "$(jget "$R" 'bench("proc.ctxsw")->{params}{pinned}')" = no ]
check "$C 2p/0K carries its raw figure's core gauge readings, sample for sample" [ "$(jget "$R" '
	my ($c, $r) = map { my $n = $_; (grep { $_->{name} eq $n } @{bench("proc.ctxsw")->{metrics}})[0] } "2p/0K", "raw/2p/0K";
	$c->{core_gauges} && $r->{core_gauges} && "@{$c->{core_gauges}}" eq "@{$r->{core_gauges}}" ? "yes" : "no"')" = yes ]

# No child left behind: nothing still running with this test's paths in
# its command line (ring children and forks share bakeoff's argv), and no
# child of this shell other than ps itself.
left=$(ps -A -o pid= -o args= | grep -F "$TMP" | grep -v grep)
check "no bakeoff process left running" [ -z "$left" ]
[ -n "$left" ] && diag "$left"
kids=$(ps -A -o ppid= -o pid= -o args= | awk -v p=$$ '$1 == p && /bakeoff|true/')
check "no child of the test shell left" [ -z "$kids" ]
[ -n "$kids" ] && diag "$kids"

# --pin: recorded as yes on Linux, unsupported elsewhere; ok either way.
P=$TMP/pin.json
"$BAKEOFF" run -q --quick --samples 3 --pin --procs 2 --ctx-sizes 0 -o "$P" proc.ctxsw \
	>/dev/null 2>"$TMP/err"
ok $? "--pin run exits 0"
check "--pin ctxsw is ok" [ "$(status "$P" $C)" = ok ]
pinned=$(jget "$P" 'bench("proc.ctxsw")->{params}{pinned}')
if os_linux; then
	check "--pin recorded as pinned yes" [ "$pinned" = yes ]
else
	check "--pin recorded ($pinned)" [ "$pinned" = yes -o "$pinned" = unsupported ]
fi

# --parallel 2: two copies each of a syscall and of fork+exit.
Q=$TMP/par.json
"$BAKEOFF" run -q --quick --samples 3 --parallel 2 -o "$Q" proc.syscall.null proc.fork.exit \
	>/dev/null 2>"$TMP/err"
ok $? "--parallel 2 run exits 0"
for id in proc.syscall.null proc.fork.exit; do
	check "$id --parallel 2 is ok" [ "$(status "$Q" $id)" = ok ]
	check "$id has 2 per_copy figures" \
		[ "$(jget "$Q" "scalar @{metric('$id','')->{per_copy} // []}")" = 2 ]
	check "$id parallel param is 2" [ "$(jget "$Q" "bench('$id')->{params}{parallel}")" = 2 ]
done
check "fork+exit per copy plausible" num_between \
	"$(jget "$Q" 'metric("proc.fork.exit","")->{per_copy}[1]')" 5 100000
left=$(ps -A -o pid= -o args= | grep -F "$TMP" | grep -v grep)
check "no process left after --parallel" [ -z "$left" ]
done_testing
