#!/bin/sh
# sweep.sh - the corruption sweep: every capture of captures/ and of the public
# corpus (tests/data/real), mutated with `editcap -E` (random byte errors at several rates,
# fixed seeds) and cut at random offsets, through csumcheck (built with
# ASan+UBSan) and, when a plugin directory is given, through tshark with the
# csumcheck plugin loaded: the full tree (-V, every field the plugin adds
# built and printed) with WIRESHARK_ABORT_ON_DISSECTOR_BUG set, so a
# dissector bug (a field of the wrong type, a tree item past the tvb) aborts
# tshark instead of becoming an expert note. Every run is bounded by a timeout. A run fails on:
# a crash or signal, a hang, any sanitizer report, an exit status other than
# 0/1/2, or an exit status 2 whose stderr does not name the file.
#
#   tests/robustness/sweep.sh -c CSUMCHECK [-p PLUGIN_DIR] [-t STRIDE] [-n MUTATIONS]
#                             [-s SEED] [-j JOBS] [-o WORKDIR]
#     -n  mutations per input capture and per kind (default 30: 30 byte-error
#         files + 30 truncations per input)
#     -p  a build's plugin directory, laid out DIR/<major.minor>/epan/csumcheck.so
#         for the tshark on PATH (4.0, 4.4, ...; tshark runs as uid 65534 with
#         WIRESHARK_PLUGIN_DIR=DIR, see docs/wireshark.md); a plugin built with
#         ASan gets the ASan runtime preloaded into tshark
#     -t  tshark+plugin on every STRIDE-th mutated file (default 1: all)
#     -j  shard the inputs over JOBS parallel workers (default 1)
# Prints one summary line; exits 1 on any failure (the failing inputs are
# kept in WORKDIR/failures).
set -u
csc=""; plugdir=""; n=30; seed=1; work=""; stride=1; jobs=1; shard=""
while getopts c:p:n:s:o:t:j:S: opt; do
    case $opt in
    c) csc=$OPTARG ;; p) plugdir=$OPTARG ;; n) n=$OPTARG ;; s) seed=$OPTARG ;; o) work=$OPTARG ;;
    t) stride=$OPTARG ;; j) jobs=$OPTARG ;; S) shard=$OPTARG ;;
    *) echo "usage: $0 -c CSUMCHECK [-p PLUGIN_DIR] [-t STRIDE] [-n N] [-s SEED] [-j JOBS] [-o WORKDIR]" >&2
       exit 2 ;;
    esac
done
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$csc" ] || { echo "sweep: csumcheck binary missing: '$csc'" >&2; exit 2; }
command -v editcap >/dev/null || { echo "sweep: SKIP: editcap not installed (tshark package)"; exit 77; }
if [ -n "$plugdir" ]; then
    command -v tshark >/dev/null || { echo "sweep: SKIP: tshark not installed"; exit 77; }
    # tshark loads plugins only from the folder named for its own major.minor
    wsver=$(tshark -v 2>/dev/null | sed -n '1s/^TShark (Wireshark) \([0-9]*\.[0-9]*\)\..*/\1/p')
    [ -n "$wsver" ] || { echo "sweep: cannot read tshark's version from 'tshark -v'" >&2; exit 2; }
    so="$plugdir/$wsver/epan/csumcheck.so"
    [ -f "$so" ] || { echo "sweep: no plugin for tshark $wsver at $so" >&2; exit 2; }
    if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
        echo "sweep: SKIP: root without setpriv: tshark would ignore the plugin dir"; exit 77
    fi
    if [ -z "${TSHARK_PRELOAD:-}" ] && ldd "$so" | grep -q libasan; then
        TSHARK_PRELOAD=$(ldd "$so" | awk '/libasan/ { print $3 }')
    fi
fi
[ -n "$work" ] || work=$(mktemp -d /tmp/csc-sweep.XXXXXX)
mkdir -p "$work/mut" "$work/failures"
chmod 755 "$work" "$work/mut"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99

# The plugin must really be loaded: an unmutated capture gives verdicts.
if [ -n "$plugdir" ] && [ -z "$shard" ]; then
    probe=$(ls "$root"/captures/vxlan.pcap)
    got=$(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
          WIRESHARK_PLUGIN_DIR="$plugdir" WIRESHARK_EXTCAP_DIR=/nonexistent \
          ${TSHARK_PRELOAD:+LD_PRELOAD=$TSHARK_PRELOAD} ASAN_OPTIONS=detect_leaks=0 \
          tshark -n -r "$probe" -T fields -e csumcheck.verdict 2>/dev/null | grep -c .)
    [ "${got:-0}" -gt 0 ] || { echo "sweep: tshark did not load the plugin from $plugdir" >&2; exit 2; }
fi

# -j: run JOBS copies of this script on disjoint shards, then add up their
# summary lines.
if [ "$jobs" -gt 1 ] && [ -z "$shard" ]; then
    j=0
    while [ $j -lt "$jobs" ]; do
        mkdir -p "$work/shard$j"
        "$0" -c "$csc" ${plugdir:+-p "$plugdir"} -t "$stride" -n "$n" -s "$seed" -S "$j/$jobs" \
            -o "$work/shard$j" >"$work/shard$j.out" 2>"$work/shard$j.err" &
        j=$((j + 1))
    done
    wait
    cat "$work"/shard*.err >&2
    awk '/^corruption sweep:/ { f += $3; r += $6; e0 += $11; e1 += $13; e2 += $15; t += $16; x += $19 }
         END { printf "corruption sweep: %d mutated files, %d csumcheck runs (exit 0: %d, 1: %d, 2: %d), " \
                      "%d tshark+plugin runs, %d failures\n", f, r, e0, e1, e2, t, x
               exit (x > 0 || NR == 0) }' "$work"/shard*.out
    rc=$?
    [ $rc -eq 0 ] && rm -rf "$work"/shard* || echo "failing inputs kept in $work/shard*/failures" >&2
    exit $rc
fi

inputs=$(ls "$root"/captures/*.pcap "$root"/captures/*.pcapng "$root"/tests/data/real/*.pcap \
         "$root"/tests/data/real/*.pcapng "$root"/tests/data/real/*.cap 2>/dev/null)

files=0 runs=0 fails=0 cli_rc0=0 cli_rc1=0 cli_rc2=0 ts_runs=0 nmut=$((stride - 1))
rates="0.001 0.01 0.05 0.2"

fail() {
    fails=$((fails + 1))
    cp "$1" "$work/failures/" 2>/dev/null
    echo "FAIL: $2: $(basename "$1")" >&2
    [ -f "$work/err" ] && head -5 "$work/err" >&2
}

check_cli() {
    f=$1
    timeout 30 "$csc" -q -F json "$f" >/dev/null 2>"$work/err"
    rc=$?
    runs=$((runs + 1))
    case $rc in
    0) cli_rc0=$((cli_rc0 + 1)) ;;
    1) cli_rc1=$((cli_rc1 + 1)) ;;
    2) cli_rc2=$((cli_rc2 + 1))
       grep -qF "$f" "$work/err" || fail "$f" "exit 2 without naming the file" ;;
    124) fail "$f" "csumcheck hung (timeout)" ;;
    *) fail "$f" "csumcheck exit $rc" ;;
    esac
    if grep -qE "AddressSanitizer|runtime error|LeakSanitizer|UndefinedBehaviorSanitizer" "$work/err"; then
        fail "$f" "sanitizer report"
    fi
}

check_tshark() {
    f=$1
    [ -n "$plugdir" ] || return 0
    nmut=$((nmut + 1))
    [ $((nmut % stride)) -eq 0 ] || return 0
    ts_runs=$((ts_runs + 1))
    timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
        env HOME=/nonexistent WIRESHARK_PLUGIN_DIR="$plugdir" WIRESHARK_EXTCAP_DIR=/nonexistent ${TSHARK_PRELOAD:+LD_PRELOAD=$TSHARK_PRELOAD} \
        ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:exitcode=99 WIRESHARK_ABORT_ON_DISSECTOR_BUG=1 \
        tshark -n -r "$f" -V >/dev/null 2>"$work/err"
    rc=$?
    case $rc in
    0|1|2) ;;          # tshark: 0 ok, 1/2 file errors it reports itself
    124) fail "$f" "tshark+plugin hung (timeout)" ;;
    *) fail "$f" "tshark+plugin exit $rc" ;;
    esac
    if grep -qE "Sanitizer|runtime error|Segmentation|csumcheck.*(assert|abort)|[Dd]issector bug" "$work/err"; then
        fail "$f" "tshark+plugin: crash or sanitizer report"
    fi
}

i=0
for in in $inputs; do
    i=$((i + 1))
    if [ -n "$shard" ]; then
        [ $(( (i - 1) % ${shard#*/} )) -eq "${shard%/*}" ] || continue
    fi
    base=$(basename "$in")
    size=$(stat -c %s "$in")
    k=0
    while [ $k -lt "$n" ]; do
        s=$((seed * 100000 + i * 1000 + k))
        rate=$(echo $rates | cut -d' ' -f$((k % 4 + 1)))
        out="$work/mut/e$k-$base"
        if editcap -E "$rate" --seed "$s" "$in" "$out" >/dev/null 2>&1; then
            chmod 644 "$out"
            files=$((files + 1))
            check_cli "$out"
            check_tshark "$out"
        fi
        rm -f "$out"
        # truncation at a pseudo-random offset (LCG on the seed)
        cut=$(( (s * 1103515245 + 12345) % 2147483648 % (size > 1 ? size : 1) ))
        out="$work/mut/t$k-$base"
        head -c "$cut" "$in" >"$out"
        chmod 644 "$out"
        files=$((files + 1))
        check_cli "$out"
        check_tshark "$out"
        rm -f "$out"
        k=$((k + 1))
    done
done
echo "corruption sweep: $files mutated files, $runs csumcheck runs (exit 0: $cli_rc0, 1: $cli_rc1, 2: $cli_rc2), $ts_runs tshark+plugin runs, $fails failures"
[ "$fails" -eq 0 ] || { echo "failing inputs kept in $work/failures" >&2; exit 1; }
rm -rf "$work/mut"
exit 0
