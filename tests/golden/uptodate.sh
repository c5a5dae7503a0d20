#!/bin/sh
# uptodate.sh - the committed captures are exactly what the generator writes
# (deterministic: fixed timestamps, no randomness), nothing in captures/
# looks like a capture without being in the case table, and CASES.md lists
# the case table as it is. With REAL_DIR (tests/data/real): the generated
# stand-ins there (gen__*, csc-gen real) too.
#
#   uptodate.sh CSC_GEN CAPTURES_DIR SCRATCH_DIR [REAL_DIR]
set -u
GEN=$1
CAPS=$2
OUT=$3
REAL=${4:-}
rm -rf "$OUT"
mkdir -p "$OUT/a" "$OUT/b" || exit 1
"$GEN" corpus -o "$OUT/a" || { echo "FAIL: csc-gen corpus"; exit 1; }
"$GEN" corpus -o "$OUT/b" || exit 1
status=0 n=0
for f in $("$GEN" list | cut -f1); do
    n=$((n + 1))
    cmp -s "$OUT/a/$f" "$OUT/b/$f" || { echo "FAIL: $f differs between two runs of csc-gen"; status=1; }
    if [ ! -f "$CAPS/$f" ]; then
        echo "FAIL: $f is in the case table but not committed (scripts/regen-captures.sh)"; status=1
    elif ! cmp -s "$OUT/a/$f" "$CAPS/$f"; then
        echo "FAIL: captures/$f is not what csc-gen writes (scripts/regen-captures.sh, then review the diff)"; status=1
    fi
done
for f in "$CAPS"/*.pcap "$CAPS"/*.pcapng; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    "$GEN" list | cut -f1 | grep -qx "$b" || { echo "FAIL: captures/$b is not in the case table"; status=1; }
done
if [ -n "$REAL" ]; then
    mkdir -p "$OUT/real" || exit 1
    "$GEN" real corpus -o "$OUT/real" || { echo "FAIL: csc-gen real corpus"; exit 1; }
    for f in $("$GEN" real list | cut -f1); do
        n=$((n + 1))
        cmp -s "$OUT/real/$f" "$REAL/$f" ||
            { echo "FAIL: $REAL/$f is not what csc-gen real writes (scripts/regen-captures.sh)"; status=1; }
    done
    for f in "$REAL"/gen__*; do
        case $f in *.tsv) continue ;; esac
        "$GEN" real list | cut -f1 | grep -qx "$(basename "$f")" ||
            { echo "FAIL: $f is not in csc-gen real's table (captures/gen/real.c)"; status=1; }
    done
fi
"$GEN" cases --markdown >"$OUT/CASES.md"
if ! diff -u "$CAPS/CASES.md" "$OUT/CASES.md" >"$OUT/cases.diff"; then
    echo "FAIL: captures/CASES.md is stale (scripts/regen-captures.sh):"; head -50 "$OUT/cases.diff"; status=1
fi
echo "uptodate: $n generated files compared byte for byte, CASES.md current"
[ $status = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $status
