#!/usr/bin/python3
"""validate.py - every JSON line against csumcheck's JSON Schemas (docs/schema/).

    validate.py [--schemas DIR] [--min N] [--scan DIR]... PATH...

PATH is a JSON Lines file or a folder (every *.jsonl and *.json under it).
--scan DIR: every file under DIR whose first line is a csumcheck record
({"type":"...), whatever its name: the outputs the tests left in their
work folders. --skip GLOB leaves out the files that a test made by
editing or cutting an output (not csumcheck's own lines).
Each line's "type" names its schema (docs/schema/TYPE.schema.json); a line
without a known type is an error. Prints one line per invalid record
(file:line: the first error and where) and a count; exits 1 on any invalid
line, or when fewer than N lines were read (--min: a run that collected
nothing proves nothing). Debian's python3-jsonschema (Draft 2020-12).

The test suite writes hundreds of thousands of records that differ only in
numbers, checksum values and names; a record is validated once per *shape*:
the record with every value the schemas cannot tell apart made equal
(integers by the bounds the schemas use: 0, 1..255 as they are, then 256,
65536, 2^64; a hex16 / a timestamp that matches its pattern; free text).
A value outside those bounds or patterns keeps itself, so an invalid record
never shares a shape with a valid one.
"""
import argparse
import fnmatch
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:
    print("validate: python3-jsonschema is not installed (apt-get install python3-jsonschema)",
          file=sys.stderr)
    sys.exit(2)


def load_schemas(d):
    store, by_type = {}, {}
    for name in sorted(os.listdir(d)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(d, name), encoding="utf-8") as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        store[s["$id"]] = s
        t = name[: -len(".schema.json")]
        if t != "vocab":
            by_type[t] = s
    validators = {}
    for t, s in by_type.items():
        resolver = jsonschema.RefResolver.from_schema(s, store=store)
        validators[t] = jsonschema.Draft202012Validator(s, resolver=resolver)
    return validators


def is_records(path):
    try:
        with open(path, "rb") as f:
            return f.read(9) == b'{"type":"'
    except OSError:
        return False


HEX16 = re.compile(r"^0x[0-9a-f]{4}$")
TS = re.compile(r"^-?[0-9]+\.[0-9]{9}$")
# keys whose string values the schemas take as free text (type string)
FREE = {"file", "flow", "message", "src", "dst", "why", "kernel_release", "moved", "spec",
        "name", "kernel"}
U64 = (1 << 64) - 1


def shape(v, key=None):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        if v < 0 or v > U64 or v <= 255:
            return v
        return 256 if v <= 65535 else 65536 if v <= (1 << 32) else U64
    if isinstance(v, float):
        return 1.5 if v > 0 else v
    if isinstance(v, str):
        if HEX16.match(v):
            return "0x0000"
        if TS.match(v):
            return "0.000000000"
        if key in FREE:
            return "x" if v else ""
        return v
    if isinstance(v, list):
        return [shape(x, key) for x in v]
    return {k: shape(x, k) for k, x in v.items()}


def files_of(paths, scans, skips):
    for d in scans:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                p = os.path.join(root, n)
                if any(fnmatch.fnmatch(p, g) for g in skips):
                    continue
                if os.path.isfile(p) and is_records(p):
                    yield p
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.endswith((".jsonl", ".json")):
                        yield os.path.join(root, n)
        elif not os.path.exists(p):
            # schema-jsonlog reads what the cli- tests wrote: selected without them it has nothing
            sys.exit(f"{p}: not written - it collects what the cli- tests write; "
                     "run them with it (ctest -R 'cli-|schema-jsonlog')")
        else:
            yield p


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--schemas", default=os.path.join(here, "..", "..", "docs", "schema"))
    ap.add_argument("--min", type=int, default=1)
    ap.add_argument("--scan", action="append", default=[])
    ap.add_argument("--skip", action="append", default=[])
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    validators = load_schemas(a.schemas)
    lines = bad = 0
    types = {}
    seen = {}
    for path in files_of(a.paths, a.scan, a.skip):
        with open(path, encoding="utf-8", errors="replace") as f:
            for no, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                lines += 1
                where = f"{path}:{no}"
                try:
                    rec = json.loads(line)
                except (ValueError, RecursionError) as e:
                    print(f"{where}: not JSON: {e}")
                    bad += 1
                    continue
                t = rec.get("type") if isinstance(rec, dict) else None
                v = validators.get(t)
                if v is None:
                    print(f"{where}: no schema for type {t!r}")
                    bad += 1
                    continue
                types[t] = types.get(t, 0) + 1
                sig = json.dumps(shape(rec), sort_keys=True)
                if sig in seen:
                    if seen[sig]:
                        print(f"{where}: {t}: {seen[sig]} (as {path}:{no})")
                        bad += 1
                    continue
                err = jsonschema.exceptions.best_match(v.iter_errors(rec))
                if err is not None:
                    loc = "/".join(str(x) for x in err.absolute_path) or "(record)"
                    msg = f"{loc}: {err.message[:300]}"
                    print(f"{where}: {t} {msg}")
                    bad += 1
                seen[sig] = msg if err is not None else ""
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(types.items()))
    print(f"schema: {lines} JSON lines ({kinds}; {len(seen)} shapes), {bad} invalid")
    if lines < a.min:
        print(f"schema: fewer than {a.min} lines to validate", file=sys.stderr)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
