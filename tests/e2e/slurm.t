#!/bin/sh
# slurm.t — bakeoff fleet --launcher srun. First with a stand-in srun (a
# script that drops srun's options and runs the command here) that checks
# the command line fleet gives srun and runs a network pair through it, on
# loopback; then under a real Slurm from Debian's packages (slurmctld,
# slurmd, slurm-client, munge): a cluster of two nodes, each slurmd in a
# network namespace and with a host name of its own, brought up in the
# test's temporary directory (its own slurm.conf, state, spool and log
# folders, its own munge key and socket), then docs/fleet.md's srun recipe,
# `fleet --launcher srun` with its network matrix, a node Slurm does not
# know, and Ctrl-C; then everything shut down. The real part needs root
# (network namespaces; slurmd runs jobs as their users) and is skipped
# visibly without it or the packages. Nothing outside the temporary
# directory is written: SLURM_CONF points the clients at this cluster.
. tests/e2e/lib.sh
mkdir -p "$TMP/bin" "$TMP/w"

# ---- a stand-in srun: the command line fleet hands it, and a pair
{
	echo '#!/bin/sh'
	echo 'while [ $# -gt 0 ]; do'
	echo "	case \$1 in -*) echo \"\$1\" >>'$TMP/srun-args'; shift ;; *) break ;; esac"
	echo 'done'
	echo "echo \"\$@\" >>'$TMP/srun-cmds'"
	echo 'exec "$@"'
} >"$TMP/bin/srun"
chmod +x "$TMP/bin/srun"
fake() {
	(cd "$TMP/w" && PATH=$TMP/bin:$PATH exec "$BAKEOFF" fleet --launcher srun "$@")
}
rc=0
fake -H nodeA --remote-bin "$BAKEOFF" --id f1 -- run --quick proc.syscall.null >"$TMP/fout1" 2>&1 || rc=$?
check "stand-in srun: fleet exit 0" [ "$rc" = 0 ]
check "  srun got --nodes=1 --ntasks=1 --nodelist=nodeA" \
	[ "$(tr '\n' ' ' <"$TMP/srun-args")" = "--nodes=1 --ntasks=1 --nodelist=nodeA " ]
check "  then /bin/sh -c and the command" grep -q "^/bin/sh -c .*'run' '--progress'" "$TMP/srun-cmds"
check "  the host's result saved" [ "$(status "$TMP/w/results/f1/nodeA.json" proc.syscall.null)" = ok ]
rc=0
fake -H nodeA,nodeB --remote-bin "$BAKEOFF" --id f2 -- run --quick --reps 1 net.tcp.lat >"$TMP/fout2" 2>&1 || rc=$?
check "stand-in srun, a pair without NODE=ADDR: exit 1, the reason asks for it" \
	sh -c "[ $rc = 1 ] && grep -q 'nodeA -> nodeB failed: .*give the node address as NODE=ADDR' '$TMP/fout2'"
PORT=$((20000 + $$ % 10000))	# below the ephemeral ports (32768 up), which the suite's clients hold
rc=0
fake -H nodeA=127.0.0.1,nodeB=127.0.0.2 --port "$PORT" --remote-bin "$BAKEOFF" --id f3 \
	-- run --quick --reps 1 net.tcp.lat >"$TMP/fout3" 2>&1 || rc=$?
check "stand-in srun, a pair with NODE=ADDR on loopback (127.0.0.1, .2): exit 0, both directions measured" \
	sh -c "[ $rc = 0 ] && grep -q '^nodeA  *x  *[0-9.]*\$' '$TMP/fout3' && grep -q '^nodeB  *[0-9.]*  *x\$' '$TMP/fout3'"
[ "$FAILED" = 0 ] || sed 's/^/# /' "$TMP"/fout* >&2	# for CI's log


# ---- a real Slurm of two nodes: each slurmd in a network namespace and a
# host name of its own (N1 10.205.1.2 = node n1, N2 10.205.2.2 = n2), slurmctld and
# every client (srun, sinfo, fleet) in a third (C, which routes between
# them), as fleet.t places its two sshd
C=bo-sc-$$
N1=bo-s1-$$
N2=bo-s2-$$
PIDS=
teardown() {
	for p in $PIDS; do
		kill -TERM "$p" 2>/dev/null
	done
	sleep 1
	for p in $PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	netns_remove "$N1" "$N2" "$C"
	rm -rf "$TMP"
}
trap teardown EXIT
trap 'exit 130' INT TERM
inC() {
	nsenter --net="/run/netns/$C" "$@"
}

real_slurm() {
	[ "$(id -u)" = 0 ] || { skip "a real Slurm: needs root to run slurmd"; return; }
	for c in slurmctld slurmd srun sinfo squeue munged; do
		command -v $c >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
		command -v $c >/dev/null 2>&1 || { skip "a real Slurm: needs $c (Debian slurmctld, slurmd, slurm-client, munge)"; return; }
	done
	for c in ip nsenter unshare; do
		command -v $c >/dev/null 2>&1 || { skip "a real Slurm: needs $c (Debian iproute2, util-linux)"; return; }
	done
	routed_netns "$C" "$N1" "$N2" 10.205 s || { skip "a real Slurm: $NETNS_WHY"; return; }

	S=$TMP/slurm
	mkdir -p "$S/state" "$S/spool-n1" "$S/spool-n2" "$S/log" "$S/munge"
	chmod 700 "$S/munge"
	# munge: a key of our own, a socket of our own (--force: as root); its
	# socket is a file, so the daemons in every namespace reach it
	dd if=/dev/urandom of="$S/munge/key" bs=1024 count=1 2>/dev/null
	chmod 400 "$S/munge/key"
	munged --force --key-file="$S/munge/key" --socket="$S/munge/sock" --pid-file="$S/munge/pid" \
		--log-file="$S/munge/log" --seed-file="$S/munge/seed" 2>"$TMP/err" ||
		{ skip "a real Slurm: munged does not start here: $(head -n 1 "$TMP/err")"; return; }
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -s "$S/munge/pid" ] && break
		sleep 0.2
	done
	PIDS="$(cat "$S/munge/pid" 2>/dev/null)"

	CPUS=$(getconf _NPROCESSORS_ONLN)
	cat >"$S/slurm.conf" <<-EOF
	ClusterName=bakeofftest
	SlurmctldHost=$(hostname -s)(10.205.1.1)
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$S/munge/sock
	StateSaveLocation=$S/state
	SlurmdSpoolDir=$S/spool-%n
	SlurmctldPidFile=$S/slurmctld.pid
	SlurmdPidFile=$S/slurmd-%n.pid
	SlurmctldLogFile=$S/log/slurmctld.log
	SlurmdLogFile=$S/log/slurmd-%n.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SwitchType=switch/none
	MpiDefault=none
	SchedulerType=sched/builtin
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	ReturnToService=2
	NodeName=n1 NodeAddr=10.205.1.2 CPUs=$CPUS State=UNKNOWN
	NodeName=n2 NodeAddr=10.205.2.2 CPUs=$CPUS State=UNKNOWN
	PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	EOF
	export SLURM_CONF=$S/slurm.conf
	# nsenter, not ip netns exec: that one mounts a sysfs of its own,
	# without the cgroup file system slurmd looks for
	inC slurmctld -D -i -f "$S/slurm.conf" >"$S/log/ctld.out" 2>&1 &
	PIDS="$PIDS $!"
	for n in 1 2; do	# each node its own host name too (srun's %N is the host name)
		eval "ns=\$N$n"
		unshare --uts sh -c "hostname n$n && exec nsenter --net=/run/netns/$ns slurmd -D -N n$n -f '$S/slurm.conf'" \
			>"$S/log/n$n.out" 2>&1 &
		PIDS="$PIDS $!"
	done
	up=
	for i in $(seq 1 60); do
		if [ "$(inC sinfo -h -N -o '%N %t' 2>/dev/null | tr '\n' ' ')" = "n1 idle n2 idle " ]; then
			up=1
			break
		fi
		sleep 0.5
	done
	if [ -z "$up" ]; then
		diag "sinfo: $(inC sinfo -h -N -o '%N %t' 2>&1 | tr '\n' ' ')"
		tail -n 5 "$S"/log/* 2>/dev/null | sed 's/^/# /' >&2
		skip "a real Slurm: the two-node cluster did not come up here (logs above)"
		return
	fi
	ok 0 "a two-node Slurm cluster is up: n1 and n2 idle"

	# docs/fleet.md's recipe: srun --output per node, JSON on stdout
	mkdir -p "$TMP/w/results/run42"
	(cd "$TMP/w" && inC srun --nodes=2 --ntasks-per-node=1 --output='results/run42/%N.json' \
		--error='results/run42/%N.err' "$BAKEOFF" run -q --quick -o - proc.syscall.null) || true
	for n in n1 n2; do
		R=$TMP/w/results/run42/$n.json
		check "the recipe: $n's result file, proc.syscall.null ok in it" \
			[ "$(status "$R" proc.syscall.null)" = ok ]
	done
	[ "$FAILED" = 0 ] || { ls -la "$TMP/w/results/run42"; cat "$TMP"/w/results/run42/*.err; } 2>&1 | sed 's/^/# /' >&2

	# fleet --launcher srun: per-host files and the network matrix, both
	# directions, serve on one node and the client on the other
	rc=0
	(cd "$TMP/w" && inC "$BAKEOFF" fleet --launcher srun -H n1=10.205.1.2,n2=10.205.2.2 \
		--remote-bin "$BAKEOFF" --id s1 -- run --quick --reps 1 proc.syscall.null net.tcp.lat) \
		>"$TMP/out1" 2>"$TMP/err1" || rc=$?
	check "fleet --launcher srun, two nodes: exit 0" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/out1" "$TMP/err1" >&2
	for n in n1 n2; do
		F=$TMP/w/results/s1/$n.json
		check "  $n: proc.syscall.null ok, the result names its fleet host and id" \
			sh -c "[ '$(status "$F" proc.syscall.null)' = ok ] &&
				[ '$(jget "$F" '$r->{run}{fleet}{host} . " " . $r->{run}{fleet}{id}')' = '$n s1' ]"
	done
	check "  the network matrix: n1 -> n2 and n2 -> n1 measured" \
		sh -c "grep -q '^n1  *x  *[0-9.]*\$' '$TMP/out1' && grep -q '^n2  *[0-9.]*  *x\$' '$TMP/out1'"
	check "  the steps went through Slurm (slurmctld's log has them)" \
		grep -q "_slurm_rpc_allocate_resources\|_job_complete" "$S/log/slurmctld.log"

	# a node Slurm does not have: the host fails with srun's reason, exit 1
	rc=0
	(cd "$TMP/w" && inC "$BAKEOFF" fleet --launcher srun -H nosuchnode --remote-bin "$BAKEOFF" --id s2 \
		-- run --quick proc.syscall.null) >"$TMP/out2" 2>"$TMP/err2" || rc=$?
	check "a node Slurm does not know: exit 1" [ "$rc" = 1 ]
	check "  the reason is srun's" grep -q "^nosuchnode *failed .*srun" "$TMP/out2"
	[ "$rc" = 1 ] || sed 's/^/# /' "$TMP/out2" "$TMP/err2" >&2

	# Ctrl-C: the step ends, the partial result is kept, no job is left
	# (the test build's test.block blocks until a signal)
	TB=${BAKEOFF_TESTING:-}
	case $TB in /*|'') ;; *) TB=$(pwd)/$TB ;; esac
	if [ -z "$TB" ] || [ ! -x "$TB" ]; then
		skip "Ctrl-C under srun: needs the test build (BAKEOFF_TESTING)"
		return
	fi
	(cd "$TMP/w" && exec nsenter --net="/run/netns/$C" "$TB" fleet --launcher srun -H n1 --remote-bin "$TB" \
		--id s4 -- run --quick test.ok test.block) >"$TMP/out4" 2>"$TMP/err4" &
	F=$!
	i=0
	while ! pgrep -f "$TB run --progress" >/dev/null 2>&1 && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	check "Ctrl-C: the run was found running under srun" [ -n "$(inC squeue -h -o %i 2>/dev/null)" ]
	sleep 1
	kill -INT $F
	rc=0
	wait $F || rc=$?
	check "  Ctrl-C: exit status 130 (was $rc)" [ "$rc" = 130 ]
	check "  its partial result is kept, marked interrupted" \
		[ "$(jget "$TMP/w/results/s4/n1.json" '$r->{run}{interrupted} ? 1 : 0')" = 1 ]
	i=0
	while [ -n "$(inC squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	check "  no Slurm job left" [ -z "$(inC squeue -h -o %i 2>/dev/null)" ]
	left=$(pgrep -f "$TB run --progress")
	check "  no bakeoff left" [ -z "$left" ]
}
real_slurm
done_testing
