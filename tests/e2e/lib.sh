# lib.sh — TAP helpers for the shell end-to-end tests (sourced, POSIX sh).
# They run the real binary ($BAKEOFF) and read result files with perl's
# core JSON::PP module.
BAKEOFF=${BAKEOFF:-./bakeoff}
case $BAKEOFF in /*) ;; *) BAKEOFF=$(pwd)/$BAKEOFF ;; esac
T=0
FAILED=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bakeoff-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ok STATUS DESCRIPTION — STATUS 0 passes
ok() {
	T=$((T + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T - $2"
	else
		echo "not ok $T - $2"
		echo "# $(basename "$0") $T failed: $2" >&2	# prove shows stderr: the why reaches CI logs
		FAILED=$((FAILED + 1))
	fi
}
# check DESCRIPTION CMD... — passes when CMD succeeds
check() {
	_d=$1
	shift
	if "$@"; then ok 0 "$_d"; else ok 1 "$_d"; fi
}
skip() {
	T=$((T + 1))
	echo "ok $T # SKIP $1"
}
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}
diag() {
	echo "# $*"
}
done_testing() {
	echo "1..$T"
	[ "$FAILED" -eq 0 ]
}

# os_linux — the binary was built with the Linux OS layer (os-linux.c):
# Linux, and not a `make generic` build (whose cflags it prints).
os_linux() {
	[ "$(uname -s)" = Linux ] && ! "$BAKEOFF" sysinfo | grep -q -- -DBAKEOFF_NO_LINUX
}
# jget FILE PERL-EXPR — evaluate EXPR with $r = the decoded result file;
# prints the value (undef prints nothing). Example:
#   jget r.json '$r->{run}{interrupted} ? 1 : 0'
jget() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $r = JSON::PP->new->decode(<$f>);
		sub bench { my ($id) = @_; (grep { $_->{id} eq $id } @{$r->{benchmarks}})[0] }
		sub metric { my ($id, $n) = @_; my $b = bench($id) or return;
			(grep { $_->{name} eq ($n // "") } @{$b->{metrics}})[0] }
		my $v = eval $ARGV[1]; die $@ if $@;
		print defined $v ? "$v\n" : "";
	' "$1" "$2"
}
# status FILE ID — the benchmark's status ("ok", "failed", ...)
status() {
	jget "$1" "(bench('$2') // {})->{status}"
}
# median FILE ID [METRIC] — the metric's median
median() {
	jget "$1" "(metric('$2', '${3:-}') // {})->{median}"
}
# num_between VALUE LO HI — true when LO <= VALUE <= HI (decimals allowed)
num_between() {
	[ -n "$1" ] && perl -e 'exit !($ARGV[0] >= $ARGV[1] && $ARGV[0] <= $ARGV[2])' "$1" "$2" "$3"
}
