#!/bin/sh
# test.sh - set up, build and run every test twice: the normal build and the
# ASan+UBSan build (plus the libFuzzer smoke when clang can build it).
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j2
scripts/setup.sh --asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j2
if [ -x scripts/fuzz-smoke.sh ]; then
    scripts/fuzz-smoke.sh
fi
echo "test.sh: all tests passed (normal and ASan+UBSan builds)"
