#!/bin/sh
# seeds.sh SEEDER CHECKER DIR CAPTURE... -- REGRESSION...: the fuzz seed
# corpus csc-fuzz-seed writes from the captures (the first 50 frames of each,
# with the 8 header bytes fuzz-frame reads), and the committed regression
# inputs, through csc-fastpath-check -f.
set -eu
seeder=$1 checker=$2 dir=$3
shift 3
caps=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    caps="$caps $1"
    shift
done
[ $# -gt 0 ] && shift
rm -rf "$dir"
mkdir -p "$dir"
# shellcheck disable=SC2086
"$seeder" "$dir" $caps >/dev/null
n=$(ls "$dir" | wc -l)
[ "$n" -gt 1000 ] || { echo "seeds.sh: only $n seeds written" >&2; exit 1; }
# shellcheck disable=SC2086
find "$dir" -type f | sort | xargs "$checker" -f "$@"
