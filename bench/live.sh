#!/bin/sh
# bench/live.sh - how fast `csumcheck --live` puts single frames through this
# machine's kernel (issue 19: at least 5,000 frames a second), timed with
# hyperfine, whole runs: process start, reading, the model, every namespace
# made and torn down, every frame written and observed.
#
#   bench/live.sh                   (as root; RUNS=10, FRAMES=4096)
#   RUNS=5 FRAMES=16384 BUILD=build bench/live.sh
#
# Inputs, each one hyperfine command:
#   captures      every capture of captures/ in one run (as tests/live does)
#   ndpi-vxlan    the public corpus's nDPI__vxlan.pcap (127 VXLAN frames)
#   gen-N         FRAMES single frames made by `csc-gen bench` (small
#                 frames, 16 flows at random, half VXLAN half plain, 5% with
#                 a bad checksum somewhere): the steady state
# For each: replayed frames / mean wall time ("frames/s, whole run"), and
# csumcheck's own closing figure for the writing and observing alone (the
# median of 5 runs). The
# table goes to bench/out/live.md with the load before each command; the
# figures quoted in docs/performance.md come from it.
#
# As bench/run.sh, as root the script runs in a session of its own whose
# autogroup weight it raises (nice -20 for the group): on a shared machine
# the scheduler otherwise shares the CPUs between sessions whatever the nice
# value inside one. PRIORITY=0 turns that off; the table says which.
set -eu
if [ "${PRIORITY:-1}" = 1 ] && [ -z "${BENCH_SESSION:-}" ] && [ "$(id -u)" = 0 ] &&
   [ -w /proc/self/autogroup ] && command -v setsid >/dev/null; then
    BENCH_SESSION=1 exec setsid -w "$0" "$@"
fi
PRIO="default scheduling"
if [ -n "${BENCH_SESSION:-}" ] && echo -20 >/proc/self/autogroup 2>/dev/null; then
    PRIO="own session, autogroup nice -20"
fi
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build}
OUT=bench/out
RUNS=${RUNS:-10}
FRAMES=${FRAMES:-4096}
SHARED=${CSC_SHARED:-$ROOT/../shared}
mkdir -p "$OUT"

say() { echo "live-bench: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
    say "csumcheck --live needs root (a network namespace, a TAP): not run"
    exit 77
fi
command -v hyperfine >/dev/null || { say "hyperfine missing (apt-get install hyperfine)"; exit 2; }
command -v python3 >/dev/null || { say "python3 missing"; exit 2; }

say "building csumcheck and csc-gen in $BUILD"
cmake -S . -B "$BUILD" >"$OUT/live-cmake.log" 2>&1
cmake --build "$BUILD" -j2 --target csumcheck csc-gen >>"$OUT/live-cmake.log" 2>&1
CSC="$ROOT/$BUILD/analyzer/csumcheck"
GEN="$ROOT/$BUILD/captures/gen/csc-gen"

GENF="$OUT/live-gen-$FRAMES.pcap"
if [ ! -s "$GENF" ] || [ "$GEN" -nt "$GENF" ]; then
    "$GEN" bench --frames "$FRAMES" --flows 16 --interleave random --size small \
        --tunnel vxlan,plain --bad 0.05 --seed 19 -o "$GENF"
fi

CAPS=$(ls captures/*.pcap captures/*.pcapng | tr "\n" " ")
NDPI="$SHARED/corpus/real/nDPI__vxlan.pcap"

# name|arguments (words)
INPUTS="captures|$CAPS
gen-$FRAMES|$GENF"
[ -r "$NDPI" ] && INPUTS="ndpi-vxlan|$NDPI
$INPUTS"

# the closing line: "agreement: A/R replayed frames ...; X frames/s (Y counting ...)"
"$CSC" --live -q "$GENF" >"$OUT/live-check.txt" 2>&1 || {
    rc=$?
    [ "$rc" = 77 ] && { say "$(tail -n 1 "$OUT/live-check.txt")"; exit 77; }
    [ "$rc" = 1 ] || { cat "$OUT/live-check.txt" >&2; exit 1; }
}

{
    echo "| input | replayed frames | agree | mean wall (s) | ± | frames/s, whole run | frames/s, writing and observing (median of 5) | load before |"
    echo "|---|---:|---:|---:|---:|---:|---:|---|"
} >"$OUT/live.md"

echo "$INPUTS" | while IFS='|' read -r name args; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    say "$name: hyperfine, $RUNS runs (load $load)"
    # shellcheck disable=SC2086
    hyperfine -N --runs "$RUNS" --warmup 1 -i --export-json "$OUT/live-$name.json" \
        "$CSC --live -q $args" >"$OUT/live-$name.hyperfine.txt" 2>&1
    # csumcheck's own figure: the median of 5 runs
    : >"$OUT/live-$name.txt"
    for _ in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        "$CSC" --live -q $args 2>&1 | tail -n 1 >>"$OUT/live-$name.txt" || true
    done
    python3 - "$OUT/live-$name.json" "$OUT/live-$name.txt" "$name" "$load" >>"$OUT/live.md" <<'EOF'
import json, re, sys
js, txt, name, load = sys.argv[1:]
r = json.load(open(js))["results"][0]
runs = [re.match(r"agreement: (\d+)/(\d+) replayed frames .*; (\d+) frames/s", l)
        for l in open(txt) if l.startswith("agreement:")]
agree, rep = int(runs[-1].group(1)), int(runs[-1].group(2))
own = sorted(int(m.group(3)) for m in runs)[len(runs) // 2]
print("| %s | %d | %d | %.3f | %.3f | %.0f | %d | %s |" %
      (name, rep, agree, r["mean"], r["stddev"], rep / r["mean"], own, load))
EOF
done
echo "" >>"$OUT/live.md"
echo "kernel $(uname -r), $(nproc) CPUs, $PRIO, hyperfine $RUNS runs + 1 warm-up; load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/live.md"
say "table in $OUT/live.md"
cat "$OUT/live.md"
