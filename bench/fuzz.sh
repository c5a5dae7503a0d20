#!/bin/sh
# bench/fuzz.sh - build the libFuzzer targets with clang (ASan+UBSan) and run
# each for a chosen time on a seed corpus from captures/ and tests/data/real.
#
#   bench/fuzz.sh SECONDS [frame|pcap|plugin|pcapng|merge|wiretap ...]   (default: all six)
#   RUNS=12000000 bench/fuzz.sh 0 frame                (a run count instead)
#   CORPUS=DIR bench/fuzz.sh 3600 frame                (keep the corpus in DIR)
#
# Prints, per target, the executions, the rate and the coverage libFuzzer
# reached (cov / ft); exits 1 with the reproducer's log on a finding. The
# targets: fuzz-frame (one frame, fuzzed configuration), fuzz-pcap (a fuzzed
# capture file through libpcap), fuzz-plugin (the plugin's per-frame path
# without Wireshark), fuzz-pcapng (a fuzzed pcapng through the CLI's own
# reader, analyzer/input/pcapngblk.c), fuzz-merge (a summary line through
# --merge's reader and back out), fuzz-wiretap (a capture through the CLI's
# libwiretap reader: pcapng of several link types, compressed captures).
# scripts/fuzz-smoke.sh is the CI minute.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
[ $# -gt 0 ] || set -- frame pcap plugin pcapng merge wiretap
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
mkdir -p "$base/frames" "$base/files" "$base/summaries" "$base/wiretap"
caps=""
for f in captures/*.pcap captures/*.pcapng tests/data/real/*.pcap \
         tests/data/real/*.pcapng tests/data/real/*.cap; do
    [ -f "$f" ] && caps="$caps $f"
done
# shellcheck disable=SC2086
build-fuzz/tests/fuzz/csc-fuzz-seed "$base/frames" $caps >/dev/null 2>&1 || true
for f in $caps; do [ "$(stat -c %s "$f")" -lt 65536 ] && cp "$f" "$base/files/"; done
# fuzz-merge: summaries csumcheck wrote (tests/fuzz/seeds/merge: with
# --flows, of several files, with --baseline)
cp tests/fuzz/seeds/merge/*.json "$base/summaries/"
# fuzz-wiretap: the small captures, pcapng (several link types) and
# compressed ones
cp "$base"/files/*.pcapng "$base/wiretap/" 2>/dev/null || true
for f in captures/demo.pcapng captures/gre.pcap captures/tx-sll2.pcapng; do
    b=$(basename "$f")
    gzip -c "$f" >"$base/wiretap/$b.gz"
    if command -v zstd >/dev/null; then zstd -q -c "$f" >"$base/wiretap/$b.zst"; fi
    if command -v lz4 >/dev/null; then lz4 -q -c "$f" >"$base/wiretap/$b.lz4"; fi
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for t in "$@"; do
    corpus="$base/frames"          # fuzz-plugin reads fuzz-frame's input format
    [ "$t" = pcap ] || [ "$t" = pcapng ] && corpus="$base/files"
    [ "$t" = merge ] && corpus="$base/summaries"
    [ "$t" = wiretap ] && corpus="$base/wiretap"
    log="$work/$t.log"
    limit="-max_total_time=$secs"
    [ -n "${RUNS:-}" ] && limit="-runs=$RUNS"
    start=$(date +%s)
    dict=-dict=tests/fuzz/tunnels.dict max=8192
    if [ "$t" = merge ]; then dict="" max=65536; fi
    if [ "$t" = wiretap ]; then max=65536; fi
    # shellcheck disable=SC2086
    # libwiretap's own leak (tests/fuzz/lsan-libwiretap.supp) is told by the
    # full stack of its allocation, which the fast unwinder does not take
    supp="" asan=$ASAN_OPTIONS
    if [ "$t" = wiretap ]; then
        supp=suppressions=$PWD/tests/fuzz/lsan-libwiretap.supp asan=$ASAN_OPTIONS:fast_unwind_on_malloc=0
    fi
    if ! ASAN_OPTIONS=$asan LSAN_OPTIONS=$supp build-fuzz/tests/fuzz/fuzz-"$t" "$limit" $dict \
            -max_len=$max -artifact_prefix="$work/" "$corpus" >"$log" 2>&1; then
        tail -40 "$log" >&2
        echo "fuzz: fuzz-$t FAILED; reproducer in the log above" >&2
        exit 1
    fi
    took=$(( $(date +%s) - start ))
    runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*')
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    echo "fuzz: fuzz-$t: ${runs:-0} runs in ${took}s, $cov, no findings"
done
