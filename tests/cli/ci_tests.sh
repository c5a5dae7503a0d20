#!/bin/sh
# ci_tests.sh - CI over a user's corpus (issue 26): --baseline PREVIOUS.json
# (what changed per frame since a previous run) and --junit FILE (JUnit XML
# that CI systems read). Same environment and helpers as cli_tests.sh.
#   ci_tests.sh TEST
. "$(dirname "$0")/common.sh"

CAPS=${SRCDIR:?}/captures
XSD=$SRCDIR/docs/schema/junit.xsd
PY=/usr/bin/python3

# The judge: the frames whose outcome differs between two -F json outputs,
# compared member by member in Python (worst, each checksummed layer's
# verdict and reason, the replay's verdict, drop reason and counters):
# "file<TAB>frame" lines, sorted
changed_frames() {
    "$PY" - "$1" "$2" <<'PY'
import json, sys
def load(p):
    out = {}
    for line in open(p):
        r = json.loads(line)
        if r.get("type") != "packet":
            continue
        k = r["kernel"]
        out[(r["file"], r["frame"])] = (
            r["worst"],
            [(l["proto"], l["offset"], l["csum"]["verdict"], l["csum"]["reason"])
             for l in r["layers"] if "csum" in l],
            k["ran"], k["verdict"] if k["ran"] else None,
            (k.get("drop") or {}).get("reason"), k["counters"])
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
for key in sorted(set(a) | set(b)):
    if a.get(key) != b.get(key):
        print(f"{key[0]}\t{key[1]}")
PY
}

t_baseline() {
    run 0 "$C" -F json "$CAPS"
    mv "$W/out" "$W/base.json"
    # the same configuration: nothing changed, exit 0, the counts say so
    for how in "" "--threads 1" "-j 2"; do
        # shellcheck disable=SC2086
        run 0 "$C" -F json $how --baseline "$W/base.json" "$CAPS"
        eq "$how: nothing changed" "$(jq_ -f type=summary -p baseline)" '{"changed":0,"new":0,"gone":0}'
        hasnt "$W/out" '"type":"baseline-change"'
    done
    # one receiver option differs: exactly the frames whose fate changed
    run 0 "$C" -F json --remcsum-rx "$CAPS"
    mv "$W/out" "$W/rx.json"
    changed_frames "$W/base.json" "$W/rx.json" >"$W/judge"
    n=$(lines "$W/judge")
    [ "$n" -gt 0 ] || fail "--remcsum-rx changes no frame: the test proves nothing"
    for how in "" "--threads 1"; do
        # shellcheck disable=SC2086
        run 1 "$C" -F json $how --remcsum-rx --baseline "$W/base.json" "$CAPS"
        jq_ -f type=baseline-change -p file -p frame | sort >"$W/listed"
        sort "$W/judge" >"$W/judge.s"
        cmp -s "$W/judge.s" "$W/listed" || { diff "$W/judge.s" "$W/listed" | head >&2; fail "$how: the frames listed are not the frames that changed"; }
        eq "$how: counts" "$(jq_ -f type=summary -p baseline.changed -p baseline.new -p baseline.gone)" "$n	0	0"
    done
    # --merge adds the counts of --baseline runs
    run 1 "$C" -F json --summary-only --remcsum-rx --baseline "$W/base.json" "$CAPS/demo.pcapng"
    mv "$W/out" "$W/p1.json"
    run 1 "$C" -F json --summary-only --remcsum-rx --baseline "$W/base.json" "$CAPS/seed002-rco.pcap"
    mv "$W/out" "$W/p2.json"
    run 1 "$C" -F json --summary-only --remcsum-rx --baseline "$W/base.json" "$CAPS/demo.pcapng" "$CAPS/seed002-rco.pcap"
    whole=$(jq_ -f type=summary -p baseline)
    run 1 "$C" --merge -F json "$W/p1.json" "$W/p2.json"
    eq "merged baseline counts" "$(jq_ -f type=summary -p baseline)" "$whole"
    # text: a line per changed frame, with both outcomes
    run 1 "$C" --remcsum-rx --baseline "$W/base.json" "$CAPS"
    eq "text lines" "$(grep -c ': changed since the baseline: was worst ' "$W/out")" "$n"
    has "$W/out" "frames since the baseline: $n changed, 0 new, 0 gone ($W/base.json)"
    # frames on one side only: a shorter capture of the same name
    cp "$CAPS/vxlan.pcap" "$W/x.pcap"
    run 0 "$C" -F json "$W/x.pcap"
    mv "$W/out" "$W/xbase.json"
    editcap -r "$CAPS/vxlan.pcap" "$W/x.pcap" 1-3 2>/dev/null || fail "editcap"
    run 1 "$C" -F json --baseline "$W/xbase.json" "$W/x.pcap"
    total=$("$Q" -f type=summary -p frames <"$W/xbase.json")
    eq "gone" "$(jq_ -f type=summary -p baseline.gone)" "$((total - 3))"
    eq "a gone frame" "$(jq_ -f type=baseline-change -f frame=4 -p now)" "null"
    # a baseline that is not one: exit 2 with file and line
    printf '{"type":"packet","file":"a","frame":1}\n' >"$W/hostile-bad.json"
    run 2 "$C" --baseline "$W/hostile-bad.json" "$CAPS/gre.pcap"
    has "$W/err" "--baseline: $W/hostile-bad.json:1: a packet record without worst, layers or kernel"
    "$PY" -c "print('{\"type\":\"packet\",\"x\":' + '[' * 50000 + ']' * 50000 + '}')" >"$W/hostile-deep.json"
    run 2 "$C" --baseline "$W/hostile-deep.json" "$CAPS/gre.pcap"
    has "$W/err" "hostile-deep.json:1: nested too deep"
    run 2 "$C" --baseline "$W/none.json" "$CAPS/gre.pcap"
}

# --junit: valid against docs/schema/junit.xsd (xmllint) and read by a
# JUnit consumer (python3-junitparser): a test case per file, a failure per
# frame with a --fail-on finding (default bad,drop) or a change
t_junit() {
    command -v xmllint >/dev/null || fail "xmllint missing (libxml2-utils)"
    "$PY" -c 'import junitparser' 2>/dev/null || fail "python3-junitparser missing"
    # the XSD refuses what a consumer would not read
    printf '<testsuites><testsuite name="s" tests="1"><testcase classname="c"/></testsuite></testsuites>\n' >"$W/bad.xml"
    xmllint --noout --schema "$XSD" "$W/bad.xml" 2>/dev/null && fail "the XSD takes a test case without a name"
    run 1 "$C" -q --junit "$W/j.xml" --fail-on bad,drop "$CAPS/vxlan.pcap" "$CAPS/gre.pcap" "$CAPS/ip-in-ip.pcap"
    xmllint --noout --schema "$XSD" "$W/j.xml" 2>"$W/xerr" || fail "not valid: $(cat "$W/xerr")"
    run 0 "$C" -F json "$CAPS/vxlan.pcap" "$CAPS/gre.pcap" "$CAPS/ip-in-ip.pcap"
    jq_ -f type=summary -p per_file >/dev/null
    "$PY" - "$W/j.xml" "$W/out" >"$W/cmp" <<'PY' || fail "junitparser: $(cat "$W/cmp")"
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
want = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r["type"] == "packet" and {"bad", "drop"} & set(r["findings"]):
        want.setdefault(r["file"], []).append(r["frame"])
cases = [c for s in xml for c in s]
got = {c.name: [int(f.type.split()[1]) for f in c.result if isinstance(f, Failure)] for c in cases}
print(len(cases), sum(len(v) for v in got.values()))
for name in got:
    if got[name] != want.get(name, []):
        sys.exit(f"{name}: failures for frames {got[name]}, frames with bad/drop {want.get(name)}")
PY
    eq "cases, failures" "$(cat "$W/cmp")" "3 $(jq_ -f type=packet -p findings | grep -cE 'bad|drop')"
    # a change since the baseline fails its frame too; a missing input is an error
    run 0 "$C" -F json "$CAPS/seed002-rco.pcap"
    mv "$W/out" "$W/base.json"
    run 2 "$C" -q --junit "$W/k.xml" --fail-on unverifiable --remcsum-rx --baseline "$W/base.json" "$CAPS/seed002-rco.pcap" "$W/nonexistent.pcap"
    xmllint --noout --schema "$XSD" "$W/k.xml" 2>"$W/xerr" || fail "not valid: $(cat "$W/xerr")"
    "$PY" - "$W/k.xml" >"$W/cmp" <<'PY' || fail "junitparser: $(cat "$W/cmp")"
import sys
from junitparser import JUnitXml, Failure, Error
for c in (c for s in JUnitXml.fromfile(sys.argv[1]) for c in s):
    f = [r for r in c.result if isinstance(r, Failure) and "changed since the baseline" in r.message]
    e = [r for r in c.result if isinstance(r, Error)]
    print(c.name.rsplit("/", 1)[-1], len(f) > 0, len(e))
PY
    eq "junitparser" "$(cat "$W/cmp" | tr '\n' ' ')" "seed002-rco.pcap True 0 nonexistent.pcap False 1 "
}

"t_$(echo "$T" | tr - _)"
