#!/bin/sh
# vm.t — mmap, page faults, file and mmap reread at tiny sizes, end to end:
# plausible figures (ranges, never a relation between two timings), the
# file state recorded (faults per pass, bytes per fault), the cache note,
# the room check before a file is made, and Ctrl-C during a big file.
. tests/e2e/lib.sh
R=$TMP/r.json
mkdir "$TMP/scratch"
"$BAKEOFF" run -q --quick --samples 3 --map-size 1M --dir "$TMP/scratch" \
	-o "$R" vm >"$TMP/out" 2>"$TMP/err"
ok $? "run vm exits 0"
for id in vm.mmap.lat vm.pagefault vm.file.reread vm.mmap.reread; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id appears in the table" grep -q "^$id " "$TMP/out"
	check "$id records map_size" [ "$(jget "$R" "bench('$id')->{params}{map_size_bytes}")" = 1048576 ]
done
# Ranges hold on any machine but not with a unit off by 1000.
check "mmap of 1M between 0.05 and 2000 us" num_between "$(median "$R" vm.mmap.lat)" 0.05 2000
check "page fault between 0.001 and 50 us a page" num_between "$(median "$R" vm.pagefault)" 0.001 50
check "pagefault unit is us" [ "$(jget "$R" 'metric("vm.pagefault","")->{unit}')" = us ]
check "pagefault is the first figure" [ "$(jget "$R" 'bench("vm.pagefault")->{metrics}[0]{name}')" = "" ]
check "mmap+munmap cost recorded" num_between "$(median "$R" vm.pagefault map)" 0.01 2000
check "1M / page size pages touched" [ "$(jget "$R" 'bench("vm.pagefault")->{params}{pages_touched}')" = $((1048576 / $(getconf PAGESIZE))) ]
check "faults of a pass counted" num_between \
	"$(jget "$R" 'bench("vm.pagefault")->{params}{faults_per_pass}')" 1 256
# A fault maps at least a page and at most the whole 1M file.
check "pagefault bytes per fault recorded" num_between \
	"$(jget "$R" 'bench("vm.pagefault")->{params}{bytes_per_fault}')" 4096 1048576
check "mmap faults of a pass counted" num_between \
	"$(jget "$R" 'bench("vm.mmap.lat")->{params}{faults_per_pass}')" 1 256
check "mmap bytes per fault recorded" num_between \
	"$(jget "$R" 'bench("vm.mmap.lat")->{params}{bytes_per_fault}')" 1 1048576
check "how the file was written is recorded" \
	[ "$(jget "$R" 'bench("vm.file.reread")->{params}{write_block_bytes}')" = 65536 ]
llc=$(jget "$R" 'my $m = 0; for (@{$r->{host}{caches} // []}) { $m = $_->{size_bytes} if ($_->{type} // "") ne "instruction" && $_->{size_bytes} > $m } $m')
if [ -n "$llc" ] && [ "$llc" -gt 1048576 ]; then
	check "a 1M file in a bigger LLC gets a note" [ "$(jget "$R" \
		'(metric("vm.file.reread","")->{note} // "") =~ /fits in the .* last-level cache/ ? 1 : 0')" = 1 ]
	check "mmap reread gets the note too" [ "$(jget "$R" \
		'(metric("vm.mmap.reread","")->{note} // "") =~ /last-level cache/ ? 1 : 0')" = 1 ]
else
	skip "no last-level cache above 1M reported"
	skip "no last-level cache above 1M reported"
fi
check "file reread between 10 MB/s and 1 TB/s" num_between "$(median "$R" vm.file.reread)" 10 1000000
check "mmap reread between 10 MB/s and 1 TB/s" num_between "$(median "$R" vm.mmap.reread)" 10 1000000
check "no file left in the scratch parent" [ -z "$(ls -A "$TMP/scratch")" ]

P=$TMP/p.json
"$BAKEOFF" run -q --quick --samples 3 --map-size 1M --parallel 2 --dir "$TMP/scratch" \
	-o "$P" vm.pagefault vm.mmap.lat >/dev/null 2>"$TMP/err2"
ok $? "run --parallel 2 exits 0"
check "parallel vm.pagefault is ok" [ "$(status "$P" vm.pagefault)" = ok ]
check "parallel vm.pagefault has 2 per_copy entries" \
	[ "$(jget "$P" 'scalar @{metric("vm.pagefault","")->{per_copy} // []}')" = 2 ]
check "parallel vm.mmap.lat is ok" [ "$(status "$P" vm.mmap.lat)" = ok ]
check "no file left after the parallel run" [ -z "$(ls -A "$TMP/scratch")" ]

# No room: refused before anything is written, naming both figures.
avail_k=$(df -Pk "$TMP/scratch" | awk 'NR == 2 { print $4 }')
if [ -n "$avail_k" ] && [ "$avail_k" -lt $((1024 * 1024 * 1024)) ]; then
	"$BAKEOFF" run -q --quick --samples 3 --map-size 1T --dir "$TMP/scratch" -o "$TMP/full.json" \
		vm.mmap.lat >/dev/null 2>"$TMP/full.err"
	ok $(($? != 2)) "a 1T file is refused before measuring (exit 2)"
	diag "$(cat "$TMP/full.err")"
	check "one line naming the size, the directory and what is free" \
		sh -c "[ \$(wc -l <'$TMP/full.err') = 1 ] && grep -Eq -- '--map-size 1 TiB needs 1 TiB in .*scratch, which has [0-9.]+ [KMGT]?i?B free' '$TMP/full.err'"
	check "nothing left in the scratch parent, no result file" \
		sh -c "[ -z \"\$(ls -A '$TMP/scratch')\" ] && [ ! -e '$TMP/full.json' ]"
else
	skip "1 TiB or more free here"
	skip "1 TiB or more free here"
	skip "1 TiB or more free here"
fi

# Ctrl-C while a 4 GiB file is being made ends the run within a second.
mkdir "$TMP/tmpdir"
avail_k=$(df -Pk "$TMP/tmpdir" | awk 'NR == 2 { print $4 }')
if [ -n "$avail_k" ] && [ "$avail_k" -gt $((6 * 1024 * 1024)) ]; then
	TMPDIR=$TMP/tmpdir "$BAKEOFF" run -q --map-size 4G -o "$TMP/int.json" vm.file.reread \
		>/dev/null 2>"$TMP/interr" &
	pid=$!
	sleep 2
	t0=$(perl -MTime::HiRes=time -e 'printf "%.3f", time')
	kill -INT $pid
	wait $pid
	rc=$?
	t1=$(perl -MTime::HiRes=time -e 'printf "%.3f", time')
	el=$(perl -e 'printf "%.2f", $ARGV[1] - $ARGV[0]' "$t0" "$t1")
	diag "SIGINT to exit: $el s"
	check "SIGINT during a 4G file ends the run within 1 s" perl -e 'exit !($ARGV[0] <= 1.0)' "$el"
	ok $((rc != 130)) "exit status 130 (got $rc)"
	check "no scratch left in TMPDIR" [ -z "$(ls -A "$TMP/tmpdir")" ]
else
	skip "under 6 GiB free for a 4 GiB file"
	skip "under 6 GiB free for a 4 GiB file"
	skip "under 6 GiB free for a 4 GiB file"
fi
done_testing
