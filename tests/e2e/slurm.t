#!/bin/sh
# slurm.t — bakeoff fleet --launcher srun. First with a stand-in srun (a
# script that drops srun's options and runs the command here) that checks
# the command line fleet gives srun and runs a network pair through it, on
# loopback; then under a real Slurm: a one-node cluster from Debian's
# packages (slurm-wlm, munge) brought up in the test's temporary directory
# (its own slurm.conf, state, spool and log folders, its own munge key and
# socket, ports of its own), docs/fleet.md's srun recipe and `fleet
# --launcher srun`, then everything shut down. The real part needs root
# (slurmd runs jobs as their users) and slurmctld, slurmd, srun, sinfo,
# munged, and is skipped visibly otherwise. Nothing outside the temporary
# directory is written: SLURM_CONF points the clients at this cluster.
#
# One node is all this machine has: a network pair under a real Slurm
# (serve on one node, the client on another) needs two, and is not run.
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
PORT=$((20000 + $$ % 20000))
rc=0
fake -H nodeA=127.0.0.1,nodeB=127.0.0.1 --port "$PORT" --remote-bin "$BAKEOFF" --id f3 \
	-- run --quick --reps 1 net.tcp.lat >"$TMP/fout3" 2>&1 || rc=$?
check "stand-in srun, a pair with NODE=ADDR on loopback: exit 0, both directions measured" \
	sh -c "[ $rc = 0 ] && grep -q '^nodeA  *x  *[0-9.]*\$' '$TMP/fout3' && grep -q '^nodeB  *[0-9.]*  *x\$' '$TMP/fout3'"
[ "$FAILED" = 0 ] || sed 's/^/# /' "$TMP"/fout*

PIDS=
teardown() {
	for p in $PIDS; do
		kill -TERM "$p" 2>/dev/null
	done
	sleep 1
	for p in $PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# ---- a real one-node Slurm
real_slurm() {
	[ "$(id -u)" = 0 ] || { skip "a real Slurm: needs root to run slurmd"; return; }
	for c in slurmctld slurmd srun sinfo munged; do
		command -v $c >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
		command -v $c >/dev/null 2>&1 || { skip "a real Slurm: needs $c (Debian slurmctld, slurmd, slurm-client, munge)"; return; }
	done
	S=$TMP/slurm
	mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge" "$TMP/w"
	chmod 700 "$S/munge"
	# munge: a key of our own, a socket of our own (--force: as root)
	dd if=/dev/urandom of="$S/munge/key" bs=1024 count=1 2>/dev/null
	chmod 400 "$S/munge/key"
	munged --force --key-file="$S/munge/key" --socket="$S/munge/sock" --pid-file="$S/munge/pid" \
		--log-file="$S/munge/log" --seed-file="$S/munge/seed" 2>"$TMP/err" ||
		{ skip "munged does not start here: $(head -n 1 "$TMP/err")"; return; }
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -s "$S/munge/pid" ] && break
		sleep 0.2
	done
	PIDS="$(cat "$S/munge/pid" 2>/dev/null)"

	NODE=$(hostname -s)
	CPUS=$(getconf _NPROCESSORS_ONLN)
	PORT=$((20000 + $$ % 20000))
	cat >"$S/slurm.conf" <<-EOF
	ClusterName=bakeofftest
	SlurmctldHost=$NODE(127.0.0.1)
	SlurmctldPort=$PORT
	SlurmdPort=$((PORT + 1))
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$S/munge/sock
	StateSaveLocation=$S/state
	SlurmdSpoolDir=$S/spool
	SlurmctldPidFile=$S/slurmctld.pid
	SlurmdPidFile=$S/slurmd.pid
	SlurmctldLogFile=$S/log/slurmctld.log
	SlurmdLogFile=$S/log/slurmd.log
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
	NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
	PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	EOF
	export SLURM_CONF=$S/slurm.conf
	slurmctld -D -i -f "$S/slurm.conf" >"$S/log/ctld.out" 2>&1 &
	PIDS="$PIDS $!"
	slurmd -D -f "$S/slurm.conf" >"$S/log/d.out" 2>&1 &
	PIDS="$PIDS $!"
	up=
	for i in $(seq 1 60); do
		if sinfo -h -N -o '%N %t' 2>/dev/null | grep -q "^$NODE idle"; then
			up=1
			break
		fi
		sleep 0.5
	done
	if [ -z "$up" ]; then
		diag "sinfo: $(sinfo -h -N -o '%N %t' 2>&1 | head -n 1)"
		tail -n 5 "$S/log/slurmctld.log" "$S/log/slurmd.log" "$S/log/d.out" 2>/dev/null | sed 's/^/# /'
		skip "the one-node Slurm cluster did not come up here (logs above)"
			return
	fi
	ok 0 "a one-node Slurm cluster is up: $NODE idle"

	# ---- docs/fleet.md's recipe: srun --output per node, JSON on stdout
	mkdir -p "$TMP/w/results/run42"
	(cd "$TMP/w" && srun --nodes=1 --ntasks-per-node=1 --output='results/run42/%N.json' \
		--error='results/run42/%N.err' "$BAKEOFF" run -q --quick -o - proc.syscall.null) || true
	R=$TMP/w/results/run42/$NODE.json
	check "the recipe: one result file for the node ($NODE.json)" [ -s "$R" ]
	check "  it is a valid result with proc.syscall.null ok" [ "$(status "$R" proc.syscall.null)" = ok ]
	check "  bakeoff report reads it" sh -c "'$BAKEOFF' report '$R' >/dev/null"

	# ---- fleet --launcher srun: the same per-host file, progress, exit status
	rc=0
	(cd "$TMP/w" && "$BAKEOFF" fleet --launcher srun -H "$NODE" --remote-bin "$BAKEOFF" --id s1 \
		-- run --quick proc.syscall.null) >"$TMP/out1" 2>"$TMP/err1" || rc=$?
	check "fleet --launcher srun: exit 0" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/err1"
	F=$TMP/w/results/s1/$NODE.json
	check "  the node's result saved as results/s1/$NODE.json" [ -s "$F" ]
	check "  it names its fleet host and id" \
		[ "$(jget "$F" '$r->{run}{fleet}{host} . " " . $r->{run}{fleet}{id}')" = "$NODE s1" ]
	check "  proc.syscall.null ok in it" [ "$(status "$F" proc.syscall.null)" = ok ]
	check "  the summary row names the node" grep -q "^$NODE " "$TMP/out1"
	check "  the job went through Slurm (slurmctld's log has its steps)" \
		grep -q "sched: _slurm_rpc_allocate_resources\|_job_complete\|sched: Allocate" "$S/log/slurmctld.log"

	# a node Slurm does not have: the host fails with srun's reason, exit 1
	rc=0
	(cd "$TMP/w" && "$BAKEOFF" fleet --launcher srun -H nosuchnode --remote-bin "$BAKEOFF" --id s2 \
		-- run --quick proc.syscall.null) >"$TMP/out2" 2>"$TMP/err2" || rc=$?
	check "a node Slurm does not know: exit 1" [ "$rc" = 1 ]
	check "  the reason is srun's" grep -q "^nosuchnode *failed .*srun" "$TMP/out2"
	[ "$rc" = 1 ] || sed 's/^/# /' "$TMP/out2" "$TMP/err2"

	# Ctrl-C: the step ends, the partial result is kept, no job is left
	# (the test build's test.block blocks until a signal)
	TB=${BAKEOFF_TESTING:-}
	case $TB in /*|'') ;; *) TB=$(pwd)/$TB ;; esac
	if [ -z "$TB" ] || [ ! -x "$TB" ]; then
		skip "Ctrl-C under srun: needs the test build (BAKEOFF_TESTING)"
		return
	fi
	(cd "$TMP/w" && exec "$TB" fleet --launcher srun -H "$NODE" --remote-bin "$TB" --id s4 \
		-- run --quick test.ok test.block) >"$TMP/out4" 2>"$TMP/err4" &
	F=$!
	i=0
	while ! pgrep -f "$TB run --progress" >/dev/null 2>&1 && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	check "  Ctrl-C: the run was found running under srun" [ -n "$(squeue -h -o %i 2>/dev/null)" ]
	sleep 1
	kill -INT $F
	rc=0
	wait $F || rc=$?
	check "  Ctrl-C: exit status 130 (was $rc)" [ "$rc" = 130 ]
	check "  its partial result is kept, marked interrupted" \
		[ "$(jget "$TMP/w/results/s4/$NODE.json" '$r->{run}{interrupted} ? 1 : 0')" = 1 ]
	i=0
	while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	check "  no Slurm job left" [ -z "$(squeue -h -o %i 2>/dev/null)" ]
	left=$(pgrep -f "$TB run --progress")
	check "  no bakeoff left" [ -z "$left" ]
}
real_slurm
done_testing
