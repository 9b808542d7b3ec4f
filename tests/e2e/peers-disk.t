#!/bin/sh
# peers-disk.t — scripts/peers.sh's disk pairs chosen by PEERS_ONLY: seq
# runs only the disk.seq pairs against fio, both orders (two rounds, 8 MiB
# files), prints only their rows, and leaves its directory empty; an
# unknown PEERS_ONLY is one line on stderr and exit 2. Needs fio (skipped
# visibly otherwise).
. tests/e2e/lib.sh
mkdir "$TMP/d"
(cd "$TMP/d" && PEERS_ONLY=nonsense sh "$OLDPWD/scripts/peers.sh") >"$TMP/bad.out" 2>"$TMP/bad.err"
rc=$?
check "an unknown PEERS_ONLY: exit 2 (was $rc)" [ "$rc" = 2 ]
check "... with one line on stderr naming the choices" \
	sh -c '[ "$(wc -l <"$1")" = 1 ] && grep -q "PEERS_ONLY is disk, nodisk, rand, seq" "$1"' _ "$TMP/bad.err"
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
