#!/bin/sh
# fs.t — lmbench 3's last blank summary columns: file create and delete
# (fs.*, lat_fs) and select() over 100 descriptors (proc.select.*,
# lat_select), at tiny sizes: every figure plausible, one latency per file,
# the trees removed, the lmbench summary's columns filled; a file system
# that runs out of room fails that benchmark with the reason and leaves
# nothing behind.
. tests/e2e/lib.sh
mkdir "$TMP/s"
R=$TMP/r.json
"$BAKEOFF" run -q --quick --dir "$TMP/s" -o "$R" fs proc.select >"$TMP/out" 2>"$TMP/err"
ok $? "run fs proc.select --quick exits 0"
for id in fs.create.0k fs.delete.0k fs.create.10k fs.delete.10k; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id: between 10 and 10^8 files/s ($(median "$R" $id))" num_between "$(median "$R" $id)" 10 1e8
	check "$id: 200 files a repetition, 100 a directory" \
		[ "$(jget "$R" "bench('$id')->{params}{files} . ' ' . bench('$id')->{params}{files_per_dir}")" = "200 100" ]
	check "$id: a latency per file of every repetition" \
		[ "$(jget "$R" "metric('$id')->{latency}{count} == 200 * metric('$id')->{n} ? 1 : 0")" = 1 ]
	check "$id: the file system named" [ -n "$(jget "$R" "bench('$id')->{params}{fs_type}")" ]
done
check "fs.create.10k writes 10240 bytes a file" [ "$(jget "$R" 'bench("fs.create.10k")->{params}{file_bytes}')" = 10240 ]
check "fs.create.0k writes none" [ "$(jget "$R" 'bench("fs.create.0k")->{params}{file_bytes}')" = 0 ]
# the note on ext2/3/4 without a journal, on the creations only
j=$(jget "$R" 'bench("fs.create.0k")->{params}{fs_journal}')
n=$(jget "$R" 'metric("fs.create.0k")->{note} // ""')
if [ "$j" = no ]; then
	check "no journal: the creations carry the recently_deleted note" sh -c "echo '$n' | grep -q recently_deleted"
else
	check "a journal (or not ext): no recently_deleted note ($j)" [ -z "$(echo "$n" | grep recently_deleted)" ]
fi
check "the deletions carry no such note" [ -z "$(jget "$R" 'metric("fs.delete.0k")->{note} // ""' | grep recently_deleted)" ]
for id in proc.select.file proc.select.tcp; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id: between 1 ns and 10 ms a select ($(median "$R" $id) us)" num_between "$(median "$R" $id)" 0.001 10000
	check "$id: over 100 descriptors" [ "$(jget "$R" "bench('$id')->{params}{descriptors}")" = 100 ]
done
check "nothing left in --dir" [ -z "$(ls -A "$TMP/s")" ]

# the lmbench summary: the four file columns and both select columns filled
"$BAKEOFF" report --format lmbench "$R" >"$TMP/lm"
row=$(sed -n '/^File & VM system latencies/,/^$/p' "$TMP/lm" | tail -2 | head -1)
check "File & VM: 0K/10K create and delete filled ($row)" \
	sh -c "echo '$row' | awk '{ exit !(\$4 + 0 > 0 && \$5 + 0 > 0 && \$6 + 0 > 0 && \$7 + 0 > 0) }'"
check "File & VM: 100fd selct filled" sh -c "echo '$row' | awk '{ exit !(\$NF + 0 > 0) }'"
row=$(sed -n '/^Processor, Processes/,/^$/p' "$TMP/lm" | tail -2 | head -1)
check "Processor: slct TCP filled ($row)" sh -c "echo '$row' | awk '{ exit !(\$9 + 0 > 0) }'"
check "the lmbench personality selects them" sh -c "'$BAKEOFF' list lmbench | grep -Eq '^fs.create.0k ' && '$BAKEOFF' list lmbench | grep -Eq '^proc.select.tcp '"

# A tmpfs of 1 MiB (root only): fs.create.10k runs out of room mid-test,
# fails with the reason, leaves nothing; fs.create.0k still runs.
if [ "$(id -u)" = 0 ] && os_linux && command -v mount >/dev/null; then
	M=$TMP/mnt
	mkdir "$M"
	if mount -t tmpfs -o size=1m bakeoff-test "$M" 2>/dev/null; then
		trap 'umount "$M" 2>/dev/null; rm -rf "$TMP"' EXIT
		"$BAKEOFF" run -q --quick --dir "$M" -o "$TMP/t.json" fs.create.10k fs.create.0k >/dev/null 2>&1
		ok $(($? != 1)) "full tmpfs: exit 1 (a benchmark failed)"
		reason=$(jget "$TMP/t.json" 'bench("fs.create.10k")->{reason}')
		check "fs.create.10k failed, naming the write and ENOSPC ($reason)" \
			sh -c "echo '$reason' | grep -Eq '^(write|create) .*fs-lat.*: No space left on device'"
		check "fs.create.0k still ran" [ "$(status "$TMP/t.json" fs.create.0k)" = ok ]
		check "fs_type tmpfs, no journal question asked" \
			[ "$(jget "$TMP/t.json" 'bench("fs.create.0k")->{params}{fs_type} . "/" . (bench("fs.create.0k")->{params}{fs_journal} // "-")')" = tmpfs/- ]
		check "full tmpfs: nothing left" [ -z "$(ls -A "$M")" ]
		umount "$M"
		trap 'rm -rf "$TMP"' EXIT
	else
		for i in 1 2 3 4 5; do skip "cannot mount a tmpfs here"; done
	fi
else
	for i in 1 2 3 4 5; do skip "needs root on Linux to mount a small tmpfs"; done
fi
done_testing
