#!/bin/sh
# bench/callgrind.sh - instructions a frame (valgrind callgrind) on 50,000-frame
# cuts of bench/run.sh's shapes: the load-independent measure of issues 13 and 25.
#
#   bench/callgrind.sh [BUILD]                       (default build-bench; Release)
#   FRAMES=50000 SHAPES="small-4k-random full-4k-random" ARGS="--threads 1" bench/callgrind.sh
#   ARGS="--threads 1 --no-fast-path" bench/callgrind.sh     (the general path)
#
# Per shape: csc-gen bench --frames FRAMES with the shape's options (bench/shapes.sh),
# and the same with --frames 1; callgrind on `csumcheck -q ARGS FILE` for both;
# (Ir(FRAMES) - Ir(1)) / (FRAMES - 1) is the figure (start-up taken out).
# With PARTS=1 it prints the inclusive cost a frame of the main stages too.
# Cuts are kept in bench/out/cg/ (remade when csc-gen is newer).
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-${BUILD:-build-bench}}
FRAMES=${FRAMES:-50000}
ARGS=${ARGS:---threads 1}
OUT=bench/out/cg
mkdir -p "$OUT"
. bench/shapes.sh
CSC=$BUILD/analyzer/csumcheck
GEN=$BUILD/captures/gen/csc-gen
[ -x "$CSC" ] && [ -x "$GEN" ] || { echo "callgrind: build $BUILD first (csumcheck, csc-gen)" >&2; exit 2; }
want=${SHAPES:-$(echo "$BENCH_SHAPES" | cut -d'|' -f1 | tr '\n' ' ')}
ir() {   # ir OUTFILE FILE: total instructions of one run
    valgrind --tool=callgrind --callgrind-out-file="$1" $CSC -q $ARGS "$2" >/dev/null 2>&1
    callgrind_annotate "$1" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,
}
printf '%-22s %12s %10s  %s\n' shape instructions "a frame" "args: $ARGS"
for name in $want; do
    opts=$(echo "$BENCH_SHAPES" | sed -n "s/^$name|[^|]*|//p")
    [ -n "$opts" ] || { echo "callgrind: no shape $name" >&2; exit 2; }
    for n in "$FRAMES" 1; do
        f=$OUT/$name-$n.pcap
        if [ ! -s "$f" ] || [ "$GEN" -nt "$f" ]; then
            $GEN bench --frames "$n" $opts -o "$f" >/dev/null
        fi
    done
    big=$(ir "$OUT/$name.cg" "$OUT/$name-$FRAMES.pcap")
    one=$(ir "$OUT/$name.one.cg" "$OUT/$name-1.pcap")
    printf '%-22s %12s %10s\n' "$name" "$big" "$(( (big - one) / (FRAMES - 1) ))"
    if [ "${PARTS:-0}" = 1 ]; then
        callgrind_annotate --inclusive=yes "$OUT/$name.cg" 2>/dev/null |
            awk -v n="$FRAMES" '/^ *[0-9,]+ .*:(csc_|fast_|gro_|plan_|run_|flow|sink|rdr_)/ {
                gsub(",", "", $1); if ($1 / n >= 20) printf "    %8.0f  %s\n", $1 / n, $2 }' | head -40
    fi
done
