#!/bin/sh
# bench/plugin-cost.sh - what the csumcheck Wireshark plugin adds to tshark.
#
#   bench/plugin-cost.sh [BUILD_DIR]        (default: build)
#   FRAMES=100000 RUNS=10 ROUNDS=5 bench/plugin-cost.sh build
#
# Generates a VXLAN/TCP capture (`csc-gen bench --flows 16`: FRAMES frames
# of 16 bulk TCP connections, data 1514 bytes + ACKs 104 bytes, 1.5% bad
# inner TCP checksums), then times
# with hyperfine the same tshark command with WIRESHARK_PLUGIN_DIR pointing
# at BUILD_DIR/plugins (csumcheck.so) and at BUILD_DIR/plugins-none (empty):
#
#   summary   tshark -n -r F                    (packet list: no tree is built,
#                                                the plugin analyses each frame)
#   fields    tshark -n -r F -T fields -e frame.number -e ip.src
#                    [-e csumcheck.summary -e csumcheck.kernel.summary]
#                                               (a tree is built; with the plugin
#                                                two csumcheck columns are asked for)
#   detail    tshark -n -r F -V                 (full tree, text output)
#   pdml      tshark -n -r F -T pdml            (full tree, XML output)
#
# and prints the median ratio plugin/baseline per mode (wall clock, and CPU
# time user+sys, which background load on a shared machine disturbs less).
# RUNS runs per command, split into ROUNDS alternating hyperfine rounds.
# Targets: the plugin adds at most 30% in the summary mode (issue 6) and in
# the tree modes fields, detail and pdml (issue 18), on Wireshark 4.0 and 4.6.
#
# The machine this runs on is often shared, and wall-clock ratios then move
# by +-10 points between runs. With CALLGRIND=1 the script also counts
# instructions (valgrind --tool=callgrind) per frame on a 2000-frame capture,
# start-up subtracted (a 2-frame run): a load-independent measure of the
# per-frame cost the plugin adds (HYPERFINE=0 skips the wall-clock runs).
# MODES="fields pdml" runs only those modes (default: all four).
#
# As root, tshark ignores WIRESHARK_PLUGIN_DIR: the commands then run as uid
# 65534 through setpriv, so the capture is written to a world-readable
# folder under BUILD_DIR. Needs: hyperfine, tshark, python3, a built plugin
# and generator (cmake --build BUILD_DIR --target csumcheck_plugin csc-gen).
set -eu

build=$(cd "${1:-build}" && pwd)
frames=${FRAMES:-100000}
runs=${RUNS:-10}
# the Wireshark major.minor the plugin was built for: BUILD_DIR/plugins/<ver>/epan
ver=$(ls "$build/plugins" 2>/dev/null | head -1)
so="$build/plugins/$ver/epan/csumcheck.so"

for t in hyperfine tshark python3; do
    command -v "$t" >/dev/null || { echo "plugin-cost: $t not found" >&2; exit 2; }
done
[ -f "$so" ] || { echo "plugin-cost: $so missing (build target csumcheck_plugin)" >&2; exit 2; }
gen="$build/captures/gen/csc-gen"
[ -x "$gen" ] || { echo "plugin-cost: $gen missing (build target csc-gen)" >&2; exit 2; }
mkdir -p "$build/plugins-none/$ver/epan" "$build/extcap-none"

out="$build/bench/plugin-cost"
mkdir -p "$out"
chmod 755 "$build/bench" "$out"
cap="$out/vxlan-$frames.pcap"
[ "$cap" -nt "$gen" ] || "$gen" bench --flows 16 --frames "$frames" -o "$cap"
chmod 644 "$cap"

run=""
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null || { echo "plugin-cost: root needs setpriv" >&2; exit 2; }
    run="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
ts() {  # ts PLUGIN_DIR ARGS... -> a command line for hyperfine
    echo "$run env -i PATH=/usr/bin:/bin HOME=/nonexistent WIRESHARK_PLUGIN_DIR=$1 WIRESHARK_EXTCAP_DIR=$build/extcap-none tshark -n -r $cap $2"
}

# The plugin is really loaded (and the baseline really is without it).
with=$(sh -c "$(ts "$build/plugins" "-c 1 -T fields -e csumcheck.summary")" 2>/dev/null)
without=$(sh -c "$(ts "$build/plugins-none" "-c 1 -T fields -e frame.number")" 2>/dev/null)
[ -n "$with" ] && [ "$without" = 1 ] || { echo "plugin-cost: plugin not loaded as expected" >&2; exit 2; }

echo "capture: $cap ($frames frames, $(wc -c <"$cap") bytes)"
echo "tshark: $(tshark --version 2>/dev/null | head -1); plugin: $so"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo

# The machine is shared: a long hyperfine run of A then B lets background
# load drift bias the ratio. So each mode runs ROUNDS short hyperfine rounds
# alternating the two commands, and the medians are over all runs.
# tshark's arguments for a mode, without ($base) and with ($plug) the plugin
mode_args() {
    case $1 in
    summary) base=""; plug="" ;;
    fields) base="-T fields -e frame.number -e ip.src"
            plug="$base -e csumcheck.summary -e csumcheck.kernel.summary" ;;
    detail) base="-V"; plug="-V" ;;
    pdml) base="-T pdml"; plug="-T pdml" ;;
    esac
}

# HYPERFINE=0: no wall-clock runs (with CALLGRIND=1: instruction counts only)
rounds=${ROUNDS:-5}
[ "${HYPERFINE:-1}" = 1 ] || rounds=0
per=$(( (runs + rounds) / (rounds + 1) + 1 ))
[ "$rounds" = 0 ] || per=$(( (runs + rounds - 1) / rounds ))
results=""
for mode in ${MODES:-summary fields detail pdml}; do
    mode_args $mode
    r=1
    while [ $r -le "$rounds" ]; do
        json="$out/$mode-$r.json"
        # -N: no intermediate shell (its start-up would blur the ratio); hyperfine
        # discards the commands' output.
        hyperfine -N --warmup 1 --runs "$per" --export-json "$json" --style none \
            -n "$mode: tshark" "$(ts "$build/plugins-none" "$base")" \
            -n "$mode: tshark + csumcheck" "$(ts "$build/plugins" "$plug")" >/dev/null
        results="$results $json"
        r=$((r + 1))
    done
done

[ -z "$results" ] || python3 - $results <<'EOF2'
import json, statistics, sys
runs = {}
for path in sys.argv[1:]:
    for res in json.load(open(path))["results"]:
        # hyperfine <= 1.18 (Debian 12): command = the -n name, times, user, system;
        # newer (Debian unstable): name, and per run measurements
        mode, which = res.get("name", res["command"]).split(": ")
        d = runs.setdefault(mode, {}).setdefault(which, {"wall": [], "cpu": []})
        if "measurements" in res:
            for m in res["measurements"]:
                d["wall"].append(m["time_wall_clock"]["value"])
                d["cpu"].append(m["time_user"]["value"] + m["time_system"]["value"])
        else:
            d["wall"] += res["times"]
            d["cpu"].append(res["user"] + res["system"])
print("| mode | runs | tshark median (s) | tshark + csumcheck median (s) | ratio (wall) | plugin adds (wall) | plugin adds (CPU user+sys) |")
print("|---|---|---|---|---|---|---|")
for mode, d in runs.items():
    a, b = d["tshark"], d["tshark + csumcheck"]
    wa, wb = statistics.median(a["wall"]), statistics.median(b["wall"])
    ca, cb = statistics.median(a["cpu"]), statistics.median(b["cpu"])
    print("| %s | %d+%d | %.3f | %.3f | %.3f | %+.1f%% | %+.1f%% |" % (
        mode, len(a["wall"]), len(b["wall"]), wa, wb, wb / wa, (wb / wa - 1) * 100, (cb / ca - 1) * 100))
EOF2

[ "${CALLGRIND:-0}" = 1 ] || exit 0
command -v valgrind >/dev/null || { echo "plugin-cost: CALLGRIND=1 needs valgrind" >&2; exit 2; }
small="$out/vxlan-2.pcap"; mid="$out/vxlan-2000.pcap"
[ "$small" -nt "$gen" ] || "$gen" bench --flows 16 --frames 2 -o "$small"
[ "$mid" -nt "$gen" ] || "$gen" bench --flows 16 --frames 2000 -o "$mid"
chmod 644 "$small" "$mid"
chmod 777 "$out"
count() {  # count PLUGIN_DIR CAPTURE ARGS -> instructions
    f="$out/cg.$$.out"
    $run env -i PATH=/usr/bin:/bin HOME=/nonexistent WIRESHARK_PLUGIN_DIR="$1" \
        WIRESHARK_EXTCAP_DIR="$build/extcap-none" valgrind --tool=callgrind --callgrind-out-file="$f" \
        tshark -n -r "$2" $3 >/dev/null 2>&1
    awk '/^summary:/ {print $2}' "$f"
    rm -f "$f"
}
echo
echo "| mode | instructions/frame, tshark | instructions/frame, tshark + csumcheck | plugin adds |"
echo "|---|---|---|---|"
for mode in ${MODES:-summary fields detail pdml}; do
    mode_args $mode
    a0=$(count "$build/plugins-none" "$small" "$base"); a=$(count "$build/plugins-none" "$mid" "$base")
    b0=$(count "$build/plugins" "$small" "$plug"); b=$(count "$build/plugins" "$mid" "$plug")
    python3 -c "a=($a-$a0)/1998; b=($b-$b0)/1998; print('| $mode | %.0f | %.0f | %+.1f%% |' % (a, b, (b/a-1)*100))"
done
