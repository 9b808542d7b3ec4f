#!/bin/sh
# mem.t — the mem family (bw_mem, STREAM, lat_mem_rd, tlb, line) at tiny sizes.
. tests/e2e/lib.sh
R=$TMP/r.json
"$BAKEOFF" run -q --quick --samples 3 --mem-size 2M -o "$R" mem >"$TMP/out" 2>"$TMP/err"
ok $? "run exits 0"
for id in mem.bw.read mem.bw.write mem.bw.rmw mem.bw.copy mem.bw.copy_hand mem.bw.bzero \
	mem.stream.copy mem.stream.scale mem.stream.add mem.stream.triad mem.lat mem.tlb mem.line; do
	st=$(status "$R" $id)
	check "$id is ok${st:+ ($st)}" [ "$st" = ok ]
done
for id in mem.bw.read mem.bw.write mem.bw.rmw mem.bw.copy mem.bw.copy_hand mem.bw.bzero; do
	check "$id between 100 MB/s and 2 TB/s" num_between "$(median "$R" $id)" 100 2000000
	check "$id records mem_size_bytes" \
		[ "$(jget "$R" "bench('$id')->{params}{mem_size_bytes}")" = 2097152 ]
done
for k in copy scale add triad; do
	id=mem.stream.$k
	check "$id between 100 MB/s and 2 TB/s" num_between "$(median "$R" $id)" 100 2000000
	check "$id validated" [ "$(jget "$R" "bench('$id')->{params}{validated}")" = yes ]
	check "$id ran its kernel" num_between "$(jget "$R" "bench('$id')->{params}{kernel_runs}")" 3 1e12
	check "$id arrays are --mem-size when quick" \
		[ "$(jget "$R" "bench('$id')->{params}{array_bytes}")" = 2097152 ]
	m4=$(jget "$R" "bench('$id')->{params}{meets_4x_llc}")
	check "$id says whether it meets 4x LLC ($m4)" [ "$m4" = yes -o "$m4" = no ]
done
check "STREAM add counts 24 bytes per element" \
	[ "$(jget "$R" "bench('mem.stream.add')->{params}{bytes_per_element}")" = 24 ]
# STREAM Copy counts 16 bytes per element, the hand-written copy loop 8 for
# the same traffic: about 2x. (Compared with the compiled loop, not libc's
# memcpy, which a sanitizer build does not instrument.)
ratio=$(jget "$R" 'metric("mem.stream.copy")->{median} / metric("mem.bw.copy_hand")->{median}')
check "STREAM copy / hand copy plausible ($ratio)" num_between "$ratio" 0.5 8
npts=$(jget "$R" 'scalar grep { $_->{name} =~ m{^rand/} } @{bench("mem.lat")->{metrics}}')
check "mem.lat has rand/ points ($npts)" num_between "$npts" 10 100
check "mem.lat has stride/ points" num_between \
	"$(jget "$R" 'scalar grep { $_->{name} =~ m{^stride/} } @{bench("mem.lat")->{metrics}}')" 10 100
check "mem.lat rand/512B and rand/2M measured" \
	[ -n "$(median "$R" mem.lat rand/512B)" -a -n "$(median "$R" mem.lat rand/2M)" ]
check "mem.lat chain checked" [ "$(jget "$R" 'bench("mem.lat")->{params}{chain_checked}')" = yes ]
check "mem.lat chain node count" [ "$(jget "$R" 'bench("mem.lat")->{params}{chain_nodes}')" = 32768 ]
l1=$(median "$R" mem.lat L1)
check "L1 latency plausible ($l1 ns)" num_between "$l1" 0.3 20
check "rand/2M slower than L1" num_between \
	"$(jget "$R" 'metric("mem.lat","rand/2M")->{median} / metric("mem.lat","L1")->{median}')" 1.2 1000
check "L1 end recorded" num_between "$(jget "$R" 'bench("mem.lat")->{params}{L1_end_bytes}')" 512 2097152
line=$(median "$R" mem.line)
check "mem.line in {32,64,128,256} ($line)" [ "$line" = 32 -o "$line" = 64 -o "$line" = 128 -o "$line" = 256 ]
check "mem.line unit is B" [ "$(jget "$R" 'metric("mem.line")->{unit}')" = B ]
pages=$(median "$R" mem.tlb)
check "mem.tlb pages plausible ($pages)" num_between "$pages" 4 1024
check "mem.tlb before < after" num_between \
	"$(jget "$R" 'metric("mem.tlb","after")->{median} / metric("mem.tlb","before")->{median}')" 1.1 1000
check "table lists mem.lat:L1" grep -q "^mem.lat:L1 " "$TMP/out"
check "curve points are marked detail" [ "$(jget "$R" 'metric("mem.lat","rand/512B")->{detail} ? 1 : 0')" = 1 ]
check "the table leaves curve points out" sh -c "! grep -q '^mem.lat:rand/' '$TMP/out'"
check "and says how many" grep -q "curve points and intermediate figures not shown" "$TMP/out"
"$BAKEOFF" report --all "$R" >"$TMP/all"
check "report --all shows them" grep -q "^mem.lat:rand/512B " "$TMP/all"
done_testing
