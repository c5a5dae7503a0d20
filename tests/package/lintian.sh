#!/bin/sh
# lintian.sh - the Debian package passes Debian's own checks (issue 29): cpack
# builds csumcheck_<version>_amd64.deb from this build and `lintian` reads it;
# any error (E:) or warning (W:) fails, info and pedantic tags are printed.
# Also: the first changelog entry is this version. lintian is a package
# scripts/setup.sh installs: without it the test fails, it does not skip.
#
#   lintian.sh BUILD_DIR WORK_DIR
set -u
B=$1 W=$2
fail() { echo "FAIL [package-lintian]: $*" >&2; exit 1; }

for t in cpack lintian dpkg-deb; do
    command -v "$t" >/dev/null || fail "$t not installed (scripts/setup.sh installs it)"
done
rm -rf "$W"
mkdir -p "$W/pkg"
cpack --config "$B/CPackConfig.cmake" -B "$W/pkg" >"$W/cpack.log" 2>&1 || { cat "$W/cpack.log" >&2; fail "cpack"; }
ver=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$B/CPackConfig.cmake")
deb=$W/pkg/csumcheck_${ver}_amd64.deb
[ -f "$deb" ] || fail "cpack wrote no $(basename "$deb"): $(ls "$W/pkg")"

mkdir -p "$W/x"
dpkg-deb -x "$deb" "$W/x" || fail "dpkg-deb -x"
first=$(gzip -dc "$W/x/usr/share/doc/csumcheck/changelog.gz" 2>/dev/null | head -n 1)
case $first in
    "csumcheck ($ver) "*) ;;
    *) fail "the changelog's first entry is not version $ver: [$first] (packaging/changelog)" ;;
esac

# --pedantic -I: every tag is printed; only E: and W: fail
lintian --pedantic -I --tag-display-limit 0 "$deb" >"$W/lintian.out" 2>"$W/lintian.err"
rc=$?
cat "$W/lintian.out"
grep -v 'running with root privileges' "$W/lintian.err" >&2
[ $rc -le 2 ] || fail "lintian exited $rc"
n=$(grep -c '^[EW]: ' "$W/lintian.out")
[ "$n" = 0 ] || fail "lintian: $n errors and warnings on $(basename "$deb") (above)"
echo "PASS [package-lintian]: lintian $(lintian --version | awk '{print $2}') on $(basename "$deb"): 0 errors, 0 warnings, $(grep -c '^[IPX]: ' "$W/lintian.out") info/pedantic tags"
