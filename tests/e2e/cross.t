#!/bin/sh
# cross.t — two builds of bakeoff on the two ends of one connection, and a
# result file crossing from one to the other: the emulated build
# ($BAKEOFF, under `make cross ARCH=...`, e.g. big-endian s390x under
# qemu) serves the native build's net run and runs against the native
# serve; the native compare and report read the emulated build's file.
# Only the protocol and the file are judged, no timing.
. tests/e2e/lib.sh
NATIVE=${BAKEOFF_NATIVE:-$(pwd)/bakeoff}
if [ -z "${BAKEOFF_CROSS:-}" ]; then
	skip_all "runs under make cross ARCH=... (an emulated build against this one)"
fi
if [ ! -x "$NATIVE" ] || [ "$NATIVE" = "$BAKEOFF" ]; then
	skip_all "no native build at $NATIVE to pair with (make first)"
fi
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0")->sockport'
}
# pair SERVER CLIENT NAME — SERVER serves, CLIENT runs net.tcp.lat and net.tcp.bw against it
pair() {
	_p=$(free_port)
	"$1" serve --listen "127.0.0.1:$_p" --token x1 2>"$TMP/$3.log" &
	_srv=$!
	_i=0
	while [ $_i -lt 50 ] && ! grep -q 'listening' "$TMP/$3.log" 2>/dev/null; do sleep 0.2; _i=$((_i + 1)); done
	"$2" run -q --quick --peer "127.0.0.1:$_p" --token x1 -o "$TMP/$3.json" net.tcp.lat net.tcp.bw \
		>/dev/null 2>"$TMP/$3.err"
	ok $? "$3: the run exits 0"
	check "  net.tcp.lat and net.tcp.bw ok" [ "$(jget "$TMP/$3.json" 'join ",", map { $_->{status} } @{$r->{benchmarks}}')" = "ok,ok" ]
	check "  against the peer, not an embedded server" [ "$(jget "$TMP/$3.json" 'bench("net.tcp.lat")->{params}{peer}')" != embedded ]
	check "  a bandwidth from 0.001 to 1e6 MB/s" num_between "$(median "$TMP/$3.json" net.tcp.bw)" 0.001 1e6
	kill "$_srv" 2>/dev/null
	wait "$_srv" 2>/dev/null
}
arch=$("$BAKEOFF" sysinfo --json | perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{arch}')
diag "emulated: $arch ($BAKEOFF_CROSS); native: $(uname -m)"
pair "$BAKEOFF" "$NATIVE" "native-client-$BAKEOFF_CROSS-server"
pair "$NATIVE" "$BAKEOFF" "$BAKEOFF_CROSS-client-native-server"
check "the emulated build's result says its arch ($arch)" [ "$(jget "$TMP/$BAKEOFF_CROSS-client-native-server.json" '$r->{host}{arch}')" = "$arch" ]
"$NATIVE" compare "$TMP/native-client-$BAKEOFF_CROSS-server.json" "$TMP/$BAKEOFF_CROSS-client-native-server.json" >"$TMP/cmp" 2>&1
check "native compare reads the emulated build's file (exit 0 or 1)" [ $? -le 1 ]
check "  and compares its net.tcp.lat" grep -q '^net.tcp.lat' "$TMP/cmp"
"$BAKEOFF" report "$TMP/native-client-$BAKEOFF_CROSS-server.json" >"$TMP/rep" 2>&1
ok $? "the emulated build reports the native build's file"
check "  its table" grep -q '^net.tcp.bw' "$TMP/rep"
# the page size found at run time, not 4 KiB assumed (ppc64le: 64 KiB pages)
"$BAKEOFF" run -q --quick -o "$TMP/pages.json" vm.pagefault mem.tlb >/dev/null 2>&1
pg=$(jget "$TMP/pages.json" '$r->{host}{page_bytes}')
diag "page size seen by the emulated build: $pg bytes"
# (whether mem.tlb finds its step under emulation is the host's TLB's
# doing: 64 guest pages of 64 KiB are 64 host pages, inside a large L1
# TLB; "no latency step" is then its finding, not a wrong page size)
check "vm.pagefault and mem.tlb run on the page size the OS has ($pg)" [ "$(jget "$TMP/pages.json" 'join ",", map { ($_->{status} eq "failed" && ($_->{reason} // "") =~ /^no latency step/ ? "ok" : $_->{status}) . ":$_->{params}{page_bytes}" } @{$r->{benchmarks}}')" = "ok:$pg,ok:$pg" ]
check "  vm.pagefault touched one byte a page: map size / page size pages" [ "$(jget "$TMP/pages.json" 'my $p = bench("vm.pagefault")->{params}; $p->{pages_touched} * $p->{page_bytes} == $p->{map_size_bytes} ? 1 : 0')" = 1 ]
done_testing
