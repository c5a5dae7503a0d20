#!/bin/sh
# kfuzz_fast_same.sh - the differential fuzzer's model side on the fast path
# (issue 25) gives the outcomes of the general path, frame for frame: the
# digest of csc-kfuzz --model-only's outcomes with and without --no-fast-path.
#   kfuzz_fast_same.sh CSC_KFUZZ KERNEL SEED COUNT [more csc-kfuzz args]
set -eu
bin=$1 kernel=$2 seed=$3 count=$4
shift 4
fast=$("$bin" --model-only --kernel "$kernel" --seed "$seed" --count "$count" "$@")
slow=$("$bin" --model-only --kernel "$kernel" --seed "$seed" --count "$count" --no-fast-path "$@")
d1=$(echo "$fast" | sed -n 's/^model outcomes: digest //p')
d2=$(echo "$slow" | sed -n 's/^model outcomes: digest //p')
echo "$fast" | grep '^fast path:'
echo "fast path $d1, general path $d2"
served=$(echo "$fast" | sed -n 's/^fast path: \([0-9]*\) frames from a plan.*/\1/p')
[ -n "$d1" ] && [ "$d1" = "$d2" ] || { echo "kfuzz-fast-same: the outcomes differ: FAILED"; exit 1; }
[ "${served:-0}" -gt 0 ] || { echo "kfuzz-fast-same: no frame came from a plan: FAILED"; exit 1; }
echo "kfuzz-fast-same: same outcomes on $count frames of seed $seed ($served from plans)"
