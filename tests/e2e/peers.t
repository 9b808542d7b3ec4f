#!/bin/sh
# peers.t — scripts/peers.sh (make peers) ends every peer server it started,
# on a normal exit and when stopped by a signal (issue 26: an iperf3 -s was
# left listening after PEERS_ONLY=nodisk). The script runs with no rounds,
# so only its setup and teardown are exercised, on loopback ports of the
# test's own. Needs iperf3, qperf or sockperf (skipped visibly otherwise).
. tests/e2e/lib.sh
S=
for p in iperf3 qperf sockperf; do
	command -v $p >/dev/null 2>&1 && S="$S $p"
done
[ -n "$S" ] || skip_all "no network peer installed (Debian iperf3, qperf, sockperf)"
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0")->sockport'
}
# servers PORT — the peer servers listening on PORT..PORT+2 (their pids)
servers() {
	for pid in $(pgrep -f "(iperf3|qperf|sockperf).*($1|$(($1 + 1))|$(($1 + 2)))" 2>/dev/null); do
		[ "$pid" != $$ ] && grep -q -e "$1" -e "$(($1 + 1))" -e "$(($1 + 2))" /proc/$pid/cmdline 2>/dev/null &&
			echo "$pid"
	done
}
mkdir "$TMP/d"

P=$(free_port)
(cd "$TMP/d" && PEERS_ONLY=nodisk PEERS_ROUNDS=0 PEERS_NET_PORT=$P BAKEOFF=$BAKEOFF \
	sh "$OLDPWD/scripts/peers.sh") >"$TMP/out" 2>&1
ok $? "peers.sh with no rounds exits 0"
sleep 0.3
left=$(servers "$P")
check "after a normal exit, no peer server is left ($S started; left: ${left:-none})" [ -z "$left" ]
[ -z "$left" ] || kill $left 2>/dev/null

P=$(free_port)
mkdir "$TMP/tmpd"
(cd "$TMP/d" && PEERS_ONLY=nodisk PEERS_ROUNDS=1 PEERS_NET_PORT=$P BAKEOFF=$BAKEOFF TMPDIR="$TMP/tmpd" \
	exec sh "$OLDPWD/scripts/peers.sh") >"$TMP/out2" 2>&1 &
pid=$!
i=0
while [ -z "$(servers "$P")" ] && [ $i -lt 50 ]; do
	i=$((i + 1))
	sleep 0.1
done
check "the servers were up" [ -n "$(servers "$P")" ]
# an edit to scripts/peers.sh during a run must not reach the run: it runs
# from a copy of its own, already unlinked
if [ -r /proc/$pid/cmdline ]; then
	script=$(tr '\0' ' ' </proc/$pid/cmdline | awk '{ print $2 }')
	case $script in
	"$TMP/tmpd/bakeoff-peers-sh."*) copy=1 ;;
	*) copy=0 ;;
	esac
	check "the run reads a private copy of the script (it runs: ${script:-?})" [ $copy = 1 ]
	check "the copy is unlinked while it runs" [ ! -e "$script" ]
else
	skip "no /proc/PID/cmdline to see which script the run reads"
	skip "no /proc/PID/cmdline to see which script the run reads"
fi
kill -TERM $pid
wait $pid
rc=$?
sleep 0.3
check "SIGTERM: exit 130 (was $rc)" [ "$rc" = 130 ]
left=$(servers "$P")
check "after SIGTERM, no peer server is left (left: ${left:-none})" [ -z "$left" ]
[ -z "$left" ] || kill $left 2>/dev/null
check "no directory left behind" [ -z "$(ls -A "$TMP/d")" ]
check "nothing left in TMPDIR ($(ls -A "$TMP/tmpd" | tr '\n' ' '))" [ -z "$(ls -A "$TMP/tmpd")" ]
done_testing
