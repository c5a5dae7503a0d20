#!/bin/sh
# setup.sh - install the Debian bookworm packages csumcheck needs (as root, or
# prints the command), then configure and build into build/.
#   scripts/setup.sh [--asan] [--no-build | --cli]      (--cli: the csumcheck target only)
set -eu
cd "$(dirname "$0")/.."

PKGS="cmake make gcc clang pkg-config libpcap-dev libglib2.0-dev check \
libwireshark-dev libwiretap-dev wireshark-dev tshark tcpdump iproute2 time linux-libc-dev python3 \
qemu-system-x86 busybox-static kmod cpio xz-utils zstd \
libjson-glib-dev lz4 parallel debootstrap \
python3-jsonschema python3-junitparser libxml2-utils lintian libseccomp-dev"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing$missing" >&2
        sh -c "$cmd" >/tmp/csumcheck-apt.log 2>&1 || { tail -20 /tmp/csumcheck-apt.log >&2; exit 1; }
    else
        echo "setup: missing packages:$missing" >&2
        echo "setup: run as root:  $cmd" >&2
        exit 1
    fi
fi

[ "${1:-}" = "--no-build" ] && exit 0
jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = "--asan" ]; then
    cmake -S . -B build-asan -DCSC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
    cmake --build build-asan -j"$jobs"
else
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    if [ "${1:-}" = "--cli" ]; then
        cmake --build build -j"$jobs" --target csumcheck
    else
        cmake --build build -j"$jobs"
    fi
fi
