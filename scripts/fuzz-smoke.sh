#!/bin/sh
# fuzz-smoke.sh - what CI runs: the six libFuzzer targets (ASan+UBSan),
# 20 seconds each, on the seed corpus. Longer campaigns: bench/fuzz.sh.
#   scripts/fuzz-smoke.sh [SECONDS_PER_TARGET]      (default 20)
set -eu
cd "$(dirname "$0")/.."
exec bench/fuzz.sh "${1:-20}" frame pcap plugin pcapng merge wiretap
