#!/bin/sh
# coverage.sh - every verdict of the vocabulary and every protocol the
# decoder knows (csc_verdict_name in core/names.c, the rows of
# core/proto/protos.c) appears
# in the committed captures' reference outputs; the demo capture alone shows
# every verdict and a kernel drop; the README's generated table says where.
#
#   coverage.sh CAPTURES_DIR NAMES_C            check (test)
#   coverage.sh --markdown CAPTURES_DIR NAMES_C print the README table
set -u
md=0
if [ "${1:-}" = "--markdown" ]; then md=1; shift; fi
CAPS=$1
NAMES=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# vocabulary straight from the core's name tables
table() {
    sed -n "/^const char \*$1(/,/^}/p" "$NAMES" | grep -o '\] = "[^"]*"' | sed 's/.*= "//; s/"$//'
}
table csc_verdict_name | grep -v '^n/a$' >"$TMP/verdicts"
# protocol names: the rows of the protocol table next to names.c; sit names
# a device kind only (IPv6 in IPv4), never a decoded layer
grep -o '\.name = "[^"]*"' "$(dirname "$NAMES")/proto/protos.c" | sed 's/.*= "//; s/"$//' |
    grep -v '^none$' | grep -v '^sit$' >"$TMP/protos"
[ -s "$TMP/verdicts" ] && [ -s "$TMP/protos" ] || { echo "FAIL: cannot read the name tables in $NAMES"; exit 1; }

# where: "kind<TAB>name<TAB>file<TAB>frame" for every layer of every reference run
# in the order of expected/runs.tsv: demo first, then the themes, then the seeds
for b in $(grep -v '^#' "$CAPS/expected/runs.tsv" | cut -f1 | awk 'NF && !seen[$0]++'); do
    f="$CAPS/expected/$b.default.jsonl"
    [ -f "$f" ] || { echo "FAIL: $f missing" >&2; continue; }
    awk -v file="$b" '/"type":"packet"/ {
        fr = $0; sub(/.*"frame":/, "", fr); sub(/[^0-9].*/, "", fr)
        s = $0; sub(/"kernel":\{"rx".*/, "", s)
        while (match(s, /"(proto|verdict)":"[^"]*"/)) {
            tok = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH); split(tok, kv, "\"")
            print kv[2] "\t" kv[4] "\t" file "\t" fr
        }
        if ($0 ~ /"ran":true,"verdict":"drop"/) print "kernel\tdrop\t" file "\t" fr
    }' "$f"
done >"$TMP/where"

# "file:first-frame (+n more frames)" per file, files in corpus order
places() {
    awk -F'\t' -v k="$1" -v n="$2" '$1 == k && $2 == n {
        key = $3; if (!(key in first)) { first[key] = $4; order[++m] = key } else if ($4 != last[key]) more[key]++
        last[key] = $4 }
    END {
        # in runs.tsv order (demo.pcapng, the themes, the seeds), at most 6 listed
        shown = 0
        for (i = 1; i <= m && shown < 6; i++) {
            f = order[i]; shown++
            printf "%s%s:%s%s", (shown > 1 ? ", " : ""), f, first[f], (more[f] ? " (+" more[f] ")" : "")
        }
        if (m > shown) printf " and %d more files", m - shown
    }' "$TMP/where"
}

if [ $md = 1 ]; then
    echo "| verdict | where (file:first frame, +more frames) |"
    echo "|---|---|"
    while read -r v; do echo "| $v | $(places verdict "$v") |"; done <"$TMP/verdicts"
    echo "| kernel drop | $(places kernel drop) |"
    echo
    echo "| protocol (decoder) | where (file:first frame, +more frames) |"
    echo "|---|---|"
    while read -r p; do echo "| $p | $(places proto "$p") |"; done <"$TMP/protos"
    exit 0
fi

status=0 n=0
while read -r v; do
    n=$((n + 1))
    [ -n "$(places verdict "$v")" ] || { echo "FAIL: no capture shows the verdict $v"; status=1; }
    awk -F'\t' -v v="$v" '$1 == "verdict" && $2 == v && $3 == "demo.pcapng" { f = 1 } END { exit !f }' "$TMP/where" ||
        { echo "FAIL: demo.pcapng does not show the verdict $v"; status=1; }
done <"$TMP/verdicts"
while read -r p; do
    n=$((n + 1))
    [ -n "$(places proto "$p")" ] || { echo "FAIL: no capture has a $p layer"; status=1; }
done <"$TMP/protos"
[ -n "$(awk -F'\t' '$1 == "kernel" && $3 == "demo.pcapng"' "$TMP/where")" ] || { echo "FAIL: no kernel drop in demo.pcapng"; status=1; }
tunnels=$(awk -F'\t' '$1 == "proto" && $3 == "demo.pcapng" && $2 ~ /^(gre|vxlan|vxlan-gpe|geneve|gue|l2tp|ipv4|ipv6)$/ { print $2 }' "$TMP/where" | sort -u | wc -l)
[ "$tunnels" -ge 6 ] || { echo "FAIL: demo.pcapng shows only $tunnels tunnel kinds"; status=1; }
frames=$(grep -c '"type":"packet"' "$CAPS/expected/demo.pcapng.default.jsonl")
[ "$frames" -le 48 ] || { echo "FAIL: demo.pcapng has $frames frames: a few dozen at most"; status=1; }

# the README table is the one this script prints
"$0" --markdown "$CAPS" "$NAMES" >"$TMP/table.md"
awk '/<!-- coverage:begin -->/ { on = 1; next } /<!-- coverage:end -->/ { on = 0 } on' "$CAPS/README.md" >"$TMP/readme.md"
if ! diff -u "$TMP/readme.md" "$TMP/table.md" >"$TMP/diff"; then
    echo "FAIL: the coverage table in captures/README.md is stale (scripts/regen-captures.sh rewrites it):"
    cat "$TMP/diff"; status=1
fi
echo "coverage: $n verdicts and protocols, demo.pcapng: $frames frames"
[ $status = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $status
