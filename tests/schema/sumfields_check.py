#!/usr/bin/python3
"""sumfields_check.py - the summary's counts are defined once
(analyzer/features/sumfields.c, which the JSON writer, the --merge reader
and the text summary use); this checks that docs/json.md's Summary section
and docs/schema/summary.schema.json name every one of them.

    sumfields_check.py CSC_VOCAB DOCS_DIR
"""
import json
import re
import subprocess
import sys

vocab, docs = sys.argv[1], sys.argv[2]
keys = subprocess.run([vocab, "--summary"], check=True, capture_output=True,
                      text=True).stdout.split()
if len(keys) < 10:
    sys.exit(f"sumfields: only {len(keys)} keys from {vocab} --summary")
md = open(f"{docs}/json.md", encoding="utf-8").read()
m = re.search(r"^## Summary\n(.*?)^## ", md, re.S | re.M)
if not m:
    sys.exit("sumfields: docs/json.md has no '## Summary' section")
section = m.group(1) + md[md.index("## Baseline"):] if "## Baseline" in md else m.group(1)
schema = json.load(open(f"{docs}/schema/summary.schema.json", encoding="utf-8"))
bad = []
for k in keys:
    obj, _, leaf = k.rpartition(".")
    # the docs write "kernel.accept", ".drop" after it, or the bare key in its object's row
    if not any(f"`{x}`" in section for x in (k, "." + leaf, leaf)):
        bad.append(f"{k}: not in docs/json.md's summary")
    node = schema
    for part in ([obj] if obj else []) + [leaf]:
        node = node.get("properties", {}).get(part)
        if node is None:
            break
    if node is None:
        bad.append(f"{k}: not in docs/schema/summary.schema.json")
for b in bad:
    print(b)
print(f"sumfields: {len(keys)} summary counts, {len(bad)} missing")
sys.exit(1 if bad else 0)
