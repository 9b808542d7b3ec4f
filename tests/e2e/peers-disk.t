#!/bin/sh
# peers-disk.t — scripts/peers.sh's disk pairs chosen by PEERS_ONLY: seq
# runs only the disk.seq pairs against fio, both orders (two rounds, 8 MiB
# files), prints only their rows, and leaves its directory empty; an
# unknown PEERS_ONLY is one line on stderr and exit 2; PEERS_FROM prints
# kept rounds' table, naming the rows outside 0.9-1.1 with their causes,
# an A/A run's (PEERS_AA=1: fio against itself) as such, and several
# files' rounds pooled.
# Needs fio (skipped visibly otherwise).
. tests/e2e/lib.sh
mkdir "$TMP/d"
(cd "$TMP/d" && PEERS_ONLY=nonsense sh "$OLDPWD/scripts/peers.sh") >"$TMP/bad.out" 2>"$TMP/bad.err"
rc=$?
check "an unknown PEERS_ONLY: exit 2 (was $rc)" [ "$rc" = 2 ]
check "... with one line on stderr naming the choices" \
	sh -c '[ "$(wc -l <"$1")" = 1 ] && grep -q "PEERS_ONLY is disk, nodisk, rand, seq" "$1"' _ "$TMP/bad.err"
# PEERS_FROM: the table of kept rounds, nothing run; a row outside 0.9-1.1
# is named under it with its measured cause, or as having none
printf '%s\n' 'ipc.pipe.lat 100' 'perf.pipe 80' 'ipc.pipe.lat 104' 'perf.pipe 81' \
	'mem.stream.triad 12000' 'likwid.triadsse 10000' 'mem.stream.triad 12100' 'likwid.triadsse 10100' \
	'proc.syscall.null 100' 'perf.syscall 98' 'proc.syscall.null 101' 'perf.syscall 99' >"$TMP/vals"
(cd "$TMP/d" && PEERS_ONLY=nodisk PEERS_FROM="$TMP/vals" BAKEOFF=$BAKEOFF sh "$OLDPWD/scripts/peers.sh") >"$TMP/from" 2>&1
ok $? "PEERS_FROM: exit 0"
check "no round was run" sh -c '! grep -q "^round " "$1"' _ "$TMP/from"
check "the rows from the file, with their ratios (1.27, 1.20, 1.02)" \
	sh -c 'grep -Eq "^pipe round trip .* 1\.27 " "$1" && grep -Eq "^STREAM triad .* 1\.20 " "$1" && grep -Eq "^null syscall .* 1\.02 " "$1"' _ "$TMP/from"
check "outside 0.9-1.1: the pipe with its cause and section, STREAM triad with none" \
	sh -c 'grep -Eq "^pipe round trip +perf\.pipe +1\.27  unpinned.*\(\"Cross-CPU wake-ups\"\)$" "$1" &&
		grep -Eq "^STREAM triad +likwid\.triadsse +1\.20  NO MEASURED CAUSE YET$" "$1" &&
		! grep -Eq "^null syscall +perf\.syscall " "$1"' _ "$TMP/from"
(cd "$TMP/d" && PEERS_FROM="$TMP/none" sh "$OLDPWD/scripts/peers.sh") >/dev/null 2>"$TMP/bad.err"
rc=$?
check "PEERS_FROM unreadable: exit 2 (was $rc), one line" sh -c '[ "$1" = 2 ] && [ "$(wc -l <"$2")" = 1 ]' _ "$rc" "$TMP/bad.err"
# PEERS_AA=1: fio against itself, said above the table, and a row outside
# 0.9-1.1 then is the device's spread, not a cause to look for
printf '%s\n' 'aa 1' 'rand.read32 50000' 'fio.read32 40000' 'rand.read32 50500' 'fio.read32 40400' >"$TMP/aa"
(cd "$TMP/d" && PEERS_ONLY=rand PEERS_FROM="$TMP/aa" BAKEOFF=$BAKEOFF sh "$OLDPWD/scripts/peers.sh") >"$TMP/aa.out" 2>&1
ok $? "PEERS_FROM with an A/A run's rounds: exit 0"
check "the table says the bakeoff column is fio's second run" grep -q '^PEERS_AA=1: fio against itself' "$TMP/aa.out"
check "its row outside 0.9-1.1 is named as fio against itself" \
	grep -Eq '^4k rand read QD32 +fio\.read32 +1\.25  fio against itself' "$TMP/aa.out"
check "no A/A note on a run that was not one" sh -c '! grep -q "fio against itself" "$1"' _ "$TMP/from"
# PEERS_FROM with two files pools their rounds, and each file's first round
# is a bakeoff-first one: three rounds each, bakeoff 1.5x the peer in the
# bakeoff-first rounds (1, 3) and 1.0x in the other, so the order note
# reads 1.50 over four rounds and 1.00 over two
for f in p1 p2; do
	printf '%s\n' 'mem.stream.triad 15000' 'likwid.triad 10000' 'mem.stream.triad 10000' 'likwid.triad 10000' \
		'mem.stream.triad 15000' 'likwid.triad 10000' >"$TMP/$f"
done
(cd "$TMP/d" && PEERS_ONLY=nodisk PEERS_FROM="$TMP/p1 $TMP/p2" BAKEOFF=$BAKEOFF sh "$OLDPWD/scripts/peers.sh") >"$TMP/pool" 2>&1
ok $? "PEERS_FROM with two files: exit 0"
check "their six rounds pooled (ratio 1.50), each file's first round bakeoff-first (4 and 2)" \
	sh -c 'grep -Eq "^STREAM triad +mem\.stream\.triad .* 1\.50 " "$1" &&
		grep -Eq "^STREAM triad +likwid\.triad +1\.50 \( 4\) +1\.00 \( 2\) +1\.22$" "$1"' _ "$TMP/pool"
(cd "$TMP/d" && PEERS_AA=1 PEERS_ONLY=seq sh "$OLDPWD/scripts/peers.sh") >/dev/null 2>"$TMP/bad.err"
rc=$?
check "PEERS_AA=1 without PEERS_ONLY=rand: exit 2 (was $rc), one line" \
	sh -c '[ "$1" = 2 ] && [ "$(wc -l <"$2")" = 1 ] && grep -q "PEERS_ONLY=rand" "$2"' _ "$rc" "$TMP/bad.err"
check "nothing left in the directory" [ -z "$(ls -A "$TMP/d")" ]
[ "$FAILED" = 0 ] || sed 's/^/# /' "$TMP/from" "$TMP/aa.out" "$TMP/pool"
if ! command -v fio >/dev/null 2>&1; then
	skip "fio not installed (Debian fio): PEERS_ONLY=seq not run"
	done_testing
	exit
fi
(cd "$TMP/d" && PEERS_ONLY=seq PEERS_DISK_SIZE=8 PEERS_DISK_ROUNDS=2 BAKEOFF=$BAKEOFF \
	sh "$OLDPWD/scripts/peers.sh") >"$TMP/out" 2>&1
ok $? "PEERS_ONLY=seq with two rounds exits 0"
check "two disk rounds ran" [ "$(grep -c '^disk round' "$TMP/out")" = 2 ]
check "each round has the write pair and the read pair (bakeoff / fio = ratio)" \
	[ "$(grep -cE '^  seq\.[wr] [0-9.e+]+ / fio\.[wr] [0-9.e+]+ = [0-9.]+$' "$TMP/out")" = 4 ]
check "the table has the two sequential rows" \
	sh -c 'grep -q "^seq write 1M direct .* MB/s" "$1" && grep -q "^seq read 1M direct .* MB/s" "$1"' _ "$TMP/out"
check "and none of the other disk pairs' rows" \
	sh -c '! grep -qE "^(4k random read QD1|4k rand|70/30 mix|bonnie |iozone )" "$1"' _ "$TMP/out"
check "nothing left in the directory" [ -z "$(ls -A "$TMP/d")" ]
[ "$FAILED" = 0 ] || sed 's/^/# /' "$TMP/out"
done_testing
