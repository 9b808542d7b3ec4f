#!/bin/sh
# check.t — bakeoff check's exit statuses (0 good, 1 a regression or a
# figure NEW lacks, 2 usage, 3 not comparable, 125 cannot judge) on
# synthetic results with known steps, against a file and against a history
# directory; and a real `git bisect run` over a throwaway repository whose
# commits set test.work's amount of work (the test build's benchmark):
# commit 7 makes it a hundred times slower, commit 5 makes a benchmark fail.
# The bisect must name commit 7 and skip commit 5 (exit 125) when it meets
# it. A hundredfold step and 21 samples: check needs the whole 95% CI past
# +100%, and beside CI's CPU hog a tenfold step with 11 samples of 1 ms once
# left it short (the CI of a ratio of medians spans 2-4x when samples are
# preempted). A NEW run on a shared core (the core gauge) is judged at the
# quiet level.
. tests/e2e/lib.sh
B=$BAKEOFF
S=scripts/history-synth
[ -x "$S" ] || skip_all "not run from the source tree"

"$B" run -q --quick --samples 5 -o "$TMP/src.json" proc.syscall.null proc.syscall.read >/dev/null 2>&1
ok $? "a real run to build results from"
# its samples made tight (+-0.5% around each median, CI to match): the
# verdicts below then depend on the steps put in, not on how busy the
# machine was when the source run was made
perl -MJSON::PP -e 'local $/; open my $h, "<", $ARGV[0]; my $r = decode_json(<$h>);
	for my $b (@{$r->{benchmarks}}) { for my $m (@{$b->{metrics}}) { my $x = $m->{median} or next;
		$m->{samples} = [ map { $x * (1 + 0.005 * sin($_)) } 1 .. 11 ]; $m->{ci95} = [ 0.997 * $x, 1.003 * $x ];
		$m->{n} = 11 } }
	open $h, ">", $ARGV[0]; print $h encode_json($r)' "$TMP/src.json"
"$S" --noise 1 --seed 4 --step 21:30:proc.syscall.null --suspect 24 --failed 25 "$TMP/h" 30 "$TMP/src.json"

code() { "$B" check "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }
check "same level: exit 0" [ "$(code "$TMP/h/run-0003.json" "$TMP/h/run-0010.json")" = 0 ]
check "one line per figure and a summary" \
	sh -c "grep -q '^ok          proc.syscall.null' '$TMP/out' && grep -q '^2 figures: 2 ok, 0 regressions' '$TMP/out'"
check "+30% on proc.syscall.null: exit 1" [ "$(code "$TMP/h/run-0003.json" "$TMP/h/run-0022.json")" = 1 ]
check "the regression named with its ratio and CI" \
	grep -Eq '^REGRESSION  proc\.syscall\.null .* ns  \+(2[6-9]|3[0-4])\.[0-9]% slower \(95% CI \+[0-9.]+\.\.\+[0-9.]+%\)$' "$TMP/out"
check "--threshold 50%: the same +30% passes" [ "$(code --threshold 50% "$TMP/h/run-0003.json" "$TMP/h/run-0022.json")" = 0 ]
check "faster is not a regression (NEW before the step, BASELINE after)" \
	[ "$(code "$TMP/h/run-0022.json" "$TMP/h/run-0003.json")" = 0 ]
check "and is said: improved" grep -q '^improved    proc.syscall.null' "$TMP/out"
check "NEW with a failed benchmark: 125" [ "$(code "$TMP/h/run-0003.json" "$TMP/h/run-0025.json")" = 125 ]
check "and why, in one line" grep -q '^bakeoff: check: cannot judge NEW: proc.syscall.null failed: ' "$TMP/err"
check "a suspect NEW is judged" [ "$(code "$TMP/h/run-0021.json" "$TMP/h/run-0024.json")" = 0 ]
check "--require-valid: a suspect NEW cannot be judged, 125" \
	[ "$(code --require-valid "$TMP/h/run-0021.json" "$TMP/h/run-0024.json")" = 125 ]
check "a NEW that is not there: 125 (the build or the run broke)" [ "$(code "$TMP/h/run-0003.json" "$TMP/none.json")" = 125 ]
perl -MJSON::PP -e 'local $/; open my $h, "<", $ARGV[0]; my $r = decode_json(<$h>); $r->{host}{cpu_model} = "Other CPU";
	$r->{host}{threads} = 64; open $h, ">", $ARGV[1]; print $h encode_json($r);
	$r = decode_json(encode_json($r)); ' "$TMP/h/run-0004.json" "$TMP/other.json"
check "another machine: 3" [ "$(code "$TMP/h/run-0003.json" "$TMP/other.json")" = 3 ]
check "naming the facts that differ" \
	sh -c "grep -q '^  BASELINE cpu .*, NEW cpu Other CPU$' '$TMP/err' && grep -q 'NEW 2 cores / 64 threads\|NEW [0-9]* cores / 64 threads' '$TMP/err'"
perl -MJSON::PP -e 'local $/; open my $h, "<", $ARGV[0]; my $r = decode_json(<$h>); $r->{run}{profile} = "standard";
	open $h, ">", $ARGV[1]; print $h encode_json($r)' "$TMP/h/run-0004.json" "$TMP/prof.json"
check "other settings (the profile): 3" [ "$(code "$TMP/h/run-0003.json" "$TMP/prof.json")" = 3 ]
perl -MJSON::PP -e 'local $/; open my $h, "<", $ARGV[0]; my $r = decode_json(<$h>); $r->{benchmarks} = [ $r->{benchmarks}[0] ];
	open $h, ">", $ARGV[1]; print $h encode_json($r)' "$TMP/h/run-0004.json" "$TMP/less.json"
check "a figure the baseline has and NEW lacks: 1, named" \
	sh -c "[ \"\$('$B' check '$TMP/h/run-0003.json' '$TMP/less.json' 2>&1 | grep -c '^MISSING     proc.syscall.read')\" = 1 ] && ! '$B' check '$TMP/h/run-0003.json' '$TMP/less.json' >/dev/null 2>&1"
check "--metric: only the figures named" [ "$(code --metric proc.syscall.null "$TMP/h/run-0003.json" "$TMP/less.json")" = 0 ]
check "usage: one file only is exit 2" [ "$(code "$TMP/h/run-0003.json")" = 2 ]
check "usage: a bad threshold is exit 2" [ "$(code --threshold lots "$TMP/h/run-0003.json" "$TMP/h/run-0004.json")" = 2 ]

# ---- against a history directory: the runs after its last change
mkdir "$TMP/base"
cp "$TMP/h"/run-000*.json "$TMP/h"/run-001*.json "$TMP/base/"
check "history baseline (19 runs), NEW at the same level: 0" [ "$(code "$TMP/base" "$TMP/h/run-0020.json")" = 0 ]
check "NEW +30%: 1" [ "$(code "$TMP/base" "$TMP/h/run-0023.json")" = 1 ]
check "the baseline runs and the learned floor are named" \
	grep -Eq '^REGRESSION  proc\.syscall\.null .*\(19 baseline runs, next run expected in [0-9.]+\.\.[0-9.]+; floor [0-9.]+%: this machine.s history, 19 runs\)$' "$TMP/out"
check "a history of other machines only: 3" [ "$(code "$TMP/base" "$TMP/other.json")" = 3 ]

# ---- a machine whose host takes half its core in a third of the runs
# (twice the time, core gauge 1.0 against 0.5): a NEW run on a shared core
# is judged at the quiet level, not called a regression, and a quiet NEW
# 20% slower is one; without the gauge the two levels hide that 20%
"$S" --noise 1 --seed 5 --levels 100:0.35 --shared-core "$TMP/sh" 30 "$TMP/src.json"
"$S" --noise 1 --seed 6 --levels 100:1 --shared-core --start 1767330000 "$TMP/shn" 1 "$TMP/src.json"
check "NEW on a shared core against a history of both: exit 0" [ "$(code "$TMP/sh" "$TMP/shn/run-0001.json")" = 0 ]
check "  and said" grep -q 'NEW ran on a shared core, its figure taken over [0-9.]*' "$TMP/out"
"$S" --noise 1 --seed 6 --levels 100:0 --shared-core --step 1:20 --start 1767330000 "$TMP/shs" 1 "$TMP/src.json"
check "a quiet NEW 20% slower: exit 1" [ "$(code "$TMP/sh" "$TMP/shs/run-0001.json")" = 1 ]
"$S" --noise 1 --seed 5 --levels 100:0.35 "$TMP/sh0" 30 "$TMP/src.json"
"$S" --noise 1 --seed 6 --step 1:20 --start 1767330000 "$TMP/shs0" 1 "$TMP/src.json"
check "  the same runs without the gauge: missed (exit 0)" [ "$(code "$TMP/sh0" "$TMP/shs0/run-0001.json")" = 0 ]
# one file against another knows no shared level, but says which side's
# core was shared
code "$TMP/shs/run-0001.json" "$TMP/shn/run-0001.json" >/dev/null
check "file against file: a NEW on a shared core is named" \
	grep -q 'NEW ran on a shared core: core gauge 1.00 against 0.50' "$TMP/out"

# ---- git bisect run over a throwaway repository
TB=${BAKEOFF_TESTING:-}
if [ -z "$TB" ] || [ ! -x "$TB" ]; then
	skip "no test build (make check sets BAKEOFF_TESTING)"
elif ! command -v git >/dev/null 2>&1; then
	skip "git is not installed (.ci/run installs it)"
else
	case $TB in /*) ;; *) TB=$(pwd)/$TB ;; esac
	R=$TMP/repo
	mkdir "$R"
	(
		cd "$R" && git init -q && git config user.email t@example.invalid && git config user.name t || exit 1
		for i in 1 2 3 4 5 6 7 8 9 10; do
			if [ "$i" -ge 7 ]; then echo 10000 >work; else echo 100 >work; fi
			if [ "$i" -eq 5 ]; then echo test.fail >extra; else : >extra; fi
			git add work extra && git commit -q --allow-empty -m "commit $i" || exit 1
		done
	) || { ok 1 "a throwaway git repository"; done_testing; exit 1; }
	# the script git bisect runs: measure, then judge against commit 1's run
	cat >"$TMP/judge.sh" <<EOS
#!/bin/sh
"$TB" run -q --samples 21 --sample-time 1ms --test-work \$(cat work) -o "$TMP/new-\$(git rev-parse --short HEAD).json" test.work \$(cat extra) >/dev/null 2>&1
"$B" check --threshold 100% "$TMP/good.json" "$TMP/new-\$(git rev-parse --short HEAD).json" >>"$TMP/bisect-checks" 2>&1
EOS
	chmod +x "$TMP/judge.sh"
	first=$(cd "$R" && git rev-list --reverse HEAD | head -1)
	(cd "$R" && git checkout -q "$first" && "$TB" run -q --samples 21 --sample-time 1ms --test-work 100 -o "$TMP/good.json" test.work >/dev/null 2>&1 &&
		git checkout -q - 2>/dev/null || git checkout -q master 2>/dev/null || git checkout -q main)
	(cd "$R" && git bisect start HEAD "$first" >/dev/null && git bisect run "$TMP/judge.sh" >"$TMP/bisect" 2>&1; git bisect reset >/dev/null 2>&1)
	seven=$(cd "$R" && git log --format='%h %s' | awk '$3 == 7 { print $1 }')
	check "git bisect run names commit 7 as the first bad one" grep -q "^$seven.* is the first bad commit" "$TMP/bisect"
	check "commit 7's check was a regression, not a skip" grep -q '^REGRESSION  test.work' "$TMP/bisect-checks"
	grep -q "^$seven.* is the first bad commit" "$TMP/bisect" || diag "$(grep -h 'test.work\|first bad' "$TMP/bisect-checks" "$TMP/bisect")"
	diag "bisect: $(grep -c 'cannot judge NEW' "$TMP/bisect-checks") skipped (commit 5 fails a benchmark when met); $(grep -c '^check:' "$TMP/bisect-checks") checks"
	# commit 5 on its own: check says 125
	(cd "$R" && git checkout -q HEAD~5 && "$TMP/judge.sh"; echo $? >"$TMP/five"; git checkout -q - 2>/dev/null)
	check "commit 5 (a benchmark fails): check exits 125, so bisect skips it" [ "$(cat "$TMP/five")" = 125 ]
fi
done_testing
