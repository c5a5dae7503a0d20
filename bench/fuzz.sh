#!/bin/sh
# bench/fuzz.sh - build the libFuzzer targets with clang (ASan+UBSan) and run
# each for a chosen time on a seed corpus from captures/ and tests/data/real.
#
#   bench/fuzz.sh SECONDS [frame|pcap|plugin|pcapng ...]   (default: all four)
#   RUNS=12000000 bench/fuzz.sh 0 frame                (a run count instead)
#   CORPUS=DIR bench/fuzz.sh 3600 frame                (keep the corpus in DIR)
#
# Prints, per target, the executions, the rate and the coverage libFuzzer
# reached (cov / ft); exits 1 with the reproducer's log on a finding. The
# targets: fuzz-frame (one frame, fuzzed configuration), fuzz-pcap (a fuzzed
# capture file through libpcap), fuzz-plugin (the plugin's per-frame path
# without Wireshark), fuzz-pcapng (a fuzzed pcapng through the CLI's own
# reader, analyzer/input/pcapngblk.c). scripts/fuzz-smoke.sh is the CI minute.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
[ $# -gt 0 ] || set -- frame pcap plugin pcapng
if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz: SKIPPED: clang not installed (scripts/setup.sh installs it)" >&2
    exit 0
fi
targets=""
for t in "$@"; do targets="$targets fuzz-$t"; done
CC=clang cmake -S . -B build-fuzz -DCSC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# shellcheck disable=SC2086
cmake --build build-fuzz -j"$(nproc)" --target $targets csc-fuzz-seed >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=${CORPUS:-$work}
mkdir -p "$base/frames" "$base/files"
caps=""
for f in captures/*.pcap captures/*.pcapng tests/data/real/*.pcap \
         tests/data/real/*.pcapng tests/data/real/*.cap; do
    [ -f "$f" ] && caps="$caps $f"
done
# shellcheck disable=SC2086
build-fuzz/tests/fuzz/csc-fuzz-seed "$base/frames" $caps >/dev/null 2>&1 || true
for f in $caps; do [ "$(stat -c %s "$f")" -lt 65536 ] && cp "$f" "$base/files/"; done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for t in "$@"; do
    corpus="$base/frames"          # fuzz-plugin reads fuzz-frame's input format
    [ "$t" = pcap ] || [ "$t" = pcapng ] && corpus="$base/files"
    log="$work/$t.log"
    limit="-max_total_time=$secs"
    [ -n "${RUNS:-}" ] && limit="-runs=$RUNS"
    start=$(date +%s)
    if ! build-fuzz/tests/fuzz/fuzz-"$t" "$limit" -dict=tests/fuzz/tunnels.dict \
            -max_len=8192 -artifact_prefix="$work/" "$corpus" >"$log" 2>&1; then
        tail -40 "$log" >&2
        echo "fuzz: fuzz-$t FAILED; reproducer in the log above" >&2
        exit 1
    fi
    took=$(( $(date +%s) - start ))
    runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*')
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    echo "fuzz: fuzz-$t: ${runs:-0} runs in ${took}s, $cov, no findings"
done
