#!/bin/sh
# manifest.sh - the public corpus in the repository is what its MANIFEST.tsv
# says: every row's file is there with that sha256 and size and a tshark
# reference beside it; every capture in the folder has a row; every origin's
# licence allows redistribution and its licence text is in LICENSES_DIR.
#
#   manifest.sh CORPUS_DIR LICENSES_DIR
set -u
R=$1
L=$2
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
[ -f "$R/MANIFEST.tsv" ] || { echo "FAIL: $R/MANIFEST.tsv missing"; exit 1; }
TAB=$(printf '\t')
rows=0
# file origin_repo origin_path origin_commit license sha256 bytes ...
while IFS="$TAB" read -r file repo path commit lic sum bytes rest; do
    [ "$file" = file ] && continue
    rows=$((rows + 1))
    [ -f "$R/$file" ] || { bad "$file: in MANIFEST.tsv, not in $R"; continue; }
    got=$(sha256sum <"$R/$file" | cut -d' ' -f1)
    [ "$got" = "$sum" ] || bad "$file: sha256 $got, MANIFEST.tsv says $sum"
    size=$(wc -c <"$R/$file" | tr -d ' ')
    [ "$size" = "$bytes" ] || bad "$file: $size bytes, MANIFEST.tsv says $bytes"
    [ -s "$R/$file.tshark.tsv" ] || bad "$file: no tshark reference $file.tshark.tsv"
    case $lic in
    BSD-3-Clause | MIT | Unlicense | LGPL-3.0 | GPL-3.0 | Apache-2.0)
        # the licence file is named after the repository (owner/NAME)
        [ -f "$L/${repo#*/}.txt" ] || bad "$file: no licence text $L/${repo#*/}.txt for $repo"
        grep -q "$commit" "$L/${repo#*/}.txt" 2>/dev/null || bad "$file: $L/${repo#*/}.txt does not name commit $commit"
        ;;
    csumcheck)
        case $file in gen__*) ;; *) bad "$file: licence 'csumcheck' but not a generated stand-in (gen__*)" ;; esac ;;
    *) bad "$file: licence '$lic' is not one the repository may carry" ;;
    esac
done <"$R/MANIFEST.tsv"
n=0
for f in "$R"/*; do
    case $f in *.tsv | *.md) continue ;; esac
    n=$((n + 1))
    cut -f1 "$R/MANIFEST.tsv" | grep -qxF "$(basename "$f")" || bad "$(basename "$f"): not in MANIFEST.tsv"
done
echo "corpus-manifest: $rows rows, $n captures in $R, $fail problems"
[ "$rows" = "$n" ] || bad "$rows MANIFEST.tsv rows but $n captures"
[ $fail = 0 ]
