#!/bin/sh
# test.sh - set up, build and run every test twice: the normal build and the
# ASan+UBSan build (plus the libFuzzer smoke when clang can build it), and the
# Wireshark plugin's suite on the other Wireshark versions (tests/plugin/versions.sh).
# After each ctest run, the count of skipped tests; a skip that docs/testing.md
# does not list fails the run (scripts/skips.py).
set -eu
cd "$(dirname "$0")/.."
# The tests run Debian's python3 (/usr/bin), not a python3 another
# installer put earlier in PATH (pyenv shims, a virtualenv).
PATH=/usr/bin:/bin:$PATH
export PATH
# The live-kernel matrix (tests/kernel, docs/kernel-diff.md): each build's
# table of kernel x tunnel x report, and any kernel skipped (with why).
matrix() {
    if [ -f "$1/tests/kernel/kernel-matrix.txt" ]; then
        echo "test.sh: live-kernel matrix of $1:"
        cat "$1/tests/kernel/kernel-matrix.txt"
    fi
    for f in "$1"/tests/kernel/kfuzz-*.summary; do
        [ -f "$f" ] || continue
        echo "test.sh: differential fuzzer smoke, $1, $(head -1 "$f" | cut -d' ' -f2) ($(sed -n 2p "$f" | cut -d' ' -f2)):"
        grep -E '^(receiver|all|seconds) ' "$f"
    done
}
live() {
    if [ -f "$1/tests/live/live-captures.summary" ]; then
        echo "test.sh: csumcheck --live on the captures, $1:"
        cat "$1/tests/live/live-captures.summary"
    fi
    if [ -f "$1/tests/live/live-kernel-vm.summary" ]; then
        cat "$1/tests/live/live-kernel-vm.summary"
    fi
}
scripts/setup.sh
rm -f build/tests/kernel/kernel-matrix.txt build/tests/live/live-captures.summary build/tests/live/live-kernel-vm.summary
ctest --test-dir build --output-on-failure -j2 --output-junit "$PWD/build/ctest-junit.xml"
# how many tests skipped, and none that docs/testing.md does not list
python3 scripts/skips.py build/ctest-junit.xml docs/testing.md
matrix build
live build
# The plugin suite above ran against the host's Wireshark (4.0 on Debian 12).
echo "test.sh: plugin suite on the host: $(tshark --version 2>/dev/null | head -1)"
grep -h '^consistency: .*difference' build/Testing/Temporary/LastTest.log || true
# The plugin suite again against Wireshark 4.4 (Debian 13) and 4.6 (Debian
# unstable), each in a cached minimal Debian root; a version whose root
# cannot be made is reported as SKIPPED, loudly.
tests/plugin/versions.sh
# The benchmarks and the .deb build with -O3 (Release), whose warnings
# (-Werror) are not those of -O2: compile every target that way too.
echo "test.sh: Release (-O3) build of every target"
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release -j2 >build-release/build.log 2>&1 || { tail -n 40 build-release/build.log; exit 1; }
# and with clang, whose warnings (-Wformat-nonliteral, -Wsign-compare in
# macros, -Wshadow against library globals) are not gcc's
echo "test.sh: clang build of every target"
CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-clang -j2 >build-clang/build.log 2>&1 || { tail -n 40 build-clang/build.log; exit 1; }
scripts/setup.sh --asan
rm -f build-asan/tests/kernel/kernel-matrix.txt build-asan/tests/live/live-captures.summary build-asan/tests/live/live-kernel-vm.summary
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j2 --output-junit "$PWD/build-asan/ctest-junit.xml"
python3 scripts/skips.py build-asan/ctest-junit.xml docs/testing.md
matrix build-asan
live build-asan
if [ -x scripts/fuzz-smoke.sh ]; then
    scripts/fuzz-smoke.sh
fi
echo "test.sh: all tests passed (normal and ASan+UBSan builds)"
