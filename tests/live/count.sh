#!/bin/sh
# count.sh - `--live -c N` and the capture filter (issue 26: --live wrote
# every frame into the kernel when the user asked for five): -c 5 replays
# exactly five frames, the inputs read one after the other; a filter passes
# the frames it matches, with their numbers in the file, the same frames as
# csumcheck without --live; -c with a filter takes the first N it passes;
# the options --live does not honour are refused (exit 2). The model-only
# runs (--era A,B) go through the same reading and need no root; the
# --live runs are skipped without root (what --live needs is checked by
# csumcheck itself: exit 77 with its reason).
# With --kernel K (live-count-vm) the --live runs go to that VM kernel:
# its two passes over the inputs (the job, then the judging) must take the
# same frames.
#   count.sh CSUMCHECK CAPTURES_DIR [--kernel K]
set -u
CSC=$1 CAP=$2
VM=
[ "${3:-}" = --kernel ] && VM="--live --kernel $4"
fail=0
say() { echo "$*"; }
bad() { echo "FAIL: $*"; fail=1; }

# the frame numbers of the packet records of a JSON run, and the summary's "frames"
frames() { grep -o '"type":"packet","file":"[^"]*","frame":[0-9]*' | sed 's/.*"frame"://' | tr '\n' ' '; }
total() { tail -n 1 | grep -o '"frames":[0-9]*' | head -n 1 | sed 's/.*://'; }

check() {   # check LABEL WANT_FRAMES WANT_TOTAL -- ARGS...: a run's frames and its summary's total
    label=$1 want=$2 wtot=$3
    shift 4
    out=$("$CSC" -F json "$@" 2>/dev/null)
    rc=$?
    if [ $rc = 77 ]; then
        say "$label: skipped ($("$CSC" "$@" 2>&1 >/dev/null | tail -n 1))"
        return
    fi
    got=$(echo "$out" | frames) tot=$(echo "$out" | total)
    if [ "$got" = "$want" ] && [ "$tot" = "$wtot" ] && [ $rc -le 1 ]; then
        say "$label: frames $got(summary: $tot frames)"
    else
        bad "$label: exit $rc, frames [$got] (want [$want]), summary $tot frames (want $wtot)"
    fi
}

DEMO=$CAP/demo.pcapng VX=$CAP/vxlan.pcap
# what csumcheck reads without --live, the reference for the filter
ref=$("$CSC" -F json "$DEMO" 'udp port 4789' | frames)
ref2=$("$CSC" -F json -c 2 "$DEMO" 'udp port 4789' | frames)
[ -n "$ref" ] || bad "no frame of demo.pcapng passes 'udp port 4789' without --live"
nref=$(echo "$ref" | wc -w)

if [ -n "$VM" ]; then
    # shellcheck disable=SC2086
    check "$VM -c 3, two inputs" "1 2 3 " 3 -- $VM -c 3 "$DEMO" "$VX"
    # shellcheck disable=SC2086
    check "$VM -c 2 -f 'udp port 4789'" "$ref2" 2 -- $VM -c 2 -f "udp port 4789" "$DEMO"
    exit $fail
fi
for mode in "--era 6.1,6.12" "--live"; do
    # shellcheck disable=SC2086
    check "$mode -c 5" "1 2 3 4 5 " 5 -- $mode -c 5 "$DEMO"
    # shellcheck disable=SC2086
    check "$mode -c 3, two inputs" "1 2 3 " 3 -- $mode -c 3 "$DEMO" "$VX"
    nvx=$("$CSC" -F json "$VX" | frames | wc -w)
    first=$(seq 1 "$nvx" | tr '\n' ' ')
    # shellcheck disable=SC2086
    check "$mode -c $((nvx + 2)), two inputs" "${first}1 2 " $((nvx + 2)) -- $mode -c $((nvx + 2)) "$VX" "$DEMO"
    # shellcheck disable=SC2086
    check "$mode 'udp port 4789'" "$ref" "$nref" -- $mode "$DEMO" udp port 4789
    # shellcheck disable=SC2086
    check "$mode -c 2 -f 'udp port 4789'" "$ref2" 2 -- $mode -c 2 -f "udp port 4789" "$DEMO"
done

# what --live does not honour: refused at the start, nothing replayed
for opt in "-w /dev/null" "--junit /dev/null" "--flows"; do
    # shellcheck disable=SC2086
    out=$("$CSC" --live $opt "$DEMO" 2>&1)
    rc=$?
    if [ $rc = 2 ] && echo "$out" | grep -q "does not take"; then
        say "--live $opt: refused ($out)"
    else
        bad "--live $opt: exit $rc, output: $out"
    fi
done
exit $fail
