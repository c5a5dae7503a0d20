#!/usr/bin/env python3
"""Check docs/kernel-branches.md, the branch inventory of the receive path.

Every row of its tables names one kernel branch, the model rule that covers
it and the live cases of the kernel differential (csc-kdiff --list) that
exercise it, or the fixed fuzz cases of tests/kernel/kfuzz-cases.txt that do
(`kf: RECIPE`, the recipe as written there). This test fails when
  - a model reference `path:function` names a file that is not in the tree
    or a function that is not defined in it,
  - a case label is not in csc-kdiff's case list, or a `kf:` recipe not in
    kfuzz-cases.txt,
  - a row id is repeated or a row has no status,
  - the modelled share falls below the doc's floor ("Floor: N%").
It prints the counts: modelled, not modelled, outside the model's inputs
(n/a), modelled with a case. No kernel source is needed.

usage: branches_check.py --doc DOC --root REPO --kdiff CSC_KDIFF [--kfcases FILE]
"""
import argparse
import os
import re
import subprocess
import sys

ROW_ID = re.compile(r"^[a-z][a-z0-9]*-[0-9]+[a-z]?$")
REF = re.compile(r"^((?:core|live|analyzer)/[A-Za-z0-9_/.-]+\.[ch]):([A-Za-z_][A-Za-z0-9_]*)$")
TICKS = re.compile(r"`([^`]+)`")
FLOOR = re.compile(r"^Floor: ([0-9]+(?:\.[0-9]+)?)%", re.M)


def split_row(line):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return cells


def defined(root, path, fn, cache):
    full = os.path.join(root, path)
    if full not in cache:
        try:
            with open(full, encoding="utf-8") as f:
                cache[full] = f.read()
        except OSError:
            cache[full] = None
    text = cache[full]
    if text is None:
        return "no file " + path
    # a definition: the name at the start of a declarator, then '(' ... '{'
    pat = re.compile(r"^[A-Za-z_][^;{}()\n]*\b" + re.escape(fn) + r"\s*\([^;]*?\)\s*\{", re.M | re.S)
    if not pat.search(text):
        return "no function %s in %s" % (fn, path)
    return None


def case_labels(kdiff):
    out = subprocess.run([kdiff, "--list"], check=True, capture_output=True, text=True).stdout
    labels = set()
    for line in out.splitlines():
        m = re.match(r"^\[\s*[0-9]+\]\s+(.*)$", line)
        if m:
            labels.add(m.group(1).strip())
    return labels


def kf_recipes(path):
    """The recipes of kfuzz-cases.txt, as kfuzz_cases.c reads them: a
    comment from '#', blanks around the words"""
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = " ".join(line.split("#", 1)[0].split())
            if text:
                out.add(text)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--kdiff", required=True)
    ap.add_argument("--kfcases", default=None)
    a = ap.parse_args()

    with open(a.doc, encoding="utf-8") as f:
        doc = f.read()
    labels = case_labels(a.kdiff)
    kfpath = a.kfcases or os.path.join(a.root, "tests", "kernel", "kfuzz-cases.txt")
    recipes = kf_recipes(kfpath) if os.path.exists(kfpath) else set()
    if len(labels) < 100:
        print("FAIL: csc-kdiff --list gave %d cases" % len(labels))
        return 1

    errors, ids, cache = [], set(), {}
    n = {"modelled": 0, "not": 0, "na": 0, "cased": 0, "kf": 0}
    for lineno, line in enumerate(doc.splitlines(), 1):
        if not line.startswith("|"):
            continue
        cells = split_row(line)
        if not cells or not ROW_ID.match(cells[0]):
            continue
        where = "%s:%d %s" % (os.path.basename(a.doc), lineno, cells[0])
        if len(cells) != 5:
            errors.append("%s: %d cells, want 5 (id | branch | effect | model | case)" % (where, len(cells)))
            continue
        rid, _branch, _effect, model, case = cells
        if rid in ids:
            errors.append("%s: id repeated" % where)
        ids.add(rid)
        low = model.lower()
        if low.startswith("not modelled"):
            n["not"] += 1
        elif low.startswith("n/a"):
            n["na"] += 1
        else:
            refs = [t for t in TICKS.findall(model) if REF.match(t)]
            if not refs:
                errors.append("%s: model cell has no `path:function` and is not 'not modelled' / 'n/a'" % where)
                continue
            for r in refs:
                m = REF.match(r)
                e = defined(a.root, m.group(1), m.group(2), cache)
                if e:
                    errors.append("%s: %s" % (where, e))
            n["modelled"] += 1
        cases = TICKS.findall(case)
        kf = 0
        for c in cases:
            if c.startswith("kf:"):
                r = " ".join(c[3:].split())
                kf += 1
                if r not in recipes:
                    errors.append("%s: no recipe '%s' in %s" % (where, r, os.path.basename(kfpath)))
            elif c not in labels:
                errors.append("%s: no case labelled '%s' in csc-kdiff --list" % (where, c))
        if cases and not low.startswith(("not modelled", "n/a")):
            n["cased"] += 1
            if kf == len(cases):
                n["kf"] += 1

    judged = n["modelled"] + n["not"]
    if judged == 0:
        errors.append("no rows found")
        judged = 1
    pct = 100.0 * n["modelled"] / judged
    cased = 100.0 * n["cased"] / max(1, n["modelled"])
    print("kernel-branches: %d rows: %d modelled, %d not modelled, %d n/a (not decided by the frame)"
          % (n["modelled"] + n["not"] + n["na"], n["modelled"], n["not"], n["na"]))
    print("kernel-branches: modelled %.1f%% of %d branches; %d of the modelled (%.1f%%) have a live case"
          " (%d of them only fixed fuzz cases)" % (pct, judged, n["cased"], cased, n["kf"]))
    m = FLOOR.search(doc)
    if not m:
        errors.append("the doc states no 'Floor: N%'")
    elif pct + 1e-9 < float(m.group(1)):
        errors.append("modelled %.1f%% is below the doc's floor %s%%" % (pct, m.group(1)))
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
