# lib.sh — TAP helpers for the shell end-to-end tests (sourced, POSIX sh).
# They run the real binary ($BAKEOFF) and read result files with perl's
# core JSON::PP module.
BAKEOFF=${BAKEOFF:-./bakeoff}
case $BAKEOFF in /*) ;; *) BAKEOFF=$(pwd)/$BAKEOFF ;; esac
T=0
FAILED=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bakeoff-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/crafted"	# result files made wrong on purpose: schema_check passes them over

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
	schema_check
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

# routed_netns C N1 N2 NET TAG — three network namespaces: N1 at NET.1.2
# and N2 at NET.2.2, each reached through C (NET.1.1, NET.2.1), which
# routes between them; veth names TAGa..TAGd plus the test's PID. Returns
# 1 with the reason in $NETNS_WHY when the machine cannot (no namespaces,
# no veth, no forwarding). The caller deletes the namespaces.
routed_netns() {
	_c=$1 _n1=$2 _n2=$3 _net=$4 _t=$5
	ip netns add "$_c" 2>"$TMP/err" || { NETNS_WHY="cannot create a network namespace: $(head -n 1 "$TMP/err")"; return 1; }
	ip netns add "$_n1"
	ip netns add "$_n2"
	ip link add "${_t}a$$" type veth peer name "${_t}b$$" 2>"$TMP/err" ||
		{ NETNS_WHY="no veth here: $(head -n 1 "$TMP/err")"; return 1; }
	ip link add "${_t}c$$" type veth peer name "${_t}d$$"
	ip link set "${_t}a$$" netns "$_c"
	ip link set "${_t}b$$" netns "$_n1"
	ip link set "${_t}c$$" netns "$_c"
	ip link set "${_t}d$$" netns "$_n2"
	ip -n "$_c" addr add "$_net.1.1/24" dev "${_t}a$$"
	ip -n "$_c" addr add "$_net.2.1/24" dev "${_t}c$$"
	ip -n "$_n1" addr add "$_net.1.2/24" dev "${_t}b$$"
	ip -n "$_n2" addr add "$_net.2.2/24" dev "${_t}d$$"
	for _n in "$_c" "$_n1" "$_n2"; do
		ip -n "$_n" link set lo up
	done
	ip -n "$_c" link set "${_t}a$$" up
	ip -n "$_c" link set "${_t}c$$" up
	ip -n "$_n1" link set "${_t}b$$" up
	ip -n "$_n2" link set "${_t}d$$" up
	ip -n "$_n1" route add default via "$_net.1.1"
	ip -n "$_n2" route add default via "$_net.2.1"
	ip netns exec "$_c" sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' 2>"$TMP/err" ||
		{ NETNS_WHY="cannot route between namespaces: $(head -n 1 "$TMP/err")"; return 1; }
}

# netns_remove NS... — kill what is left in each namespace, then delete it
netns_remove() {
	for _n; do
		for _p in $(ip netns pids "$_n" 2>/dev/null); do
			kill -KILL "$_p" 2>/dev/null
		done
		ip netns del "$_n" 2>/dev/null
	done
}

# schema_check — every result file this test left under $TMP against
# docs/result.schema.json, with a real validator (python3-jsonschema;
# skipped where there is none), so the writer and the schema cannot drift
# apart. Files made by hand to be wrong go under $TMP/crafted/, which is
# not checked. Called by done_testing.
schema_check() {
	_sc=$(dirname "$0")/schema-check.py
	[ -f "$_sc" ] && [ -d "$TMP" ] || return 0
	if ! command -v python3 >/dev/null 2>&1; then
		skip "no python3: result files not checked against docs/result.schema.json"
		return 0
	fi
	_out=$(find "$TMP" -path "$TMP/crafted" -prune -o -type f -name '*.json' -size -65536k \
		-exec python3 "$_sc" docs/result.schema.json {} + 2>&1)
	_rc=$?
	case $_rc in
	0) _n=$(printf '%s\n' "$_out" | awk '/^checked / { n += $2 } END { print n + 0 }')
	   [ "$_n" -eq 0 ] || ok 0 "the result files this test wrote ($_n) match docs/result.schema.json" ;;
	3) skip "no python3-jsonschema: result files not checked against docs/result.schema.json" ;;
	*) printf '%s\n' "$_out" | sed 's/^/# /' | tee /dev/stderr
	   ok 1 "the result files this test wrote match docs/result.schema.json" ;;
	esac
}
