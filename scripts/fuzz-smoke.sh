#!/bin/sh
# fuzz-smoke.sh - build the libFuzzer targets with clang (ASan+UBSan) and run
# each for a short time on a seed corpus from captures/ and ../shared.
#   scripts/fuzz-smoke.sh [SECONDS_PER_TARGET]      (default 30)
# Longer campaigns: bench/fuzz.sh.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-30}
if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz-smoke: SKIPPED: clang not installed (scripts/setup.sh installs it)" >&2
    exit 0
fi
CC=clang cmake -S . -B build-fuzz -DCSC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz-frame fuzz-pcap csc-fuzz-seed >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/frames" "$work/files"
set -- captures/*.pcap captures/*.pcapng
shared=../shared/corpus/real
[ -d "$shared" ] && set -- "$@" "$shared"/*.pcap "$shared"/*.pcapng "$shared"/*.cap
build-fuzz/tests/fuzz/csc-fuzz-seed "$work/frames" "$@" >/dev/null 2>&1 || true
for f in "$@"; do [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 65536 ] && cp "$f" "$work/files/" || true; done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for t in frame pcap; do
    corpus="$work/frames"
    [ $t = pcap ] && corpus="$work/files"
    log="$work/$t.log"
    if ! build-fuzz/tests/fuzz/fuzz-$t -max_total_time="$secs" -dict=tests/fuzz/tunnels.dict \
            -max_len=8192 -artifact_prefix="$work/" "$corpus" >"$log" 2>&1; then
        tail -40 "$log" >&2
        echo "fuzz-smoke: fuzz-$t FAILED; reproducer in the log above" >&2
        exit 1
    fi
    runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
    echo "fuzz-smoke: fuzz-$t: $runs in ${secs}s, no findings"
done
