#!/bin/sh
# peers-disk.t — scripts/peers.sh's disk pairs chosen by PEERS_ONLY: seq
# runs only the disk.seq pairs against fio, both orders (two rounds, 8 MiB
# files), prints only their rows, and leaves its directory empty; an
# unknown PEERS_ONLY is one line on stderr and exit 2; PEERS_FROM prints
# kept rounds' table, naming the rows outside 0.9-1.1 with their causes.
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
	'mem.stream.triad 12000' 'likwid.triad 10000' 'mem.stream.triad 12100' 'likwid.triad 10100' \
	'proc.syscall.null 100' 'perf.syscall 98' 'proc.syscall.null 101' 'perf.syscall 99' >"$TMP/vals"
(cd "$TMP/d" && PEERS_ONLY=nodisk PEERS_FROM="$TMP/vals" BAKEOFF=$BAKEOFF sh "$OLDPWD/scripts/peers.sh") >"$TMP/from" 2>&1
ok $? "PEERS_FROM: exit 0"
check "no round was run" sh -c '! grep -q "^round " "$1"' _ "$TMP/from"
check "the rows from the file, with their ratios (1.27, 1.20, 1.02)" \
	sh -c 'grep -Eq "^pipe round trip .* 1\.27 " "$1" && grep -Eq "^STREAM triad .* 1\.20 " "$1" && grep -Eq "^null syscall .* 1\.02 " "$1"' _ "$TMP/from"
check "outside 0.9-1.1: the pipe with its cause and section, STREAM triad with none" \
	sh -c 'grep -Eq "^pipe round trip +perf\.pipe +1\.27  unpinned.*\(\"Cross-CPU wake-ups\"\)$" "$1" &&
		grep -Eq "^STREAM triad +likwid\.triad +1\.20  NO MEASURED CAUSE YET$" "$1" &&
		! grep -Eq "^null syscall +perf\.syscall " "$1"' _ "$TMP/from"
(cd "$TMP/d" && PEERS_FROM="$TMP/none" sh "$OLDPWD/scripts/peers.sh") >/dev/null 2>"$TMP/bad.err"
rc=$?
check "PEERS_FROM unreadable: exit 2 (was $rc), one line" sh -c '[ "$1" = 2 ] && [ "$(wc -l <"$2")" = 1 ]' _ "$rc" "$TMP/bad.err"
[ "$FAILED" = 0 ] || sed 's/^/# /' "$TMP/from"
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
