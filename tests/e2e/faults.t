#!/bin/sh
# faults.t — benchmarks meeting a full disk (ENOSPC), an I/O error (EIO),
# short reads and writes, a refused fork (EAGAIN) and interrupted calls
# (EINTR), injected with the LD_PRELOAD shim tests/faults/faultinj.c. In
# every case the benchmark ends failed with its reason (or ok, where the
# right answer is to retry: short transfers, EINTR with no interrupt
# pending), no scratch is left in the run's private TMPDIR, and the rest of
# the run is intact: cpu.mhz, which runs after the faulty benchmark, is ok
# and the result file is valid.
#
# Which calls are hit: FAULT_PATH keeps the counting on the benchmark's
# scratch file ("/vm-reread.") or on pipes ("pipe:"), so the result file,
# stdout and /proc reads are never faulted (the scratch directory's marker,
# "$S/bakeoff.", has a case of its own at the end). Forks cannot be told apart by
# path: "fork:N" is the Nth fork of the bakeoff process, and the faulty
# benchmark is the first that forks (were the harness to fork a child per
# benchmark, fork:1 would hit that fork instead: still a fork failure the
# benchmark must report, and cpu.mhz, forked later, is unaffected).
. tests/e2e/lib.sh

[ -r /proc/self/fd/0 ] || [ -d /proc/self/fd ] || skip_all "no /proc/self/fd for FAULT_PATH"
SHIM=$TMP/faultinj.so
${CC:-cc} -fPIC -shared -o "$SHIM" tests/faults/faultinj.c -ldl 2>"$TMP/cc.err" ||
	${CC:-cc} -fPIC -shared -o "$SHIM" tests/faults/faultinj.c 2>>"$TMP/cc.err" ||
	skip_all "cannot build the LD_PRELOAD shim: $(head -n 1 "$TMP/cc.err")"
# An ASan build wants its runtime first; the shim only wraps libc calls.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# fault_case DESC BENCH FAULT FAULT_PATH WANT REASON
#   WANT ok or failed; REASON an extended regex the reason must match.
n=0
fault_case() {
	_desc=$1 _bench=$2 _fault=$3 _path=$4 _want=$5 _why=$6
	n=$((n + 1))
	S=$TMP/s$n
	R=$TMP/r$n.json
	mkdir "$S"
	case $_bench in	# only options a selected benchmark reads
	vm.*) _size="--map-size 1M" ;;
	ipc.*.bw) _size="--msg-size 16k" ;;
	disk.rand) _size="--size 2M --runtime 100ms --reps 1 --jobs 1 --dir $S $DISK_OPTS" ;;
	*) _size= ;;
	esac
	# shellcheck disable=SC2086
	TMPDIR=$S timeout 120 env LD_PRELOAD="$SHIM" FAULT="$_fault" FAULT_PATH="$_path" \
		"$BAKEOFF" run -q --quick --samples 3 $_size -o "$R" \
		"$_bench" cpu.mhz >/dev/null 2>"$TMP/err$n"
	_rc=$?
	_st=$(status "$R" "$_bench" 2>/dev/null)
	_reason=$(jget "$R" "(bench('$_bench') // {})->{reason} // ''" 2>/dev/null)
	diag "$_desc: exit $_rc, $_bench $_st${_reason:+: $_reason}"
	check "$_desc: $_bench ends $_want (got '$_st')" [ "$_st" = "$_want" ]
	if [ "$_want" = failed ]; then
		check "$_desc: with its reason" sh -c "printf '%s' \"\$1\" | grep -Eq -- \"\$2\"" _ "$_reason" "$_why"
		check "$_desc: exit 1" [ "$_rc" -eq 1 ]
	else
		check "$_desc: exit 0" [ "$_rc" -eq 0 ]
	fi
	check "$_desc: no scratch left" [ -z "$(ls -A "$S")" ]
	check "$_desc: the next benchmark is ok" [ "$(status "$R" cpu.mhz 2>/dev/null)" = ok ]
	check "$_desc: the result is whole" [ "$(jget "$R" '$r->{run}{interrupted} ? "interrupted" : scalar @{$r->{benchmarks}}' 2>/dev/null)" = 2 ]
}

# Files: vm.file.reread writes its file in 64 KiB blocks, reads it once,
# then rereads it in every operation.
F=/vm-reread.
fault_case "full disk at the first write" vm.file.reread "write:1:ENOSPC" $F failed "No space left on device"
fault_case "disk stays full from the 3rd write" vm.file.reread "write:3+:ENOSPC" $F failed "No space left on device"
fault_case "I/O error in the setup read" vm.file.reread "read:2:EIO" $F failed "Input/output error|I/O error"
fault_case "I/O error in a timed reread" vm.file.reread "read:40:EIO" $F failed "Input/output error|I/O error"
fault_case "short write" vm.file.reread "write:2:short" $F ok ""
fault_case "short reads" vm.file.reread "read:3+:short" $F ok ""
fault_case "EINTR on a write, no interrupt" vm.file.reread "write:2:EINTR" $F ok ""
fault_case "EINTR on a timed read, no interrupt" vm.file.reread "read:40:EINTR" $F ok ""
# Processes: every proc.fork.exit operation forks; calibration starts with
# 1, 2, 4 operations, so fork 5 falls inside the measurement.
fault_case "fork refused at once" proc.fork.exit "fork:1:EAGAIN" "" failed "Resource temporarily unavailable|fork"
fault_case "fork refused while measuring" proc.fork.exit "fork:5:EAGAIN" "" failed "Resource temporarily unavailable|fork"
fault_case "fork out of memory from then on" proc.fork.exit "fork:3+:ENOMEM" "" failed "Cannot allocate memory|fork"
# Pipes: ipc.pipe.bw's child writes 16 KiB messages, the parent reads them.
fault_case "pipe read error" ipc.pipe.bw "read:20:EIO" "pipe:" failed "Input/output error|I/O error"
# The writer is the child: its EIO reaches the parent only as end of file.
# A stray EINTR (no interrupt pending) is retried, never a failure.
fault_case "pipe write error in the writer" ipc.pipe.bw "write:20+:EIO" "pipe:" failed "."
fault_case "short pipe writes" ipc.pipe.bw "write:10+:short" "pipe:" ok ""
fault_case "EINTR on a pipe read, no interrupt" ipc.pipe.bw "read:20:EINTR" "pipe:" ok ""
# disk.rand: a read error on the way (pread, QD1), an io_uring that
# fails while 32 requests are in flight (they are reaped before the file
# goes), and io_uring refused at setup: auto falls back to POSIX AIO and
# says why under the QD32 rows; asked for by name, it is unsupported.
F=/rand
fault_case "I/O error on a random read" disk.rand "pread:5:EIO" $F failed "read error \\(EIO\\) at offset [0-9]+ of rand"
fault_case "io_uring fails with requests in flight" disk.rand "io_uring_enter:3+:EIO" "" failed "wait for completions: (Input/output error|I/O error)"
fault_case "io_uring refused: auto falls back" disk.rand "io_uring_setup:1+:EPERM" "" ok ""
check "  the QD32 rows say which engine and why" \
	[ "$(jget "$TMP/r$n.json" "metric('disk.rand','randread 4k QD32')->{note} // ''")" = \
	  "engine aio, since io_uring_setup: Operation not permitted (forbidden here: kernel.io_uring_disabled, or a seccomp filter)" ]
DISK_OPTS="--engine io_uring"
fault_case "io_uring asked for, but refused" disk.rand "io_uring_setup:1+:ENOSYS" "" unsupported ""
check "  with its reason" [ "$(jget "$TMP/r$n.json" "bench('disk.rand')->{reason}")" = \
	"io_uring_setup: Function not implemented (this kernel has no io_uring)" ]
DISK_OPTS=
# The scratch directory's marker cannot be written: nothing is measured,
# exit 2 with one line, nothing left behind.
S=$TMP/smark
mkdir "$S"
TMPDIR=$S timeout 120 env LD_PRELOAD="$SHIM" FAULT="write:1+:ENOSPC" FAULT_PATH="$S/bakeoff." \
	"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/rmark.json" proc.syscall.null >/dev/null 2>"$TMP/errmark"
ok $(($? != 2)) "full disk making the scratch directory: exit 2"
check "full disk making the scratch directory: one line naming it" sh -c \
	"[ \$(wc -l <'$TMP/errmark') -eq 1 ] && grep -q 'No space left on device' '$TMP/errmark'"
check "full disk making the scratch directory: nothing left" [ -z "$(ls -A "$S")" ]
check "full disk making the scratch directory: no result file" [ ! -e "$TMP/rmark.json" ]
# The result file cannot be updated after the first save (a disk that
# fills during the run): the run goes on, and at the end the result is
# printed on stdout rather than lost; the file keeps the first save.
S=$TMP/ssave
mkdir "$S"
TMPDIR=$S timeout 120 env LD_PRELOAD="$SHIM" FAULT="write:2+:ENOSPC" FAULT_PATH="$S/r.json.tmp" \
	"$BAKEOFF" run -q --quick --samples 3 -o "$S/r.json" proc.syscall.null >"$TMP/outsave" 2>"$TMP/errsave"
ok $(($? != 1)) "result file full at the end: exit 1"
check "result file full at the end: says the result is on stdout" \
	grep -q "cannot save the result (.*No space left on device); here it is on stdout" "$TMP/errsave"
sed -n '/^{/,$p' "$TMP/outsave" >"$TMP/save.json"
check "result file full at the end: the JSON on stdout holds the finished benchmark" \
	[ "$(status "$TMP/save.json" proc.syscall.null)" = ok ]
check "result file full at the end: the JSON on stdout is complete" \
	[ "$(jget "$TMP/save.json" '$r->{run}{incomplete} ? 1 : 0')" = 0 ]
check "result file full at the end: the file keeps the first save, marked incomplete" \
	[ "$(jget "$S/r.json" '$r->{run}{incomplete} ? 1 : 0')" = 1 ]
check "result file full at the end: no temporary file left" [ "$(ls -A "$S")" = r.json ]
# What the disk benchmarks write is incompressible: no 512-byte sector of
# zeros, which compressing or thin storage need never write (disk.seq's
# ceiling once read /dev/zero into the writes' buffer, so every block size
# after the first wrote a head of zeros). The shim's FAULT_ZEROS reports
# such a write; a program that writes 4 KiB of zeros, built with the
# shim's compiler (so with its libc: a musl shim does not load into a glibc
# program), shows that it does.
S=$TMP/szero
mkdir "$S"
printf '#include <unistd.h>\nint main(void) { static char z[4096]; return write(1, z, sizeof z) != 4096; }\n' \
	>"$TMP/zw.c"
${CC:-cc} -o "$TMP/zw" "$TMP/zw.c" 2>>"$TMP/cc.err"
env LD_PRELOAD="$SHIM" FAULT_ZEROS=1 FAULT_PATH="$S/" "$TMP/zw" >"$S/zw" 2>"$TMP/errz-zw"
check "the shim reports a sector of zeros written (4 KiB of zeros)" grep -q 'zero sector at +0 of 4096' "$TMP/errz-zw"
rm -f "$S/zw"
for b in disk.seq disk.rand disk.bonnie disk.iozone; do
	case $b in
	disk.seq) o="--block-sizes 4k,16k,64k --runtime 100ms" ;;
	disk.rand) o="--runtime 100ms --jobs 1 $DISK_OPTS" ;;
	disk.bonnie) o="--files 1 --no-char" ;;
	*) o= ;;
	esac
	# shellcheck disable=SC2086
	TMPDIR=$S timeout 120 env LD_PRELOAD="$SHIM" FAULT_ZEROS=1 FAULT_PATH="$S/bakeoff." \
		"$BAKEOFF" run -q --quick --size 1M --reps 1 --dir "$S" $o -o "$TMP/z-$b.json" $b \
		>/dev/null 2>"$TMP/errz-$b"
	check "$b runs under the shim" [ "$(status "$TMP/z-$b.json" $b)" = ok ]
	check "$b writes no sector of zeros" sh -c "! grep -q 'zero sector' '$TMP/errz-$b'"
done
check "no scratch left by the zero-sector runs" [ -z "$(ls -A "$S")" ]
done_testing
