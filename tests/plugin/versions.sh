#!/bin/sh
# versions.sh - the plugin test suite (ctest -L plugin) against the Wireshark
# versions Debian ships besides the host's, each in a minimal Debian root.
#
#   tests/plugin/versions.sh [VERSION...]       default: 4.4 4.6
#   tests/plugin/versions.sh --run VERSION CMD  build there, then run CMD in that
#                                               root ($CSC_BUILD: its build folder;
#                                               e.g. bench/plugin-cost.sh "$CSC_BUILD")
#
#   4.4  Debian 13 (trixie)     tshark 4.4.x
#   4.6  Debian unstable (sid)  tshark 4.6.x
#
# (4.0 is the host, Debian 12, tested by the normal build; 4.2 is Ubuntu
# 24.04's and is in no Debian suite: docs/wireshark.md says how it is checked.)
#
# Each root is made with `debootstrap --variant=minbase` from Debian's archive
# and the build dependencies are installed with apt INSIDE it; the host's apt
# sources are never touched. Roots are cached in $CSC_ROOTS
# (default ~/.cache/csumcheck/roots/SUITE), outside the repository, and made
# again when missing or when the package list below changes. In the root, in
# a private mount namespace (unshare -m: nothing stays mounted when it ends),
# this checkout (the public corpus in it) is bind-mounted read-only at its own path,
# the plugin, the CLI and the unit test are built into /var/tmp/csc-build-N, one per checkout (kept
# in the root, so later runs build incrementally), and ctest -L plugin runs
# there: tshark's version first, then the suite, consistency with the CLI
# included.
#
# A version whose root cannot be made or entered (not root, no network, no
# debootstrap) is reported loudly as SKIPPED and counted as skipped, never as
# passed. Exit status: 1 when a suite failed, else 0. The last line reads
# "versions: N passed, N failed, N skipped".
set -u

src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CSC_ROOTS:-${HOME:-/root}/.cache/csumcheck/roots}
mirror=${CSC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
jobs=${CSC_JOBS:-2}
PKGS="cmake make gcc libc6-dev pkg-config libpcap-dev libglib2.0-dev check \
libwireshark-dev libwiretap-dev wireshark-dev tshark python3 util-linux binutils \
libjson-glib-dev libseccomp-dev"

suite_of() {
    case $1 in
    4.4) echo trixie ;;
    4.6) echo sid ;;
    *) return 1 ;;
    esac
}

passed=0 failed=0 skipped=0
say() { echo "versions: $*"; }
loud_skip() {   # loud_skip VERSION REASON
    echo "################################################################"
    echo "versions: Wireshark $1 SKIPPED (not tested): $2"
    echo "################################################################"
    skipped=$((skipped + 1))
}

# in_root ROOT CMD: CMD as root inside ROOT, /proc mounted, the checkout
# visible at its own path, all in a mount namespace of its own.
in_root() {
    r=$1
    shift
    mkdir -p "$r$src" "$r/proc"
    # shellcheck disable=SC2016
    unshare -m --propagation private sh -c '
        set -e
        r=$1 src=$2; shift 2
        mount -t proc proc "$r/proc"
        mount --bind "$src" "$r$src" && mount -o remount,bind,ro "$r$src"
        exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
            DEBIAN_FRONTEND=noninteractive sh -c "$1"
    ' in_root "$r" "$src" "$*"
}

# make_root SUITE: ~/.cache/csumcheck/roots/SUITE with PKGS installed.
make_root() {
    suite=$1 root=$cache/$1
    stamp="$root/.csumcheck-root"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$PKGS" ]; then
        say "$suite root cached at $root"
        return 0
    fi
    if [ ! -x "$root/usr/bin/apt-get" ]; then
        rm -rf "$root" "$root.partial"
        say "making the $suite root with debootstrap (minbase) from $mirror"
        debootstrap --variant=minbase "$suite" "$root.partial" "$mirror" >"$cache/$suite.debootstrap.log" 2>&1 ||
            { tail -5 "$cache/$suite.debootstrap.log"; return 1; }
        mv "$root.partial" "$root"
    fi
    # unstable's Release files in the archive reachable here are a few weeks
    # old; apt would call them expired.
    nv=""
    [ "$suite" = sid ] && nv="-o Acquire::Check-Valid-Until=false"
    say "installing the build dependencies in the $suite root with apt"
    in_root "$root" "apt-get $nv update -qq && apt-get install -y -qq --no-install-recommends $PKGS" \
        >"$cache/$suite.apt.log" 2>&1 || { tail -5 "$cache/$suite.apt.log"; return 1; }
    rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*_Packages 2>/dev/null
    echo "$PKGS" >"$stamp"
}

run_version() {
    ver=$1
    suite=$(suite_of "$ver") || { loud_skip "$ver" "no Debian suite ships it (4.4: trixie, 4.6: sid)"; return; }
    if [ "$(id -u)" != 0 ]; then
        loud_skip "$ver" "making and entering a Debian root needs root (debootstrap, chroot, mount)"
        return
    fi
    for t in unshare chroot mount; do
        command -v $t >/dev/null || { loud_skip "$ver" "$t not found"; return; }
    done
    if ! command -v debootstrap >/dev/null; then
        say "installing debootstrap on the host (apt-get install debootstrap; sources untouched)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1 ||
            { apt-get update -qq >/dev/null 2>&1 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1; } ||
            { loud_skip "$ver" "debootstrap is missing and apt-get could not install it"; return; }
    fi
    mkdir -p "$cache"
    t0=$(date +%s)
    if ! make_root "$suite"; then
        loud_skip "$ver" "the Debian $suite root could not be made (logs: $cache/$suite.*.log)"
        return
    fi
    t1=$(date +%s)
    root=$cache/$suite
    # one build folder per checkout (CMake ties a build folder to its source)
    b=/var/tmp/csc-build-$(printf %s "$src" | cksum | cut -d' ' -f1)
    # The build, then the suite; tshark's version heads the log.
    rm -f "$root/var/tmp/csc-versions.rc"
    in_root "$root" "(
        set -e
        echo \"versions: [$ver] \$(tshark --version 2>/dev/null | head -1)\"
        cmake -S $src -B $b -DCMAKE_BUILD_TYPE=RelWithDebInfo >/var/tmp/csc-cmake.log 2>&1 ||
            { tail -20 /var/tmp/csc-cmake.log; exit 1; }
        grep -q 'csumcheck plugin for Wireshark $ver' /var/tmp/csc-cmake.log ||
            { echo 'versions: [$ver] the plugin is not part of the build:'; grep -i wireshark /var/tmp/csc-cmake.log; exit 1; }
        cmake --build $b -j$jobs --target csumcheck_plugin csumcheck csc-plugin-unit >/var/tmp/csc-build.log 2>&1 ||
            { grep -B2 -A8 -m5 'error' /var/tmp/csc-build.log; exit 1; }
        chmod -R a+rX $b
        rc=0
        ctest --test-dir $b -L plugin -j$jobs --output-on-failure || rc=\$?
        grep -h '^consistency: .*difference' $b/Testing/Temporary/LastTest.log || true
        exit \$rc
    ); echo \$? >/var/tmp/csc-versions.rc" 2>&1 | sed "s/^/[$ver] /"
    rc=$(cat "$root/var/tmp/csc-versions.rc" 2>/dev/null || echo "")
    t2=$(date +%s)
    [ -n "$rc" ] || rc=1
    if [ "$rc" = 0 ]; then
        passed=$((passed + 1))
        say "Wireshark $ver: plugin suite PASSED (root $((t1 - t0)) s, build + suite $((t2 - t1)) s)"
    else
        failed=$((failed + 1))
        say "Wireshark $ver: plugin suite FAILED (root $((t1 - t0)) s, build + suite $((t2 - t1)) s)"
    fi
}

if [ "${1:-}" = --run ]; then
    [ $# -ge 3 ] || { echo "usage: versions.sh --run VERSION CMD" >&2; exit 2; }
    ver=$2 cmd=$3
    suite=$(suite_of "$ver") || { echo "versions: no Debian suite for $ver" >&2; exit 2; }
    [ "$(id -u)" = 0 ] || { echo "versions: --run needs root" >&2; exit 2; }
    mkdir -p "$cache"
    make_root "$suite" || exit 1
    root=$cache/$suite
    b=/var/tmp/csc-build-$(printf %s "$src" | cksum | cut -d' ' -f1)
    in_root "$root" "set -e
        cmake -S $src -B $b -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
        cmake --build $b -j$jobs --target csumcheck_plugin csumcheck csc-gen >/dev/null
        chmod -R a+rX $b
        cd $src && CSC_BUILD=$b sh -c '$cmd'"
    exit $?
fi

[ $# -gt 0 ] || set -- 4.4 4.6
for v in "$@"; do
    run_version "$v"
done
say "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
