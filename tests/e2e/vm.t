#!/bin/sh
# vm.t — mmap, page faults, file and mmap reread at tiny sizes, end to end.
. tests/e2e/lib.sh
R=$TMP/r.json
mkdir "$TMP/scratch"
"$BAKEOFF" run -q --quick --samples 3 --map-size 256k --msg-size 16k --dir "$TMP/scratch" \
	-o "$R" vm >"$TMP/out" 2>"$TMP/err"
ok $? "run vm exits 0"
for id in vm.mmap.lat vm.pagefault vm.file.reread vm.mmap.reread; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id appears in the table" grep -q "^$id " "$TMP/out"
	check "$id records map_size" [ "$(jget "$R" "bench('$id')->{params}{map_size_bytes}")" = 262144 ]
done
# Ranges hold on any machine but not with a unit off by 1000.
check "mmap of 256K between 0.05 and 2000 us" num_between "$(median "$R" vm.mmap.lat)" 0.05 2000
check "page fault between 0.001 and 50 us a page" num_between "$(median "$R" vm.pagefault)" 0.001 50
check "pagefault unit is us" [ "$(jget "$R" 'metric("vm.pagefault","")->{unit}')" = us ]
check "pagefault is the first figure" [ "$(jget "$R" 'bench("vm.pagefault")->{metrics}[0]{name}')" = "" ]
check "mmap+munmap cost recorded" num_between "$(median "$R" vm.pagefault map)" 0.01 2000
check "64 pages touched" [ "$(jget "$R" 'bench("vm.pagefault")->{params}{pages_touched}')" = 64 ]
check "faults of a pass counted" num_between \
	"$(jget "$R" 'bench("vm.pagefault")->{params}{faults_per_pass}')" 1 64
check "file reread between 10 MB/s and 1 TB/s" num_between "$(median "$R" vm.file.reread)" 10 1000000
check "mmap reread between 10 MB/s and 1 TB/s" num_between "$(median "$R" vm.mmap.reread)" 10 1000000
check "no file left in the scratch parent" [ -z "$(ls -A "$TMP/scratch")" ]

P=$TMP/p.json
"$BAKEOFF" run -q --quick --samples 3 --map-size 256k --parallel 2 --dir "$TMP/scratch" \
	-o "$P" vm.pagefault vm.mmap.lat >/dev/null 2>"$TMP/err2"
ok $? "run --parallel 2 exits 0"
check "parallel vm.pagefault is ok" [ "$(status "$P" vm.pagefault)" = ok ]
check "parallel vm.pagefault has 2 per_copy entries" \
	[ "$(jget "$P" 'scalar @{metric("vm.pagefault","")->{per_copy} // []}')" = 2 ]
check "parallel vm.mmap.lat is ok" [ "$(status "$P" vm.mmap.lat)" = ok ]
check "no file left after the parallel run" [ -z "$(ls -A "$TMP/scratch")" ]
done_testing
