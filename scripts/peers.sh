#!/bin/sh
# peers.sh — run established peers beside bakeoff, on the same machine in
# one go, and print both figures in the same unit with their ratio
# (bakeoff / peer). A peer that is not installed is skipped with a line
# saying so. Units: perf bench's "GB/sec" is 2^30 bytes/s; mbw and
# sysbench print MiB/s (2^20); bakeoff's MB/s is 10^6 bytes/s. Everything
# below is converted to bakeoff's unit before the ratio is taken.
#
#   BAKEOFF=./bakeoff sh scripts/peers.sh      (make peers does this)
#   PEERS_MEM=64M  buffer size for the memory figures (default 64M)
set -u
BAKEOFF=${BAKEOFF:-./bakeoff}
MEM=${PEERS_MEM:-64M}
MEM_MB=$(echo "$MEM" | sed 's/[Mm]$//')
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bakeoff-peers.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

have() { command -v "$1" >/dev/null 2>&1; }
perf_ok() { have perf && perf bench syscall basic -l 1000 >/dev/null 2>&1; }

echo "bakeoff peers on $(uname -n), $(date -u +%Y-%m-%dT%H:%M:%SZ); memory buffers $MEM"
echo "running bakeoff ..."
"$BAKEOFF" run -q --mem-size "$MEM" -o "$TMP/r.json" \
	proc.syscall.null ipc.pipe.lat mem.bw.copy mem.bw.copy_hand mem.bw.write mem.bw.read \
	>"$TMP/table" 2>"$TMP/err" || { cat "$TMP/err"; }

# bk ID — bakeoff's median for ID, or empty
bk() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or exit; my $r = decode_json(<$f>);
		for my $b (@{$r->{benchmarks}}) { next unless $b->{id} eq $ARGV[1] && $b->{status} eq "ok";
			for my $m (@{$b->{metrics}}) { print $m->{median} if $m->{name} eq "" } }' "$TMP/r.json" "$1"
}
bk_cv() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or exit; my $r = decode_json(<$f>);
		for my $b (@{$r->{benchmarks}}) { next unless $b->{id} eq $ARGV[1];
			for my $m (@{$b->{metrics}}) { printf "%.1f%%", 100 * $m->{cv} if $m->{name} eq "" } }' "$TMP/r.json" "$1"
}

ROWS=$TMP/rows
: >"$ROWS"
# row WHAT BAKEOFF_ID PEER_NAME PEER_VALUE UNIT
row() {
	b=$(bk "$2")
	echo "$1|$2|$b|$(bk_cv "$2")|$3|$4|$5" >>"$ROWS"
}
skip() {
	echo "$1|$2|$(bk "$2")|$(bk_cv "$2")|$3|skipped: $4|$5" >>"$ROWS"
}

echo "running peers ..."
if perf_ok; then
	# usecs/op of getppid(), best of 3 runs
	v=$(for i in 1 2 3; do perf bench syscall basic 2>/dev/null | awk '/usecs\/op/ {print $1 * 1000}'; done | sort -n | head -n 1)
	row "null syscall (getppid)" proc.syscall.null "perf bench syscall basic" "$v" ns
	# usecs/op of one pipe round trip between two processes
	v=$(perf bench sched pipe -l 200000 2>/dev/null | awk '/usecs\/op/ {print $1}')
	row "pipe round trip" ipc.pipe.lat "perf bench sched pipe" "$v" us
	# GB/sec = 2^30 bytes/s; best of 3
	v=$(for i in 1 2 3; do perf bench mem memcpy -f default -s "${MEM_MB}MB" -l 20 2>/dev/null | awk '/GB\/sec/ {printf "%.0f\n", $1 * 1073741824 / 1e6}'; done | sort -n | tail -n 1)
	row "memcpy $MEM" mem.bw.copy "perf bench mem memcpy" "$v" MB/s
else
	for id in proc.syscall.null:perf ipc.pipe.lat:perf mem.bw.copy:perf; do
		skip "${id%%:*}" "${id%%:*}" "perf bench" "perf (Debian linux-perf) not installed or not permitted" ""
	done
fi
if have mbw; then
	# MiB/s averages over 10 runs; -t0 memcpy, -t1 dumb (hand loop)
	v=$(mbw -q -n 10 -t0 "$MEM_MB" 2>/dev/null | awk '/^AVG/ {for (i = 1; i <= NF; i++) if ($i == "Copy:") printf "%.0f", $(i+1) * 1.048576}')
	row "memcpy $MEM" mem.bw.copy "mbw -t0 (memcpy)" "$v" MB/s
	v=$(mbw -q -n 10 -t1 "$MEM_MB" 2>/dev/null | awk '/^AVG/ {for (i = 1; i <= NF; i++) if ($i == "Copy:") printf "%.0f", $(i+1) * 1.048576}')
	row "hand copy loop $MEM" mem.bw.copy_hand "mbw -t1 (dumb loop)" "$v" MB/s
else
	skip "memcpy $MEM" mem.bw.copy "mbw" "mbw not installed (apt-get install mbw)" MB/s
fi
if have sysbench; then
	tot=$((MEM_MB * 64))
	for op in write read; do
		v=$(sysbench memory --memory-block-size="${MEM_MB}M" --memory-total-size="${tot}M" \
			--memory-oper=$op --memory-access-mode=seq run 2>/dev/null |
			sed -n 's/.*(\([0-9.]*\) MiB\/sec).*/\1/p' | awk '{printf "%.0f", $1 * 1.048576}')
		row "sequential $op $MEM" mem.bw.$op "sysbench memory --memory-oper=$op" "$v" MB/s
	done
else
	skip "sequential write" mem.bw.write "sysbench" "sysbench not installed (apt-get install sysbench)" MB/s
fi

echo
awk -F'|' '
BEGIN { printf "%-24s %-18s %12s %6s   %-36s %12s  %6s\n", "figure", "bakeoff id", "bakeoff", "CV", "peer", "peer", "ratio" }
{
	unit = $7
	if ($6 ~ /^skipped/) { printf "%-24s %-18s %10s %-3s %6s   %-36s %s\n", $1, $2, $3, unit, $4, $5, $6; next }
	ratio = ($3 != "" && $6 != "" && $6 > 0) ? sprintf("%.2f", $3 / $6) : "-"
	printf "%-24s %-18s %10.4g %-3s %6s   %-36s %10.4g %-4s %6s\n", $1, $2, $3, unit, $4, $5, $6, unit, ratio
}' "$ROWS"
echo
echo "ratio = bakeoff / peer in the same unit (MB = 10^6 bytes; peers' GiB/MiB converted)."
echo "See docs/peers.md for why the figures may differ."
