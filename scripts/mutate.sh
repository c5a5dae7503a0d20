#!/bin/sh
# mutate.sh - mutation testing of the core: one-line mutants of core/ sources
# (operators, conditions, constants), each built and run against the fast
# tests (the unit suite and the golden runs); a mutant is killed when a test
# fails (or the build of the tests does). Prints the score and the survivors.
#
#   scripts/mutate.sh [-u] [-n N] [-s SEED] [-w WORK_DIR] [-t 'CTEST REGEX'] [FILE...]
#
#   -n N       mutants to try (default 100), chosen at random (SEED, default 1)
#              among every site of the files (default: core/*.c, core/proto/*.c,
#              core/replay/*.c: decode, verify, replay, GRO and reassembly)
#   -w DIR     where the copy of the tree and its build go (default
#              /tmp/csumcheck-mutate); the checkout itself is never touched
#   -t REGEX   the tests (default '^unit$|^golden'; ctest -R)
#   -u         unit binary only: build the target csc-unit alone and run the
#              test `unit` (default -t '^unit$'); the same sample, some 10 s a
#              mutant instead of minutes, but a golden-only kill counts as a
#              survivor
#
# Mutation operators, one per mutant, at one place on one line (comments,
# strings and preprocessor lines are left alone):
#   == <-> !=   < -> <=   <= -> <   > -> >=   >= -> >   && <-> ||
#   an integer constant N -> N+1 (0 -> 1)   !x -> x (a negation dropped)
# A mutant that does not compile is said and not counted; nor is one whose
# object code (debug sections stripped) is the original's: equivalent by
# construction, it is not run. The result is one line a mutant in
# WORK_DIR/mutants.tsv (file, line, operator, before, after,
# killed|survived|no-build|same-code, the first failing test) and the score on
# the last line of the output. CPU heavy: ~30-60 s a mutant on 2 CPUs; run
# it with nice and note it in the team's heavy log. docs/testing.md has the
# last score.
set -eu
cd "$(dirname "$0")/.."
N=100 SEED=1 W=/tmp/csumcheck-mutate TESTS='^unit$|^golden' UNIT=
TARGETS='csumcheck csc-unit csc-gen' TSET=
while getopts n:s:w:t:u o; do
    case $o in
        u) UNIT=1 ;;
        n) N=$OPTARG ;;
        s) SEED=$OPTARG ;;
        w) W=$OPTARG ;;
        t) TESTS=$OPTARG TSET=1 ;;
        *) echo "usage: $0 [-u] [-n N] [-s SEED] [-w WORK_DIR] [-t REGEX] [FILE...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ -n "$UNIT" ]; then
    TARGETS=csc-unit
    [ -n "$TSET" ] || TESTS='^unit$'
fi
[ $# -gt 0 ] || set -- core/*.c core/proto/*.c core/replay/*.c

# 1. a copy of the committed tree (and what is uncommitted in core/), built once
rm -rf "$W"
mkdir -p "$W/src"
git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$W/src"
S=$W/src B=$W/build
cmake -S "$S" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$W/cmake.log" 2>&1
cmake --build "$B" -j2 ${UNIT:+--target csc-unit} >"$W/build.log" 2>&1 || { tail -20 "$W/build.log"; exit 1; }
ctest --test-dir "$B" -R "$TESTS" -j2 >"$W/baseline.log" 2>&1 ||
    { tail -20 "$W/baseline.log"; echo "mutate: the tests fail without a mutant" >&2; exit 1; }
echo "mutate: baseline $(grep -c 'Test *#' "$W/baseline.log") tests pass ($TESTS)"

# the object code of each file as built, debug sections stripped: a mutant
# that compiles to the same code is equivalent by construction (an #if
# branch not compiled, a sizeof that does not change, a truth value stored
# as 2, a store the optimiser drops) and is not run
objects_of() {   # the objects built from source $1 (core/x/y.c: */CMakeFiles/*.dir/x/y.c.o)
    find "$B" -path "*/CMakeFiles/*.dir/${1#*/}.o" | sort
}
code_of() {      # the stripped code of source $1's objects, one after the other
    for o in $(objects_of "$1"); do
        strip -g -o "$W/code.o" "$o" && cat "$W/code.o"
    done
}
mkdir -p "$W/code"
for f in "$@"; do
    code_of "$f" >"$W/code/$(echo "$f" | tr / _)"
done

# 2. the mutants: every site, N of them at random, read from the copy (the
#    checkout may change while the mutants build)
(cd "$S" && python3 - "$SEED" "$N" "$@") >"$W/sites.tsv" <<'PY'
import random, re, sys
seed, n, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
ops = [  # (name, pattern, replacement function)
    ("eq", re.compile(r"(?<![=!<>])==(?!=)"), lambda m: "!="),
    ("ne", re.compile(r"!=(?!=)"), lambda m: "=="),
    ("le", re.compile(r"(?<![<-])<=(?!=)"), lambda m: "<"),
    ("ge", re.compile(r"(?<![>-])>=(?!=)"), lambda m: ">"),
    ("lt", re.compile(r"(?<![<-])<(?![<=])"), lambda m: "<="),
    ("gt", re.compile(r"(?<![>-])>(?![>=])"), lambda m: ">="),
    ("and", re.compile(r"&&"), lambda m: "||"),
    ("or", re.compile(r"\|\|"), lambda m: "&&"),
    ("const", re.compile(r"(?<![\w.])(\d+)(?![\w.])"), lambda m: str(int(m.group(1)) + 1)),
    ("not", re.compile(r"!(?=[\w(])"), lambda m: ""),
]
def code_spans(line, state):
    """Spans of line outside comments and string/char literals; state: in a block comment."""
    spans, i, start = [], 0, None
    incom = state[0]
    if not incom:
        start = 0
    while i < len(line):
        if incom:
            j = line.find("*/", i)
            if j < 0:
                return spans, True
            incom, i, start = False, j + 2, j + 2
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            spans.append((start, i)); incom = True; i += 2; continue
        if c in "\"'":
            spans.append((start, i))
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            i = j + 1; start = i; continue
        i += 1
    if not incom:
        spans.append((start, len(line)))
    return spans, incom
sites = []
for f in files:
    state = [False]
    for ln, line in enumerate(open(f, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        spans, state[0] = code_spans(line, state)
        if line.lstrip().startswith("#") or "[" in line and "]" in line and "=" in line and "{" in line:
            continue   # preprocessor lines, table initialisers
        for a, b in spans:
            seg = line[a:b]
            for name, rx, rep in ops:
                for m in rx.finditer(seg):
                    if name in ("lt", "gt") and ("#include" in line or "->" in seg[max(0, m.start() - 1):m.end() + 1]):
                        continue
                    sites.append((f, ln, a + m.start(), a + m.end(), name, m.group(0), rep(m)))
random.Random(seed).shuffle(sites)
print(f"# {len(sites)} sites in {len(files)} files", file=sys.stderr)
for s in sites[:n]:
    print("\t".join(map(str, s)))
PY
echo "mutate: $(wc -l <"$W/sites.tsv") mutants over $# files (seed $SEED)"

# 3. each mutant: patch the copy, build, run the tests (first failure stops them), restore
printf 'file\tline\top\tbefore\tafter\tresult\tfirst_failure\n' >"$W/mutants.tsv"
killed=0 survived=0 nobuild=0 same=0 i=0
while IFS="$(printf '\t')" read -r f ln a b op before after; do
    i=$((i + 1))
    cp "$S/$f" "$W/orig.c"
    python3 -c '
import sys
p, ln, a, b, after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
L = open(p).read().split("\n")
L[ln - 1] = L[ln - 1][:a] + after + L[ln - 1][b:]
open(p, "w").write("\n".join(L))' "$S/$f" "$ln" "$a" "$b" "$after"
    result=survived first=
    if ! cmake --build "$B" -j2 --target $TARGETS >"$W/m.log" 2>&1; then
        result=no-build
    elif code_of "$f" | cmp -s - "$W/code/$(echo "$f" | tr / _)"; then
        result=same-code
    elif ! ctest --test-dir "$B" -R "$TESTS" -j2 --stop-on-failure --timeout 120 >"$W/t.log" 2>&1; then
        result=killed
        first=$(sed -n 's/.*Test *#[0-9]*: \([^ ]*\) .*\*\*\*.*/\1/p' "$W/t.log" | head -n 1)
    fi
    cp "$W/orig.c" "$S/$f"
    touch "$S/$f"
    case $result in
        killed) killed=$((killed + 1)) ;;
        survived) survived=$((survived + 1)) ;;
        same-code) same=$((same + 1)) ;;
        *) nobuild=$((nobuild + 1)) ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$ln" "$op" "$before" "$after" "$result" "${first:--}" >>"$W/mutants.tsv"
    echo "mutate: $i $f:$ln $op '$before' -> '$after': $result${first:+ ($first)}"
done <"$W/sites.tsv"
cmake --build "$B" -j2 --target $TARGETS >/dev/null 2>&1 || true
echo "mutate: survivors:"
awk -F'\t' '$6 == "survived" { printf "  %s:%s %s %s -> %s\n", $1, $2, $3, $4, $5 }' "$W/mutants.tsv"
total=$((killed + survived))
echo "mutate: $killed of $total mutants killed ($(awk -v k=$killed -v t=$total 'BEGIN { printf "%.1f", t ? 100 * k / t : 0 }')%), $nobuild did not build, $same compiled to the same code; $W/mutants.tsv"
