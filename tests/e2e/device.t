#!/bin/sh
# device.t — `--device DEV` on a loop device over an image in the test's
# own directory (root and losetup only; skipped otherwise): disk.seq reads
# it and leaves every byte as it was (no write figure, device_written no);
# pointing the writing benchmarks at the device (--dir DEV) is refused with
# exit 2 naming it; with --destroy-data the warning names the device, the
# first --size bytes are written and the rest of it is left alone.
. tests/e2e/lib.sh
[ "$(id -u)" = 0 ] || skip_all "not root: no loop device"
os_linux || skip_all "loop devices are Linux's"
command -v losetup >/dev/null 2>&1 || skip_all "no losetup (util-linux)"
IMG=$TMP/img
D=$TMP/d
mkdir "$D"
# 8 MiB of random bytes: the first 4 MiB are the --size under test, the
# last 4 MiB must never change.
dd if=/dev/urandom of="$IMG" bs=1M count=8 2>/dev/null
L=$(losetup -f --show "$IMG" 2>/dev/null) || skip_all "cannot attach a loop device here"
trap 'losetup -d "$L" 2>/dev/null; rm -rf "$TMP"' EXIT
head_sum() { head -c 4194304 "$IMG" | cksum; }
tail_sum() { tail -c 4194304 "$IMG" | cksum; }
h0=$(head_sum)
t0=$(tail_sum)

R=$TMP/r.json
"$BAKEOFF" run -q --reps 1 --size 4M --block-sizes 64k,1M --device "$L" --dir "$D" -o "$R" \
	disk.seq >/dev/null 2>"$TMP/err"
ok $? "--device $L (read-only): exit 0"
check "disk.seq is ok" [ "$(status "$R" disk.seq)" = ok ]
for bs in 64k 1M; do
	check "read $bs of the device: between 0.1 MB/s and 1 TB/s" \
		num_between "$(median "$R" disk.seq "read $bs")" 0.1 1000000
	check "no write $bs figure" [ -z "$(jget "$R" "metric('disk.seq','write $bs') ? 1 : undef")" ]
done
check "device_path recorded" [ "$(jget "$R" 'bench("disk.seq")->{params}{device_path}')" = "$L" ]
check "device_written: no" [ "$(jget "$R" 'bench("disk.seq")->{params}{device_written}')" = no ]
check "no warning without --destroy-data" sh -c "! grep -q WARNING '$TMP/err'"
losetup -d "$L" 2>/dev/null || true	# detached: the image's bytes are on the file
check "the device's first --size bytes are unchanged" [ "$(head_sum)" = "$h0" ]
check "the rest of the device is unchanged" [ "$(tail_sum)" = "$t0" ]
L=$(losetup -f --show "$IMG" 2>/dev/null)
ok $? "loop device attached again ($L)"

# Writing to the device without --destroy-data: the writing benchmarks
# pointed at it are refused before anything is written.
"$BAKEOFF" run -q --reps 1 --size 4M --dir "$L" -o "$TMP/bad.json" disk.seq >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--dir $L (writing to the device): exit 2"
check "--dir $L: one line naming the device" sh -c \
	"[ \$(wc -l <'$TMP/bad.err') = 1 ] && grep -q -- '$L' '$TMP/bad.err'"
check "--dir $L: no result file" [ ! -e "$TMP/bad.json" ]
"$BAKEOFF" run -q --reps 1 --size 4M --device "$L" --dir "$D" -o "$TMP/bad.json" disk.rand \
	>/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--device with only a benchmark that writes files (disk.rand): exit 2"
check "no result file" [ ! -e "$TMP/bad.json" ]

# --destroy-data: the first --size bytes are overwritten, with a warning
# naming the device; what lies beyond --size is left alone.
R2=$TMP/r2.json
"$BAKEOFF" run -q --reps 1 --size 4M --block-sizes 1M --device "$L" --destroy-data --dir "$D" \
	-o "$R2" disk.seq >/dev/null 2>"$TMP/err2"
ok $? "--device $L --destroy-data: exit 0"
check "the warning names the device" grep -q "WARNING: --destroy-data: .*$L" "$TMP/err2"
check "write 1M measured" num_between "$(median "$R2" disk.seq "write 1M")" 0.1 1000000
check "read 1M measured" num_between "$(median "$R2" disk.seq "read 1M")" 0.1 1000000
check "device_written: yes" [ "$(jget "$R2" 'bench("disk.seq")->{params}{device_written}')" = yes ]
losetup -d "$L" 2>/dev/null || true
trap 'rm -rf "$TMP"' EXIT
check "the first --size bytes were written" [ "$(head_sum)" != "$h0" ]
check "beyond --size nothing was written" [ "$(tail_sum)" = "$t0" ]
check "nothing left in the --dir" [ -z "$(ls -A "$D")" ]
done_testing
