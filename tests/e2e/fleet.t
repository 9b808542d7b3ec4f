#!/bin/sh
# fleet.t — bakeoff fleet for real, over OpenSSH: two sshd, each in a network
# namespace of its own (N1 10.204.1.2, N2 10.204.2.2), reached from a third
# (C, which routes between them) where fleet runs. Host and user keys are
# generated in the test's temporary directory; ssh reads only a config file
# there (-F), so nothing in ~/.ssh is read or written. The hosts are ssh
# aliases ns1, ns2 and ns3 (an address with no route: unreachable). Needs
# root, ip (iproute2), sshd and ssh-keygen (openssh-server, openssh-client);
# skipped visibly otherwise. Everything is torn down on exit.
#
# Both "hosts" are this machine, so the test proves the runs went through
# ssh: each sshd's log has the logins, from the controller's address on its
# side; the results carry the fleet host names; the remote temporary
# directories (TMPDIR, passed by ssh SetEnv) are in the test's directory and
# must be empty at the end.
. tests/e2e/lib.sh
[ "$(id -u)" = 0 ] || skip_all "needs root to create network namespaces"
command -v ip >/dev/null 2>&1 || skip_all "needs ip (Debian iproute2)"
SSHD=$(command -v sshd || ls /usr/sbin/sshd 2>/dev/null)
[ -n "$SSHD" ] || skip_all "needs sshd (Debian openssh-server)"
for c in ssh ssh-keygen; do
	command -v $c >/dev/null 2>&1 || skip_all "needs $c (Debian openssh-client)"
done
C=bo-fc-$$
N1=bo-f1-$$
N2=bo-f2-$$
PIDS=
RUNSSHD=
teardown() {
	for p in $PIDS; do
		kill -TERM "$p" 2>/dev/null
	done
	netns_remove "$N1" "$N2" "$C"
	[ -n "$RUNSSHD" ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$TMP"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# ---- the network: C routes between N1 and N2; nothing in the root namespace
routed_netns "$C" "$N1" "$N2" 10.204 f || skip_all "$NETNS_WHY"

# ---- keys, configs, two sshd
ssh-keygen -q -t ed25519 -N '' -f "$TMP/hostkey" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$TMP/userkey" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$TMP/badkey" >/dev/null	# not authorized
cp "$TMP/userkey.pub" "$TMP/authorized_keys"
echo "10.204.1.2,10.204.2.2 $(cat "$TMP/hostkey.pub")" >"$TMP/known_hosts"
mkdir "$TMP/r1" "$TMP/r2" "$TMP/w"
chmod 700 "$TMP/r1" "$TMP/r2"
if [ ! -d /run/sshd ]; then	# sshd's privilege separation directory
	mkdir -m 755 /run/sshd && RUNSSHD=1
fi
cat >"$TMP/sshd_config" <<EOF
Port 22
HostKey $TMP/hostkey
AuthorizedKeysFile $TMP/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AcceptEnv TMPDIR
PidFile none
EOF
cat >"$TMP/ssh_config" <<EOF
Host ns1
	HostName 10.204.1.2
	SetEnv TMPDIR=$TMP/r1
Host ns2
	HostName 10.204.2.2
	SetEnv TMPDIR=$TMP/r2
Host ns3
	HostName 10.204.9.9
Host ns1 ns2 ns3
	IdentityFile $TMP/userkey
Host ns1bad
	HostName 10.204.1.2
	IdentityFile $TMP/badkey
Host *
	User root
	IdentitiesOnly yes
	UserKnownHostsFile $TMP/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 5
	LogLevel ERROR
EOF
SSH="ssh -F $TMP/ssh_config"
ip netns exec "$N1" "$SSHD" -D -f "$TMP/sshd_config" -E "$TMP/sshd1.log" -o ListenAddress=10.204.1.2 &
PIDS="$PIDS $!"
ip netns exec "$N2" "$SSHD" -D -f "$TMP/sshd_config" -E "$TMP/sshd2.log" -o ListenAddress=10.204.2.2 &
PIDS="$PIDS $!"
i=0
until ip netns exec "$C" $SSH ns1 true 2>/dev/null && ip netns exec "$C" $SSH ns2 true 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || { cat "$TMP"/sshd*.log >&2; skip_all "the test's sshd did not answer"; }
	sleep 0.2
done
ok 0 "two sshd answer in their namespaces"

# bakeoff processes (any) in namespace $1
in_ns() {
	for p in $(ip netns pids "$1"); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = bakeoff ] && echo "$p"
	done
}
# the pid of the run (not a benchmark's own process) in namespace $1
run_in_ns() {
	for p in $(in_ns "$1"); do
		pp=$(awk '{ print $4 }' /proc/$p/stat 2>/dev/null)
		[ -n "$pp" ] && [ "$(cat /proc/$pp/comm 2>/dev/null)" != bakeoff ] &&
			grep -q run "/proc/$p/cmdline" 2>/dev/null && echo "$p"
	done
}
FB=$BAKEOFF	# the bakeoff that runs fleet
fleet() {
	(cd "$TMP/w" && exec ip netns exec "$C" "$FB" fleet --ssh "$SSH" "$@")
}
# the same in the background: F = bakeoff's own pid (for signals)
fleet_bg() {
	out=$1 err=$2
	shift 2
	(cd "$TMP/w" && exec ip netns exec "$C" "$BAKEOFF" fleet --ssh "$SSH" "$@" >"$out" 2>"$err") &
	F=$!
	PIDS="$PIDS $F"
}
# nothing left: no bakeoff in either namespace (waits up to 2 s), no remote
# temporary directory
none_left() {
	i=0
	while [ -n "$(in_ns "$N1")$(in_ns "$N2")" ] && [ $i -lt 20 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	[ -z "$(in_ns "$N1")$(in_ns "$N2")$(ls -A "$TMP/r1")$(ls -A "$TMP/r2")" ] && return 0
	for p in $(in_ns "$N1") $(in_ns "$N2"); do
		diag "left: $(tr '\0' ' ' </proc/$p/cmdline)"
	done
	diag "left in the remote TMPDIRs: $(ls -A "$TMP/r1" "$TMP/r2" | tr '\n' ' ')"
	return 1
}
all_ok() {	# every benchmark of result $1 ok, $2 of them, run finished
	[ "$(jget "$1" 'scalar(grep { $_->{status} eq "ok" } @{$r->{benchmarks}})')" = "$2" ] &&
	[ "$(jget "$1" 'scalar(@{$r->{benchmarks}})')" = "$2" ] &&
	[ "$(jget "$1" '($r->{run}{interrupted} || $r->{run}{incomplete}) ? 1 : 0')" = 0 ]
}
NSYS=$("$BAKEOFF" list proc.syscall | grep -c ' yes$')
NPROC=$("$BAKEOFF" list proc | grep -c ' yes$')

# ---- three hosts, one unreachable
rc=0
fleet -H ns1,ns2,ns3 --push --id t1 -- run --quick proc.syscall >"$TMP/out1" 2>"$TMP/err1" || rc=$?
check "exit status 1 when a host failed (was $rc)" [ "$rc" = 1 ]
R=$TMP/w/results/t1
for h in ns1 ns2; do
	check "$h: every proc.syscall benchmark ok ($NSYS)" all_ok "$R/$h.json" "$NSYS"
	check "$h: the result names its fleet host and id" \
		[ "$(jget "$R/$h.json" '$r->{run}{fleet}{host} . " " . $r->{run}{fleet}{id}')" = "$h t1" ]
done
check "ns3: no result file" [ ! -e "$R/ns3.json" ]
check "ns3: failed, with ssh's reason" grep -q '^ns3 *failed .*ssh failed: .*10\.204\.9\.9.*unreachable' "$TMP/out1"
check "ns1 and ns2 ok in the summary" sh -c "grep -q '^ns1 *ok ' '$TMP/out1' && grep -q '^ns2 *ok ' '$TMP/out1'"
check "compare holds the two hosts and no third" \
	sh -c "grep -q 'A = .*ns1.json' '$TMP/out1' && grep -q 'B = .*ns2.json' '$TMP/out1' && ! grep -q ' C = ' '$TMP/out1' && grep -q '^proc.syscall.null ' '$TMP/out1'"
check "one progress line per host event (ns1 and ns2 were copied bakeoff)" \
	sh -c "grep -q '^ns1 *copying bakeoff' '$TMP/err1' && grep -q '^ns2 *copying bakeoff' '$TMP/err1'"
check "the stderr summary names the failure" grep -q '1 of 3 hosts failed' "$TMP/err1"
check "the logins went through each sshd, from the controller's side" \
	sh -c "grep -q 'Accepted publickey for root from 10.204.1.1' '$TMP/sshd1.log' && grep -q 'Accepted publickey for root from 10.204.2.1' '$TMP/sshd2.log'"
check "no bakeoff left, the pushed copies removed" none_left

# ---- the network matrix between the two namespaces
rc=0
fleet -H ns1,ns2 --push --id t2 -- run --quick --nbuf 64 --reps 1 net.tcp.bw net.tcp.lat \
	>"$TMP/out2" 2>"$TMP/err2" || rc=$?
check "network matrix: exit status 0 (was $rc)" [ "$rc" = 0 ]
R=$TMP/w/results/t2
check "ns1 -> ns2: both benchmarks ok" all_ok "$R/net-ns1-to-ns2.json" 2
check "ns2 -> ns1: both benchmarks ok" all_ok "$R/net-ns2-to-ns1.json" 2
check "ns1 -> ns2 ran against ns2's address" \
	[ "$(jget "$R/net-ns1-to-ns2.json" "bench('net.tcp.bw')->{params}{peer_address}")" = 10.204.2.2:5511 ]
check "ns2 -> ns1 ran against ns1's address" \
	[ "$(jget "$R/net-ns2-to-ns1.json" "bench('net.tcp.lat')->{params}{peer_address}")" = 10.204.1.2:5511 ]
check "the matrix shows both pairs" \
	sh -c "grep -q '^net.tcp.bw (MB/s' '$TMP/out2' && grep -Eq '^ns1 +x +[0-9]' '$TMP/out2' && grep -Eq '^ns2 +[0-9.]+ +x' '$TMP/out2'"
check "no bakeoff (nor serve) left" none_left

# ---- issue 26: --push with a run that has network and other benchmarks: the
# pushed copies stay until the pairs have run
rc=0
fleet -H ns1,ns2 --push --id t2m -- run --quick --reps 1 net.tcp.lat proc.syscall.null \
	>"$TMP/out2m" 2>"$TMP/err2m" || rc=$?
check "--push, a mixed run: exit status 0 (was $rc)" [ "$rc" = 0 ]
R=$TMP/w/results/t2m
v=$(status "$R/ns1.json" proc.syscall.null)/$(status "$R/ns2.json" proc.syscall.null)
check "--push, a mixed run: each host's proc.syscall.null ok ($v)" [ "$v" = ok/ok ]
v=$(status "$R/net-ns1-to-ns2.json" net.tcp.lat)/$(status "$R/net-ns2-to-ns1.json" net.tcp.lat)
check "--push, a mixed run: both pairs' net.tcp.lat ok ($v)" [ "$v" = ok/ok ]
check "--push, a mixed run: no advice to use the flag that was given" sh -c "! grep -q 'use --push' '$TMP/out2m' '$TMP/err2m'"
check "--push, a mixed run: no bakeoff left, the copies removed" none_left

# ---- one host's run killed mid-way: the other completes
fleet_bg "$TMP/out3" "$TMP/err3" -H ns1,ns2 --push --id t3 -- run --quick proc
i=0
while [ -z "$(run_in_ns "$N1")" ] && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
victim=$(run_in_ns "$N1")
check "ns1's run was found running" [ -n "$victim" ]
[ -n "$victim" ] && kill -KILL $victim
rc=0
wait $F || rc=$?
check "a host killed mid-run: exit status 1 (was $rc)" [ "$rc" = 1 ]
R=$TMP/w/results/t3
check "ns1 failed: killed by signal 9" grep -q '^ns1 *failed .*killed by signal 9' "$TMP/out3"
check "ns2's result is complete ($NPROC benchmarks ok)" all_ok "$R/ns2.json" "$NPROC"
check "no bakeoff left in either namespace, the copies removed" none_left

# ---- Ctrl-C: every remote run stops, what finished is kept
fleet_bg "$TMP/out4" "$TMP/err4" -H ns1,ns2 --push --id t4 -- run --quick proc
i=0
while { [ -z "$(run_in_ns "$N1")" ] || [ -z "$(run_in_ns "$N2")" ]; } && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
sleep 0.5
kill -INT $F
rc=0
wait $F || rc=$?
check "Ctrl-C: exit status 130 (was $rc)" [ "$rc" = 130 ]
R=$TMP/w/results/t4
for h in ns1 ns2; do
	check "$h: its partial result is kept, marked interrupted" \
		[ "$(jget "$R/$h.json" '$r->{run}{interrupted} ? 1 : 0')" = 1 ]
done
check "no bakeoff left in either namespace, the copies removed" none_left

# ---- a timeout keeps the partial result (the test build's test.block
# blocks until a signal, so the timeout falls inside it however slow the
# machine); a missing binary is named
TB=${BAKEOFF_TESTING:-}
case $TB in /*|'') ;; *) TB=$(pwd)/$TB ;; esac
if [ -n "$TB" ] && [ -x "$TB" ]; then
	rc=0
	FB=$TB	# its own registry knows test.block
	fleet -H ns1 --remote-bin "$TB" --timeout 5s --id t5 -- run --quick test.ok test.block \
		>"$TMP/out5" 2>"$TMP/err5" || rc=$?
	FB=$BAKEOFF
	check "--timeout: exit status 1 (was $rc)" [ "$rc" = 1 ]
	check "--timeout: ns1 failed, timed out, partial result kept" \
		grep -q '^ns1 *failed .*timed out after 5 s.*partial result kept' "$TMP/out5"
	check "--timeout: the partial result holds what finished, marked interrupted" \
		[ "$(jget "$TMP/w/results/t5/ns1.json" '$r->{run}{interrupted} ? 1 : 0')/$(status "$TMP/w/results/t5/ns1.json" test.ok)" = 1/ok ]
else
	skip "--timeout: no test build (make check sets BAKEOFF_TESTING)"
	skip "--timeout: no test build"
	skip "--timeout: no test build"
fi
rc=0
fleet -H ns1,ns2 --remote-bin /nonexistent/bakeoff --id t6 -- run --quick proc.syscall.null \
	>"$TMP/out6" 2>"$TMP/err6" || rc=$?
check "a missing binary: exit status 1 (was $rc)" [ "$rc" = 1 ]
check "a missing binary: the reason says so" grep -q '^ns2 *failed .*no bakeoff to run on the host' "$TMP/out6"
check "none left after the timeout" none_left

# ---- a login refused: ssh's reason
rc=0
fleet -H ns1bad --push --id t8 -- run --quick proc.syscall.null >"$TMP/out8" 2>"$TMP/err8" || rc=$?
check "a refused login: exit status 1 (was $rc)" [ "$rc" = 1 ]
check "a refused login: ssh's reason" grep -q '^ns1bad *failed .*ssh failed: .*Permission denied (publickey)' "$TMP/out8"

# ---- --format html: one page, the fleet tables inside
rc=0
fleet -H ns1,ns2 --push --format html -q --id t7 -- run --quick proc.syscall.null >"$TMP/out7" 2>"$TMP/err7" || rc=$?
check "--format html: exit status 0 (was $rc)" [ "$rc" = 0 ]
check "--format html: a page with the fleet section and compare" \
	sh -c "grep -q '<html' '$TMP/out7' && grep -q '<h2>Fleet</h2>' '$TMP/out7' && grep -q '^ns2 *ok ' '$TMP/out7' && grep -q 'A = results/t7/ns1.json' '$TMP/out7'"

# ---- usage errors: one line, exit 2
for args in "-- run" "-H ns1" "-H ns1 -- run --peer x proc" "-H -x -- run" "-H ns1 --jobs 0 -- run" \
	"-H ns1 -- run nosuchbench" "-H ns1 -- run net" "-H ns1,ns1 -- run" "-H ns1 --push --remote-bin /x -- run" \
	"-H ns1 --launcher rsh -- run" "-H ns1 --launcher -- run"; do
	rc=0
	# shellcheck disable=SC2086
	(cd "$TMP/w" && "$BAKEOFF" fleet $args) >/dev/null 2>"$TMP/uerr" || rc=$?
	check "fleet $args: exit 2, one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$TMP/uerr') = 1 ]"
done
if [ "$FAILED" -gt 0 ]; then	# what fleet said, for the CI log
	for f in "$TMP"/out* "$TMP"/err*; do
		[ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" >&2
	done
fi
done_testing
