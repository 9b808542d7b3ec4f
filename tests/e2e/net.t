#!/bin/sh
# net.t — the network group end to end: every benchmark at tiny sizes
# against the run's own loopback server, net.tcp.bw's options, the ttcp
# personality's line shape, and `bakeoff serve` meeting garbage, truncated
# messages, an oversized line, a wrong token and a full house before
# serving a normal test; the faults (port in use, unreachable peer, wrong
# token, server killed mid-test); a connection closed unanswered, tried
# again; SIGTERM; IPv6 when ::1 exists.
. tests/e2e/lib.sh
mkdir "$TMP/s"
# A free port: the kernel's choice, read back by perl (core IO::Socket::INET).
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0")->sockport'
}
# send_raw PORT BYTES-FILE — connect, send the file, print what comes back (3 s at most)
send_raw() {
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1:$ARGV[0]", Timeout => 3) or die "connect: $!\n";
		open my $f, "<", $ARGV[1] or die; binmode $f; local $/; my $d = <$f>; print $s $d;
		$s->shutdown(1) if $ARGV[2]; my $buf = ""; local $SIG{ALRM} = sub { print $buf; exit 0 }; alarm 12;
		while (sysread($s, my $c, 512)) { $buf .= $c } print $buf' "$@"
}

R=$TMP/r.json
start=$(date +%s)
"$BAKEOFF" run -q --quick --dir "$TMP/s" -o "$R" net >"$TMP/out" 2>"$TMP/err"
ok $? "run net --quick exits 0"
took=$(($(date +%s) - start))
check "run net --quick under 30 s (took $took s)" [ "$took" -lt 30 ]
for id in net.tcp.bw net.udp.bw net.tcp.lat net.udp.lat net.rpc.lat net.tcp.connect; do
	check "$id is ok" [ "$(status "$R" $id)" = ok ]
	check "$id ran against the embedded server" [ "$(jget "$R" "bench('$id')->{params}{peer}")" = embedded ]
done
check "net.tcp.bw between 10 MB/s and 100 GB/s" num_between "$(median "$R" net.tcp.bw)" 10 100000
check "net.tcp.bw sent = received" [ "$(jget "$R" 'bench("net.tcp.bw")->{params}{t_bytes}')" = \
	"$(jget "$R" 'bench("net.tcp.bw")->{params}{r_bytes}')" ]
check "net.tcp.bw by default as iperf3: 128 KiB writes for a time, its start left out (--quick: 0.5 s after 0.2 s)" \
	[ "$(jget "$R" 'my $p = bench("net.tcp.bw")->{params}; join " ", map { $p->{$_} // "-" } qw(buflen mode duration_s omitted_s nbuf)')" = "131072 duration 0.5 0.2 -" ]
check "net.tcp.bw: the server's CPU recorded" num_between "$(jget "$R" 'bench("net.tcp.bw")->{params}{remote_cpu_pct}')" 0.01 400
if os_linux; then
	check "net.tcp.bw: TCP_INFO RTT recorded" num_between "$(jget "$R" 'bench("net.tcp.bw")->{params}{tcp_rtt_us}')" 1 1e7
else
	skip "TCP_INFO is read on Linux only"
fi
for id in net.tcp.lat net.udp.lat net.tcp.connect; do
	check "$id between 1 and 100000 us" num_between "$(median "$R" $id)" 1 100000
	check "$id keeps percentiles" num_between "$(jget "$R" "metric('$id','')->{latency}{p99}")" 0.5 1e7
done
for m in udp tcp; do
	check "net.rpc.lat:$m between 1 and 100000 us" num_between "$(median "$R" net.rpc.lat $m)" 1 100000
done
check "net.udp.bw: receiver rate between 1 and 100 MB/s at 100 Mbit/s" num_between "$(median "$R" net.udp.bw)" 1 13
check "net.udp.bw: loss between 0 and 100%" num_between "$(median "$R" net.udp.bw loss)" 0 100
check "net.udp.bw: datagrams counted" num_between "$(jget "$R" 'bench("net.udp.bw")->{params}{datagrams_received}')" 1 1e12
check "lmbench rows read net.rpc.lat" sh -c "'$BAKEOFF' report --format lmbench '$R' | grep -q 'RPC/'"

# net.tcp.bw's options, at tiny sizes
for o in "--streams 2" "--reverse" "--bidir" "--reverse --streams 3" "--duration 300ms" "--msg-sizes 1k,64k"; do
	O=$TMP/o.json
	rm -f "$O"
	# shellcheck disable=SC2086
	"$BAKEOFF" run -q --quick --nbuf 256 --dir "$TMP/s" -o "$O" $o net.tcp.bw >/dev/null 2>"$TMP/err"
	ok $? "net.tcp.bw $o exits 0"
	check "net.tcp.bw $o is ok" [ "$(status "$O" net.tcp.bw)" = ok ]
done
check "--msg-sizes gives one figure per length" [ -n "$(median "$O" net.tcp.bw len=65536)" ]
"$BAKEOFF" run -q --quick --reverse --bidir --dir "$TMP/s" -o "$TMP/x.json" net.tcp.bw >/dev/null 2>&1
check "--reverse with --bidir: exit 2 before anything runs (issue 26)" sh -c "[ $? -eq 2 ] && [ ! -e '$TMP/x.json' ]"
"$BAKEOFF" run -q --quick --streams 2 net.tcp.lat >/dev/null 2>"$TMP/err"
check "--streams with net.tcp.lat only is a usage error" [ $? -eq 2 ]

# The ttcp personality: ttcp's lines
"$BAKEOFF" run -q --quick --nbuf 512 --dir "$TMP/s" -o "$TMP/t.json" ttcp >"$TMP/ttcp" 2>"$TMP/err"
ok $? "run ttcp exits 0"
check "ttcp-t header line" grep -Eq '^ttcp-t: buflen=8192, nbuf=512, port=[0-9]+ tcp -> 127\.0\.0\.1$' "$TMP/ttcp"
check "ttcp-t bytes line" grep -Eq '^ttcp-t: 4194304 bytes in [0-9.]+ real seconds = [0-9.]+ KB/sec \+\+\+$' "$TMP/ttcp"
check "ttcp-t calls line" grep -Eq '^ttcp-t: 512 I/O calls, msec/call = [0-9.]+, calls/sec = [0-9.]+$' "$TMP/ttcp"
check "ttcp-t CPU line" grep -Eq '^ttcp-t: [0-9.]+user [0-9.]+sys [0-9]+:[0-9]{2}real [0-9]+%$' "$TMP/ttcp"
check "ttcp-r lines" [ "$(grep -c '^ttcp-r: ' "$TMP/ttcp")" -eq 4 ]
# issue 26: ttcp's line and the median are one measurement (one repetition:
# the same rate to 1e-6: the same two instants of the harness clock), timed
# to the receiver's last byte; --quick sends
# ttcp's 128 MiB per repetition, far more than the socket buffers hold
"$BAKEOFF" run -q --quick --dir "$TMP/s" -o "$TMP/tq.json" ttcp >"$TMP/ttcpq" 2>"$TMP/err"
kbs=$(sed -n 's/^ttcp-t: [0-9]* bytes in [0-9.]* real seconds = \([0-9.]*\) KB\/sec +++$/\1/p' "$TMP/ttcpq")
med=$(median "$TMP/tq.json" net.tcp.bw)
check "ttcp-t's KB/sec is the median ($kbs KB/s, $med MB/s)" \
	perl -e 'exit !($ARGV[0] > 0 && abs($ARGV[0] * 1024 / 1e6 / $ARGV[1] - 1) < 1e-6)' "$kbs" "$med"
check "--quick: 128 MiB in the repetition" [ "$(jget "$TMP/tq.json" 'bench("net.tcp.bw")->{params}{t_bytes}')" -ge 134217728 ]
check "the ttcp personality keeps ttcp's method: 8 KiB x 16384, amount-based" \
	[ "$(jget "$TMP/tq.json" 'my $p = bench("net.tcp.bw")->{params}; join " ", map { $p->{$_} // "-" } qw(buflen nbuf mode)')" = "8192 16384 buflen x nbuf per stream" ]
"$BAKEOFF" run -q --quick --buf-len 64k --dir "$TMP/s" -o "$TMP/tb.json" ttcp >/dev/null 2>&1
check "  an option given beats the personality's" [ "$(jget "$TMP/tb.json" 'bench("net.tcp.bw")->{params}{buflen}')" = 65536 ]
check "the receiver's time is within the time measured" \
	perl -e 'exit !($ARGV[0] > 0 && $ARGV[0] <= $ARGV[1])' \
	"$(jget "$TMP/tq.json" 'bench("net.tcp.bw")->{params}{r_real_s}')" "$(jget "$TMP/tq.json" 'bench("net.tcp.bw")->{params}{t_real_s}')"
# issue 26: a latency figure says what it is (the repetition's mean) beside the p50
"$BAKEOFF" report "$R" >"$TMP/rep"
check "net.tcp.lat: the operations' mean beside their p50" grep -Eq '^    latency of [0-9]+ operations: mean [0-9.]+, p50 ' "$TMP/rep"
check "net.tcp.lat: the figure is said to be the repetition's mean" grep -q "the figure is the repetition's mean" "$TMP/rep"
check "net.tcp.lat: the mean in the result file" num_between "$(jget "$R" "metric('net.tcp.lat','')->{latency}{mean}")" 0.5 1e7

# ---- bakeoff serve ----
check "serve --help" sh -c "'$BAKEOFF' serve --help | grep -q max-clients"
P=$(free_port)
"$BAKEOFF" serve --listen "127.0.0.1:$P" --token s3cret --max-clients 2 2>"$TMP/log" &
SRV=$!
sleep 0.5
"$BAKEOFF" serve --listen "127.0.0.1:$P" 2>"$TMP/err2"
check "port in use: exit 2" [ $? -eq 2 ]
check "port in use: the port named" grep -q "$P.*in use" "$TMP/err2"
"$BAKEOFF" serve --listen 127.0.0.1:99999 2>/dev/null
check "bad --listen: exit 2" [ $? -eq 2 ]

head -c 3000 /dev/urandom >"$TMP/rnd"
send_raw "$P" "$TMP/rnd" >"$TMP/a1"
check "random bytes: refused with ERR" grep -q '^ERR code=bad' "$TMP/a1"
printf 'HELLO v=1 tok' >"$TMP/trunc"
send_raw "$P" "$TMP/trunc" 1 >"$TMP/a2"
check "truncated message: no OK" sh -c "! grep -q '^OK' '$TMP/a2'"
perl -e 'print "HELLO v=1 token=", "a" x 5000, "\n"' >"$TMP/long"
send_raw "$P" "$TMP/long" >"$TMP/a3"
check "oversized line: ERR code=bad" grep -q '^ERR code=bad' "$TMP/a3"
printf 'HELLO v=1 token=wrong\n' >"$TMP/wrong"
send_raw "$P" "$TMP/wrong" >"$TMP/a4"
check "wrong token: ERR code=token" grep -q '^ERR code=token' "$TMP/a4"
printf 'HELLO v=1 token=s3cret\nTEST kind=tcp_bw streams=65\n' >"$TMP/big"
send_raw "$P" "$TMP/big" >"$TMP/a5"
check "streams beyond the limit: ERR" grep -q '^ERR code=bad' "$TMP/a5"
printf 'HELLO v=1 token=s3cret\nHELLO v=1\n' >"$TMP/state"
send_raw "$P" "$TMP/state" >"$TMP/a6"
check "a second HELLO: ERR code=state" grep -q '^ERR code=state' "$TMP/a6"
# A client that says nothing holds one of the two places; the server still serves.
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:$ARGV[0]"); sleep 4' "$P" &
IDLE=$!
sleep 0.3
"$BAKEOFF" run -q --quick --peer "127.0.0.1:$P" --token s3cret -o "$TMP/p.json" net.tcp.bw net.tcp.lat >/dev/null 2>"$TMP/err"
ok $? "after the garbage, beside an idle client, a normal run succeeds"
check "net.tcp.bw against serve is ok" [ "$(status "$TMP/p.json" net.tcp.bw)" = ok ]
check "the token is not in the result" sh -c "! grep -q s3cret '$TMP/p.json'"
wait $IDLE
check "one log line per test served" [ "$(grep -c ' tcp_bw .* ok$' "$TMP/log")" -eq 1 ]
check "the log names client, test and bytes" grep -Eq '127\.0\.0\.1:[0-9]+ tcp_lat .*rx=' "$TMP/log"
check "the log records the refusals" grep -q 'refused: wrong token' "$TMP/log"

"$BAKEOFF" run -q --quick --peer "127.0.0.1:$P" --token nope net.tcp.lat >/dev/null 2>"$TMP/err"
check "wrong token: exit 2" [ $? -eq 2 ]
check "wrong token: says the server refused it" grep -q 'refused the token' "$TMP/err"
"$BAKEOFF" run -q --quick --peer "127.0.0.1:$(free_port)" net.tcp.lat >/dev/null 2>"$TMP/err"
check "refusing peer: exit 2" [ $? -eq 2 ]
check "refusing peer: named" grep -q 'cannot reach peer 127.0.0.1:' "$TMP/err"
"$BAKEOFF" run -q --quick --peer "no-such-host.invalid" net.tcp.lat >/dev/null 2>"$TMP/err"
check "unresolvable peer: exit 2" [ $? -eq 2 ]

kill -TERM $SRV
wait $SRV
ok $? "SIGTERM: serve exits 0"
check "SIGTERM: logged" grep -q 'stopped (signal)' "$TMP/log"

# --max-clients 1: a second client at once is refused as busy; a place is
# held by a client that completed HELLO (an idle connection holds none)
P=$(free_port)
"$BAKEOFF" serve --listen "127.0.0.1:$P" --max-clients 1 2>"$TMP/log2" &
SRV=$!
sleep 0.5
perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new("127.0.0.1:$ARGV[0]"); print $s "HELLO v=1\n"; sleep 4' "$P" &
IDLE=$!
sleep 0.3
"$BAKEOFF" run -q --quick --peer "127.0.0.1:$P" net.tcp.lat >/dev/null 2>"$TMP/err"
check "full server: exit 2" [ $? -eq 2 ]
check "full server: says so, and why" grep -q 'maximum number of clients (all of its --max-clients sessions are in use' "$TMP/err"
wait $IDLE
kill -TERM $SRV
wait $SRV

# ---- issue 26: connections that never authenticate lock nobody out.
# Against the default --max-clients 4 and a token: 40 idle connections
# reopened as soon as the server closes them, 4 slow-drip ones (a byte of
# a HELLO every second), 4 half-open ones (their process stopped: no FIN,
# no data, as a peer that vanished), 4 that send half a HELLO and shut
# their side; a real client measures meanwhile, and 500 idle connections
# at once after that.
P=$(free_port)
"$BAKEOFF" serve --listen "127.0.0.1:$P" --token s3cret 2>"$TMP/log3" &
SRV=$!
sleep 0.5
perl -MIO::Socket::INET -e '
	my ($port, $n, $secs) = @ARGV; my @s; my $end = time + $secs;
	while (time < $end) {
		for my $i (0 .. $n - 1) {	# reopen what the server closed
			my $dead = !$s[$i] || !defined($s[$i]->connected) ||
				do { my $r = ""; vec($r, fileno($s[$i]), 1) = 1; select($r, undef, undef, 0) > 0 };
			$s[$i] = IO::Socket::INET->new("127.0.0.1:$port") if $dead;
		}
		select(undef, undef, undef, 0.1);
	}' "$P" 40 60 &
ATT1=$!
perl -MIO::Socket::INET -e '
	my ($port) = @ARGV; my @s = map { IO::Socket::INET->new("127.0.0.1:$port") } 1 .. 4;
	for my $c (split //, "HELLO v=1 token=s3cret\n") { for (@s) { $_ && syswrite($_, $c) } sleep 1 }' "$P" &
ATT2=$!
perl -MIO::Socket::INET -e '
	my ($port) = @ARGV; my @s = map { IO::Socket::INET->new("127.0.0.1:$port") } 1 .. 4;
	kill "STOP", $$; sleep 1' "$P" &
ATT3=$!
perl -MIO::Socket::INET -e '
	my ($port) = @ARGV; my @s = map { IO::Socket::INET->new("127.0.0.1:$port") } 1 .. 4;
	for (@s) { print $_ "HELLO v=1 tok"; $_->shutdown(1) } sleep 60' "$P" &
ATT4=$!
sleep 1
"$BAKEOFF" run -q --quick --peer "127.0.0.1:$P" --token s3cret --nbuf 256 -o "$TMP/dos.json" \
	net.tcp.lat net.tcp.bw net.tcp.connect >/dev/null 2>"$TMP/err3"
rc=$?
check "idle, slow-drip, half-open and half-sent connections: the client's run exits 0 (was $rc)" [ $rc -eq 0 ]
v=$(status "$TMP/dos.json" net.tcp.lat)/$(status "$TMP/dos.json" net.tcp.bw)/$(status "$TMP/dos.json" net.tcp.connect)
check "... and its three benchmarks are ok ($v)" [ "$v" = ok/ok/ok ]
[ $rc -eq 0 ] || echo "# net.t: $(cat "$TMP/err3"); reasons: $(jget "$TMP/dos.json" 'join "; ", map { "$_->{id}: " . ($_->{reason} // "") } grep { $_->{status} ne "ok" } @{$r->{benchmarks}}')" >&2
check "the dropped connections are logged in a summary line, not one each" \
	sh -c "grep -q 'dropped [0-9]* connections* that sent no HELLO' '$TMP/log3' && [ \$(grep -c 'dropped' '$TMP/log3') -lt 10 ]"
kill -CONT $ATT3 2>/dev/null
kill $ATT1 $ATT2 $ATT3 $ATT4 2>/dev/null
wait $ATT1 $ATT2 $ATT3 $ATT4 2>/dev/null
perl -MIO::Socket::INET -e '
	my ($port) = @ARGV; my @s = grep { $_ } map { IO::Socket::INET->new("127.0.0.1:$port") } 1 .. 500;
	print scalar(@s), "\n"; STDOUT->flush; sleep 6' "$P" >"$TMP/n500" &
ATT5=$!
sleep 1
"$BAKEOFF" run -q --quick --peer "127.0.0.1:$P" --token s3cret -o "$TMP/dos2.json" net.tcp.lat >/dev/null 2>"$TMP/err4"
rc=$?
check "beside 500 idle connections ($(cat "$TMP/n500") opened), the client's run exits 0 (was $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || diag "$(cat "$TMP/err4")"
kill $ATT5 2>/dev/null
wait $ATT5 2>/dev/null
check "the server is still up after all that" kill -0 $SRV
kill -TERM $SRV
wait $SRV
ok $? "... and stops cleanly"

# A server killed mid-test: the test fails with a reason, soon; the run goes on.
P=$(free_port)
"$BAKEOFF" serve --listen "127.0.0.1:$P" 2>/dev/null &
SRV=$!
sleep 0.5
(sleep 1.5; kill -KILL $SRV) &
start=$(date +%s)
"$BAKEOFF" run -q --peer "127.0.0.1:$P" --duration 5s --reps 1 -o "$TMP/k.json" net.tcp.bw net.tcp.lat >/dev/null 2>"$TMP/err"
rc=$?
took=$(($(date +%s) - start))
wait $SRV 2>/dev/null
check "server killed: the run exits 1 (exit $rc)" [ $rc -eq 1 ]
check "server killed: net.tcp.bw failed" [ "$(status "$TMP/k.json" net.tcp.bw)" = failed ]
check "server killed: with a reason" [ -n "$(jget "$TMP/k.json" 'bench("net.tcp.bw")->{reason}')" ]
check "server killed: the run went on to net.tcp.lat" [ -n "$(status "$TMP/k.json" net.tcp.lat)" ]
check "server killed: over within 20 s (took $took s)" [ "$took" -lt 20 ]

# A server that closed the connection unanswered (as one pushes out the
# oldest silent connections of a flooding address, which may be the
# client's own): the client tries again, twice at most. A relay whose first
# connection it closes at once, and which passes the later ones on.
P=$(free_port)
PX=$(free_port)
"$BAKEOFF" serve --listen "127.0.0.1:$P" 2>/dev/null &
SRV=$!
perl -MIO::Socket::INET -MIO::Select -e '
	my ($lp, $tp, $log) = @ARGV; $SIG{CHLD} = "IGNORE";
	my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1:$lp", Listen => 8, ReuseAddr => 1) or die "relay: $!\n";
	for (my $n = 1; my $c = $l->accept; $n++) {
		open my $f, ">>", $log; print $f "$n\n"; close $f;
		if ($n == 1) { close $c; next }
		next if fork;
		my $t = IO::Socket::INET->new("127.0.0.1:$tp") or exit 1;
		my $sel = IO::Select->new($c, $t);
		while (my @r = $sel->can_read(30)) {
			for my $h (@r) { sysread($h, my $b, 65536) or exit 0; syswrite($h == $c ? $t : $c, $b) }
		}
		exit 0;
	}' "$PX" "$P" "$TMP/relay.log" &
RELAY=$!
sleep 0.5
"$BAKEOFF" run -q --quick --peer "127.0.0.1:$PX" -o "$TMP/retry.json" net.tcp.lat >/dev/null 2>"$TMP/err"
ok $? "first connection closed unanswered: the run exits 0 ($(head -c 200 "$TMP/err"))"
check "  net.tcp.lat is ok" [ "$(status "$TMP/retry.json" net.tcp.lat)" = ok ]
check "  over a second connection" [ "$(wc -l <"$TMP/relay.log")" -ge 2 ]
kill $RELAY $SRV 2>/dev/null
wait $RELAY $SRV 2>/dev/null

# --once, over IPv6 when the host has ::1
if perl -MIO::Socket::IP -e 'IO::Socket::IP->new(Listen => 1, LocalHost => "::1") or exit 1' 2>/dev/null; then
	"$BAKEOFF" serve --listen "[::1]:$P" --once 2>"$TMP/log6" &
	SRV=$!
	sleep 0.5
	"$BAKEOFF" run -q --quick --peer "[::1]:$P" -o "$TMP/6.json" net.tcp.lat >/dev/null 2>"$TMP/err"
	ok $? "IPv6: run against [::1] exits 0"
	check "IPv6: net.tcp.lat is ok" [ "$(status "$TMP/6.json" net.tcp.lat)" = ok ]
	sleep 0.5
	check "--once: the server exited after the first session that ran a test" sh -c "! kill -0 $SRV 2>/dev/null"
	wait $SRV
else
	skip "IPv6: no ::1 here"
	skip "IPv6: no ::1 here"
	skip "--once checked over IPv6 only"
fi
check "no file left in the scratch parent" [ -z "$(ls -A "$TMP/s")" ]
done_testing
