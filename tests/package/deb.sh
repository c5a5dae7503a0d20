#!/bin/sh
# deb.sh - the Debian package, as a user of a fresh Debian 12 gets it (issue 17):
# cpack builds csumcheck_<version>_amd64.deb from this build, `apt install
# ./csumcheck_*.deb` installs it in a clean Debian 12 root (debootstrap
# --variant=minbase bookworm) with the dependencies apt pulls from Debian's
# archive, and the demo runs there: csumcheck on PATH, its man page, the
# output of `csumcheck -v captures/demo.pcapng` equal to this build's, and
# tshark (installed from the archive) loading the packaged plugin.
#
#   deb.sh BUILD_DIR SRC_DIR WORK_DIR
#
# The pristine root is cached in $CSC_ROOTS/bookworm-pkg (default
# ~/.cache/csumcheck/roots, outside the repository); each run installs into
# an overlay on it (or a copy) in WORK_DIR, in a mount namespace of its own,
# so the cache stays pristine and nothing stays mounted. apt runs only
# inside the root; the host's sources are never touched. Without root,
# debootstrap or the archive the test exits 77 (SKIP) and says why.
set -u
B=$1 S=$2 W=$3
cache=${CSC_ROOTS:-${HOME:-/root}/.cache/csumcheck/roots}
pristine=$cache/bookworm-pkg
mirror=${CSC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
fail() { echo "FAIL [package-deb]: $*" >&2; exit 1; }
skip() { echo "SKIP [package-deb]: $*" >&2; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot)"
for t in cpack debootstrap unshare chroot dpkg-deb; do
    command -v "$t" >/dev/null || skip "$t not installed (scripts/setup.sh installs it)"
done
rm -rf "$W"
mkdir -p "$W/pkg"

# 1. the package
cpack --config "$B/CPackConfig.cmake" -B "$W/pkg" >"$W/cpack.log" 2>&1 || { cat "$W/cpack.log" >&2; fail "cpack"; }
ver=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$B/CPackConfig.cmake")
deb=$W/pkg/csumcheck_${ver}_amd64.deb
[ -f "$deb" ] || fail "cpack wrote no $(basename "$deb"): $(ls "$W/pkg")"
dpkg-deb -c "$deb" | awk '{print $6}' >"$W/contents"
for f in ./usr/bin/csumcheck ./usr/share/man/man1/csumcheck.1.gz; do
    grep -qx "$f" "$W/contents" || fail "$f not in the package"
done
plugin=$(grep '/wireshark/plugins/.*/epan/csumcheck.so$' "$W/contents" | sed 's|^\.||')
if [ -d "$B/plugins" ]; then
    [ -n "$plugin" ] || fail "the plugin is built but not in the package"
    grep -q '/wireshark/profiles/csumcheck/preferences$' "$W/contents" ||
        fail "the plugin's column profile is not in the package"
fi
echo "package: $(basename "$deb"), $(wc -c <"$deb") bytes; $(dpkg-deb -f "$deb" Depends)"

# 2. a pristine Debian 12 root, cached
if [ ! -x "$pristine/usr/bin/apt-get" ]; then
    echo "package: making the Debian 12 root $pristine (debootstrap, once)"
    rm -rf "$pristine.new"
    mkdir -p "$cache"
    debootstrap --variant=minbase bookworm "$pristine.new" "$mirror" >"$W/debootstrap.log" 2>&1 ||
        { tail -5 "$W/debootstrap.log" >&2; rm -rf "$pristine.new"; skip "debootstrap bookworm failed (no archive?)"; }
    mv "$pristine.new" "$pristine"
fi

# 3. in a throwaway copy of it: apt install ./the.deb, then the demo
mkdir -p "$W/upper" "$W/work" "$W/root"
cp "$S/captures/demo.pcapng" "$W/demo.pcapng"
cat >"$W/inside.sh" <<'INSIDE'
set -e
cd /tmp
apt-get update -qq
apt-get install -y -qq --no-install-recommends ./csumcheck_*.deb >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }
echo "which=$(command -v csumcheck)"
csumcheck --version | head -n 1 | sed 's/^/version=/'
ls /usr/share/man/man1/csumcheck.1* | sed 's/^/man=/'
csumcheck -v demo.pcapng >/tmp/demo.out 2>/tmp/demo.err; echo "demo_rc=$?"
apt-get install -y -qq --no-install-recommends tshark >/tmp/apt2.log 2>&1 || { tail -20 /tmp/apt2.log; exit 1; }
tshark -G plugins 2>/dev/null | grep -i csumcheck | sed 's/^/tshark_plugin=/' || true
tshark -r demo.pcapng -Y 'csumcheck' -T fields -e frame.number 2>/dev/null | wc -l | sed 's/^/tshark_frames=/'
INSIDE
# shellcheck disable=SC2016
unshare -m --propagation private sh -c '
    W=$1 P=$2
    if ! mount -t overlay overlay -o "lowerdir=$P,upperdir=$W/upper,workdir=$W/work" "$W/root" 2>/dev/null; then
        echo "package: no overlayfs here, copying the root" >&2
        cp -a "$P/." "$W/root/"
    fi
    cp "$3" "$W/demo.pcapng" "$W/inside.sh" "$W/root/tmp/"
    cp /etc/resolv.conf "$W/root/etc/resolv.conf" 2>/dev/null || true
    mount -t proc proc "$W/root/proc"
    chroot "$W/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive sh /tmp/inside.sh >"$W/inside.out" 2>&1
    rc=$?
    cp "$W/root/tmp/demo.out" "$W/root/tmp/demo.err" "$W/" 2>/dev/null
    umount "$W/root/proc"
    exit $rc
' deb "$W" "$pristine" "$deb"
rc=$?
cat "$W/inside.out"
if [ $rc != 0 ]; then
    grep -qi 'could not resolve\|failed to fetch\|temporary failure' "$W/inside.out" &&
        skip "the Debian archive is not reachable from the root"
    fail "apt install ./$(basename "$deb") or the demo failed in the root (exit $rc)"
fi
v() { sed -n "s/^$1=//p" "$W/inside.out"; }
[ "$(v which)" = /usr/bin/csumcheck ] || fail "csumcheck is not on PATH as /usr/bin/csumcheck: [$(v which)]"
[ "$(v version)" = "$("$B/analyzer/csumcheck" --version | head -n 1)" ] || fail "version: [$(v version)]"
[ -n "$(v man)" ] || fail "no man page"
[ "$(v demo_rc)" = 0 ] || { cat "$W/demo.err" >&2; fail "the demo exited $(v demo_rc)"; }
(cd "$S/captures" && "$B/analyzer/csumcheck" -v demo.pcapng) >"$W/demo.host" 2>&1
cmp -s "$W/demo.out" "$W/demo.host" || { diff "$W/demo.host" "$W/demo.out" | head -20 >&2; fail "the demo's output in the root differs from this build's"; }
if [ -n "$plugin" ]; then
    [ -n "$(v tshark_plugin)" ] || fail "tshark in the root does not list the packaged plugin"
    n=$(v tshark_frames)
    frames=$("$B/analyzer/csumcheck" -F json "$S/captures/demo.pcapng" | tail -n 1 | "${JSONQ:?}" -p frames)
    [ "$n" = "$frames" ] || fail "tshark with the packaged plugin: $n frames have csumcheck, expected $frames"
fi
echo "PASS [package-deb]: apt install ./$(basename "$deb") in a fresh Debian 12 root: $(v which), man page, demo output identical$( [ -n "$plugin" ] && echo ", tshark loads the plugin on $(v tshark_frames) frames")"
