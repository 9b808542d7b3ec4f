#!/bin/sh
# report.t — `report` on hostile input: files that are not regular files
# (devices, FIFOs, directories), endless and oversized input, standard
# input (-), result files carrying terminal escape sequences, and figures
# at the ends of the double range.
. tests/e2e/lib.sh

# expect_refusal DESCRIPTION PATTERN ARGS... — exit 2 within 10 s, one
# line on stderr matching PATTERN (a hang or an endless read fails).
expect_refusal() {
	_d=$1 _p=$2
	shift 2
	timeout 10 "$BAKEOFF" "$@" >"$TMP/o" 2>"$TMP/e" </dev/null
	_rc=$?
	ok $((_rc != 2)) "$_d: exit 2 at once (got $_rc)"
	check "$_d: one line naming it" sh -c "[ \$(wc -l <'$TMP/e') -eq 1 ] && grep -q -- \"\$1\" '$TMP/e'" _ "$_p"
}

"$BAKEOFF" run -q --quick --samples 3 -o "$TMP/r.json" proc.syscall.null >/dev/null 2>&1
ok $? "a result to work on"

# Item 4: only regular files, never blocking, never endless.
expect_refusal "report /dev/zero" "/dev/zero: is a character device" report /dev/zero
expect_refusal "report /dev/urandom" "/dev/urandom: is a character device" report /dev/urandom
mkfifo "$TMP/fifo"
expect_refusal "report of a FIFO with no writer" "fifo: is a FIFO" report "$TMP/fifo"
expect_refusal "report of a directory" "is a directory" report "$TMP"
expect_refusal "standard input twice" "can be read only once" report - -
# A file over the cap is refused from its size, without reading it.
if truncate -s 257M "$TMP/big.json" 2>/dev/null; then
	expect_refusal "a 257 MiB file" "more than the 256 MiB" report "$TMP/big.json"
else
	skip "truncate not available"
	skip "(same)"
fi
# Endless standard input stops at the cap (or at the first failed allocation).
timeout 30 "$BAKEOFF" report - </dev/zero >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "report - </dev/zero: exit 2"
check "report - </dev/zero: names the cap" grep -q "standard input: more than the 256 MiB" "$TMP/e"
case ${BUILD:-build}${BAKEOFF_CROSS:+-emulated} in
*san*) skip "ulimit -v and AddressSanitizer do not mix" ;;
*-emulated) skip "ulimit -v limits qemu-user's own mappings, not the emulated program's" ;;
*)	(ulimit -v 150000 && timeout 30 "$BAKEOFF" report - </dev/zero >/dev/null 2>"$TMP/e")
	_rc=$?
	check "under a 150 MB limit: exit 2 at the first failed allocation (got $_rc)" \
		sh -c "[ $_rc -eq 2 ] && grep -q 'standard input: out of memory after' '$TMP/e'" ;;
esac
# `run -o -` into `report -`.
"$BAKEOFF" report - <"$TMP/r.json" >"$TMP/o" 2>"$TMP/e"
ok $? "report - reads standard input"
check "report - prints the table" grep -q "^proc.syscall.null " "$TMP/o"
"$BAKEOFF" run -q --quick --samples 3 -o - proc.syscall.null 2>/dev/null | "$BAKEOFF" report - >"$TMP/o"
ok $? "run -o - | report -"
check "the piped result renders" grep -q "^proc.syscall.null " "$TMP/o"
printf '{"schema": "bakeoff-result/1", "run": {' | "$BAKEOFF" report - >/dev/null 2>"$TMP/e"
ok $(($? != 2)) "a truncated result on standard input: exit 2"
check "it names standard input and the byte" grep -q "^bakeoff: standard input: byte 39:" "$TMP/e"

# Items 5 and 6: a crafted file from another machine. Every string a table
# shows carries control characters; the figures are the extremes of double.
perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $r = decode_json(<$f>);
	my $e = "\e]0;pwned\a\e[2J";
	$r->{host}{$_} .= $e for qw(hostname os kernel cpu_model virtualization);
	$r->{run}{$_} .= $e for qw(profile start);
	push @{$r->{run}{argv}}, "x$e";
	push @{$r->{guard}{findings}}, "finding$e";
	my $b = $r->{benchmarks}[0];
	$b->{title} .= $e;
	my $m = $b->{metrics}[0];
	$m->{note} = "note$e";
	$m->{median} = 1e30; $m->{ci95} = [5e-324, 1e30];
	my %f = %$b; $f{id} = "proc.fail$e"; $f{status} = "failed";
	$f{reason} = "reason$e"; $f{metrics} = [];
	my %n = %$b; $n{id} = "proc.named"; $n{metrics} = [{ %$m, name => "n$e", unit => "u$e" }];
	push @{$r->{benchmarks}}, \%f, \%n;
	print JSON::PP->new->canonical->encode($r);
	# beyond what anything measures: refused (issue 26; t-result, reliability.t)
	my %d = %$b; $d{id} = "proc.neg"; $d{metrics} = [{ %$m, median => -1e308, note => undef }];
	push @{$r->{benchmarks}}, \%d;
	open my $o, ">", "$ARGV[0].neg" or die; print $o JSON::PP->new->canonical->encode($r);
' "$TMP/r.json" >"$TMP/crafted/evil.json"
ok $? "crafted a result file with escape sequences"
python3 tests/e2e/schema-check.py docs/result.schema.json "$TMP/crafted/evil.json" >"$TMP/sc" 2>&1
case $? in
3|127) skip "no python3-jsonschema: the schema's own check not tried" ;;
*) check "  docs/result.schema.json refuses it (a start time that is not one)" grep -q "evil.json: run/start: " "$TMP/sc" ;;
esac
"$BAKEOFF" report --all "$TMP/crafted/evil.json" >"$TMP/o" 2>"$TMP/e"
ok $? "report of the crafted file exits 0"
check "no control character reaches the terminal" perl -ne '$bad = 1 if /[\x00-\x09\x0b-\x1f\x7f]/; END { exit($bad ? 1 : 0) }' "$TMP/o"
check "they are shown escaped" grep -q 'pwned\\x07\\x1b\[2J' "$TMP/o"
for what in "on vm" "command:" "finding" "proc.fail" "reason" "note" "profile" "proc.named:n"; do
	check "escaped: $what" sh -c "grep -F '$what' '$TMP/o' | grep -q 'x1b'"
done
check "a median of 1e30 prints as 1e+30" grep -q " 1e+30 " "$TMP/o"
check "the CI's ends print in full" grep -q "4.94e-324 .. 1e+30" "$TMP/o"
"$BAKEOFF" report "$TMP/r.json.neg" >/dev/null 2>"$TMP/e"
check "a median of -1e308 is refused with its offset (exit 2)" \
	sh -c "[ $? -eq 2 ] && grep -q 'byte [0-9]*: median -1e+308 is impossible' '$TMP/e'"
"$BAKEOFF" report --format lmbench "$TMP/crafted/evil.json" >"$TMP/o" 2>&1
check "lmbench format: no control character reaches the terminal" \
	perl -ne '$bad = 1 if /[\x00-\x09\x0b-\x1f\x7f]/; END { exit($bad ? 1 : 0) }' "$TMP/o"
done_testing
