#!/bin/sh
# peers.sh — run established peers beside bakeoff on the same machine, in
# one go, and print both figures in the same unit with their ratio
# (bakeoff / peer). Each figure is measured by bakeoff right before its
# peers, ROUNDS times (default 5), and each side's figure is the median of
# its rounds, so a slow moment of the machine hits both alike. A peer that is not installed is skipped with
# a line that says so, and so is one that is installed but cannot run here.
# Units: perf bench's "GB/sec" is 2^30 bytes/s; mbw and sysbench print
# MiB/s (2^20); bakeoff's and likwid-bench's MB/s are 10^6 bytes/s. Peers'
# figures are converted to bakeoff's unit, and likwid-bench's to STREAM's
# byte counting (see likwid() below), before the ratio is taken.
#
#   BAKEOFF=./bakeoff sh scripts/peers.sh      (make peers does this)
#   PEERS_MEM=64   buffer size in MiB for the memory figures (default 64)
#   PEERS_ROUNDS=5
#   PEERS_VALS=FILE   keep every round's figures (KEY VALUE lines, in order)
#   PEERS_FROM="FILE..."  run nothing: print the table of PEERS_VALS files
#                     (their rounds, with the notes of this version of the
#                     script); several files pool their rounds, each file's
#                     first round counted as bakeoff-first
#   PEERS_AA=1        with PEERS_ONLY=rand: fio against itself, the bakeoff
#                     column a second fio run in bakeoff's place, so the
#                     table shows how far a perfect match falls from 1.00
#                     on this device (docs/peers.md, "fio against itself")
#   PEERS_ONLY=disk   only the disk peers (fio, bonnie++); nodisk: all but them;
#                     rand: only disk.rand against fio (QD1, QD32 io_uring, QD32 aio);
#                     seq: only disk.seq against fio (1M direct write and read);
#                     lmbench: only the rows of lmbench 3 (PEERS_LMBENCH);
#                     iozone: only iozone 3's (PEERS_IOZONE)
#   PEERS_LMBENCH=DIR an lmbench 3 source tree (not in Debian: a clone of
#                     github.com/intel/lmbench): its lat_select, lat_sem,
#                     lat_fcntl, lat_unix_connect and lat_fs are built in a
#                     scratch directory and run beside bakeoff's figures
#   PEERS_IOZONE=DIR  an iozone 3 source tree (iozone.c in DIR, DIR/src or
#                     DIR/src/current; iozone.org's tarball, or a mirror):
#                     built in a scratch directory, its auto mode (-a -g 4m
#                     -e) run beside bakeoff's iozone personality
#   PEERS_LMBENCH_FS=1 also lat_fs beside fs.* (off by default: on ext4
#                     without a journal its calibration can run for many
#                     minutes, docs/peers.md)
#   PEERS_LMBENCH_FS_DIR=DIR  where both sides create their files (default:
#                     the script's scratch directory); a tmpfs leaves out
#                     ext4's recently-freed-inode search (docs/peers.md)
#   PEERS_LMBENCH_FS_ENOUGH=US  how long a lat_fs pass lasts (default 20000,
#                     about bakeoff's 2,000 files; lmbench's own is 5 ms to 1 s)
#   PEERS_LMBENCH_SETS="new micro mlp mem fs"  which lmbench rows (default
#                     all): the new summary columns (select, sem, fcntl,
#                     unix connect), the syscall/process/IPC tools, par_mem,
#                     bw_mem, lat_fs (with PEERS_LMBENCH_FS=1)
#   PEERS_LMBENCH_ROWS="ID..."  of those sets' select, sem, fcntl, connect
#                     and syscall/process/IPC rows only these bakeoff ids
#                     (e.g. "proc.signal.install ipc.pipe.bw"): more rounds
#                     of the rows one run left outside their band
set -u
# sh reads a script as it runs it, so an edit to this file during a run (an
# hour with lmbench) would change what the rest of the run parses: the run
# goes on from a private copy, unlinked as soon as sh has it open.
if [ "${PEERS_SELF_COPY:-}" != "$0" ]; then
	PEERS_SELF_COPY=$(mktemp "${TMPDIR:-/tmp}/bakeoff-peers-sh.XXXXXX") || exit 1
	cat "$0" >"$PEERS_SELF_COPY" || exit 1
	export PEERS_SELF_COPY
	exec sh "$PEERS_SELF_COPY" "$@"
fi
rm -f "$0"
ONLY=${PEERS_ONLY:-all}
LMBONLY=0
DPAIRS=
case $ONLY in
all | disk | nodisk) ;;
rand | seq) DPAIRS=$ONLY; ONLY=disk ;;
lmbench) ONLY=nodisk LMBONLY=1 ;;
iozone) ONLY=disk IOZONLY=1 ;;
*) echo "peers.sh: PEERS_ONLY is disk, nodisk, rand, seq, lmbench or iozone, not '$ONLY'" >&2; exit 2 ;;
esac
# the disk pairs each round runs, in this order; PAIRONLY: a subset was asked for
PAIRONLY=0
[ -n "$DPAIRS" ] && PAIRONLY=1
DPAIRS=${DPAIRS:-seq rand bonnie}
AA=${PEERS_AA:-0}
case $AA in
0) ;;
1) [ "$DPAIRS" = rand ] || { echo "peers.sh: PEERS_AA=1 goes with PEERS_ONLY=rand" >&2; exit 2; } ;;
*) echo "peers.sh: PEERS_AA is 0 or 1, not '$AA'" >&2; exit 2 ;;
esac
# inlist "WORD..." WORD — WORD is one of the list's words
inlist() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
dpair() { inlist "$DPAIRS" "$1"; }
LMBSETS=${PEERS_LMBENCH_SETS:-new micro mlp mem fs}
lmbset() { inlist "$LMBSETS" "$1"; }
LMBROWS=${PEERS_LMBENCH_ROWS:-}
# lmbrow ID — a row of the new and micro sets that PEERS_LMBENCH_ROWS keeps
lmbrow() { [ -z "$LMBROWS" ] || inlist "$LMBROWS" "$1"; }
IOZONLY=${IOZONLY:-0}
BAKEOFF=${BAKEOFF:-./bakeoff}
MEM=${PEERS_MEM:-64}
ROUNDS=${PEERS_ROUNDS:-5}
FROM=${PEERS_FROM:-}
if [ -n "$FROM" ]; then
	for f in $FROM; do
		[ -r "$f" ] || { echo "peers.sh: PEERS_FROM: cannot read '$f'" >&2; exit 2; }
	done
	ROUNDS=0 PEERS_DISK_ROUNDS=0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bakeoff-peers.XXXXXX")
# One cleanup for every exit path (Ctrl-C included): the peer servers this
# script started are killed and waited for, its directories removed. Parts
# add to PIDS (and the disk part sets DDIR); nobody sets another trap (a
# second EXIT trap would replace this one and leave a server listening).
PIDS=
DDIR=
FSDIR=
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$PIDS" ] && kill $PIDS 2>/dev/null && wait $PIDS 2>/dev/null
	rm -rf "$TMP" ${DDIR:+"$DDIR"} ${FSDIR:+"$FSDIR"}
}
trap cleanup EXIT
trap 'exit 130' INT TERM

have() { command -v "$1" >/dev/null 2>&1; }
HAVE_PERF=0
have perf && perf bench syscall basic -l 1000 >/dev/null 2>&1 && HAVE_PERF=1
HAVE_TASKSET=0
have taskset && taskset -c 0 true 2>/dev/null && HAVE_TASKSET=1
# likwid-bench runs its kernels without counters (no msr or perf access
# needed), but may still refuse a machine: a trial run says why.
HAVE_LIKWID=0
WHY_LIKWID="likwid-bench (Debian likwid) not installed (apt-get install likwid)"
if have likwid-bench; then
	if likwid-bench -t copy -w S0:1MB:1 -i 10 >"$TMP/lw" 2>&1 && grep -q '^MByte/s:' "$TMP/lw"; then
		HAVE_LIKWID=1
	else
		WHY_LIKWID="likwid-bench cannot run here: $(grep -v '^ *$' "$TMP/lw" | head -n 1)"
	fi
	rm -f "$TMP/lw"
fi

# ---- net: peers listen on loopback ports of their own (killed on exit) ----
NETPORT=${PEERS_NET_PORT:-52101}
NETSECS=${PEERS_NET_SECS:-3}
# Like for like with iperf3: the same write size (128 KiB, iperf3's TCP
# default, given on both sides), the same duration, and the same first
# second left out of the figure (iperf3 -O 1, bakeoff --warmup 1s); both
# count what the receiver got over the receiver's window.
NETOMIT=${PEERS_NET_OMIT:-1}
if [ "$ONLY" != disk ] && have iperf3; then
	iperf3 -s -p "$NETPORT" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
fi
if [ "$ONLY" != disk ] && have qperf; then
	qperf --listen_port "$((NETPORT + 1))" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
fi
if [ "$ONLY" != disk ] && have sockperf; then
	sockperf server -i 127.0.0.1 -p "$((NETPORT + 2))" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
fi
sleep 0.5
# iperf3 P [AFFINITY]: its receiver's rate in MB/s over NETSECS (iperf3
# prints bits/s); AFFINITY is iperf3's -A client,server
iperf3_mbs() {
	iperf3 -c 127.0.0.1 -p "$NETPORT" -t "$NETSECS" -O "$NETOMIT" -l 128K -P "$1" ${2:+-A "$2"} -J \
		2>/dev/null | perl -MJSON::PP -e '
		local $/; my $j = eval { decode_json(<STDIN>) } or exit;
		my $b = $j->{end}{sum_received}{bits_per_second}; printf "%.1f", $b / 8e6 if $b'
}
# qperf TEST: a round trip in us (qperf prints one-way latency, half a round trip)
qperf_rtt() {
	qperf -lp "$((NETPORT + 1))" -t "$NETSECS" 127.0.0.1 "$1" 2>/dev/null | awk '
		/latency/ { v = $3; u = $4; if (u == "ns") v /= 1000; if (u == "ms") v *= 1000; printf "%.3f", 2 * v }'
}
# sockperf ping-pong (UDP): a round trip in us (it prints half of one)
sockperf_rtt() {
	sockperf ping-pong -i 127.0.0.1 -p "$((NETPORT + 2))" -t "$NETSECS" 2>/dev/null |
		sed -n 's/.*Latency is \([0-9.]*\) usec.*/\1/p' | awk '{ printf "%.3f", 2 * $1 }'
}
# ---- time: `bakeoff time` beside hyperfine on the same command ----
# A small C tree (6 files, single-job make) built from clean each run
# (--prepare 'make clean' on both sides); both report the median wall time
# of 5 runs. hyperfine -N runs the command without a shell, as bakeoff does.
HAVE_HYPERFINE=0
have hyperfine && have make && have "${CC:-cc}" && HAVE_HYPERFINE=1
TREE=$TMP/tree
mkdir -p "$TREE"
for f in 1 2 3 4 5 6; do
	awk -v f="$f" 'BEGIN { for (i = 0; i < 10; i++)
		printf "int f%d_%d(int x) { int s = 0; for (int k = 0; k < x; k++) s += k * %d %% (x + %d); return s; }\n", f, i, i + 1, f }' \
		>"$TREE/f$f.c"
done
printf 'OBJ = f1.o f2.o f3.o f4.o f5.o f6.o\nall: $(OBJ)\n%%.o: %%.c\n\t%s -O2 -c -o $@ $<\nclean:\n\trm -f $(OBJ)\n' \
	"${CC:-cc}" >"$TREE/Makefile"
# hyperfine's median of N runs of make with a prepare, in seconds
hyperfine_make() {
	hyperfine -N -r 5 --prepare "make -s -C $TREE clean" --export-json "$TMP/h.json" \
		"make -s -C $TREE" >/dev/null 2>&1 &&
		perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit;
			print decode_json(<$f>)->{results}[0]{median}' "$TMP/h.json"
	rm -f "$TMP/h.json"
}

# Values are appended as "KEY VALUE" lines to $TMP/vals; median() reads them.
put() { [ -n "$2" ] && echo "$1 $2" >>"$TMP/vals"; }
MEDIAN_AWK='function med(v, n,  i, j, t) {
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
median() {
	awk -v k="$1" "$MEDIAN_AWK"' $1 == k { v[n++] = $2 } END { if (n) print med(v, n) }' "$TMP/vals"
}
# rmedian BAKEOFF_KEY PEER_KEY — the median of the rounds' ratios: each
# round puts one figure under each key, so the i-th of one pairs with the
# i-th of the other. Nothing when the two keys have not as many figures (a
# round lacked one side); line() then takes the ratio of the medians.
rmedian() {
	awk -v b="$1" -v p="$2" "$MEDIAN_AWK"' $1 == b { x[nb++] = $2 } $1 == p { y[np++] = $2 } END {
		if (!nb || nb != np) exit
		for (i = 0; i < nb; i++) { if (y[i] <= 0) exit; v[i] = x[i] / y[i] }
		print med(v, nb) }' "$TMP/vals"
}
# order NAME BAKEOFF_KEY PEER_KEY — where the rounds with bakeoff first (the
# odd ones) and those with the peer first (two or more of each) give
# medians of their ratios 10% or more apart, a line for the note under the
# table: on a shared device
# the first tool of a pair can find it faster, and an odd number of rounds
# then gives one tool that place once more (their geometric mean weighs
# both orders alike).
order() {
	awk -v f="$1" -v b="$2" -v p="$3" "$MEDIAN_AWK"' BEGIN { nb = np = sb = 0 } $1 == "peers.file" { sb = nb }
		$1 == b { odd[nb] = (nb - sb) % 2 == 0; x[nb++] = $2 } $1 == p { y[np++] = $2 } END {
		if (nb < 4 || nb != np) exit
		for (i = 0; i < nb; i++) { if (x[i] <= 0 || y[i] <= 0) exit; if (odd[i]) o[no++] = x[i] / y[i]; else e[ne++] = x[i] / y[i] }
		mo = med(o, no); me = med(e, ne)
		if (mo >= 1.1 * me || me >= 1.1 * mo)
			printf "%-24s %-18s %6.2f (%2d) %6.2f (%2d) %6.2f\n", f, p, mo, no, me, ne, sqrt(mo * me) }' "$TMP/vals" >>"$TMP/order"
}
# shared NAME BAKEOFF_KEY — the rounds whose bakeoff figure ran on a shared
# core (its core gauge 1.1x the quietest reading of any figure of this run
# or more: docs/results.md), a line for the note under the table. The
# peers read no gauge, so such a round may pair bakeoff on a shared core
# with a peer on a quiet one, or the other way round.
shared() {
	grep -qx "$2" "$TMP/shared.keys" 2>/dev/null && return	# a row against a second peer
	echo "$2" >>"$TMP/shared.keys"
	awk -v f="$1" -v b="$2.gauge" '$1 ~ /\.gauge$/ && $2 > 0 && (q == "" || $2 < q + 0) { q = $2 }
		$1 == b { g[n++] = $2 } END {
		for (i = 0; i < n; i++) if (g[i] >= 1.1 * q) { s = s sprintf("%s%d (%.2f)", k ? ", " : "", i + 1, g[i]); k++ }
		if (k) printf "%-24s %-18s %2d of %2d: %s\n", f, substr(b, 1, length(b) - 6), k, n, s }' "$TMP/vals" >>"$TMP/shared"
}
# The rows whose difference docs/peers.md has measured, by peer key (one
# or several, space-separated): the section that shows it and its cause
# in a few words. A row outside its band is named under the table with
# its entry here, or as having none yet: that is a row to look into, not
# a figure to believe.
CAUSES='perf.pipe|Cross-CPU wake-ups|unpinned, the two processes'"'"' places on the vCPUs set it (the pinned row holds)
qperf.tcp_lat qperf.udp_lat sockperf.udp|The round trips on the EPYC guest|unpinned, a cross-CPU wake-up: where the scheduler puts both ends
mbw.memcpy mbw.dumb|mbw|the peer'"'"'s: its figures are not what its own loop gives rebuilt
likwid.loadN likwid.load1|The loop was not the like for like after all|the peer'"'"'s scalar kernel: a load per 8 bytes keeps fewer lines in flight (load_sse is the like for like)
sysbench.write|sysbench memory write, 13 rounds|the host'"'"'s memory between rounds: single rounds 0.82-1.23, thirteen 0.97
sysbench.read|sysbench memory read|the peer'"'"'s: a 4-byte load and a store per int, bound by the core
iperf3.1cpu|Both ends on CPU 0|the peer'"'"'s: a select before every 128 KiB read
bonnie.create|bonnie seq create|the file system'"'"'s state: ext4 skips inodes freed in the last minutes
lmb.proc.select.tcp|select on TCP sockets, what was measured|1.05 lmbench'"'"'s nfds (it polls 95 of 100), the rest the host'"'"'s hyperthread
lmb.proc.syscall.stat lmb.proc.signal.install lmb.ipc.fcntl.lat lmb.ipc.sem.lat|The four rows and the core gauge|the host'"'"'s hyperthread: bakeoff'"'"'s 0.3 s falls on the quiet or the shared level (its gauge says which), lmbench'"'"'s 11 s on either; level against level 1.00-1.05
lmb.mem.mlp|mem.mlp, what was measured|par_mem'"'"'s own spread: 6.99-11.48 loads in ten minutes alone
likwid.sseN|mem.peak against `load_sse`, runs pooled|one run'"'"'s spread: single runs 0.83-1.15, 20 rounds of four runs pooled 1.07
likwid.copysse|And then it held inside `make peers` too|one run'"'"'s spread: runs 1.02-1.19, 15 rounds of three runs pooled 1.08, by hand 1.02-1.05
likwid.copy likwid.triad|The triad loop unrolled, and the scalar rows|the peer'"'"'s scalar kernel: likwid'"'"'s copy_sse and stream_sse read 1.12 and 1.15 of it on the same arrays (the like for like)
ioz.fwrite|fwrite: iozone'"'"'s one-record stream buffer|the stream buffer (deliberate, the iozone report'"'"'s header): iozone copies each record into its one-record buffer, 1.36-3.9x slower by hand without fsync
fio.read32 fio.read32.p50 fio.read32.p99 fio.write32 fio.write32.p50 fio.write32.p99 fio.mixr fio.mixr.p50 fio.mixw fio.mixw.p50 fio.aio32|fio against itself|the device: fio against itself lands 0.72-1.39 of itself in six rounds; 28 rounds of five runs pooled hold'
# outside NAME PEER_KEY RATIO — a line for the note under the table when
# the row's ratio (as line() prints it) is outside 0.9-1.1, or for a
# latency percentile (a KEY.p50 or KEY.p99 row) outside 0.8-1.25: a
# percentile of a few thousand requests moves more than their count, and
# issue 21 sets that band for them.
outside() {
	[ -n "$3" ] || return 0
	printf '%s\n' "$CAUSES" | awk -F'|' -v f="$1" -v k="$2" -v r="$3" -v aa="$AA" '
		{ n = split($1, ks, " "); for (i = 1; i <= n; i++) if (ks[i] == k) c = $3 " (\"" $2 "\")" }
		END { if (aa == 1) c = "fio against itself: the device between two runs of one tool"
		      r = sprintf("%.2f", r) + 0; lo = 0.9; hi = 1.1; if (k ~ /\.p(50|99)$/) { lo = 0.8; hi = 1.25 }
		      if (r >= lo && r <= hi) exit
		      printf "%-24s %-20s %5.2f  %s\n", f, k, r, c != "" ? c : "NO MEASURED CAUSE YET" }' >>"$TMP/outside"
}
# bk FILE KEY ID [NAME] — put bakeoff's median for ID's figure NAME (default
# the main one) from FILE under KEY, its CV
# (in per cent) under KEY.cv, and under KEY.tw the time-weighted mean of its
# samples: total work / total time, the statistic perf bench, mbw and
# sysbench print (for a time per operation the plain mean, for a rate the
# harmonic mean), and under KEY.gauge its core gauge (shared() reads it).
bk() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or exit; my $r = decode_json(<$f>);
		for my $b (@{$r->{benchmarks}}) { next unless $b->{id} eq $ARGV[1] && $b->{status} eq "ok";
			for my $m (@{$b->{metrics}}) { next if $m->{name} ne ($ARGV[3] // "");
				my @x = @{$m->{samples}}; my $tw = 0;
				if ($m->{unit} =~ m{/s$}) { $tw += 1 / $_ for @x; $tw = @x / $tw }
				else { $tw += $_ for @x; $tw /= @x }
				print "$ARGV[2] $m->{median}\n$ARGV[2].cv ", 100 * $m->{cv}, "\n$ARGV[2].tw $tw\n";
				print "$ARGV[2].gauge $m->{core_gauge}\n" if $m->{core_gauge} }
			print "$ARGV[2].array $b->{params}{array_bytes}\n" if $b->{params}{array_bytes};
			print "$ARGV[2].array1 $b->{params}{array_bytes_one}\n" if $b->{params}{array_bytes_one} }' \
		"$1" "$3" "$2" ${4+"$4"} >>"$TMP/vals"
}
# mib2mb — MiB/s on stdin to MB/s
mib2mb() { awk '{ printf "%.0f", $1 * 1.048576 }'; }
# likwid KERNEL STREAM_BYTES ARRAYS KEY — likwid-bench's KERNEL on one
# thread, each of its ARRAYS arrays as large as each of the arrays of
# bakeoff's last KEY run (likwid's -w is the working set of all of them
# together, in kB of 1000 bytes), in MB/s as STREAM counts it. Equal array
# sizes matter: arrays of 32 MB on a 32 MiB L3 are partly served by the
# cache. likwid-bench's MByte/s (10^6) counts every stream the kernel loads
# or stores ("Load bytes per element" + "Store bytes per elem."). Its copy
# (a = b) and stream (a = b * s + c, STREAM's triad on three arrays) count
# 16 and 24 bytes per element, as STREAM does (its "triad" kernel has a
# fourth array and 32); the rate is converted anyway, from likwid's own
# output: MByte/s * STREAM_BYTES / likwid's bytes per element.
likwid() {
	_arr=$(awk -v k="$4.array" '$1 == k { v = $2 } END { print v }' "$TMP/vals")
	[ -n "$_arr" ] || _arr=$((MEM * 1048576))
	likwid-bench -t "$1" -w "S0:$((_arr * $3 / 1000))kB:1" 2>/dev/null | awk -v sb="$2" '
		/^MByte\/s:/ { r = $2 } /^Load bytes per element:/ { l = $NF }
		/^Store bytes per elem/ { st = $NF }
		END { if (r > 0 && l + st > 0) printf "%.0f", r * sb / (l + st) }'
}

# ---- lmbench 3, built from the source PEERS_LMBENCH names (never committed) ----
# The lmbench summary's columns that one lmbench tool gives alone, as
# "KEY|SCALE|TOOL ARGS|COLUMN[|PIN]": KEY is bakeoff's id (ID:FIGURE for a
# detail figure), SCALE turns lmbench's microseconds into bakeoff's unit
# (1000 for ns), COLUMN is the summary's name for it; PIN ("pin") runs
# both tools on CPU 0 (taskset): unpinned, the ring and the two-process
# bandwidths moved 0.5-2.2 times from run to run in both tools on a 2-vCPU
# guest, as the scheduler put the two ends on one CPU or two. stat and
# open get a file as deep below TMP as bakeoff's scratch file
# (TMP/bakeoff.PID.XXXXXX/NAME): the path walk is part of what they time
# (docs/peers.md).
LMB_MICRO="proc.syscall.null|1000|lat_syscall null|null call
proc.syscall.read|1000|lat_syscall read|null I/O (read)
proc.syscall.write|1000|lat_syscall write|null I/O (write)
proc.syscall.stat|1000|lat_syscall stat LMBFILE|stat
proc.syscall.fstat|1000|lat_syscall fstat LMBFILE|fstat
proc.syscall.open|1000|lat_syscall open LMBFILE|open clos
proc.signal.install|1000|lat_sig install|sig inst
proc.fork.exit|1|lat_proc fork|fork proc
proc.ctxsw:2p/0K|1|lat_ctx -s 0 2|ctxsw 2p/0K|pin
proc.ctxsw:8p/0K|1|lat_ctx -s 0 8|ctxsw 8p/0K|pin
ipc.pipe.lat|1|lat_pipe|Pipe latency
ipc.unix.lat|1|lat_unix|AF UNIX latency
ipc.pipe.bw|1|bw_pipe|Pipe bandwidth|pin
ipc.unix.bw|1|bw_unix|AF UNIX bandwidth|pin"
LMB_TOOLS=$(echo "$LMB_MICRO" | awk -F'|' '{ split($3, t, " "); print t[1] }' | sort -u | tr '\n' ' ')
LMB=
WHY_LMB="PEERS_LMBENCH not set (an lmbench 3 source tree, e.g. a clone of github.com/intel/lmbench)"
if [ -n "${PEERS_LMBENCH:-}" ] && [ "$ONLY" != disk ]; then
	LMB=$TMP/lmbench
	mkdir -p "$LMB"
	# As lmbench's src/Makefile builds them: its lib_*.c in an archive, so
	# a tool carries only what it calls. Linked with every lib_*.c and
	# libtirpc (8 shared libraries more, RPC moved out of glibc), lat_proc's
	# fork+exit took 1.6 times as long here: fork copies every mapping.
	# -O2; bw_mem with lmbench's own -O, since at -O2 gcc vectorizes its
	# frd and fwr chunks (docs/peers.md).
	_lmbcc="${CC:-cc} -w -DHAVE_uint64_t -DHAVE_int64_t -DHAVE_socklen_t $(pkg-config --cflags libtirpc 2>/dev/null)"
	(cd "$PEERS_LMBENCH/src" && for f in lib_*.c getopt.c; do
		$_lmbcc -O2 -c -o "$LMB/${f%.c}.o" "$f" || exit 1
	done && ar rc "$LMB/lmbench.a" "$LMB"/*.o) >"$TMP/lmb.err" 2>&1 || {
		WHY_LMB="lmbench's library did not build from $PEERS_LMBENCH: $(grep -m1 error "$TMP/lmb.err")"
		LMB=
	}
	for t in lat_select lat_sem lat_fcntl lat_unix_connect lat_fs par_mem bw_mem $LMB_TOOLS; do
		[ -n "$LMB" ] || break
		_o=-O2
		[ $t = bw_mem ] && _o=-O
		# shellcheck disable=SC2086
		(cd "$PEERS_LMBENCH/src" && $_lmbcc $_o -o "$LMB/$t" $t.c "$LMB/lmbench.a" -lm \
			-Wl,--as-needed $(pkg-config --libs libtirpc 2>/dev/null)) >"$TMP/lmb.err" 2>&1 || {
			WHY_LMB="lmbench's $t did not build from $PEERS_LMBENCH: $(grep -m1 error "$TMP/lmb.err")"
			LMB=
		}
	done
fi
# lmb TOOL ARGS... — the figure lmbench's TOOL prints (under BK_PFX, as
# bkrun runs bakeoff): "... N microseconds",
# "... N MB/sec" (10^6 bytes), or lat_ctx's "PROCS N" (microseconds)
lmb() {
	_t=$1
	shift
	# shellcheck disable=SC2086
	(cd "$TMP" && ${BK_PFX:-} "$LMB/$_t" "$@" 2>&1) |
		awk '/ (microseconds|MB\/sec)$/ { print $(NF - 1) } /^[0-9]+ [0-9.]+$/ { print $2 }'
}
# bakeoff's lmbench-method figures of mem.bw.read and mem.bw.write (their
# detail metrics frd and fwr) on a buffer of MEM MiB, as bw_mem's
fmem_bakeoff() {
	"$BAKEOFF" run -q --mem-size "${MEM}M" -o "$TMP/b.json" mem.bw.read mem.bw.write >/dev/null 2>"$TMP/err" ||
		cat "$TMP/err"
	bk "$TMP/b.json" mem.frd mem.bw.read frd
	bk "$TMP/b.json" mem.fwr mem.bw.write fwr
	rm -f "$TMP/b.json"
}
# lmb_fs SIZE — lat_fs -s SIZE's creates and deletes per second, as "C D"
# (3 repetitions; -s 0 goes on to lat_fs's other sizes, whose lines are
# not read). A lat_fs pass lasts ENOUGH microseconds, which lmbench's
# config script measures (5 ms on a quiet machine, 1 s when its timing test
# fails, as on a busy guest: 200,000 files a pass); bakeoff's pass is 2,000
# files. The rate depends on the pass (a gigabyte of new tmpfs pages against
# 20 MB), so lat_fs gets PEERS_LMBENCH_FS_ENOUGH (default 20000 us: about
# bakeoff's 2,000 files at 50,000-200,000 files/s) and prints its pass.
lmb_fs() {
	mkdir -p "$FSDIR/lfs"
	ENOUGH=${PEERS_LMBENCH_FS_ENOUGH:-20000} "$LMB/lat_fs" -N 3 -s "$1" "$FSDIR/lfs" 2>&1 |
		awk 'NF == 4 && !done { print $3, $4; print "lat_fs -s " $1 ": " $2 " files a pass" > "/dev/stderr"; done = 1 }'
	rm -rf "$FSDIR/lfs"
}
# par_mem prints a line per buffer size, doubling from 1 KiB up to -M; the
# last is its summary's "mem par". Its own timing calibration ran for over
# 10 minutes per size on a 2-vCPU guest, so it gets what lmbench's config
# script would export instead: ENOUGH=5000 (us a measurement lasts at
# least) and zero timer and loop overheads (TIMING_O, LOOP_O: nothing
# beside a miss of ~100 ns). Both tools get the same buffer: the
# smallest power of two at least 4 x the last-level cache (bakeoff's reach
# for main memory; --mem-size that large is used as given).
MLPSZ=0	# PEERS_FROM runs nothing, bakeoff's sysinfo included
[ -z "$FROM" ] && MLPSZ=$("$BAKEOFF" sysinfo --json | perl -MJSON::PP -e 'local $/; my $h = decode_json(<STDIN>); my $l = 0;
	$l = $_->{size_bytes} for grep { $_->{type} ne "instruction" } @{$h->{caches} || []};
	my $s = 1 << 20; $s *= 2 while $s < 4 * $l; print $s')
mlp_bakeoff() {
	"$BAKEOFF" run -q --mem-size "$MLPSZ" -o "$TMP/b.json" mem.mlp >/dev/null 2>"$TMP/err" || cat "$TMP/err"
	bk "$TMP/b.json" mem.mlp mem.mlp
	put mlp.size "$MLPSZ"
	rm -f "$TMP/b.json"
}
mlp_lmbench() {
	put lmb.mem.mlp "$(ENOUGH=5000 TIMING_O=0 LOOP_O=0 "$LMB/par_mem" -L 64 -M "$MLPSZ" 2>&1 |
		awk 'NF == 2 { v = $2 } END { print v }')"
}
# lat_unix_connect's server binds the fixed path /tmp/af_unix; one left by
# an interrupted run makes it fail ("bind: Address already in use")
WHY_UC=
[ -e /tmp/af_unix ] && WHY_UC="/tmp/af_unix exists (lmbench's lat_unix_connect binds it; left by an earlier run? remove it)"
LMBFS=${PEERS_LMBENCH_FS:-0}
if [ "$LMBFS" = 1 ] && [ -n "${PEERS_LMBENCH_FS_DIR:-}" ]; then
	FSDIR=$(mktemp -d "$PEERS_LMBENCH_FS_DIR/bakeoff-peers-fs.XXXXXX") || exit 2
else
	FSDIR=$TMP
fi
WHY_LMBFS="$WHY_LMB"
# whylmb SET [ID] — why a row has no figure: lmbench missing, its set left
# out of PEERS_LMBENCH_SETS, or its id out of PEERS_LMBENCH_ROWS
whylmb() { if [ -n "$LMB" ] && ! lmbset "$1"; then echo "'$1' not in PEERS_LMBENCH_SETS"
	elif [ -n "$LMB" ] && [ -n "${2:-}" ] && ! lmbrow "$2"; then echo "not in PEERS_LMBENCH_ROWS"; else echo "$WHY_LMB"; fi; }
[ -n "$LMB" ] && [ "$LMBFS" != 1 ] && WHY_LMBFS="PEERS_LMBENCH_FS=1 not set (lat_fs can run for many minutes)"
[ -n "$LMB" ] && [ "$LMBFS" = 1 ] && ! lmbset fs && WHY_LMBFS="'fs' not in PEERS_LMBENCH_SETS"

NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
echo "bakeoff peers on $(uname -n), $(date -u +%Y-%m-%dT%H:%M:%SZ): $ROUNDS rounds, memory buffers $MEM MiB"
: >"$TMP/vals"
[ "$AA" = 1 ] && put aa 1
pin0=
[ $HAVE_TASKSET = 1 ] && pin0="taskset -c 0"
# bkrun KEY ID [OPTION...] — run one bakeoff benchmark (under BK_PFX, e.g.
# taskset -c 0) and keep its figures under KEY (ID:FIGURE: that figure);
# each is run right before its peers, so both meet the same moment of a
# noisy host.
bkrun() {
	_k=$1 _id=$2
	shift 2
	case $_id in	# --mem-size only where it is read (else bakeoff refuses it)
	mem.*) set -- --mem-size "${MEM}M" "$@" ;;
	esac
	# shellcheck disable=SC2086
	${BK_PFX:-} "$BAKEOFF" run -q -o "$TMP/b.json" "$@" "$_id" >/dev/null 2>"$TMP/err" ||
		cat "$TMP/err"
	case $_k in	# KEY ID:FIGURE: that detail figure
	*:*) bk "$TMP/b.json" "$_k" "$_id" "${_k#*:}" ;;
	*) bk "$TMP/b.json" "$_k" "$_id" ;;
	esac
	rm -f "$TMP/b.json"
}
mbw_copy() {
	mbw -q -n 10 -t"$1" "$MEM" 2>/dev/null |
		awk '/^AVG/ { for (i = 1; i <= NF; i++) if ($i == "Copy:") print $(i + 1) }' | mib2mb
}
# pair NAME [NEED] — one pair of a round, b_NAME (bakeoff) and p_NAME (its
# peers), bakeoff first in odd rounds and the peers first in even ones; with
# NEED, bakeoff first until the figures hold the key NEED (a peer sized
# from bakeoff's figure).
pair() {
	if [ $((r % 2)) = 1 ] || { [ -n "${2:-}" ] && ! grep -q "^$2 " "$TMP/vals"; }; then
		"b_$1"
		"p_$1"
	else
		"p_$1"
		"b_$1"
	fi
}
r=1
[ "$ONLY" = disk ] && r=$((ROUNDS + 1))
while [ "$r" -le "$ROUNDS" ]; do
	echo "round $r of $ROUNDS ..."
	if [ "$LMBONLY" = 0 ]; then
	# Each pair runs in the order pair() gives it: bakeoff first in odd
	# rounds, the peers first in even ones (a host whose speed drifts over
	# seconds favours whichever ran at the better moment; alternating
	# spreads that over both sides, and the note under the table shows
	# where the order mattered).
	b_syscall() { bkrun proc.syscall.null proc.syscall.null; }
	p_syscall() { [ $HAVE_PERF = 1 ] && put perf.syscall "$(perf bench syscall basic 2>/dev/null | awk '/usecs\/op/ { print $1 * 1000 }')"; }
	pair syscall
	b_pipe() { bkrun ipc.pipe.lat ipc.pipe.lat; }
	p_pipe() { [ $HAVE_PERF = 1 ] && put perf.pipe "$(perf bench sched pipe -l 20000 2>/dev/null | awk '/usecs\/op/ { print $1 }')"; }
	pair pipe
	# Same-CPU pipe latency: both processes pinned to CPU 0, as perf is.
	b_pinpipe() {
		$pin0 "$BAKEOFF" run -q --pin -o "$TMP/b.json" ipc.pipe.lat >/dev/null 2>"$TMP/err" || cat "$TMP/err"
		bk "$TMP/b.json" pin.pipe ipc.pipe.lat
		rm -f "$TMP/b.json"
	}
	p_pinpipe() {
		[ $HAVE_PERF = 1 ] && [ $HAVE_TASKSET = 1 ] &&
			put perf.pinpipe "$(taskset -c 0 perf bench sched pipe -l 100000 2>/dev/null | awk '/usecs\/op/ { print $1 }')"
	}
	pair pinpipe
	b_memcpy() { bkrun mem.bw.copy mem.bw.copy; }
	p_memcpy() {
		[ $HAVE_PERF = 1 ] && put perf.memcpy "$(perf bench mem memcpy -f default -s "${MEM}MB" -l 20 2>/dev/null | awk '/GB\/sec/ { printf "%.0f", $1 * 1073741824 / 1e6 }')"
		have mbw && put mbw.memcpy "$(mbw_copy 0)"
	}
	pair memcpy
	b_dumb() { bkrun mem.bw.copy_hand mem.bw.copy_hand; }
	p_dumb() { have mbw && put mbw.dumb "$(mbw_copy 1)"; }
	pair dumb
	# STREAM: likwid sizes its arrays from bakeoff's, so bakeoff runs first
	# until it has (pair's NEED). Its scalar kernels (copy, stream) and
	# their SSE forms, whose 16-byte loads and stores are what gcc makes of
	# bakeoff's STREAM loops (docs/peers.md)
	for k in copy triad; do
		id=mem.stream.$k
		lw="copy 16 2" lwsse="copy_sse 16 2"
		[ $k = triad ] && lw="stream 24 3" lwsse="stream_sse 24 3"
		b_stream() { bkrun $id $id; }
		p_stream() {
			[ $HAVE_LIKWID = 1 ] || return 0
			put likwid.$k "$(likwid $lw $id)"
			put likwid.${k}sse "$(likwid $lwsse $id)"
		}
		pair stream "$id.array"
	done
	# MLC's peak read bandwidth: every CPU at once, and one alone, against
	# likwid-bench's load kernel on as many threads, arrays of the same size
	# (per thread: likwid's -w is the working set of all its threads); its
	# scalar load (the kernel the issue names) and load_sse, whose 16-byte
	# loads are what gcc makes of bakeoff's read loop (docs/peers.md)
	pk_likwid() {
		_a=$(awk -v k="pk.all.$1" '$1 == k { v = $2 } END { print v }' "$TMP/vals")
		[ -n "$_a" ] && likwid-bench -t "$3" -w "S0:$((_a * $2 / 1000))kB:$2" 2>/dev/null |
			awk '/^MByte\/s:/ { printf "%.0f", $2 }'
	}
	b_pk() {
		"$BAKEOFF" run -q --mem-size "${MEM}M" -o "$TMP/b.json" mem.peak >/dev/null 2>"$TMP/err" || cat "$TMP/err"
		bk "$TMP/b.json" pk.all mem.peak
		bk "$TMP/b.json" pk.one mem.peak read/1
		rm -f "$TMP/b.json"
	}
	p_pk() {
		[ $HAVE_LIKWID = 1 ] || return 0
		put likwid.loadN "$(pk_likwid array "$NCPU" load)"
		put likwid.load1 "$(pk_likwid array1 1 load)"
		put likwid.sseN "$(pk_likwid array "$NCPU" load_sse)"
		put likwid.sse1 "$(pk_likwid array1 1 load_sse)"
	}
	pair pk pk.all.array
	for op in write read; do
		b_sysb() { bkrun mem.bw.$op mem.bw.$op; }
		p_sysb() {
			have sysbench && put "sysbench.$op" "$(sysbench memory --memory-block-size="${MEM}M" \
				--memory-total-size="$((MEM * 64))M" --memory-oper=$op --memory-access-mode=seq run 2>/dev/null |
				sed -n 's/.*(\([0-9.]*\) MiB\/sec).*/\1/p' | mib2mb)"
		}
		pair sysb
	done
	# ---- net: loopback, the same duration and buffer length as the peers ----
	# (PIN=taskset... runs bakeoff, the client and its embedded server, on one CPU)
	bknet() {
		_k=$1
		shift
		${PIN:-} "$BAKEOFF" run -q --reps 1 --duration "${NETSECS}s" -o "$TMP/b.json" "$@" >/dev/null \
			2>"$TMP/err" || cat "$TMP/err"
		bk "$TMP/b.json" "$_k" "$(eval echo \${$#})"
		rm -f "$TMP/b.json"
	}
	b_tcp() { bknet net.tcp.bw --buf-len 128k --warmup "${NETOMIT}s" net.tcp.bw; }
	p_tcp() { have iperf3 && put iperf3.1 "$(iperf3_mbs 1)"; }
	pair tcp
	# Both ends on CPU 0 for both tools: the scheduler no longer places the
	# two processes differently for the two programs (docs/peers.md, net).
	if [ $HAVE_TASKSET = 1 ]; then
		b_tcp1() { PIN="taskset -c 0" bknet net.tcp.bw1cpu --buf-len 128k --warmup "${NETOMIT}s" net.tcp.bw; }
		p_tcp1() { have iperf3 && put iperf3.1cpu "$(iperf3_mbs 1 0,0)"; }
		pair tcp1
	fi
	b_tcp2() { bknet net.tcp.bw2 --buf-len 128k --warmup "${NETOMIT}s" --streams 2 net.tcp.bw; }
	p_tcp2() { have iperf3 && put iperf3.2 "$(iperf3_mbs 2)"; }
	pair tcp2
	b_tlat() { bknet net.tcp.lat net.tcp.lat; }
	p_tlat() { have qperf && put qperf.tcp_lat "$(qperf_rtt tcp_lat)"; }
	pair tlat
	b_ulat() { bknet net.udp.lat net.udp.lat; }
	p_ulat() {
		have qperf && put qperf.udp_lat "$(qperf_rtt udp_lat)"
		have sockperf && put sockperf.udp "$(sockperf_rtt)"
	}
	pair ulat
	# time: bakeoff time and hyperfine, 5 runs each, on the same build
	b_make() {
		"$BAKEOFF" time -q -n 5 --prepare "make -s -C $TREE clean" -o "$TMP/b.json" -- \
			make -s -C "$TREE" >/dev/null 2>"$TMP/err" || cat "$TMP/err"
		bk "$TMP/b.json" time time
		rm -f "$TMP/b.json" "$TMP/b.log"
	}
	p_make() { [ $HAVE_HYPERFINE = 1 ] && put hyperfine.make "$(hyperfine_make)"; }
	pair make
	fi
	# lmbench 3's own tools, each after bakeoff's figure in odd rounds and
	# before it in even ones
	if [ -n "$LMB" ]; then
		for pair in "proc.select.file lat_select -n 100 file" "proc.select.tcp lat_select -n 100 tcp" \
			"ipc.sem.lat lat_sem" "ipc.fcntl.lat lat_fcntl" "ipc.unix.connect lat_unix_connect"; do
			lmbset new || break
			# shellcheck disable=SC2086
			set -- $pair
			id=$1
			shift
			lmbrow $id || continue
			[ $((r % 2)) = 1 ] && bkrun $id $id --dir "$TMP"
			if [ "$1" != lat_unix_connect ]; then
				put lmb.$id "$(lmb "$@")"
			elif [ -z "$WHY_UC" ]; then	# else skipped: its socket path is taken
				(cd "$TMP" && "$LMB/lat_unix_connect" -s)
				sleep 0.2
				put lmb.$id "$(lmb "$@")"
				(cd "$TMP" && "$LMB/lat_unix_connect" -S)
			fi
			[ $((r % 2)) = 0 ] && bkrun $id $id --dir "$TMP"
		done
		mkdir -p "$TMP/lmbf" && : >"$TMP/lmbf/file"
		echo "$LMB_MICRO" | while IFS='|' read -r key scale cmd _ pin; do
			lmbset micro || break
			lmbrow "$key" || continue
			id=${key%%:*}
			# shellcheck disable=SC2086
			set -- $(echo "$cmd" | sed "s|LMBFILE|$TMP/lmbf/file|")
			tool=$1
			shift
			BK_PFX=
			[ "$pin" = pin ] && BK_PFX=$pin0
			# proc.ctxsw: only the ring lmbench times (P of 2p/0K, no array)
			o=
			case $key in proc.ctxsw:*) o=${key#*:} o="--procs ${o%%p/*} --ctx-sizes 0" ;; esac
			# shellcheck disable=SC2086
			[ $((r % 2)) = 1 ] && bkrun "$key" "$id" --dir "$TMP" $o
			put "lmb.$key" "$(lmb "$tool" "$@" | awk -v s="$scale" 'NR == 1 { print $1 * s }')"
			# shellcheck disable=SC2086
			[ $((r % 2)) = 0 ] && bkrun "$key" "$id" --dir "$TMP" $o
		done
		if ! lmbset mlp; then :
		elif [ $((r % 2)) = 1 ]; then mlp_bakeoff; mlp_lmbench; else mlp_lmbench; mlp_bakeoff; fi
		# the lmbench summary's Mem read and Mem write: bw_mem frd and fwr
		lmbset mem && [ $((r % 2)) = 1 ] && fmem_bakeoff
		for t in frd fwr; do
			lmbset mem || break
			put lmb.mem.$t "$("$LMB/bw_mem" "${MEM}m" $t 2>&1 | awk 'NF == 2 { print $2 }')"
		done
		lmbset mem && [ $((r % 2)) = 0 ] && fmem_bakeoff
		for sz in 0k 10k; do
			[ "$LMBFS" = 1 ] && lmbset fs || break
			[ $((r % 2)) = 1 ] && bkrun fs.create.$sz fs.create.$sz --dir "$FSDIR" && bkrun fs.delete.$sz fs.delete.$sz --dir "$FSDIR"
			set -- $(lmb_fs $sz)
			put lmb.fs.create.$sz "${1:-}"
			put lmb.fs.delete.$sz "${2:-}"
			[ $((r % 2)) = 0 ] && bkrun fs.create.$sz fs.create.$sz --dir "$FSDIR" && bkrun fs.delete.$sz fs.delete.$sz --dir "$FSDIR"
		done
	fi
	r=$((r + 1))
done

# ---- disk: fio and bonnie++ on the same directory, sizes and block sizes ----
# Each tool deletes its file when done; a sync after that lets the freeing
# (and, with the discard mount option, the trim) of its blocks happen
# before the next tool starts, not inside the next tool's timed fsync.
# PEERS_DISK_DIR (default: the current directory, as fio and bonnie++ use),
# PEERS_DISK_SIZE MiB for the sequential and random file (default 2048),
# PEERS_BONNIE_SIZE MiB for bonnie's file (default 4096, so that even the
# block read from the page cache lasts over half a second), PEERS_DISK_ROUNDS (default 4: each order twice).
# bkm FILE KEY ID METRIC — bakeoff's median of a named metric.
bkm() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or exit; my $r = decode_json(<$f>);
		for my $b (@{$r->{benchmarks}}) { next unless $b->{id} eq $ARGV[1] && $b->{status} eq "ok";
			for my $m (@{$b->{metrics}}) { next if $m->{name} ne $ARGV[3];
				print "$ARGV[2] $m->{median}\n$ARGV[2].cv ", 100 * $m->{cv}, "\n$ARGV[2].tw $m->{median}\n" } }' \
		"$1" "$3" "$2" "$4" >>"$TMP/vals"
}
# bkl FILE KEY ID METRIC — a figure's p50 and p99 latency (us) as KEY.p50, KEY.p99
bkl() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or exit; my $r = decode_json(<$f>);
		my %us = (ns => 1e-3, us => 1, ms => 1e3, s => 1e6);
		for my $b (@{$r->{benchmarks}}) { next unless $b->{id} eq $ARGV[1] && $b->{status} eq "ok";
			for my $m (@{$b->{metrics}}) { next if $m->{name} ne $ARGV[3] || !$m->{latency};
				my $l = $m->{latency}; my $s = $us{$l->{unit}} // next;
				printf "%s.p50 %.2f\n%s.p99 %.2f\n", $ARGV[2], $l->{p50} * $s, $ARGV[2], $l->{p99} * $s } }' \
		"$1" "$3" "$2" "$4" >>"$TMP/vals"
}
DDIR=$(mktemp -d "${PEERS_DISK_DIR:-.}/bakeoff-peers-disk.XXXXXX")
DSIZE=${PEERS_DISK_SIZE:-2048}
BSIZE=${PEERS_BONNIE_SIZE:-4096}
DROUNDS=${PEERS_DISK_ROUNDS:-5}
# fio's figures from its JSON: bytes/s to MB/s, IOPS as they are.
# FIO_ENV: variables for fio's environment (see peer_seq).
FIO_ENV=
fio_fig() { # FIELD(write.bw|read.bw|read.iops|read.p50|read.p99|write...) FIO-OPTIONS...
	_f=$1
	shift
	# --lat_percentiles: percentiles of the whole latency (submission to
	# completion, fio's lat), as bakeoff times a request, in microseconds
	env $FIO_ENV fio --output-format=json --name=peer --directory="$DDIR" --filename=fio.dat --size="${DSIZE}M" \
		--direct=1 --ioengine=psync --iodepth=1 --lat_percentiles=1 "$@" 2>/dev/null | perl -MJSON::PP -e '
		local $/; my $j = eval { decode_json(<STDIN>) } or exit; my ($d, $k) = split /\./, $ARGV[0];
		my $io = $j->{jobs}[0]{$d};
		if ($k =~ /^p(\d+)$/) { my $v = $io->{lat_ns}{percentile}{sprintf "%.6f", $1}; printf "%.2f", $v / 1e3 if $v; exit }
		my $v = $io->{$k eq "bw" ? "bw_bytes" : "iops"}; exit unless $v;
		printf "%.1f", $k eq "bw" ? $v / 1e6 : $v' "$_f"
}
# round_figures MARK — this round's pairs (the values put after line MARK of
# the values file) and their ratios, so the spread of rounds can be seen.
round_figures() {
	tail -n "+$(($1 + 1))" "$TMP/vals" | awk '$1 !~ /\.(cv|tw)$/ { v[$1] = $2 }
		function pr(b, p) { if ((b in v) && (p in v) && v[p] > 0)
			printf "  %s %.4g / %s %.4g = %.2f\n", b, v[b], p, v[p], v[b] / v[p] }
		END { pr("seq.w", "fio.w"); pr("seq.r", "fio.r"); pr("rand.r", "fio.rr"); pr("rand.read32", "fio.read32")
			pr("rand.read32.p50", "fio.read32.p50"); pr("rand.read32.p99", "fio.read32.p99")
			pr("rand.write32", "fio.write32"); pr("rand.write32.p50", "fio.write32.p50")
			pr("rand.write32.p99", "fio.write32.p99"); pr("rand.aio32", "fio.aio32")
			pr("rand.mixr", "fio.mixr"); pr("rand.mixw", "fio.mixw")
			pr("bon.write", "bonnie.write"); pr("bon.rewrite", "bonnie.rewrite")
			pr("bon.read", "bonnie.read"); pr("bon.seq_create", "bonnie.create") }'
}
# The pairs' halves. Each ends with done_half: its file deleted, then a
# sync (see above).
done_half() {
	rm -f "$TMP/b.json" "$DDIR/fio.dat"
	sync
}
# bk_run ARGS... — one bakeoff run on the directory into $TMP/b.json
bk_run() {
	"$BAKEOFF" run -q --dir "$DDIR" --reps 1 -o "$TMP/b.json" "$@" >/dev/null 2>"$TMP/err" ||
		cat "$TMP/err"
}
bk_seq() {
	bk_run --size "${DSIZE}M" --block-sizes 1M --runtime 60s disk.seq
	bkm "$TMP/b.json" seq.w disk.seq "write 1M"
	bkm "$TMP/b.json" seq.r disk.seq "read 1M"
	done_half
}
peer_seq() {
	have fio || return 0
	# --fallocate=none: fio would otherwise reserve the file untimed; disk.seq
	# (as dd) allocates its blocks inside the timing (docs/peers.md).
	# The same buffer memory as disk.seq's, a transparent huge page: glibc's
	# malloc hints huge pages (glibc >= 2.35; older ones ignore the
	# variable) and --iomem_align=2M puts the buffer inside one. fio's
	# default malloc'd buffer of scattered 4 KiB pages is split into two
	# requests by chance, and costs a VM's host one segment per page
	# (docs/peers.md).
	# --scramble_buffers=0: one unchanged buffer for every block, as dd's and
	# disk.seq's. fio's default stamps every 512 bytes of it before each
	# write: 35-40 us of its own time a 1 MiB request, and its write calls
	# themselves took longer (docs/peers.md, "fio's scrambled buffer").
	FIO_ENV=GLIBC_TUNABLES=glibc.malloc.hugetlb=1
	put fio.w "$(fio_fig write.bw --rw=write --bs=1M --end_fsync=1 --fallocate=none --iomem_align=2M \
		--scramble_buffers=0)"
	put fio.r "$(fio_fig read.bw --rw=read --bs=1M --iomem_align=2M)"
	FIO_ENV=
	done_half
}
bk_rand() {
	bk_run --size "${DSIZE}M" --jobs 1 --runtime 5s disk.rand
	bkm "$TMP/b.json" rand.r disk.rand "randread 4k QD1"
	# the QD32 rows beside fio's io_uring only when they were io_uring's
	[ "$(jget_engine)" = io_uring ] && for d in read write; do
		bkm "$TMP/b.json" rand.${d}32 disk.rand "rand$d 4k QD32"
		bkl "$TMP/b.json" rand.${d}32 disk.rand "rand$d 4k QD32"
	done
	done_half
	bk_run --size "${DSIZE}M" --jobs 1 --runtime 5s --engine aio disk.rand
	bkm "$TMP/b.json" rand.aio32 disk.rand "randread 4k QD32"
	done_half
	bk_run --size "${DSIZE}M" --jobs 1 --runtime 5s --iodepth 16 --rwmix 70 disk.rand
	if [ "$(jget_engine)" = io_uring ]; then
		bkm "$TMP/b.json" rand.mixr disk.rand "randrw 4k 70/30 QD16 read"
		bkm "$TMP/b.json" rand.mixw disk.rand "randrw 4k 70/30 QD16 write"
		bkl "$TMP/b.json" rand.mixr disk.rand "randrw 4k 70/30 QD16 read"
		bkl "$TMP/b.json" rand.mixw disk.rand "randrw 4k 70/30 QD16 write"
	fi
	done_half
}
jget_engine() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit; my $r = decode_json(<$f>);
		for (@{$r->{benchmarks}}) { print +(split / /, $_->{params}{engine} // "")[0] if $_->{id} eq "disk.rand" }' "$TMP/b.json"
}
# fio_fill — fio's file written whole before a random half, as disk.rand
# writes its own (1 MiB direct writes, then fsync). fio lays out a file for
# a write-only job with fallocate alone: ext4 then hands it unwritten
# extents, and each random write converts one (15,000 extents after 1 s),
# a metadata workload rather than the overwrites disk.rand times: QD32
# random writes ran at 0.68x of the same job on a written file (median of
# 5 alternating rounds, 0.56-1.14; docs/peers.md).
fio_fill() {
	fio --name=fill --directory="$DDIR" --filename=fio.dat --size="${DSIZE}M" --direct=1 --rw=write \
		--bs=1M --end_fsync=1 --fallocate=none >/dev/null 2>&1
}
# fio_rows ROW... — fio's figures for the rows of one disk.rand run, in
# its order, on one file written whole first (fio_fill), each row 5 s
# after the one before it (stonewall). disk.rand times its rows one after
# another on one file, and on a VM's disk a file just written can run
# faster than one a minute old (docs/peers.md), so fio's row must sit at
# the same place in the same timeline. ROW is KEY:RW:ENGINE:DEPTH; a KEY
# of - keeps no figure (a row run only for the timeline); RW randrw reads
# 70% (its figures KEYr, KEYw). Each kept row: KEY (IOPS), KEY.p50, KEY.p99
# (us, fio's lat: submission to completion, as bakeoff times a request).
# fio's io_uring rows register their buffers (fixedbufs=1) as disk.rand's
# engine does where the kernel allows; both set up their rings alike
# (COOP_TASKRUN, SINGLE_ISSUER, DEFER_TASKRUN: strace). Without it fio's
# QD32 read ran at 0.71-0.88 of its own figure with it on a guest bound by
# CPU (docs/peers.md). scramble_buffers=0: fio writes one unchanged
# buffer a slot, as disk.rand does (filled once); its default stamps each
# 512-byte sector before every write, and its QD32 random writes ran at
# 0.89 of the unscrambled job's IOPS (six rounds by hand, docs/peers.md).
fio_rows() {
	fio_fill
	{
		printf '[global]\ndirectory=%s\nfilename=fio.dat\nsize=%sM\ndirect=1\nbs=4k\n' "$DDIR" "$DSIZE"
		printf 'runtime=5\ntime_based=1\nlat_percentiles=1\nrwmixread=70\nscramble_buffers=0\nstonewall\n'
		_n=0
		for _row; do
			_n=$((_n + 1))
			echo "$_row" | awk -F: -v n=$_n '{ printf "[%s]\nrw=%s\nioengine=%s\niodepth=%s\n%s",
				$1 == "-" ? "skip" n : $1, $2, $3, $4, $3 == "io_uring" ? "fixedbufs=1\n" : "" }'
		done
	} >"$TMP/rand.fio"
	fio --output-format=json "$TMP/rand.fio" 2>/dev/null | perl -MJSON::PP -e '
		local $/; my $j = eval { decode_json(<STDIN>) } or exit;
		for my $job (@{$j->{jobs}}) {
			my $k = $job->{jobname}; next if $k =~ /^skip/;
			my $rw = $job->{"job options"}{rw} // "";
			my %dirs = $rw eq "randrw" ? (read => "${k}r", write => "${k}w") : $rw eq "randwrite" ? (write => $k) : (read => $k);
			for my $dir (sort keys %dirs) {
				my ($io, $key) = ($job->{$dir}, $dirs{$dir}); next unless $io->{iops};
				printf "%s %.1f\n%s.p50 %.2f\n%s.p99 %.2f\n", $key, $io->{iops}, $key,
					$io->{lat_ns}{percentile}{"50.000000"} / 1e3, $key, $io->{lat_ns}{percentile}{"99.000000"} / 1e3 } }' \
		>>"$TMP/vals"
	done_half
}
# The same three runs as bk_rand: each disk.rand run's rows, in its order
# (QD1 read and write, then its deeper rows; with --engine aio all rows
# are aio's).
# fio_rand QD1 QD32R QD32W AIO MIX — those runs' rows under these keys
fio_rand() {
	fio_rows "$1:randread:psync:1" -:randwrite:psync:1 "$2:randread:io_uring:32" "$3:randwrite:io_uring:32"
	fio_rows -:randread:posixaio:1 -:randwrite:posixaio:1 "$4:randread:posixaio:32" -:randwrite:posixaio:32
	fio_rows -:randread:psync:1 -:randwrite:psync:1 -:randread:io_uring:16 -:randwrite:io_uring:16 \
		"$5:randrw:io_uring:16"
}
peer_rand() { have fio || return 0; fio_rand fio.rr fio.read32 fio.write32 fio.aio32 fio.mix; }
# PEERS_AA=1: bakeoff's half is fio's rows again, under bakeoff's keys
[ "$AA" = 1 ] && bk_rand() { have fio || return 0; fio_rand rand.r rand.read32 rand.write32 rand.aio32 rand.mix; }
# Before each bonnie: memory at rest (PEERS_SETTLE seconds, default 30). A
# guest whose balloon reports free pages (virtio-balloon free page
# reporting) hands freed memory back to the host, and touching it again
# costs a host fault per page: bonnie++'s 4 GiB block write ran 1.2-1.7x
# as fast right after another 4 GiB bonnie as after fio, with 8 s between
# them, and the same after either with 30 s (docs/peers.md).
# The half before has synced already.
settle() {
	sleep "${PEERS_SETTLE:-30}"
}
bk_bonnie() {
	settle
	# --no-char: no putc or getc, as bonnie++ -f
	bk_run --size "${BSIZE}M" --files 16 --no-char disk.bonnie
	for t in write rewrite read "seq create"; do
		bkm "$TMP/b.json" "bon.$(echo "$t" | tr ' ' _)" disk.bonnie "$t"
	done
	done_half
}
peer_bonnie() {
	have bonnie++ || return 0
	settle
	# -f: no per-character tests (bonnie++ 2.00a's take a syscall per
	# byte); the CSV line's K/sec (2^10) to MB/s; "+++++" is left out.
	bonnie++ -d "$DDIR" -s "$BSIZE" -r "$((BSIZE / 2))" -n 16 -f -q -u "$(id -u):$(id -g)" \
		2>/dev/null | tail -n 1 >"$TMP/bon"
	put bonnie.write "$(awk -F, '$12 ~ /^[0-9]/ { printf "%.1f", $12 * 1.024 / 1000 }' "$TMP/bon")"
	put bonnie.rewrite "$(awk -F, '$14 ~ /^[0-9]/ { printf "%.1f", $14 * 1.024 / 1000 }' "$TMP/bon")"
	put bonnie.read "$(awk -F, '$18 ~ /^[0-9]/ { printf "%.1f", $18 * 1.024 / 1000 }' "$TMP/bon")"
	put bonnie.create "$(awk -F, '$27 ~ /^[0-9]/ { print $27 }' "$TMP/bon")"
	done_half
}
[ "$ONLY" = nodisk ] || [ "$IOZONLY" = 1 ] || echo "disk peers in $DDIR: fio on ${DSIZE} MiB, bonnie++ on ${BSIZE} MiB, $DROUNDS rounds ..."
r=1
{ [ "$ONLY" = nodisk ] || [ "$IOZONLY" = 1 ]; } && r=$((DROUNDS + 1))
while [ "$r" -le "$DROUNDS" ]; do
	echo "disk round $r of $DROUNDS ($(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo ?) load) ..."
	mark=$(wc -l <"$TMP/vals")
	# Each pair's order alternates between rounds (bakeoff first in odd
	# rounds, the peer first in even ones), so that what one tool leaves
	# behind for the next (blocks freed and trimmed, the host's cache and
	# its write-back) falls on both sides alike.
	if [ $((r % 2)) = 1 ]; then
		for p in $DPAIRS; do "bk_$p"; "peer_$p"; done
	else
		for p in $DPAIRS; do "peer_$p"; "bk_$p"; done
	fi
	round_figures "$mark"
	r=$((r + 1))
done

# ---- iozone 3, built from the source PEERS_IOZONE names (never committed) ----
# For each test, the median over the cells of files of 1 MiB and more
# (smaller ones take under a millisecond, within the timer's and one
# fsync's reach) of the cell's figure, in MB/s (iozone's kB/s are 1024
# bytes). iozone times one pass a cell, bakeoff takes the median of its
# passes (docs/peers.md).
IOZ=
WHY_IOZ="PEERS_IOZONE not set (an iozone 3 source tree: iozone.org's iozone3_*.tar, or a mirror)"
if [ -n "${PEERS_IOZONE:-}" ] && [ "$ONLY" != nodisk ] && [ "$PAIRONLY" = 0 ]; then
	for d in "$PEERS_IOZONE" "$PEERS_IOZONE/src" "$PEERS_IOZONE/src/current"; do
		[ -f "$d/iozone.c" ] && IOZSRC=$d && break
	done
	if [ -z "${IOZSRC:-}" ]; then
		WHY_IOZ="no iozone.c in $PEERS_IOZONE, its src or src/current"
	else
		mkdir -p "$TMP/iozone" && cp "$IOZSRC"/*.c "$IOZSRC"/makefile "$TMP/iozone/" 2>/dev/null
		case $(uname -m) in x86_64) _t=linux-AMD64 ;; aarch64) _t=linux-arm ;; *) _t=linux ;; esac
		if (cd "$TMP/iozone" && make "$_t") >"$TMP/ioz.err" 2>&1 && [ -x "$TMP/iozone/iozone" ]; then
			IOZ=$TMP/iozone/iozone
		else
			WHY_IOZ="iozone did not build (make $_t in a copy of $IOZSRC): $(grep -m1 -i error "$TMP/ioz.err")"
		fi
	fi
fi
IOZTESTS="write rewrite read reread random_read random_write bkwd_read record_rewrite stride_read fwrite frewrite fread freread"
# ioz_figs TABLE — each test's figure from iozone's auto-mode table
ioz_figs() {
	perl -e 'my @t = @ARGV; my @c;
		while (<STDIN>) { next unless /^\s+(\d+)\s+(\d+)((\s+\d+){13})\s*$/ && $1 >= 1024;
			my @v = split " ", $3; push @{$c[$_]}, $v[$_] for 0 .. 12 }
		for my $i (0 .. 12) { my @s = sort { $a <=> $b } @{$c[$i] // []}; next unless @s;
			my $m = @s % 2 ? $s[$#s / 2] : ($s[@s / 2 - 1] + $s[@s / 2]) / 2;
			printf "ioz.%s %.1f\n", $t[$i], $m * 1.024 / 1000 }' $IOZTESTS <"$1" >>"$TMP/vals"
}
# bakeoff's from its result file: the median over the same cells of each
# cell's figure, and (as KEY.tw) of each cell's total bytes / total time,
# the expected figure of one pass, which is what iozone's one pass samples.
ioz_bakeoff() {
	rm -f "$TMP/iozb.json"
	"$BAKEOFF" run -q iozone --dir "$DDIR" -o "$TMP/iozb.json" >/dev/null 2>&1
	perl -MJSON::PP -e '
		local $/; open my $f, "<", shift or exit; my $r = decode_json(<$f>); my %t = map { (my $n = $_) =~ tr/_/ /; ($n, $_) } @ARGV;
		my (%m, %w);
		for my $b (@{$r->{benchmarks}}) { next unless $b->{id} eq "disk.iozone";
			for my $x (@{$b->{metrics}}) { next unless $x->{name} =~ /^(.*), (\d+) kB, reclen \d+ kB$/ && $2 >= 1024 && $t{$1};
				push @{$m{$1}}, $x->{median}; my ($a, $s) = (0, 0);
				for my $i (0 .. $#{$x->{samples}}) { $a += $x->{amounts}[$i]; $s += $x->{amounts}[$i] / $x->{samples}[$i] }
				push @{$w{$1}}, $a / $s if $s } }
		sub med { my @s = sort { $a <=> $b } @_; @s % 2 ? $s[$#s / 2] : ($s[@s / 2 - 1] + $s[@s / 2]) / 2 }
		for my $n (sort keys %m) { printf "bk.ioz.%s %.1f\nbk.ioz.%s.tw %.1f\n", $t{$n}, med(@{$m{$n}}), $t{$n}, med(@{$w{$n}}) }' \
		"$TMP/iozb.json" $IOZTESTS >>"$TMP/vals"
	sync
}
ioz_peer() {
	(cd "$DDIR" && "$IOZ" -a -g 4m -e -f iozone.tmp) >"$TMP/iozp" 2>&1 && ioz_figs "$TMP/iozp"
	rm -f "$DDIR/iozone.tmp"
	sync
}
if [ -n "$IOZ" ]; then
	echo "iozone 3 in $DDIR: -a -g 4m -e beside bakeoff run iozone, $ROUNDS rounds ..."
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		if [ $((r % 2)) = 1 ]; then ioz_bakeoff; ioz_peer; else ioz_peer; ioz_bakeoff; fi
		r=$((r + 1))
	done
fi
# ---- end disk ----

# PEERS_VALS=FILE: a copy of every round's figures as they were taken
# ("KEY VALUE" lines in order), to see the pairs behind a median
[ -n "${PEERS_VALS:-}" ] && cp "$TMP/vals" "$PEERS_VALS"
# several files: a "peers.file" line before each, where order() starts
# counting rounds again
if [ -n "$FROM" ]; then
	for f in $FROM; do echo "peers.file $f"; cat "$f"; done >"$TMP/vals"
fi
# line FIGURE BAKEOFF_KEY UNIT PEER_KEY PEER_NAME WHY_MISSING
line() {
	order "$1" "$2" "$4"
	shared "$1" "$2"
	b=$(median "$2")
	p=$(median "$4")
	rr=$(rmedian "$2" "$4")	# else the ratio of the medians, marked *
	[ -n "$rr" ] || rr=$(awk -v b="$b" -v p="$p" 'BEGIN { if (b != "" && p > 0) printf "%.17g*", b / p }')
	outside "$1" "$4" "${rr%\*}"
	awk -v f="$1" -v id="$2" -v b="$b" -v cv="$(median "$2.cv")" -v tw="$(median "$2.tw")" \
		-v rr="$rr" -v u="$3" -v pn="$5" -v p="$p" -v why="$6" 'BEGIN {
		sub(/^pin\./, "ipc.", id); sub(/pipe$/, "pipe.lat --pin", id); sub(/bw2$/, "bw --streams 2", id); sub(/bw1cpu$/, "bw, 1 CPU", id); sub(/^mem\.frd$/, "mem.bw.read:frd", id); sub(/^mem\.fwr$/, "mem.bw.write:fwr", id)
		sub(/^pk\.all$/, "mem.peak", id); sub(/^pk\.one$/, "mem.peak:read/1", id)
		printf "%-24s %-18s %8s %-4s %6s %8s   %-36s ", f, id, b == "" ? "-" : sprintf("%.4g", b), u, cv == "" ? "-" : sprintf("%5.1f%%", cv),
			tw == "" ? "-" : sprintf("%8.4g", tw), pn
		if (p == "")
			printf "skipped: %s\n", why
		else
			printf "%8.4g %-4s %5s %5s\n", p, u, rr == "" ? "-" : sprintf("%.2f%s", rr, rr ~ /\*$/ ? "*" : ""),
				(tw != "" && p > 0) ? sprintf("%.2f", tw / p) : "-" }'
}

# a PEERS_AA=1 run (this one, or the one PEERS_FROM kept) says so first
grep -qx 'aa 1' "$TMP/vals" 2>/dev/null && AA=1
if [ "$AA" = 1 ]; then
	echo
	echo "PEERS_AA=1: fio against itself. The \"bakeoff\" column is a second fio run in bakeoff's"
	echo "place (its rows, its keys, its turn in each round): how far a perfect match falls from"
	echo "1.00 on this device in this many rounds (docs/peers.md, \"fio against itself\")."
fi
echo
printf '%-24s %-18s %13s %6s %8s   %-36s %13s %5s %5s\n' "figure" "bakeoff id" "bakeoff" "CV" "mean" \
	"peer" "peer" "ratio" "mean"
if [ "$ONLY" != disk ] && [ "$LMBONLY" = 0 ]; then
nope="perf bench (Debian linux-perf) not installed or not permitted"
line "null syscall (getppid)" proc.syscall.null ns perf.syscall "perf bench syscall basic" "$nope"
line "pipe round trip" ipc.pipe.lat us perf.pipe "perf bench sched pipe" "$nope"
line "pipe round trip, 1 CPU" pin.pipe us perf.pinpipe "taskset -c 0 perf bench sched pipe" "$nope (or no taskset)"
line "memcpy ${MEM} MiB" mem.bw.copy MB/s perf.memcpy "perf bench mem memcpy" "$nope"
line "memcpy ${MEM} MiB" mem.bw.copy MB/s mbw.memcpy "mbw -t0 (memcpy)" "mbw not installed (apt-get install mbw)"
line "hand copy loop ${MEM} MiB" mem.bw.copy_hand MB/s mbw.dumb "mbw -t1 (dumb loop)" "mbw not installed"
line "STREAM copy" mem.stream.copy MB/s likwid.copy "likwid-bench -t copy (1 thread)" "$WHY_LIKWID"
line "STREAM triad" mem.stream.triad MB/s likwid.triad "likwid-bench -t stream (1 thread)" "$WHY_LIKWID"
line "STREAM copy" mem.stream.copy MB/s likwid.copysse "likwid-bench -t copy_sse (1 thread)" "$WHY_LIKWID"
line "STREAM triad" mem.stream.triad MB/s likwid.triadsse "likwid-bench -t stream_sse (1 thread)" "$WHY_LIKWID"
line "peak read, $NCPU CPUs" pk.all MB/s likwid.loadN "likwid-bench -t load, $NCPU threads" "$WHY_LIKWID"
line "peak read, 1 CPU" pk.one MB/s likwid.load1 "likwid-bench -t load, 1 thread" "$WHY_LIKWID"
line "peak read, $NCPU CPUs" pk.all MB/s likwid.sseN "likwid-bench -t load_sse, $NCPU threads" "$WHY_LIKWID"
line "peak read, 1 CPU" pk.one MB/s likwid.sse1 "likwid-bench -t load_sse, 1 thread" "$WHY_LIKWID"
line "sequential write" mem.bw.write MB/s sysbench.write "sysbench memory --memory-oper=write" "sysbench not installed (apt-get install sysbench)"
line "sequential read" mem.bw.read MB/s sysbench.read "sysbench memory --memory-oper=read" "sysbench not installed"
line "TCP loopback, 128 KiB" net.tcp.bw MB/s iperf3.1 "iperf3 -l 128K -t $NETSECS -O $NETOMIT (receiver)" "iperf3 not installed (apt-get install iperf3)"
line "TCP loopback, both on CPU 0" net.tcp.bw1cpu MB/s iperf3.1cpu "iperf3 -A 0,0 (taskset -c 0 bakeoff)" "iperf3 not installed, or no taskset"
line "TCP loopback, 2 streams" net.tcp.bw2 MB/s iperf3.2 "iperf3 -P 2 (receiver)" "iperf3 not installed"
line "TCP 1-byte round trip" net.tcp.lat us qperf.tcp_lat "qperf tcp_lat x 2" "qperf not installed (apt-get install qperf)"
line "UDP 1-byte round trip" net.udp.lat us qperf.udp_lat "qperf udp_lat x 2" "qperf not installed"
line "UDP round trip" net.udp.lat us sockperf.udp "sockperf ping-pong x 2 (14 B)" "sockperf not installed (apt-get install sockperf)"
line "make, 6 C files" time s hyperfine.make "hyperfine -N -r 5 --prepare 'make clean'" \
	"hyperfine not installed (apt-get install hyperfine), or no make or cc"
fi
if [ "$ONLY" != disk ]; then
line "select, 100 file fds" proc.select.file us lmb.proc.select.file "lmbench lat_select -n 100 file" "$(whylmb new proc.select.file)"
line "select, 100 TCP fds" proc.select.tcp us lmb.proc.select.tcp "lmbench lat_select -n 100 tcp" "$(whylmb new proc.select.tcp)"
line "SysV semaphore handoff" ipc.sem.lat us lmb.ipc.sem.lat "lmbench lat_sem" "$(whylmb new ipc.sem.lat)"
line "fcntl lock handoff" ipc.fcntl.lat us lmb.ipc.fcntl.lat "lmbench lat_fcntl" "$(whylmb new ipc.fcntl.lat)"
line "AF_UNIX connect" ipc.unix.connect us lmb.ipc.unix.connect "lmbench lat_unix_connect" "${WHY_UC:-$(whylmb new ipc.unix.connect)}"
echo "$LMB_MICRO" | while IFS='|' read -r key scale cmd col pin; do
	u=us
	[ "$scale" = 1000 ] && u=ns
	case $cmd in bw_*) u=MB/s ;; esac
	[ "$pin" = pin ] && [ -n "$pin0" ] && col="$col, CPU 0"
	line "$col" "$key" "$u" "lmb.$key" "lmbench $(echo "$cmd" | sed 's| LMBFILE| (scratch file)|')" "$(whylmb micro "$key")"
done
line "Mem read (lmbench frd)" mem.frd MB/s lmb.mem.frd "lmbench bw_mem ${MEM}m frd (built -O)" "$(whylmb mem)"
line "Mem write (lmbench fwr)" mem.fwr MB/s lmb.mem.fwr "lmbench bw_mem ${MEM}m fwr (built -O)" "$(whylmb mem)"
_m=$(median mlp.size)
line "memory-level parallelism" mem.mlp load lmb.mem.mlp "lmbench par_mem -L 64 -M ${_m:+$((_m >> 20))M} (last size)" "$(whylmb mlp)"
line "file create, 0 KB" fs.create.0k f/s lmb.fs.create.0k "lmbench lat_fs -s 0 (creates/s)" "$WHY_LMBFS"
line "file delete, 0 KB" fs.delete.0k f/s lmb.fs.delete.0k "lmbench lat_fs -s 0 (deletes/s)" "$WHY_LMBFS"
line "file create, 10 KB" fs.create.10k f/s lmb.fs.create.10k "lmbench lat_fs -s 10k (creates/s)" "$WHY_LMBFS"
line "file delete, 10 KB" fs.delete.10k f/s lmb.fs.delete.10k "lmbench lat_fs -s 10k (deletes/s)" "$WHY_LMBFS"
fi
if [ "$ONLY" != nodisk ] && [ "$IOZONLY" = 0 ]; then
# disk
nofio="fio not installed (apt-get install fio)"
nobon="bonnie++ not installed (apt-get install bonnie++), or under half a second (+++++)"
if dpair seq; then
line "seq write 1M direct" seq.w MB/s fio.w "fio rw=write bs=1M direct end_fsync fallocate=none scramble_buffers=0, THP" "$nofio"
line "seq read 1M direct" seq.r MB/s fio.r "fio rw=read bs=1M direct=1, THP buffer" "$nofio"
fi
if dpair rand; then
line "4k random read QD1" rand.r IOPS fio.rr "fio randread bs=4k direct=1 psync" "$nofio"
line "4k rand read QD32" rand.read32 IOPS fio.read32 "fio randread io_uring QD32 fixedbufs" "$nofio (or no io_uring here)"
line "  its p50 latency" rand.read32.p50 us fio.read32.p50 "fio lat (submission to completion)" "$nofio"
line "  its p99 latency" rand.read32.p99 us fio.read32.p99 "fio lat p99" "$nofio"
line "4k rand write QD32" rand.write32 IOPS fio.write32 "fio randwrite io_uring QD32 fixedbufs, unscrambled" "$nofio (or no io_uring here)"
line "  its p50 latency" rand.write32.p50 us fio.write32.p50 "fio lat (submission to completion)" "$nofio"
line "  its p99 latency" rand.write32.p99 us fio.write32.p99 "fio lat p99" "$nofio"
line "4k rand read QD32, aio" rand.aio32 IOPS fio.aio32 "fio randread posixaio iodepth=32" "$nofio"
line "70/30 mix QD16: reads" rand.mixr IOPS fio.mixr "fio randrw 70% io_uring QD16 fixedbufs, unscrambled" "$nofio (or no io_uring here)"
line "  their p50 latency" rand.mixr.p50 us fio.mixr.p50 "fio lat" "$nofio"
line "70/30 mix QD16: writes" rand.mixw IOPS fio.mixw "fio randrw 70% io_uring QD16 fixedbufs, unscrambled" "$nofio (or no io_uring here)"
line "  their p50 latency" rand.mixw.p50 us fio.mixw.p50 "fio lat" "$nofio"
fi
if dpair bonnie; then
line "bonnie block write" bon.write MB/s bonnie.write "bonnie++ -f (K/sec x 0.001024)" "$nobon"
line "bonnie rewrite" bon.rewrite MB/s bonnie.rewrite "bonnie++ -f (K/sec x 0.001024)" "$nobon"
line "bonnie block read" bon.read MB/s bonnie.read "bonnie++ -f (K/sec x 0.001024)" "$nobon"
line "bonnie seq create" bon.seq_create f/s bonnie.create "bonnie++ -n 16" "$nobon"
fi
fi
if [ "$ONLY" != nodisk ] && [ "$PAIRONLY" = 0 ]; then
for t in $IOZTESTS; do
	line "iozone $(echo "$t" | tr _ ' ')" "bk.ioz.$t" MB/s "ioz.$t" "iozone -a -g 4m -e, files >= 1 MiB" "$WHY_IOZ"
done
fi
if [ -s "$TMP/outside" ]; then
	echo
	echo "Rows outside 0.9-1.1 (latency percentiles: 0.8-1.25), each with its cause as docs/peers.md"
	echo "measured it (the section in quotes), or none yet:"
	printf '%-24s %-20s %5s  %s\n' "figure" "peer" "ratio" "cause"
	cat "$TMP/outside"
fi
if [ -s "$TMP/shared" ]; then
	echo
	echo "Rounds in which bakeoff's figure ran on a shared core: its core gauge read 1.1x or more of"
	echo "the quietest reading of this run ($(awk '$1 ~ /\.gauge$/ && $2 > 0 && (q == "" || $2 < q + 0) { q = $2 } END { printf "%.2f", q }' "$TMP/vals")): another thread took issue slots of its core"
	echo "(the host's, on a vCPU's hyperthread). The peer reads no gauge: its round may or may not"
	echo "have shared the core."
	printf '%-24s %-18s %8s  %s\n' "figure" "bakeoff id" "rounds" "which (gauge)"
	cat "$TMP/shared"
fi
if [ -s "$TMP/order" ]; then
	echo
	echo "Rows whose ratio moved 10% or more with the order within a round (the median of the"
	echo "rounds' ratios with bakeoff first, the odd rounds, and with the peer first, and how many;"
	echo "both orders alike: their geometric mean). Single rounds swing too: a row here is a"
	echo "question, not yet a cause."
	printf '%-24s %-18s %11s %11s %6s\n' "figure" "peer" "bk first" "peer first" "alike"
	cat "$TMP/order"
fi
echo
if [ -n "$FROM" ]; then
	echo "Each figure is the median of the rounds in $FROM, each pair run bakeoff first in odd"
else
	echo "Each figure is the median of $ROUNDS rounds (disk: $DROUNDS), each pair run bakeoff first in odd"
fi
echo "rounds and the peer first in even ones. bakeoff: its figure (the median of its"
echo "samples) and CV; mean: the same samples as total work / total time, the statistic the"
echo "peers print. ratio = the median of the rounds' bakeoff / peer (* where a round lacked one"
echo "side: the ratio of the two medians), mean = mean / peer, in the same unit"
echo "(MB = 10^6 bytes; perf's GiB/s and mbw's and sysbench's MiB/s converted; likwid-bench's"
echo "MByte/s: its copy and stream kernels count bytes as STREAM does, 16 and 24 per element)."
echo "Network (loopback, ${NETSECS} s each; TCP streams: 128 KiB writes, first ${NETOMIT} s left out on both sides):"
echo "iperf3's bits/s / 8e6 = MB/s; qperf and sockperf print"
echo "one-way latency (half a round trip), doubled here to bakeoff's round trip."
echo "docs/peers.md explains where and why the figures differ."
