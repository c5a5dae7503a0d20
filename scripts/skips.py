#!/usr/bin/env python3
"""skips.py - the skipped tests of a ctest run, against docs/testing.md.

    scripts/skips.py JUNIT_XML [TESTING_MD]

JUNIT_XML is what `ctest --output-junit FILE` wrote. Prints how many tests
ran and how many were skipped, and each skipped test with the first SKIP
line of its output. A test may skip only when docs/testing.md lists it
(the table between <!-- may-skip:begin --> and <!-- may-skip:end -->,
first column a test name or a shell pattern in backquotes): any other
skipped test makes the exit status 1, as a failure does.
"""
import fnmatch
import os
import re
import sys
import xml.etree.ElementTree as ET


def allowed_patterns(md):
    pats, inside = [], False
    with open(md, encoding="utf-8") as f:
        for line in f:
            if "<!-- may-skip:begin -->" in line:
                inside = True
            elif "<!-- may-skip:end -->" in line:
                inside = False
            elif inside:
                m = re.match(r"\|\s*`([^`]+)`\s*\|", line)
                if m:
                    pats.append(m.group(1))
    return pats


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip())
        return 2
    junit = sys.argv[1]
    md = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "docs", "testing.md")
    pats = allowed_patterns(md)
    root = ET.parse(junit).getroot()
    ran, skipped = 0, []
    for c in root.iter("testcase"):
        if c.find("skipped") is None:
            ran += 1
            continue
        lines = (c.findtext("system-out") or "").strip().splitlines()
        why = next((l.strip() for l in lines if "SKIP" in l), lines[-1].strip() if lines else "")
        skipped.append((c.get("name"), why))
    unlisted = [s for s in skipped if not any(fnmatch.fnmatchcase(s[0], p) for p in pats)]
    print("skips: %d tests ran, %d skipped (%d not listed in docs/testing.md)" %
          (ran, len(skipped), len(unlisted)))
    for name, why in skipped:
        mark = "NOT LISTED" if (name, why) in unlisted else "listed"
        print("skips:   %-28s %-10s %s" % (name, mark, why[:160]))
    if unlisted:
        print("skips: FAIL: %d tests skipped that docs/testing.md does not list "
              "(a test that cannot run fails, unless listed with the reason)" % len(unlisted))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
