#!/bin/sh
# bench/run.sh - the csumcheck benchmark (issues 5 and 13), in one command.
#
#   bench/run.sh                       (RUNS=5, tshark/tcpdump on 8 MiB cuts)
#   RUNS=10 TOOL_BYTES=16M SWEEP=0 BUILD=build-bench PRIORITY=0 bench/run.sh
#   SMOKE=1 bench/run.sh               (every step on 8 MiB files, into bench/out-smoke,
#                                       docs untouched: checks the script)
#   BASE=<git revision> bench/run.sh   (also times csumcheck built from that
#                                       revision in every shape's session: the
#                                       regression check of a change)
#
# 1. checks its tools (hyperfine, GNU time, tshark, tcpdump, cmake, cc,
#    gnuplot, python3) and, as root, installs the missing ones with apt-get;
# 2. builds csumcheck and csc-gen (Release, no plugin) into $BUILD and the
#    floor (bench/floor.c: read() + the Internet checksum of every byte,
#    AVX2 when the CPU has it) into bench/out/;
# 3. generates the traffic shapes below with `csc-gen bench` into bench/out/
#    (gitignored), each with a cut of TOOL_BYTES for tshark and tcpdump, and
#    takes the capture the real kernel made if bench/veth-capture.sh left one
#    (bench/out/veth-vxlan.pcap; as root it is made when missing, VETH=0
#    skips it);
# 4. per shape ONE hyperfine session: the floor, csumcheck (default
#    threads), csumcheck --threads 1, tshark with checksum checks and
#    tcpdump -vv (these two on the cut, scaled by the byte ratio), and with
#    BASE the same csumcheck command built from that revision; and the
#    imix-4k-burst8-mix shape as pcapng (its own session: csumcheck's pcapng
#    reader, libwiretap and the classic pcap of the same frames; PCAPNG=0
#    leaves it out);
# 5. the flow sweep (SWEEP=1): 16 ... 1,000,000 flows interleaved at random,
#    full-size and small frames, floor and csumcheck in one session each,
#    time per frame plotted with gnuplot into docs/img/flows.png;
# 6. peak RSS (GNU time) on every shape and on a 10 GiB stream of 1,000,000
#    flows from standard input;
# 7. the tables into bench/out/results.md and into docs/performance.md
#    (between its "bench:begin" and "bench:end" markers), with the machine,
#    the load and the commands.
#
# On a shared machine the kernel's autogroup scheduler shares the CPUs
# between sessions whatever the nice value inside one. As root the script
# therefore runs in a session of its own whose autogroup weight it raises
# (nice -20 for the group, /proc/self/autogroup), for every command alike.
# PRIORITY=0 turns that off; machine.txt says which, and the load before each
# session.
set -eu
if [ "${PRIORITY:-1}" = 1 ] && [ -z "${BENCH_SESSION:-}" ] && [ "$(id -u)" = 0 ] &&
   [ -w /proc/self/autogroup ] && command -v setsid >/dev/null; then
    BENCH_SESSION=1 exec setsid -w "$0" "$@"
fi
PRIO="none (default scheduling)"
if [ -n "${BENCH_SESSION:-}" ] && echo -20 >/proc/self/autogroup 2>/dev/null; then
    PRIO="own session, autogroup nice -20 ($(cat /proc/self/autogroup))"
fi
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build-bench}
OUT=bench/out
RUNS=${RUNS:-5}
TOOL_BYTES=${TOOL_BYTES:-8M}
STREAM_BYTES=${STREAM_BYTES:-10G}
SMOKE=${SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
    OUT=bench/out-smoke RUNS=2 TOOL_BYTES=2M STREAM_BYTES=64M VETH=0
fi
SWEEP=${SWEEP:-1}
VETH=${VETH:-1}
mkdir -p "$OUT" docs/img

say() { echo "bench: $*" >&2; }

# ---- 1. tools -----------------------------------------------------------
need=""
command -v hyperfine >/dev/null || need="$need hyperfine"
[ -x /usr/bin/time ] || need="$need time"
command -v tshark >/dev/null || need="$need tshark"
command -v tcpdump >/dev/null || need="$need tcpdump"
command -v editcap >/dev/null || need="$need wireshark-common"
command -v cmake >/dev/null || need="$need cmake"
command -v cc >/dev/null || need="$need gcc"
command -v python3 >/dev/null || need="$need python3"
command -v gnuplot >/dev/null || need="$need gnuplot-nox"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing the missing tools:$need (apt-get)"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need >/dev/null
    else
        say "missing tools:$need; install them (Debian: apt-get install$need) and run again"
        exit 2
    fi
fi
say "tools: $(hyperfine --version), $(tshark --version | head -n 1), $(tcpdump --version 2>&1 | head -n 1)"

# ---- 2. build -----------------------------------------------------------
say "building csumcheck and csc-gen in $BUILD (Release)"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCSC_PLUGIN=OFF >"$OUT/cmake.log" 2>&1
cmake --build "$BUILD" -j2 --target csumcheck csc-gen >>"$OUT/cmake.log" 2>&1
CSC="$ROOT/$BUILD/analyzer/csumcheck"
GEN="$ROOT/$BUILD/captures/gen/csc-gen"
cc -O2 -Wall -Wextra -o "$OUT/floor" bench/floor.c
FLOOR="$ROOT/$OUT/floor"
BASE_CSC=""
if [ -n "${BASE:-}" ]; then
    # The baseline is built from git's own copy of that revision, with the
    # same compiler and flags, outside the work tree's build.
    base_rev=$(git rev-parse --verify "$BASE^{commit}")
    BASE_DESC="$(git log -1 --format='%h %s' "$base_rev" | cut -c1-100)"
    say "building the baseline $BASE_DESC"
    rm -rf "$OUT/base-src"
    mkdir -p "$OUT/base-src"
    git archive "$base_rev" | tar -x -C "$OUT/base-src"
    cmake -S "$OUT/base-src" -B "$OUT/base-build" -DCMAKE_BUILD_TYPE=Release -DCSC_PLUGIN=OFF \
        >"$OUT/cmake-base.log" 2>&1
    cmake --build "$OUT/base-build" -j2 --target csumcheck >>"$OUT/cmake-base.log" 2>&1
    BASE_CSC="$ROOT/$OUT/base-build/analyzer/csumcheck"
fi

# ---- 3. captures --------------------------------------------------------
. bench/shapes.sh   # BENCH_SHAPES: name | bytes | csc-gen bench options
SHAPES=$BENCH_SHAPES

gen() {   # gen FILE BYTES OPTIONS...: (re)made when missing or older than csc-gen
    f=$1 b=$2
    shift 2
    [ "$SMOKE" = 1 ] && [ "$b" != "$TOOL_BYTES" ] && b=8M
    if [ ! -s "$f" ] || [ "$GEN" -nt "$f" ]; then
        say "generating $f ($b: $*)"
        "$GEN" bench --bytes "$b" "$@" -o "$f"
    fi
}
echo "$SHAPES" | while IFS='|' read -r name bytes opts; do
    gen "$OUT/$name.pcap" "$bytes" $opts
    gen "$OUT/$name.cut.pcap" "$TOOL_BYTES" $opts
done
if [ "$VETH" = 1 ] && [ ! -s "$OUT/veth-vxlan.pcap" ] && [ "$(id -u)" = 0 ]; then
    say "capturing kernel-made VXLAN traffic (bench/veth-capture.sh)"
    bench/veth-capture.sh "$OUT/veth-vxlan.pcap" >"$OUT/veth.log" 2>&1 ||
        say "veth capture failed (see $OUT/veth.log); going on without it"
fi
if [ -s "$OUT/veth-vxlan.pcap" ]; then
    if [ ! -s "$OUT/veth-vxlan.cut.pcap" ] || [ "$OUT/veth-vxlan.pcap" -nt "$OUT/veth-vxlan.cut.pcap" ]; then
        python3 - "$OUT/veth-vxlan.pcap" "$OUT/veth-vxlan.cut.pcap" "$TOOL_BYTES" <<'EOF'
import sys
src, dst, lim = sys.argv[1], sys.argv[2], sys.argv[3]
mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
lim = int(lim[:-1]) * mult[lim[-1]] if lim[-1] in mult else int(lim)
d = open(src, "rb").read()
off = 24
while off + 16 <= len(d) and off < lim:
    off += 16 + int.from_bytes(d[off + 8:off + 12], "little")
open(dst, "wb").write(d[:min(off, len(d))])
EOF
    fi
    SHAPES="$SHAPES
veth-vxlan|kernel|captured by bench/veth-capture.sh"
fi
echo "$SHAPES" >"$OUT/shapes.txt"

# ---- 4. machine and timings ---------------------------------------------
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|CPU max MHz|L1d|L2|L3|Hypervisor|Flags)' |
        sed 's/  */ /g' | sed 's/^Flags:.*\(avx2\).*/SIMD: avx2 (among others)/'
    echo "kernel: $(uname -r)"
    echo "memory: $(free -m | awk '/^Mem:/ {print $2 " MiB"}')"
    echo "gcc: $(cc --version | head -n 1)"
    echo "libpcap: $(tcpdump --version 2>&1 | grep libpcap)"
    echo "hyperfine: $(hyperfine --version)"
    echo "tshark: $(tshark --version | head -n 1)"
    echo "floor: $("$FLOOR" /dev/null | sed 's/.*(\(.*\))/\1/')"
    echo "scheduling: $PRIO"
    echo "runs: $RUNS per command (1 warm-up); tshark and tcpdump on $TOOL_BYTES cuts"
    echo "csumcheck: $(git log -1 --format='%h %s' HEAD | cut -c1-100)$(git diff --quiet HEAD -- core analyzer || echo ' (+ uncommitted changes)')"
    [ -z "$BASE_CSC" ] || echo "baseline: $BASE_DESC"
} >"$OUT/machine.txt"

tshark_cmd() {
    echo "tshark -n -r $1 -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE -T fields -e ip.checksum.status -e udp.checksum.status -e tcp.checksum.status"
}
: >"$OUT/load.txt"
echo "$SHAPES" | while IFS='|' read -r name bytes opts; do
    big="$ROOT/$OUT/$name.pcap"
    cut="$ROOT/$OUT/$name.cut.pcap"
    cat "$big" "$cut" >/dev/null   # into the page cache
    echo "$name $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"
    say "timing $name ($RUNS runs each)"
    set -- -n floor "$FLOOR $big" -n csumcheck "$CSC -q $big"
    [ -z "$BASE_CSC" ] || set -- "$@" -n "csumcheck (baseline)" "$BASE_CSC -q $big"
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$OUT/$name.json" "$@" \
        -n "csumcheck --threads 1" "$CSC -q --threads 1 $big" \
        -n tshark "$(tshark_cmd "$cut")" \
        -n "tcpdump -vv" "tcpdump -n -vv -r $cut" >"$OUT/$name.hyperfine.txt" 2>&1 ||
        { cat "$OUT/$name.hyperfine.txt" >&2; exit 1; }
    "$CSC" -q --format json "$big" 2>/dev/null | tail -n 1 >"$OUT/$name.summary.json"
done

# ---- 4b. pcapng ---------------------------------------------------------
# imix-4k-burst8-mix as pcapng (editcap -F pcapng: what Wireshark and
# dumpcap write), read by csumcheck's own pcapng reader, by libwiretap
# (CSC_PCAPNG=wiretap) and as the classic pcap of the same frames, beside
# the floor (on the classic pcap: it reads no pcapng), tshark and tcpdump
# (on the pcapng cut) in one session (docs/performance.md, "Reading through
# libwiretap"). PCAPNG=0 leaves it out.
if [ "${PCAPNG:-1}" = 1 ]; then
    src=imix-4k-burst8-mix
    for f in "$src" "$src.cut"; do
        if [ ! -s "$OUT/$f.pcapng" ] || [ "$OUT/$f.pcap" -nt "$OUT/$f.pcapng" ]; then
            say "converting $f to pcapng"
            editcap -F pcapng "$OUT/$f.pcap" "$OUT/$f.pcapng"
        fi
    done
    png="$ROOT/$OUT/$src.pcapng"
    pngcut="$ROOT/$OUT/$src.cut.pcapng"
    cat "$png" "$pngcut" "$ROOT/$OUT/$src.pcap" >/dev/null
    echo "$src.pcapng $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"
    say "timing $src as pcapng ($RUNS runs each)"
    set -- -n floor "$FLOOR $ROOT/$OUT/$src.pcap" -n csumcheck "$CSC -q $png"
    [ -z "$BASE_CSC" ] || set -- "$@" -n "csumcheck (baseline)" "$BASE_CSC -q $png"
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$OUT/$src.pcapng.json" "$@" \
        -n "csumcheck --threads 1" "$CSC -q --threads 1 $png" \
        -n "csumcheck (libwiretap)" "env CSC_PCAPNG=wiretap $CSC -q $png" \
        -n "csumcheck (libwiretap) --threads 1" "env CSC_PCAPNG=wiretap $CSC -q --threads 1 $png" \
        -n "csumcheck (classic pcap)" "$CSC -q $ROOT/$OUT/$src.pcap" \
        -n tshark "$(tshark_cmd "$pngcut")" \
        -n "tcpdump -vv" "tcpdump -n -vv -r $pngcut" >"$OUT/$src.pcapng.hyperfine.txt" 2>&1 ||
        { cat "$OUT/$src.pcapng.hyperfine.txt" >&2; exit 1; }
    echo "$src.pcapng: tshark and tcpdump read a cut of $(stat -c %s "$pngcut") of $(stat -c %s "$png") bytes" \
        >>"$OUT/$src.pcapng.hyperfine.txt"
fi

# ---- 5. the flow sweep --------------------------------------------------
if [ "$SWEEP" = 1 ]; then
    for size in full small; do
        b=512M
        [ $size = small ] && b=128M
        for fl in 16 256 4096 65536 1000000; do
            f="$OUT/sweep-$size-$fl.pcap"
            gen "$f" "$b" --flows $fl --interleave random --size $size $BENCH_BAD
            cat "$f" >/dev/null
            echo "sweep-$size-$fl $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"
            say "sweep: $size frames, $fl flows"
            hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$OUT/sweep-$size-$fl.json" \
                -n floor "$FLOOR $ROOT/$f" \
                -n csumcheck "$CSC -q $ROOT/$f" \
                -n "csumcheck --threads 1" "$CSC -q --threads 1 $ROOT/$f" >/dev/null 2>&1
            "$CSC" -q --format json "$f" 2>/dev/null | tail -n 1 >"$OUT/sweep-$size-$fl.summary.json"
        done
    done
fi

# ---- 6. peak RSS --------------------------------------------------------
rss() { /usr/bin/time -f %M -o "$OUT/rss.tmp" "$@" >/dev/null 2>&1; cat "$OUT/rss.tmp"; }
say "peak RSS on every shape and a $STREAM_BYTES stream of 1,000,000 flows from standard input"
{
    echo "$SHAPES" | while IFS='|' read -r name bytes opts; do
        echo "$name $(rss "$CSC" -q "$OUT/$name.pcap")"
    done
    t0=$(date +%s.%N)
    "$GEN" bench --bytes "$STREAM_BYTES" --flows 1000000 --interleave random --size full $BENCH_BAD -o - |
        /usr/bin/time -f %M -o "$OUT/rss.tmp" "$CSC" -q - >"$OUT/stream.txt" 2>&1
    t1=$(date +%s.%N)
    echo "stream-$STREAM_BYTES $(cat "$OUT/rss.tmp") $(echo "$t1 - $t0" | bc 2>/dev/null || echo ?)"
} >"$OUT/rss.txt"
rm -f "$OUT/rss.tmp"
echo "end $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"

# ---- 7. tables, plot, docs ----------------------------------------------
python3 bench/report.py "$OUT" "$TOOL_BYTES" "$SWEEP" >"$OUT/results.md"
if [ "$SMOKE" = 1 ]; then
    cat "$OUT/results.md"
    exit 0
fi
if [ "$SWEEP" = 1 ]; then
    gnuplot bench/flows.gp && cp "$OUT/flows.png" docs/img/flows.png
fi
python3 bench/report.py --docs "$OUT" docs/performance.md
cat "$OUT/machine.txt"
echo
cat "$OUT/results.md"
