#!/bin/sh
# test.sh - set up, build and run every test twice: the normal build and the
# ASan+UBSan build (plus the libFuzzer smoke when clang can build it).
set -eu
cd "$(dirname "$0")/.."
# The live-kernel matrix (tests/kernel, docs/kernel-diff.md): each build's
# table of kernel x tunnel x report, and any kernel skipped (with why).
matrix() {
    if [ -f "$1/tests/kernel/kernel-matrix.txt" ]; then
        echo "test.sh: live-kernel matrix of $1:"
        cat "$1/tests/kernel/kernel-matrix.txt"
    fi
}
scripts/setup.sh
rm -f build/tests/kernel/kernel-matrix.txt
ctest --test-dir build --output-on-failure -j2
matrix build
scripts/setup.sh --asan
rm -f build-asan/tests/kernel/kernel-matrix.txt
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j2
matrix build-asan
if [ -x scripts/fuzz-smoke.sh ]; then
    scripts/fuzz-smoke.sh
fi
echo "test.sh: all tests passed (normal and ASan+UBSan builds)"
