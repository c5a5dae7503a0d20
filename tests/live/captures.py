#!/usr/bin/env python3
"""captures.py - csumcheck --live over every capture in captures/ and the
public corpus's VXLAN and plain captures (read in place from
CSC_SHARED/corpus/real, never copied), under each device report the TAP can
make. Every replayed frame's kernel outcome must agree with the model or be
listed in pending.txt with its explanation; the agreement figures are
printed and written to --summary (docs/kernel-diff.md quotes them).

  captures.py CSUMCHECK CAPTURES_DIR CORPUS_DIR PENDING [--summary FILE]

Exit 77 (skipped) where --live cannot run here, with csumcheck's reason.
"""
import json
import os
import subprocess
import sys

REPORTS = ["none", "partial:outer", "partial:inner", "unnecessary:0", "unnecessary:1"]
CORPUS_CATEGORIES = ("VXLAN", "plain L3/L4 checksum")


def corpus_files(corpus):
    manifest = os.path.join(corpus, "MANIFEST.tsv")
    if not os.path.exists(manifest):
        return None
    out = []
    with open(manifest) as f:
        head = f.readline().rstrip("\n").split("\t")
        col = head.index("category")
        for line in f:
            row = line.rstrip("\n").split("\t")
            if len(row) > col and row[col] in CORPUS_CATEGORIES:
                out.append(os.path.join(corpus, row[0]))
    return out


def read_pending(path):
    pend = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, why = line.partition("|")
            name, frame = key.split()
            pend[(name, int(frame))] = why.strip()
    return pend


def run(csc, files, rx):
    p = subprocess.run([csc, "--live", "-F", "json", "--rx", rx] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 77:
        print("SKIP: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr)
        print("FAIL: csumcheck --live --rx %s exited %d" % (rx, p.returncode))
        sys.exit(1)
    frames, summary = [], None
    for line in p.stdout.splitlines():
        rec = json.loads(line)
        if "live_summary" in rec:
            summary = rec["live_summary"]
        else:
            frames.append(rec)
    return frames, summary


def main():
    args = sys.argv[1:]
    out = None
    if "--summary" in args:
        i = args.index("--summary")
        out = args[i + 1]
        del args[i:i + 2]
    csc, capdir, corpus, pending = args
    files = sorted(os.path.join(capdir, f) for f in os.listdir(capdir)
                   if f.endswith((".pcap", ".pcapng")))
    cfiles = corpus_files(corpus)
    if cfiles is None:
        print("SKIP: the public corpus is not at %s" % corpus)
        sys.exit(77)
    pend = read_pending(pending)
    seen = set()
    fail = False
    lines = []
    kernel = era = None
    for rx in REPORTS:
        for label, group in (("captures/", files), ("corpus", cfiles)):
            frames, s = run(csc, group, rx)
            kernel, era = s["kernel"], s["era"]
            agree = sum(1 for f in frames if f["live"]["result"] == "agree")
            dis = [f for f in frames if f["live"]["result"] == "disagree"]
            errs = [f for f in frames if f["live"]["result"] == "error"]
            lacks = sum(1 for f in frames if f["live"]["result"] == "not-replayable-here")
            nrep = sum(1 for f in frames if f["live"]["result"] == "not-replayable")
            pending_here = 0
            for f in dis:
                key = (os.path.basename(f["file"]), f["frame"])
                seen.add(key)
                if key in pend:
                    pending_here += 1
                    print("  %s frame %d --rx %s: DISAGREE (pending: %s): %s" % (key[0], key[1], rx, pend[key],
                                                                               f["live"]["why"]))
                else:
                    print("  %s frame %d --rx %s: DISAGREE, not explained: %s" % (key[0], key[1], rx,
                                                                                f["live"]["why"]))
                    fail = True
            for f in errs:
                print("  %s frame %d --rx %s: HARNESS ERROR: %s" % (f["file"], f["frame"], rx, f["live"]["why"]))
                fail = True
            rep = agree + len(dis)
            line = ("%-8s %-14s %4d files %5d frames: %4d/%-4d replayed agree (%5.1f%%), %d pending, "
                    "%d the kernel lacks a module for, %d not replayable"
                    % (label, rx, len(group), len(frames), agree, rep, 100.0 * agree / rep if rep else 0.0,
                       pending_here, lacks, nrep))
            print(line)
            lines.append(line)
    for key in sorted(set(pend) - seen):
        print("  pending entry %s frame %d agrees under every report now: remove it" % key)
        fail = True
    head = "csumcheck --live on kernel %s (model era %s)" % (kernel, era)
    print(head)
    if out:
        with open(out, "w") as f:
            f.write(head + "\n" + "\n".join(lines) + "\n")
    sys.exit(1 if fail else 0)


main()
