#!/bin/sh
# options.t — every option `run --help` lists (the options table), given
# an empty, negative, zero, overflowing, wrong-unit or huge value: exit 2
# and one line on stderr naming the option and the accepted range. Then the
# other messages that once misled.
. tests/e2e/lib.sh
"$BAKEOFF" run --help | sed -n 's/^  --\([a-z-]*\) [A-Z|][A-Z|]*  .*/\1/p' >"$TMP/opts"
check "run --help lists the table's options" [ "$(wc -l <"$TMP/opts")" -ge 10 ]
"$BAKEOFF" run --help | sed -n 's/^  --\([a-z-]*\) \(TEXT\|PATH\)  .*/\1/p' >"$TMP/text"
for o in $(cat "$TMP/opts"); do
	for v in "" "-1" "0" "99999999999999999999" "5parsecs" "1e400" "9999999T" "10 20"; do
		case "$o:$v" in
		warmup:0 | ctx-sizes:0 | file-max:0 | file-min:0 | delays:0) continue ;;	# 0 warm-up repetitions, a 0-byte working set, empty files, no delay (full load)
		esac
		# free text (a host, a secret): only the empty value is wrong
		if grep -q "^$o\$" "$TMP/text" && [ -n "$v" ]; then continue; fi
		"$BAKEOFF" run proc.syscall.null "--$o" "$v" -o "$TMP/never.json" >/dev/null 2>"$TMP/err"
		rc=$?
		if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
			grep -q -- "invalid value '$v' for --$o: expected .* to " "$TMP/err"; then
			ok 0 "--$o '$v': exit 2, names the option and the range"
		else
			ok 1 "--$o '$v': exit $rc: $(cat "$TMP/err")"
		fi
	done
done
check "no result written for a bad option" [ ! -e "$TMP/never.json" ]

# expect2 DESCRIPTION PATTERN ARGS... — exit 2 with one line matching PATTERN
expect2() {
	_d=$1 _p=$2
	shift 2
	"$BAKEOFF" "$@" >/dev/null 2>"$TMP/err"
	_rc=$?
	if [ $_rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -Eq -- "$_p" "$TMP/err"; then
		ok 0 "$_d"
	else
		ok 1 "$_d (exit $_rc: $(cat "$TMP/err"))"
	fi
}
expect2 "--mem-size below the minimum names the minimum" "expected a size from 64 KiB to 1 TiB" \
	run mem.bw.read --mem-size 512
expect2 "--mem-size 4k (STREAM cannot run on it) is refused" "64 KiB" run mem --mem-size 4k
expect2 "--sample-time 2h is refused, not silently capped" "--sample-time: expected a duration from 100us to 10s" \
	run proc.syscall.null --sample-time 2h
expect2 "report --format without a value: needs a value" "needs a value" report --format
expect2 "an option needing a value, at the end" "needs a value" run proc.syscall.null --samples
expect2 "nosuch.bench: no far-fetched suggestion" "^bakeoff: unknown benchmark or group 'nosuch.bench' \\(bakeoff list" run nosuch.bench
expect2 "an option no selected benchmark reads" "--mem-size is not read by any benchmark selected; it is read by mem" \
	run proc --mem-size 1M
expect2 "-o ''" "expected a file name" run proc.syscall.null -o ''
expect2 "-o into a missing directory" "cannot write the result: $TMP/nodir/r.json: No such file" \
	run proc.syscall.null -o "$TMP/nodir/r.json"
expect2 "a name longer than NAME_MAX" "File ?name too long" \
	run proc.syscall.null -o "$TMP/$(printf '%0300d' 0).json"
: >"$TMP/exists.json"
expect2 "an existing file is never overwritten" "exists; bakeoff never overwrites" \
	run proc.syscall.null -o "$TMP/exists.json"
expect2 "the scratch parent is named, not \$TMPDIR" "scratch directory under $TMP/nope" \
	run proc.syscall.null --dir "$TMP/nope" -o "$TMP/d.json"
check "and its claimed result file is removed" [ ! -e "$TMP/d.json" ]
"$BAKEOFF" help help >"$TMP/out" 2>&1
ok $? "help help works"
"$BAKEOFF" help mem.stream.copy >"$TMP/out" 2>&1
ok $? "help BENCH works"
check "help BENCH lists the options it reads" sh -c "grep -q -- '--mem-size' '$TMP/out' && ! grep -q -- '--procs' '$TMP/out'"
done_testing
