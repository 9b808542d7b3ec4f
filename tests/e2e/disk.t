#!/bin/sh
# disk.t — the disk group at tiny sizes, end to end: disk.seq (block sizes,
# ceiling, % of it, direct recorded), disk.rand (IOPS, percentiles, jobs),
# disk.bonnie (tests, %CPU, latency), the dd and bonnie personalities (dd's
# line, bonnie++'s tables, CSV 1.03 and 2 read by Debian's bon_csv2txt and
# bon_csv2html), streams over a --dir list, the file system facts, bad
# input (exit 2), faults (ENOSPC, EIO: injected), a real tmpfs that runs out
# of room (root), SIGINT, and never a file left behind.
. tests/e2e/lib.sh
D=$TMP/d
mkdir "$D"
R=$TMP/r.json
Q="-q --quick --reps 1 --runtime 100ms --size 2M"
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --block-sizes 4k,64k --jobs 2 --files 1 --dir "$D" -o "$R" \
	disk.seq disk.rand disk.bonnie >"$TMP/out" 2>"$TMP/err"
ok $? "run disk.seq disk.rand disk.bonnie exits 0"
for id in disk.seq disk.rand disk.bonnie; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id records the file system type" [ -n "$(jget "$R" "bench('$id')->{params}{fs_type}")" ]
done
check "nothing left in the --dir" [ -z "$(ls -A "$D")" ]
for bs in 4k 64k; do
	check "write $bs between 0.1 MB/s and 100 GB/s" num_between "$(median "$R" disk.seq "write $bs")" 0.1 100000
	check "read $bs between 0.1 MB/s and 100 GB/s" num_between "$(median "$R" disk.seq "read $bs")" 0.1 100000
	check "ceiling $bs above 1 MB/s" num_between "$(median "$R" disk.seq "ceiling $bs")" 1 1000000000
	check "write $bs % of ceiling derived" [ -n "$(jget "$R" "metric('disk.seq','write $bs % of ceiling')->{derived}")" ]
done
v=$(jget "$R" 'bench("disk.seq")->{params}{direct}')
check "direct recorded (yes or no): $v" [ "$v" = yes -o "$v" = no ]
check "write latencies kept" [ "$(jget "$R" 'metric("disk.seq","write 4k")->{latency}{count} > 0 ? 1 : 0')" = 1 ]
check "%CPU of the timed calls kept" [ "$(jget "$R" 'defined metric("disk.seq","read 64k")->{cpu}{wall_s} ? 1 : 0')" = 1 ]
for m in "randread 4k QD1" "randwrite 4k QD1" "randread 4k, 2 jobs" "randwrite 4k, 2 jobs"; do
	check "$m between 10 and 10^8 IOPS" num_between "$(median "$R" disk.rand "$m")" 10 100000000
	check "$m has p50 <= p90 <= p99 <= p99.9 <= max" [ "$(jget "$R" "my \$l = metric('disk.rand','$m')->{latency}; \$l->{count} > 0 && \$l->{p50} <= \$l->{p90} && \$l->{p90} <= \$l->{p99} && \$l->{p99} <= \$l->{'p99.9'} && \$l->{'p99.9'} <= \$l->{max} ? 1 : 0")" = 1 ]
done
for m in "randread 4k QD32" "randwrite 4k QD32"; do
	check "$m between 10 and 10^8 IOPS" num_between "$(median "$R" disk.rand "$m")" 10 100000000
	check "$m: a latency per request, ordered percentiles" [ "$(jget "$R" "my \$l = metric('disk.rand','$m')->{latency}; \$l->{count} > 0 && \$l->{p50} <= \$l->{p99} && \$l->{p99} <= \$l->{max} ? 1 : 0")" = 1 ]
done
e=$(jget "$R" 'bench("disk.rand")->{params}{engine}')
check "the QD32 rows' engine recorded: $e" sh -c "printf '%s' '$e' | grep -Eq '^(io_uring|aio) '"
check "the QD1 rows' engine: psync" [ "$(jget "$R" 'bench("disk.rand")->{params}{engine_qd1}')" = psync ]
check "iodepth recorded" [ "$(jget "$R" 'bench("disk.rand")->{params}{iodepth}')" = 32 ]
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --jobs 1 --engine aio --iodepth 4 --dir "$D" -o "$TMP/aio.json" disk.rand >/dev/null 2>&1
ok $? "--engine aio --iodepth 4: a run"
check "  its rows are QD4, through aio" [ "$(jget "$TMP/aio.json" "join ',', map { \$_->{name} } @{bench('disk.rand')->{metrics}}")" = \
	"randread 4k QD1,randwrite 4k QD1,randread 4k QD4,randwrite 4k QD4" ]
check "  engine aio for every row" [ "$(jget "$TMP/aio.json" "my \$p = bench('disk.rand')->{params}; \$p->{engine_qd1} eq 'aio' && \$p->{engine} =~ /^aio/ ? 1 : 0")" = 1 ]
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --jobs 1 --iodepth 4 --rwmix 70 --dir "$D" -o "$TMP/mix.json" disk.rand >/dev/null 2>&1
ok $? "--rwmix 70 --iodepth 4: a run"
for m in "randrw 4k 70/30 QD4" "randrw 4k 70/30 QD4 read" "randrw 4k 70/30 QD4 write"; do
	check "  $m: IOPS and its own latencies" [ "$(jget "$TMP/mix.json" "my \$x = metric('disk.rand','$m'); \$x->{median} > 0 && \$x->{latency}{count} > 0 ? 1 : 0")" = 1 ]
done
check "  reads and writes add up to the mix, about 70% reads" [ "$(jget "$TMP/mix.json" "my (\$a, \$r, \$w) = map { metric('disk.rand', \$_)->{latency}{count} } 'randrw 4k 70/30 QD4', 'randrw 4k 70/30 QD4 read', 'randrw 4k 70/30 QD4 write'; \$r + \$w == \$a && \$r / \$a > 0.6 && \$r / \$a < 0.8 ? 1 : 0")" = 1 ]
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --jobs 1 --iodepth 1 --runtime 1s --interval 250ms --steady-state iops:50%:1s --dir "$D" \
	-o "$TMP/ss.json" disk.rand >/dev/null 2>&1
ok $? "--steady-state iops:50%:1s: a run"
for m in "randread 4k QD1" "randwrite 4k QD1"; do
	check "  $m says when it was steady, or that it never was" [ "$(jget "$TMP/ss.json" "my \$p = bench('disk.rand')->{params}{'$m:steady_state'} // ''; (metric('disk.rand','$m')->{note} // '') =~ /^(steady after [0-9.]+ s|never steady in 1 of 1 repetition) \\(every 0.25 s interval within 50% of their mean over 1 s/ && \$p =~ /^(reached|never)\$/ ? 1 : 0")" = 1 ]
done
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --jobs 1 --engine psync --dir "$D" -o "$TMP/psync.json" disk.rand >"$TMP/psync.out" 2>&1
ok $? "--engine psync: a run"
check "  QD1 rows only, and the table says why" sh -c "[ '$(jget "$TMP/psync.json" "scalar @{bench('disk.rand')->{metrics}}")' = 2 ] && grep -q 'no QD32 rows: psync keeps one request in flight, not 32' '$TMP/psync.out'"
check "2 jobs: each job's rate kept" [ "$(jget "$R" 'scalar @{metric("disk.rand","randread 4k, 2 jobs")->{per_copy} // []}')" = 2 ]
check "the table shows the mean and the percentiles" grep -Eq "^    latency of [0-9]* operations: mean [0-9.]+, p50 .* p99.9 .* max" "$TMP/out"
for t in putc write rewrite getc read seeks "seq create" "seq stat" "seq delete" "ran create" "ran stat" "ran delete"; do
	check "bonnie $t positive" num_between "$(median "$R" disk.bonnie "$t")" 0.001 1000000000000
	check "bonnie $t has a max latency" [ "$(jget "$R" "metric('disk.bonnie','$t')->{latency}{max} > 0 ? 1 : 0")" = 1 ]
done
# A 2 MiB buffered file is under 2x RAM on any machine: marked.
check "bonnie block write marked cache_suspect" [ "$(jget "$R" 'metric("disk.bonnie","write")->{cache_suspect} ? 1 : 0')" = 1 ]
check "the table says cached?" grep -q "disk.bonnie:write .*cached?" "$TMP/out"

# Personalities, rendered again from the file.
"$BAKEOFF" report --format dd "$R" >"$TMP/dd" 2>&1
ok $? "report --format dd exits 0"
check "dd's line" grep -Eq '^[0-9]+ bytes transferred in [0-9.]+ secs \([0-9]+ bytes/sec\)$' "$TMP/dd"
check "the ceiling table" grep -Eq '^64k +[0-9]+ +[0-9]+ +[0-9.]+%' "$TMP/dd"
"$BAKEOFF" report --format bonnie "$R" >"$TMP/bon" 2>&1
ok $? "report --format bonnie exits 0"
check "bonnie++'s header" grep -q "^Name:Size etc  *\/sec %CP" "$TMP/bon"
check "bonnie++'s latency row" grep -Eq "^Latency +[0-9]+(us|ms|s) " "$TMP/bon"
tail -n 1 "$TMP/bon" >"$TMP/csv2"
check "--csv 2: format 1.98 with 50 columns" sh -c "grep -q '^1\.98,' '$TMP/csv2' && [ \$(tr , '\n' <'$TMP/csv2' | wc -l) = 50 ]"
host=$(jget "$R" '$r->{host}{hostname}')
if command -v bon_csv2txt >/dev/null 2>&1; then
	bon_csv2txt <"$TMP/csv2" >"$TMP/b2t.out" 2>"$TMP/b2t.err"
	check "bon_csv2txt reads it: nothing on stderr" [ ! -s "$TMP/b2t.err" ]
	check "bon_csv2txt shows the host row" grep -q "^$host " "$TMP/b2t.out"
	bon_csv2html <"$TMP/csv2" >"$TMP/b2h.out" 2>"$TMP/b2h.err"
	check "bon_csv2html reads it: nothing on stderr" [ ! -s "$TMP/b2h.err" ]
	check "bon_csv2html shows the host" grep -q ">$host<" "$TMP/b2h.out"
else
	skip "no bon_csv2txt (Debian package bonnie++)"
	skip "no bon_csv2txt (Debian package bonnie++)"
	skip "no bon_csv2html (Debian package bonnie++)"
	skip "no bon_csv2html (Debian package bonnie++)"
fi
R3=$TMP/r3.json
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --files 1 --csv 1.03 --dir "$D" -o "$R3" bonnie >"$TMP/bon103" 2>/dev/null
ok $? "run bonnie --csv 1.03 exits 0"
check "--csv 1.03: 27 columns starting with the host" sh -c \
	"tail -n 1 '$TMP/bon103' | grep -q '^$host,2M,' && [ \$(tail -n 1 '$TMP/bon103' | tr , '\n' | wc -l) = 27 ]"
# Files of random sizes in 2 directories (bonnie++ -n 1:8192:1024/2): the
# sizes are written, bonnie++'s files column and CSV fields carry them.
R6=$TMP/r6.json
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --files 1 --file-max 8k --file-min 1k --file-dirs 2 --dir "$D" -o "$R6" bonnie \
	>"$TMP/bonsz" 2>/dev/null
ok $? "run bonnie with --file-max 8k --file-min 1k --file-dirs 2 exits 0"
check "file sizes recorded" [ "$(jget "$R6" 'my $b = bench("disk.bonnie"); "$b->{params}{file_max_bytes}:$b->{params}{file_min_bytes}"')" = 8192:1024 ]
check "bonnie++'s files column: 1:8192:1024/2" grep -Eq '^ +1:8192:1024/2 ' "$TMP/bonsz"
check "--csv 2: files, max, min, dirs" sh -c "tail -n 1 '$TMP/bonsz' | cut -d, -f22-25 | grep -qx '1,8192,1024,2'"
if command -v bon_csv2txt >/dev/null 2>&1; then
	tail -n 1 "$TMP/bonsz" | bon_csv2txt >"$TMP/b3t.out" 2>"$TMP/b3t.err"
	check "bon_csv2txt reads the sized line: nothing on stderr" [ ! -s "$TMP/b3t.err" ]
	check "bon_csv2txt shows 1:8192:1024/2" grep -q "1:8192:1024/2" "$TMP/b3t.out"
else
	skip "no bon_csv2txt (Debian package bonnie++)"
	skip "no bon_csv2txt (Debian package bonnie++)"
fi
# Two repetitions of each file test in 2 directories: each create in new
# directories while the files before it stay (disk-bonnie.c, make_gen), and
# nothing of any of them left behind; the create figures carry a note on
# ext2/3/4 without a journal, and only there.
R8=$TMP/r8.json
# shellcheck disable=SC2086
"$BAKEOFF" run -q --quick --reps 2 --runtime 100ms --size 2M --files 1 --file-dirs 2 --no-char \
	--dir "$D" -o "$R8" disk.bonnie >/dev/null 2>&1
ok $? "run disk.bonnie --reps 2 --file-dirs 2 exits 0"
for t in "seq create" "seq stat" "seq delete" "ran create" "ran stat" "ran delete"; do
	check "  $t: 2 repetitions" [ "$(jget "$R8" "scalar @{metric('disk.bonnie','$t')->{samples}}")" = 2 ]
done
check "  nothing left in the --dir" [ -z "$(ls -A "$D")" ]
j=$(jget "$R8" 'bench("disk.bonnie")->{params}{fs_journal} // ""')
n=$(jget "$R8" '(metric("disk.bonnie","seq create")->{note} // "") =~ /recently_deleted/ ? 1 : 0')
check "  fs_journal '$j': a recently_deleted note on seq create exactly when no" \
	[ "$n" = "$([ "$j" = no ] && echo 1 || echo 0)" ]
# --no-char (bonnie++ -f): no putc or getc, their CSV fields empty as
# bonnie++ -f leaves them, the block tests there.
R7=$TMP/r7.json
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --files 1 --no-char --dir "$D" -o "$R7" bonnie >"$TMP/bonf" 2>/dev/null
ok $? "run bonnie --no-char exits 0"
check "--no-char: no putc or getc, a block write" [ "$(jget "$R7" 'my $b = bench("disk.bonnie"); join ",", map { $_->{name} } grep { $_->{name} =~ /^(putc|getc|write)$/ } @{$b->{metrics}}')" = write ]
check "--no-char: CSV putc and getc fields empty, block write not" sh -c \
	"tail -n 1 '$TMP/bonf' | cut -d, -f10,11,12,16,17 | grep -Eqx ',,[0-9+]+,,'"
R4=$TMP/r4.json
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --block-sizes 64k --dir "$D" -o "$R4" dd >"$TMP/dd2" 2>/dev/null
ok $? "run dd exits 0"
check "the dd personality prints dd's line" grep -q "bytes transferred in" "$TMP/dd2"

# Streams over a --dir list: one per directory, each reported, aggregate.
mkdir "$TMP/a" "$TMP/b"
R5=$TMP/r5.json
# shellcheck disable=SC2086
"$BAKEOFF" run $Q --block-sizes 64k --dir "$TMP/a,$TMP/b" -o "$R5" disk.seq >/dev/null 2>&1
ok $? "run disk.seq --dir a,b exits 0"
check "aggregate of 2 streams" num_between "$(median "$R5" disk.seq "write 64k, 2 streams")" 0.1 100000
check "each stream's rate" [ "$(jget "$R5" 'scalar @{metric("disk.seq","read 64k, 2 streams")->{per_copy} // []}')" = 2 ]
check "nothing left in either directory" [ -z "$(ls -A "$TMP/a" "$TMP/b" | grep -v :)" ]

# Bad input: one line, exit 2, naming what is wrong.
bad() { # DESC PATTERN ARGS...
	_d=$1 _p=$2
	shift 2
	"$BAKEOFF" run -q -o "$TMP/bad.json" "$@" >/dev/null 2>"$TMP/bad.err"
	_rc=$?
	ok $((_rc != 2)) "$_d exits 2"
	check "$_d: one line naming it" sh -c "[ \$(wc -l <'$TMP/bad.err') = 1 ] && grep -q -- '$_p' '$TMP/bad.err'"
	check "$_d: no result file" [ ! -e "$TMP/bad.json" ]
}
bad "a missing --dir" "$TMP/nope: No such file" --dir "$TMP/nope" disk.seq
bad "a missing second --dir" "--dir $TMP/nope: No such file" --dir "$D,$TMP/nope" disk.seq
bad "--csv 3" "for --csv: expected 1.03" --dir "$D" --csv 3 disk.bonnie
bad "--file-min above --file-max" "--file-min 8 KiB is above --file-max 1 KiB" --dir "$D" --file-max 1k --file-min 8k disk.bonnie
bad "--device on a file that is no block device" "not a block device" --dir "$D" --device /dev/null disk.seq
bad "--destroy-data without --device" "--destroy-data only applies with --device" --dir "$D" --destroy-data disk.seq
bad "--iodepth 0" "for --iodepth: expected a whole number from 1" --dir "$D" --iodepth 0 disk.rand
bad "--iodepth 100000" "--iodepth 100000 is over 32768, the most requests io_uring" --dir "$D" --iodepth 100000 disk.rand
bad "--rwmix 101" "for --rwmix: expected a whole number from 1 to 99" --dir "$D" --rwmix 101 disk.rand
bad "--steady-state iops:1" "for --steady-state: expected KIND:PCT:DUR" --dir "$D" --steady-state iops:1 disk.rand
bad "--engine spdk" "for --engine: expected auto, psync, aio or io_uring" --dir "$D" --engine spdk disk.rand
avail_k=$(df -Pk "$D" | awk 'NR == 2 { print $4 }')
if [ -n "$avail_k" ] && [ "$avail_k" -lt $((1024 * 1024 * 1024)) ]; then
	bad "--size 1T" "--size 1 TiB needs 1 TiB in $D, which has .* free" --dir "$D" --size 1T disk.seq
else
	skip "1 TiB or more free here" && skip "1 TiB or more free here" && skip "1 TiB or more free here"
fi
check "nothing left after the refusals" [ -z "$(ls -A "$D")" ]

# Faults, injected: a full disk at the 3rd write, an I/O error at the 2nd read.
SHIM=$TMP/faultinj.so
if [ -d /proc/self/fd ] && ${CC:-cc} -fPIC -shared -o "$SHIM" tests/faults/faultinj.c -ldl 2>/dev/null; then
	# under ASan the shim is loaded before the runtime: let it (as faults.t does)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	export ASAN_OPTIONS
	# shellcheck disable=SC2086
	env LD_PRELOAD="$SHIM" FAULT="write:3:ENOSPC" FAULT_PATH="$D/bakeoff." "$BAKEOFF" run $Q \
		--block-sizes 4k --dir "$D" -o "$TMP/f1.json" disk.seq disk.rand >/dev/null 2>&1
	ok $(($? != 1)) "ENOSPC: exit 1 (a benchmark failed)"
	check "ENOSPC: disk.seq failed with 'no space left on DIR'" \
		[ "$(jget "$TMP/f1.json" 'bench("disk.seq")->{reason}')" = "no space left on $D" ]
	check "ENOSPC: the run went on (disk.rand ok)" [ "$(status "$TMP/f1.json" disk.rand)" = ok ]
	check "ENOSPC: nothing left" [ -z "$(ls -A "$D")" ]
	# shellcheck disable=SC2086
	env LD_PRELOAD="$SHIM" FAULT="read:2:EIO" FAULT_PATH="$D/bakeoff." "$BAKEOFF" run $Q \
		--block-sizes 4k --dir "$D" -o "$TMP/f2.json" disk.seq >/dev/null 2>&1
	ok $(($? != 1)) "EIO: exit 1"
	v=$(jget "$TMP/f2.json" 'bench("disk.seq")->{reason}')
	diag "$v"
	check "EIO: the reason names the offset" [ "$v" = "read error (EIO) at offset 4096 of seq in $D" ]
	check "EIO: nothing left" [ -z "$(ls -A "$D")" ]
else
	for i in 1 2 3 4 5 6 7; do skip "no fault-injection shim here"; done
fi

# A real tmpfs that runs out of room (root only): a size that does not fit
# is refused before anything is written; running out of inodes mid-test
# fails that test, leaves nothing behind, and the run goes on.
if [ "$(id -u)" = 0 ] && os_linux && command -v mount >/dev/null; then
	M=$TMP/mnt
	mkdir "$M"
	if mount -t tmpfs -o size=8m,nr_inodes=400 bakeoff-test "$M" 2>/dev/null; then
		trap 'umount "$M" 2>/dev/null; rm -rf "$TMP"' EXIT
		"$BAKEOFF" run -q --quick --size 16M --dir "$M" -o "$TMP/t1.json" disk.seq >/dev/null 2>"$TMP/t1.err"
		ok $(($? != 2)) "tmpfs: --size 16M on 8 MiB exits 2"
		check "tmpfs: names the space needed and free" grep -Eq -- "--size 16 MiB needs 16 MiB in $M, which has [0-9.]+ [KM]iB free" "$TMP/t1.err"
		# shellcheck disable=SC2086
		"$BAKEOFF" run $Q --files 1 --block-sizes 64k --dir "$M" -o "$TMP/t2.json" disk.bonnie disk.seq \
			>/dev/null 2>&1
		ok $(($? != 1)) "tmpfs out of inodes: exit 1"
		check "tmpfs: bonnie failed with 'no space left on DIR'" \
			[ "$(jget "$TMP/t2.json" 'bench("disk.bonnie")->{reason}')" = "no space left on $M" ]
		check "tmpfs: the run went on (disk.seq ok)" [ "$(status "$TMP/t2.json" disk.seq)" = ok ]
		check "tmpfs: the guard says it measures memory" [ "$(jget "$TMP/t2.json" \
			'(grep { /is on tmpfs: this measures memory, not a disk/ } @{$r->{guard}{findings}}) ? 1 : 0')" = 1 ]
		check "tmpfs: fs_type recorded" [ "$(jget "$TMP/t2.json" 'bench("disk.seq")->{params}{fs_type}')" = tmpfs ]
		check "tmpfs: nothing left" [ -z "$(ls -A "$M")" ]
		# issue 26: bonnie's files need more than there is: the reason says so
		"$BAKEOFF" run -q --quick --size 1M --files 2 --file-max 8k --dir "$M" -o "$TMP/t3.json" \
			disk.bonnie >/dev/null 2>&1
		reason=$(jget "$TMP/t3.json" 'bench("disk.bonnie")->{reason}')
		check "tmpfs: bonnie's files that do not fit: the room is named ($reason)" \
			sh -c "echo '$reason' | grep -Eq '^needs 16 MiB in $M, which has [0-9.]+ [KM]iB free\$'"
		umount "$M"
		trap 'rm -rf "$TMP"' EXIT
	else
		for i in 1 2 3 4 5 6 7 8 9; do skip "cannot mount a tmpfs here"; done
	fi
else
	for i in 1 2 3 4 5 6 7 8 9; do skip "not root: no tmpfs to fill"; done
fi

# SIGINT during a long sequential write: exit 130, no scratch left.
"$BAKEOFF" run -q --size 1G --runtime 30s --block-sizes 4k --dir "$D" -o "$TMP/int.json" disk.seq \
	>/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ -z "$(ls "$D"/bakeoff.*/seq 2>/dev/null)" ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.3
kill -INT $pid
wait $pid
ok $(($? != 130)) "SIGINT: exit 130"
check "SIGINT: disk.seq marked interrupted" [ "$(status "$TMP/int.json" disk.seq)" = interrupted ]
check "SIGINT: no scratch left" [ -z "$(ls -A "$D")" ]

# SIGINT with 32 requests in flight (issue 21: "exit within 1 s, nothing
# left behind"): the live stream says when the QD32 rows run; the bound
# checked is 10 s, for CI's loaded machine (14 ms here, 2026-12-07).
"$BAKEOFF" run -q --size 64M --jobs 1 --iodepth 32 --runtime 1s --interval 100ms --dir "$D" \
	--json-stream "$TMP/int32.nd" -o "$TMP/int32.json" disk.rand >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q 'QD32' "$TMP/int32.nd" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
now_ms() { perl -MTime::HiRes=time -e 'printf "%d\n", time * 1000'; }
t0=$(now_ms)
kill -INT $pid
wait $pid
rc=$?
ms=$(($(now_ms) - t0))
diag "SIGINT at QD32: the run ended ${ms} ms after the signal"
ok $((rc != 130)) "SIGINT at QD32: exit 130"
check "  within 10 s" [ "$ms" -lt 10000 ]
check "  disk.rand marked interrupted" [ "$(status "$TMP/int32.json" disk.rand)" = interrupted ]
check "  no scratch left" [ -z "$(ls -A "$D")" ]
done_testing
