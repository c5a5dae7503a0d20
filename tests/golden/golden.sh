#!/bin/sh
# golden.sh - csumcheck's JSON Lines output on the committed captures against
# the expected files next to them.
#
#   golden.sh [--write] CSUMCHECK CAPTURES_DIR [CAPTURE...]
#
# Every line of CAPTURES_DIR/expected/runs.tsv (capture, tag, options) is
# one run: `csumcheck --format json OPTIONS CAPTURES_DIR/CAPTURE`, with the
# directory stripped from "file" so the output does not depend on where the
# tree is, compared with CAPTURES_DIR/expected/CAPTURE.TAG.jsonl; a
# mismatch prints the unified diff. With CAPTURE arguments only their runs.
# --write rewrites the expected files instead (scripts/regen-captures.sh).
# Exit 0 all equal, 1 a difference or a missing file, 2 usage.
set -u
write=0
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
[ $# -ge 2 ] || { echo "usage: golden.sh [--write] CSUMCHECK CAPTURES_DIR [CAPTURE...]" >&2; exit 2; }
CSC=$1
CAPS=$2
shift 2
RUNS="$CAPS/expected/runs.tsv"
[ -f "$RUNS" ] || { echo "FAIL: $RUNS missing"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

wanted() {    # wanted CAPTURE [SELECTED...]: no selection means all
    c=$1; shift
    [ $# -eq 0 ] && return 0
    for w in "$@"; do [ "$w" = "$c" ] && return 0; done
    return 1
}

pass=0 fail=0
TAB=$(printf '\t')
while IFS="$TAB" read -r cap tag opts; do
    case "$cap" in ''|'#'*) continue ;; esac
    wanted "$cap" "$@" || continue
    exp="$CAPS/expected/$cap.$tag.jsonl"
    # shellcheck disable=SC2086
    "$CSC" --format json ${opts:-} "$CAPS/$cap" 2>"$TMP/err" |
        sed 's|"file":"[^"]*/\([^"/]*\)"|"file":"\1"|g' >"$TMP/out"
    rc=$?
    if [ ! -s "$TMP/out" ]; then
        echo "FAIL: $cap [$tag]: csumcheck printed nothing (status $rc):"; cat "$TMP/err"
        fail=$((fail + 1)); continue
    fi
    if [ $write = 1 ]; then
        cp "$TMP/out" "$exp"; pass=$((pass + 1)); continue
    fi
    if [ ! -f "$exp" ]; then
        echo "FAIL: $cap [$tag]: $exp missing (scripts/regen-captures.sh writes it)"
        fail=$((fail + 1)); continue
    fi
    if diff -u "$exp" "$TMP/out" >"$TMP/diff"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $cap [$tag] (csumcheck --format json $opts) differs from $exp:"
        head -c 20000 "$TMP/diff"; echo
        fail=$((fail + 1))
    fi
done <"$RUNS"
if [ $((pass + fail)) = 0 ]; then
    echo "FAIL: no run in $RUNS for: $*"; exit 1
fi
[ $write = 1 ] && { echo "golden: wrote $pass expected files"; [ $fail = 0 ]; exit $?; }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
