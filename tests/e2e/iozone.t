#!/bin/sh
# iozone.t — disk.iozone at tiny sizes, end to end: iozone's auto-mode cells
# (file sizes from 64k doubling to --max-size, records from 4k up to the
# file size), all 13 tests per cell, the single-file write and read of the
# 1997 report, cache_suspect on buffered small files, the iozone format
# (auto-mode table in iozone's column layout, one matrix per test, the
# single-file lines), bad input (exit 2) and nothing left behind.
. tests/e2e/lib.sh
D=$TMP/d
mkdir "$D"
R=$TMP/r.json
"$BAKEOFF" run -q --quick --reps 1 --size 1M --max-size 256k --dir "$D" -o "$R" \
	iozone >"$TMP/out" 2>"$TMP/err"
ok $? "run iozone (the personality) exits 0"
check "disk.iozone is ok" [ "$(status "$R" disk.iozone)" = ok ]
check "nothing left in the --dir" [ -z "$(ls -A "$D")" ]
# 64k: 4k..64k (5), 128k: 6, 256k: 7 = 18 cells
check "18 cells (64k..256k files x 4k..file-size records)" [ "$(jget "$R" 'bench("disk.iozone")->{params}{cells}')" = 18 ]
# One perl call for the 26 figures (each jget parses the whole file).
bad=$(jget "$R" 'join ",", grep { my $m = $_; grep { my $v = (metric("disk.iozone", "$m, $_") // {})->{median}; !(defined $v && $v >= 0.01 && $v <= 1e6) } "256 kB, reclen 4 kB", "64 kB, reclen 64 kB" } ("write", "rewrite", "read", "reread", "random read", "random write", "bkwd read", "record rewrite", "stride read", "fwrite", "frewrite", "fread", "freread")')
check "each of the 13 tests at 256k/4k and 64k/64k between 0.01 MB/s and 1 TB/s${bad:+ (not: $bad)}" [ -z "$bad" ]
check "no record larger than the file" [ -z "$(jget "$R" 'metric("disk.iozone","write, 64 kB, reclen 128 kB") ? 1 : ""')" ]
check "no file beyond --max-size" [ -z "$(jget "$R" 'metric("disk.iozone","write, 512 kB, reclen 4 kB") ? 1 : ""')" ]
check "single write measured" num_between "$(median "$R" disk.iozone "single write")" 0.01 1000000
check "single read measured" num_between "$(median "$R" disk.iozone "single read")" 0.01 1000000
check "fsync recorded" [ "$(jget "$R" 'bench("disk.iozone")->{params}{fsync}')" = yes ]
# A buffered 256k file is under 2x RAM on any machine: marked.
check "a buffered cell is cache_suspect" [ "$(jget "$R" 'metric("disk.iozone","read, 256 kB, reclen 4 kB")->{cache_suspect} ? 1 : 0')" = 1 ]
check "the run printed iozone's table" grep -q "^              kB  reclen    write    rewrite      read" "$TMP/out"

"$BAKEOFF" report --format iozone "$R" >"$TMP/ioz" 2>&1
ok $? "report --format iozone exits 0"
check "iozone's two header lines" sh -c "grep -Eq '^ {64} {4}random {4}random {6}bkwd {5}record {5}stride$' '$TMP/ioz' && grep -q '^              kB  reclen    write    rewrite      read    reread      read     write      read    rewrite       read    fwrite  frewrite     fread   freread$' '$TMP/ioz'"
check "a table row: kB in 16 columns, reclen in 8, 13 figures" \
	grep -Eq '^ {13}256 {7}4( +[0-9]+){13}$' "$TMP/ioz"
check "18 table rows" [ "$(grep -Ec '^ +[0-9]+ +[0-9]+( +[0-9]+){13}$' "$TMP/ioz")" = 18 ]
check "a row's columns: kB 16 wide, reclen 8, 7 of 10, 2 of 11, 4 of 10" \
	sh -c "grep -E '^ {13}256 {7}4 ' '$TMP/ioz' | awk '{ exit !(length(\$0) == 16 + 8 + 7 * 10 + 2 * 11 + 4 * 10) }'"
check "the header says what differs from iozone's method" grep -q "^	(bakeoff: fsync in every test but fread/freread, as iozone -e; each cell the median of its passes" "$TMP/ioz"
check "and that each pass runs the cell's tests in order" grep -q "^	(bakeoff: each pass runs the cell's tests in this order" "$TMP/ioz"
check "and that the stdio tests keep stdio's own buffer" grep -q "^	(bakeoff: fwrite..freread on stdio's own buffer, not iozone's setvbuf" "$TMP/ioz"
check "the cached? note" grep -q "^(cached? .* under 2x RAM" "$TMP/ioz"
check "the 1997 single-file lines" sh -c "grep -Eq '^Writing the 1 Megabyte file, .iozone.tmp.\\.\\.\\.[0-9.]+ seconds$' '$TMP/ioz' && grep -Eq '^	[0-9]+ bytes/second for reading the file' '$TMP/ioz'"
check "13 matrices" [ "$(grep -c '^"[A-Za-z-]* [a-z ]*report"$' "$TMP/ioz")" = 13 ]
check "Writer report: record sizes across" grep -Eq '^ +"4" +"8" +"16" +"32" +"64" +"128" +"256"$' "$TMP/ioz"
check "Writer report: the 64k row has 5 figures" \
	sh -c "sed -n '/^\"Writer report\"/,/^\$/p' '$TMP/ioz' | grep -Eq '^\"64\" +[0-9]+( +[0-9]+){4}\$'"

# Bad input: exit 2, one line.
"$BAKEOFF" run -q --quick --max-size 4k --dir "$D" disk.iozone >/dev/null 2>"$TMP/bad"
ok $(($? != 2)) "--max-size 4k: exit 2"
check "one line" [ "$(wc -l <"$TMP/bad")" = 1 ]
"$BAKEOFF" run -q --quick --max-size 1M --dir "$D" disk.seq >/dev/null 2>"$TMP/bad2"
ok $(($? != 2)) "--max-size without disk.iozone: exit 2"
check "nothing left in the --dir after all" [ -z "$(ls -A "$D")" ]
done_testing
