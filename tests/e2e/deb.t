#!/bin/sh
# deb.t — the Debian package: the checkout's files (git ls-files) copied to
# the test's temporary directory, `dpkg-buildpackage -us -uc -b` there
# (DEB_BUILD_OPTIONS=nocheck: the suite runs the tests; a real package
# build runs make check-quick), lintian on the .deb, then the .deb unpacked
# into a scratch root (dpkg -x) and the binary, its man page and its bash
# completion used from there. Needs dpkg-buildpackage and dh (Debian
# dpkg-dev, debhelper), lintian and git; skipped visibly otherwise, and in
# an unpacked release tarball (no git checkout to list the files of).
. tests/e2e/lib.sh
for c in dpkg-buildpackage dh lintian git dpkg; do
	command -v $c >/dev/null 2>&1 || skip_all "needs $c (Debian dpkg-dev, debhelper, lintian, git)"
done
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout: no list of the package's files"
V=$(sed -n 's/^#define BAKEOFF_VERSION "\(.*\)"/\1/p' src/core/version.h)
# under crafted/: the copied tree holds the fuzz corpus, result files wrong
# on purpose, which lib.sh's schema check must pass over
SRC=$TMP/crafted/src/bakeoff-$V
mkdir -p "$SRC" "$TMP/root"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$SRC"
rc=0
# In an environment of its own: the make that runs this test exports its
# command-line variables (CC=musl-gcc BUILD=build-musl in CI's musl pass),
# which would reach debian/rules' make and build another package
(cd "$SRC" && exec env -i PATH="$PATH" HOME="$HOME" DEB_BUILD_OPTIONS=nocheck \
	dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1 || rc=$?
DEB=$(ls "$TMP"/crafted/src/bakeoff_"$V"_*.deb 2>/dev/null | head -n 1)
check "dpkg-buildpackage -us -uc -b: exit 0, a .deb ($(basename "${DEB:-none}"))" sh -c "[ $rc = 0 ] && [ -n '$DEB' ]"
[ "$rc" = 0 ] || tail -n 20 "$TMP/build.log" | sed 's/^/# /'
if [ -z "$DEB" ]; then
	done_testing
	exit
fi
lintian "$DEB" >"$TMP/lintian" 2>&1
sed 's/^/# lintian: /' "$TMP/lintian"
check "lintian reports no error" sh -c "! grep -q '^E: ' '$TMP/lintian'"
grep -q '^E: ' "$TMP/lintian" && sed 's/^/# lintian: /' "$TMP/lintian" >&2	# for CI's log
check "its changelog version is the binary's ($V)" \
	[ "$(dpkg-deb -f "$DEB" Version)" = "$V" ]
dpkg -x "$DEB" "$TMP/root"
B=$TMP/root/usr/bin/bakeoff
check "installed (dpkg -x): bakeoff version prints $V" [ "$("$B" version | head -n 1)" = "bakeoff $V" ]
check "  its man page" [ -s "$TMP/root/usr/share/man/man1/bakeoff.1.gz" ]
check "  its bash completion, which bash loads" \
	bash -c ". '$TMP/root/usr/share/bash-completion/completions/bakeoff' && complete -p bakeoff >/dev/null"
check "  the copyright file" [ -s "$TMP/root/usr/share/doc/bakeoff/copyright" ]
check "  the installed binary runs a benchmark" \
	sh -c "'$B' run -q --quick -o - proc.syscall.null >'$TMP/r.json' && grep -q '\"status\": *\"ok\"' '$TMP/r.json'"
done_testing
