#!/bin/sh
# regen-captures.sh - regenerate the committed capture corpus and everything
# derived from it, then show what changed:
#   1. captures/*.pcap, *.pcapng    csc-gen corpus (the case table, captures/gen/cases.c)
#   2. captures/expected/*.jsonl    csumcheck --format json for every run in
#                                   captures/expected/runs.tsv (tests/golden/golden.sh --write);
#      captures/expected/stops.tsv  the decoder stops seen (tests/golden/stops.py --write);
#      captures/expected/stops-real.tsv  the same over the public corpus (tests/data/real)
#   3. captures/CASES.md            csc-gen cases --markdown
#   4. captures/README.md           the generated tables (files, verdict/protocol coverage)
#   5. tests/data/real/gen__*       csc-gen real corpus: the stand-ins for public captures
#                                   the repository may not carry (captures/gen/real.c), their
#                                   tshark reference (*.tshark.tsv) and MANIFEST.tsv rows
# Deterministic: running it twice changes nothing. After a deliberate change
# (generator, core or CLI), run it, review the diff it prints, commit.
#
#   scripts/regen-captures.sh [BUILD_DIR]        (default: build)
set -eu
cd "$(dirname "$0")/.."
B=${1:-build}
if [ ! -f "$B/CMakeCache.txt" ]; then
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$B" -j2 --target csc-gen csumcheck >/dev/null
GEN="$B/captures/gen/csc-gen"
CSC="$B/analyzer/csumcheck"

# 1. captures; remove captures the case table no longer has
"$GEN" corpus -o captures
"$GEN" list | cut -f1 >"${TMPDIR:-/tmp}/csc-regen.$$"
for f in captures/*.pcap captures/*.pcapng; do
    [ -e "$f" ] || continue
    grep -qx "$(basename "$f")" "${TMPDIR:-/tmp}/csc-regen.$$" || { echo "removing $f (not in the case table)"; rm -f "$f"; }
done
rm -f "${TMPDIR:-/tmp}/csc-regen.$$"

# 2. expected outputs; remove those runs.tsv no longer lists
tests/golden/golden.sh --write "$CSC" "$PWD/captures"
for f in captures/expected/*.jsonl; do
    [ -e "$f" ] || continue
    b=$(basename "$f" .jsonl)
    grep -v '^#' captures/expected/runs.tsv | awk -F'\t' -v b="$b" '$1 "." $2 == b { found = 1 } END { exit !found }' ||
        { echo "removing $f (not in runs.tsv)"; rm -f "$f"; }
done

# 2b. the decoder stops seen over the captures and the generated frames of tests/golden/stops.py
python3 tests/golden/stops.py --write "$CSC" "$GEN" "$PWD/captures" "$PWD/tests/data/real" >/dev/null

# 3. the case list
"$GEN" cases --markdown >captures/CASES.md

# 4. README tables between their markers
replace() {   # replace MARKER FILE_WITH_CONTENT
    awk -v m="$1" -v content="$2" '
        $0 == "<!-- " m ":begin -->" { print; while ((getline l < content) > 0) print l; skip = 1; next }
        $0 == "<!-- " m ":end -->" { skip = 0 }
        !skip' captures/README.md >captures/README.md.new && mv captures/README.md.new captures/README.md
}
T=${TMPDIR:-/tmp}/csc-regen-table.$$
{ echo "| file | frames | what it exercises |"; echo "|---|---|---|"; "$GEN" list --markdown; } >"$T"
replace files "$T"
tests/golden/coverage.sh --markdown captures core/names.c >"$T"
replace coverage "$T"
rm -f "$T"

# 5. the stand-ins in the public corpus: capture, tshark reference (the
#    command tests/data/real/README.md gives), sha256 and size in MANIFEST.tsv
R=tests/data/real
"$GEN" real corpus -o "$R"
for f in $("$GEN" real list | cut -f1); do
    # the Decode-As the file needs (MANIFEST.tsv's tshark_args column)
    case $f in
    gen__l2tp-ip-ping.pcap) set -- -o l2tp.cookie_size:None -o "l2tp.l2_specific:Default L2-Specific" \
                                   -d l2tp.pw_type==0,eth ;;
    *) set -- ;;
    esac
    tshark -n -r "$R/$f" "$@" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
        -o udplite.check_checksum:TRUE -T fields -E header=y -E separator=/t -E occurrence=a -E aggregator=, \
        -E quote=n -e frame.number -e frame.len -e frame.cap_len -e frame.protocols -e ip.checksum \
        -e ip.checksum.status -e udp.checksum -e udp.checksum.status -e tcp.checksum -e tcp.checksum.status \
        -e icmp.checksum -e icmp.checksum.status -e icmpv6.checksum -e icmpv6.checksum.status -e gre.checksum \
        -e gre.checksum.status -e igmp.checksum.status -e pim.cksum.status >"$R/$f.tshark.tsv" 2>/dev/null
    sum=$(sha256sum <"$R/$f" | cut -d' ' -f1)
    awk -F'\t' -v OFS='\t' -v f="$f" -v s="$sum" -v b="$(wc -c <"$R/$f" | tr -d ' ')" \
        '$1 == f { $6 = s; $7 = b } { print }' "$R/MANIFEST.tsv" >"$R/MANIFEST.tsv.new" &&
        mv "$R/MANIFEST.tsv.new" "$R/MANIFEST.tsv"
done

echo "--- regen-captures: changes against the last commit"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git status --short -- captures "$R"
    git --no-pager diff --stat -- captures "$R"
    git --no-pager diff -- captures/expected captures/README.md captures/CASES.md | head -n 600
else
    echo "(not a git checkout: no diff)"
fi
echo "--- regen-captures: $(ls captures/*.pcap captures/*.pcapng | wc -l) captures, $(du -ch captures/*.pcap captures/*.pcapng | tail -1 | cut -f1) of captures, $(du -sh captures/expected | cut -f1) of expected outputs"
