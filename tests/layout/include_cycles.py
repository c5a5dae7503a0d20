#!/usr/bin/env python3
"""include_cycles.py - no include cycle between the modules of a source tree.

    include_cycles.py DIR...

A module is a file stem (run.c and run.h are the module run); module A
depends on B when A.c or A.h includes B.h (#include "..." found by its
name anywhere under the DIR given, as the build's include directories find
it). Prints every cycle (a strongly connected set of modules, with the
includes that close it) and exits 1 when there is one.
"""
import os
import re
import sys


def modules(root):
    files = {}
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith((".c", ".h")):
                files.setdefault(n, os.path.join(d, n))
    deps = {}
    for n, p in files.items():
        m = n[:-2]
        with open(p, encoding="utf-8", errors="replace") as f:
            for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M):
                b = os.path.basename(inc)
                if b in files and b[:-2] != m:
                    deps.setdefault(m, {}).setdefault(b[:-2], n)
    return deps


def cycles(deps):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in deps.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    for v in sorted(deps):
        if v not in index:
            strong(v)
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip())
        return 2
    bad = 0
    for root in sys.argv[1:]:
        deps = modules(root)
        found = cycles(deps)
        for scc in found:
            edges = ["%s -> %s (%s)" % (a, b, deps[a][b]) for a in scc for b in deps.get(a, {}) if b in scc]
            print("include cycle in %s: %s\n    %s" % (root, " ".join(scc), "\n    ".join(edges)))
        print("include_cycles: %s: %d modules, %d cycles" % (root, len(deps), len(found)))
        bad += len(found)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
