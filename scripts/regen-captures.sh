#!/bin/sh
# regen-captures.sh - regenerate the committed capture corpus and everything
# derived from it, then show what changed:
#   1. captures/*.pcap, *.pcapng    csc-gen corpus (the case table, captures/gen/cases.c)
#   2. captures/expected/*.jsonl    csumcheck --format json for every run in
#                                   captures/expected/runs.tsv (tests/golden/golden.sh --write)
#   3. captures/CASES.md            csc-gen cases --markdown
#   4. captures/README.md           the generated tables (files, verdict/protocol coverage)
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

echo "--- regen-captures: changes against the last commit"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git status --short -- captures
    git --no-pager diff --stat -- captures
    git --no-pager diff -- captures/expected captures/README.md captures/CASES.md | head -n 600
else
    echo "(not a git checkout: no diff)"
fi
echo "--- regen-captures: $(ls captures/*.pcap captures/*.pcapng | wc -l) captures, $(du -ch captures/*.pcap captures/*.pcapng | tail -1 | cut -f1) of captures, $(du -sh captures/expected | cut -f1) of expected outputs"
