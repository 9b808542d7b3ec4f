#!/bin/sh
# privileges.t — bakeoff runs as an ordinary user: every group at tiny
# sizes, as uid nobody when the tests run as root (setpriv), else as the
# user running the tests. Nothing may fail for want of privileges.
. tests/e2e/lib.sh
as_user=
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip_all "running as root without setpriv (util-linux)"
	id nobody >/dev/null 2>&1 || skip_all "no user nobody"
	as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
	$as_user test -x "$BAKEOFF" || skip_all "$BAKEOFF is not reachable by nobody (directory permissions)"
fi
mkdir "$TMP/u"
chmod 1777 "$TMP" "$TMP/u"
$as_user "$BAKEOFF" run -q --quick --samples 3 --mem-size 1M --map-size 64k --msg-size 4k \
	--procs 2 --ctx-sizes 0 --dir "$TMP/u" -o "$TMP/u/r.json" \
	proc ipc vm mem.bw mem.lat cpu.mhz >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $rc "runs as $( [ -n "$as_user" ] && echo nobody || id -un ) (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" >&2
check "result written" test -s "$TMP/u/r.json"
bad=$(jget "$TMP/u/r.json" 'join " ", map { "$_->{id}=$_->{status}" } grep { $_->{status} !~ /^(ok|unsupported)$/ } @{$r->{benchmarks}}')
check "every benchmark ok or unsupported with a reason (${bad:-none other})" [ -z "$bad" ]
check "no scratch directory left" [ "$(ls -A "$TMP/u")" = r.json ]
done_testing
