#!/bin/sh
# hacking.t — docs/hacking.md's "add an output format" and "add an option"
# are true: in a copy of the tree, a dummy format (one renderer file and
# one row of report/formats.c), a dummy run option (one field and one row
# of core/options.c, read by test.ok of the test build) and a dummy option
# of the disk group (one field of struct disk_opts, one row of its table,
# one pair of its exclusive options) are added exactly as the doc says;
# the copy builds with -Werror, and its help, validation and output show
# them without another edit. Needs the source tree (make check runs from
# it) and cc.
. tests/e2e/lib.sh
[ -f src/report/formats.c ] && [ -f Makefile ] || skip_all "not run from the source tree"
command -v "${CC:-cc}" >/dev/null 2>&1 || skip_all "no C compiler"
C=$TMP/tree
mkdir "$C"
cp -R src Makefile "$C/" || skip_all "cannot copy the tree"

# ---- the format: a renderer file, a declaration, one row
cat >"$C/src/report/dummy.c" <<'EOS'
/* dummy.c — a format added by tests/e2e/hacking.t. */
#include <stdio.h>
#include "report.h"

void report_dummy(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)all;
	fprintf(f, "dummy: %zu file%s, the first from %s\n", n, n == 1 ? "" : "s", rs[0]->host.hostname);
}
EOS
perl -0pi -e 's/(#endif\s*)$/void report_dummy(const struct result *const *rs, size_t n, int all, FILE *f);\n$1/' "$C/src/report/report.h"
perl -pi -e 's/^(\t\{ NULL, NULL, 0, NULL, NULL, NULL, 0, 0, NULL \},)$/\t{ "dummy", NULL, 0, "a format added by hacking.t", report_dummy, NULL, FMT_COMPARE, 0, NULL },\n$1/' "$C/src/report/formats.c"
# ---- the option: a field, one row
perl -pi -e 's/^(\tint test_work2;.*)$/$1\n\tuint64_t test_dummy;\t\t\/* --test-dummy (hacking.t) *\//' "$C/src/core/bench.h"
perl -pi -e 's/^(\t\{ "test-work2", )/\t{ "test-dummy", OT_SIZE, OPT(test_dummy), "4k", NULL, 1024, 1048576, "test.ok",\n\t  "an option added by hacking.t", RES_NONE, 0, 0, 0 },\n$1/' "$C/src/core/options.c"
# ---- the disk group's option: a field of struct disk_opts, one row of
# its table, and a pair of its exclusive options
perl -pi -e 's/^(\tuint64_t max_size;.*)$/$1\n\tuint64_t dummy;\t\t\t\/* --disk-dummy (hacking.t) *\//' "$C/src/bench/disk.h"
perl -pi -e 's/^(\t\{ "max-size", )/\t{ "disk-dummy", OT_SIZE, D(dummy), "4k", NULL, 1024, 1048576, "disk.seq",\n\t  "a disk option added by hacking.t", RES_NONE, 0, 0, 0 },\n$1/' "$C/src/bench/disk-common.c"
perl -pi -e 's/^(\t\{ "direct", "no-direct", .*)$/$1\n\t{ "disk-dummy", "device", "added by hacking.t" },/' "$C/src/bench/disk-common.c"
check "the edits are in the copy" sh -c "grep -q report_dummy '$C/src/report/formats.c' && grep -q test-dummy '$C/src/core/options.c' && grep -q 'D(dummy)' '$C/src/bench/disk-common.c' && grep -q '\"disk-dummy\", \"device\"' '$C/src/bench/disk-common.c' && grep -q 'uint64_t dummy;' '$C/src/bench/disk.h'"

(cd "$C" && make -s BUILD=b all b/bakeoff-testing) >"$TMP/build.log" 2>&1
ok $? "the copy builds with -Werror ($(grep -c 'error' "$TMP/build.log") errors)"
[ -x "$C/b/bakeoff" ] || { cat "$TMP/build.log" >&2; done_testing; exit 1; }
B=$C/b/bakeoff
TB=$C/b/bakeoff-testing

"$B" run -q --quick --samples 3 -o "$TMP/r.json" proc.syscall.null >/dev/null 2>&1
ok $? "the copy runs"
check "help report lists the format" sh -c "'$B' help report | grep -q '^  dummy  *a format added by hacking.t'"
"$B" report --format dummy "$TMP/r.json" >"$TMP/o" 2>&1
ok $? "report --format dummy: exit 0"
check "report --format dummy prints through the renderer" grep -q '^dummy: 1 file, the first from ' "$TMP/o"
"$B" report --format nope "$TMP/r.json" 2>"$TMP/e"
check "--format's error text names it" grep -q 'dummy' "$TMP/e"
"$B" compare --format nope "$TMP/r.json" "$TMP/r.json" 2>"$TMP/e"
check "offered to compare (FMT_COMPARE): compare's --format error text names it" grep -q 'expected text, html or dummy' "$TMP/e"
"$B" fleet --format nope -- run proc.syscall.null 2>"$TMP/e"
check "not offered to fleet: fleet's error text does not" sh -c "grep -q 'expected text or html' '$TMP/e'"

check "run --help lists the option" sh -c "'$TB' run --help | grep -q -- '--test-dummy SIZE'"
check "help test.ok lists it" sh -c "'$TB' help test.ok | grep -q -- '--test-dummy'"
"$TB" run --test-dummy 1x test.ok >/dev/null 2>"$TMP/e"
check "a bad value: exit 2 naming the option and its range" \
	sh -c "[ $? -eq 2 ] && grep -q \"invalid value '1x' for --test-dummy: expected a size from 1 KiB to 1 MiB\" '$TMP/e'"
"$TB" run --test-dummy 8k proc.syscall.null >/dev/null 2>"$TMP/e"
check "an option no selected benchmark reads: exit 2 naming its reader" \
	sh -c "[ $? -eq 2 ] && grep -q -- '--test-dummy is not read by any benchmark selected; it is read by test.ok' '$TMP/e'"
"$TB" run -q --quick --samples 3 --test-dummy 8k -o "$TMP/t.json" test.ok >/dev/null 2>"$TMP/e"
check "given to its reader, the run goes" [ "$(status "$TMP/t.json" test.ok)" = ok ]

check "run --help lists the disk group's option" sh -c "'$B' run --help | grep -q -- '--disk-dummy SIZE  *a disk option added by hacking.t'"
check "help disk.seq lists it" sh -c "'$B' help disk.seq | grep -q -- '--disk-dummy'"
check "help disk.rand does not" sh -c "! '$B' help disk.rand | grep -q -- '--disk-dummy'"
"$B" run --disk-dummy 2G disk.seq >/dev/null 2>"$TMP/e"
check "the group's option, a bad value: exit 2 naming its range" \
	sh -c "[ $? -eq 2 ] && grep -q \"invalid value '2G' for --disk-dummy: expected a size from 1 KiB to 1 MiB\" '$TMP/e'"
"$B" run --disk-dummy 8k disk.rand >/dev/null 2>"$TMP/e"
check "not read by disk.rand: exit 2 naming disk.seq" \
	sh -c "[ $? -eq 2 ] && grep -q -- '--disk-dummy is not read by any benchmark selected; it is read by disk.seq' '$TMP/e'"
"$B" run --disk-dummy 8k --device /dev/null disk.seq >/dev/null 2>"$TMP/e"
check "the group's exclusive pair: exit 2 naming both" \
	sh -c "[ $? -eq 2 ] && grep -q -- '--disk-dummy and --device exclude each other (added by hacking.t)' '$TMP/e'"
"$B" run -q --quick --size 1M --block-sizes 64k --runtime 100ms --reps 1 --disk-dummy 8k --dir "$TMP" \
	-o "$TMP/d.json" disk.seq >/dev/null 2>"$TMP/e"
check "given to disk.seq, the run goes" [ "$(status "$TMP/d.json" disk.seq)" = ok ]
done_testing
