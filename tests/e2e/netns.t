#!/bin/sh
# netns.t — a remote peer for real: two network namespaces joined by a veth
# pair (10.203.0.1 and .2, addresses that exist only inside them), `bakeoff
# serve` in one, `bakeoff run --peer` in the other. Needs root and `ip`
# (iproute2); skipped visibly otherwise. Everything is torn down on exit,
# whether the test passed or not.
. tests/e2e/lib.sh
[ "$(id -u)" = 0 ] || skip_all "needs root to create network namespaces"
command -v ip >/dev/null 2>&1 || skip_all "needs ip (Debian iproute2)"
A=bo-srv-$$
B=bo-cli-$$
SRV=
teardown() {
	[ -n "$SRV" ] && kill -TERM "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$TMP"
}
trap teardown EXIT
trap 'exit 130' INT TERM
ip netns add "$A" 2>"$TMP/err" || skip_all "cannot create a network namespace: $(head -n 1 "$TMP/err")"
ip netns add "$B"
ip link add "v$$a" type veth peer name "v$$b" 2>"$TMP/err" || skip_all "no veth here: $(head -n 1 "$TMP/err")"
ip link set "v$$a" netns "$A"
ip link set "v$$b" netns "$B"
ip -n "$A" addr add 10.203.0.1/24 dev "v$$a"
ip -n "$B" addr add 10.203.0.2/24 dev "v$$b"
for n in "$A" "$B"; do
	ip -n "$n" link set lo up
done
ip -n "$A" link set "v$$a" up
ip -n "$B" link set "v$$b" up
ip netns exec "$A" "$BAKEOFF" serve --listen 10.203.0.1:5511 --token nstest 2>"$TMP/log" &
SRV=$!
sleep 0.5
mkdir "$TMP/s"
ip netns exec "$B" "$BAKEOFF" run -q --quick --peer 10.203.0.1 --token nstest --nbuf 256 \
	--dir "$TMP/s" -o "$TMP/r.json" net.tcp.bw net.tcp.lat net.udp.lat >/dev/null 2>"$TMP/err"
ok $? "run --peer across the veth pair exits 0"
for id in net.tcp.bw net.tcp.lat net.udp.lat; do
	check "$id is ok across namespaces" [ "$(status "$TMP/r.json" $id)" = ok ]
	check "$id ran against 10.203.0.1" [ "$(jget "$TMP/r.json" "bench('$id')->{params}{peer_address}")" = 10.203.0.1:5511 ]
done
check "the server logged the client's address" grep -q '10\.203\.0\.2:[0-9]* tcp_bw .* ok' "$TMP/log"
done_testing
