#!/usr/bin/env python3
"""captures.py - csumcheck --live over every capture in captures/ and the
public corpus's VXLAN and plain captures (read in place from
tests/data/real, never copied), under each device report the TAP can
make. Every replayed frame's kernel outcome must agree with the model or be
listed in pending.txt with its explanation; the agreement figures are
printed and written to --summary (docs/kernel-diff.md quotes them).

  captures.py CSUMCHECK CAPTURES_DIR CORPUS_DIR PENDING [--summary FILE]
  captures.py CSUMCHECK CAPTURES_DIR --kernel VERSION [--summary FILE]

With --kernel, the captures/ files once (--rx none) through csumcheck --live
--kernel VERSION: Debian's kernel in a VM (live/vm/csc-vm, qemu); every
replayed frame must agree (no pending list for the VM kernels), the summary
must name that kernel and its era, and the known frames of vxlan-gpe.pcap
must hold their values.

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


def run(csc, files, rx, kernel=None):
    vm = ["--kernel", kernel] if kernel else []
    p = subprocess.run([csc, "--live", "-F", "json", "-q", "--rx", rx] + vm + files,
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
        elif rec["type"] == "packet":
            frames.append(rec)
        else:
            print("FAIL: a %s record under --live: %s" % (rec["type"], line))
            sys.exit(1)
    return frames, summary


def counters(side):
    names = [c["name"] for c in side["counters"]]
    if len(names) != len(set(names)):
        raise AssertionError("a counter listed twice: %s" % names)
    return {c["name"]: c["n"] for c in side["counters"]}


def check_known(csc, capdir):
    """The "live" object inside each packet record, on frames whose kernel
    outcome is known (captures/vxlan-gpe.pcap under --rx none): a drop at the
    GPE device, an inner TCP checksum drop, an outer UDP6 zero-checksum drop,
    a frame --live cannot replay. Raises AssertionError on a wrong value."""
    path = os.path.join(capdir, "vxlan-gpe.pcap")
    frames, s = run(csc, [path], "none")
    check_known_frames(frames, s)
    gpe = [r for r in s["receivers"] if r["receiver"] == "vxlan-gpe"][0]
    assert gpe["agree"] == 6 and s["not_replayable"] == 1 and s["frames"] == 7, s
    print("known frames of vxlan-gpe.pcap: the packet records' \"live\" objects hold the kernel's outcome")


def check_known_frames(frames, s):
    frames = [f for f in frames if os.path.basename(f["file"]) == "vxlan-gpe.pcap"]
    assert [f["frame"] for f in frames] == list(range(1, 8)), [f["frame"] for f in frames]
    by = {f["frame"]: f for f in frames}
    for f in frames:
        assert f["type"] == "packet" and f["layers"] and "kernel" in f and f["gro_fate"] == [], f
        assert f["live"]["kernel_release"] == s["kernel"], f["live"]
    f3 = by[3]   # VXLAN-GPE carrying Ethernet: the GPE device drops it (rx_dropped)
    assert f3["kernel"]["verdict"] == "drop" and f3["kernel"]["drop"]["reason"] == "UNHANDLED_PROTO", f3["kernel"]
    lv = f3["live"]
    assert lv["result"] == "agree" and lv["receiver"] == "vxlan-gpe" and lv["transport"] == "udp", lv
    assert lv["kernel"]["outcome"] == "drop" and lv["kernel"]["class"] == "tunnel", lv
    assert counters(lv["kernel"]) == {"dev:rx_dropped": 1} == counters(lv["model"]), lv
    assert lv["kernel"]["at_device"] == 1 and lv["model"]["drop_reason"] == "UNHANDLED_PROTO", lv
    lv = by[4]["live"]   # inner TCP checksum wrong
    assert lv["kernel"]["class"] == "inner-l4", lv
    assert counters(lv["kernel"]) == {"TcpInCsumErrors": 1, "TcpInErrs": 1}, lv
    lv = by[6]["live"]   # outer UDP over IPv6 with a zero checksum: dropped before the device
    assert lv["kernel"]["class"] == "outer-l4" and lv["kernel"]["at_device"] == 0, lv
    assert counters(lv["kernel"]) == {"Udp6InCsumErrors": 1, "Udp6InErrors": 1}, lv
    for n in (1, 2, 5):
        lv = by[n]["live"]
        assert lv["kernel"]["outcome"] == "accept" and counters(lv["kernel"]) == {}, lv
        assert by[n]["kernel"]["verdict"] == "accept", by[n]["kernel"]
    lv = by[7]["live"]   # NSH inside the tunnel: no device for it
    assert lv["result"] == "not-replayable" and "nsh" in lv["why"] and "kernel" not in lv, lv


# The VM kernels: the release series and model era each must report
VM_KERNELS = {"5.10": ("5.10.", "5.10", "bullseye"), "6.1": ("6.1.", "6.1", "bookworm"),
              "6.12": ("6.12.", "6.12", "trixie"), "7": ("7.", "modern", "sid")}


def kernel_usage(csc, capdir):
    """--kernel's usage errors: exit 2 and a message that says what to give"""
    cap = os.path.join(capdir, "vxlan.pcap")
    for argv, want in (([csc, "--kernel", "6.1", cap], "give --live too"),
                       ([csc, "--live", "--kernel", "4.19", cap], "5.10 (Debian bullseye), 6.1 (bookworm)"),
                       ([csc, "--live", "--kernel", "6.1", "--kernel", "5.10", cap], "give one kernel")):
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 2 or want not in p.stderr or p.stdout:
            print("FAIL: %s: exit %d, stderr %r (want exit 2 and %r)" % (" ".join(argv[1:]), p.returncode,
                                                                         p.stderr, want))
            sys.exit(1)


def kernel_main(csc, capdir, kernel, out):
    kernel_usage(csc, capdir)
    files = sorted(os.path.join(capdir, f) for f in os.listdir(capdir)
                   if f.endswith((".pcap", ".pcapng")))
    frames, s = run(csc, files, "none", kernel)
    release, era, suite = VM_KERNELS[kernel]
    fail = False
    try:
        assert s["vm"] == suite and s["kernel"].startswith(release) and s["era"] == era, s
        assert s["frames"] == len(frames) and len(frames) > 300, (s["frames"], len(frames))
        for f in frames:
            assert f["live"]["kernel_release"] == s["kernel"] and f["kernel"]["era"] == era, f["live"]
        check_known_frames(frames, s)
    except AssertionError as e:
        print("FAIL: --kernel %s: %s" % (kernel, e))
        sys.exit(1)
    res = {}
    for f in frames:
        res[f["live"]["result"]] = res.get(f["live"]["result"], 0) + 1
        if f["live"]["result"] in ("disagree", "error"):
            print("  %s frame %d: %s: %s" % (os.path.basename(f["file"]), f["frame"], f["live"]["result"].upper(),
                                            f["live"]["why"]))
            fail = True
    agree, dis = res.get("agree", 0), res.get("disagree", 0)
    rep = agree + dis
    by = {r["receiver"]: r for r in s["receivers"]}
    # every receiver --live makes exists in Debian's kernels: each must have replayed frames
    for rcv in ("plain", "vxlan", "vxlan-gpe", "geneve"):
        if by[rcv]["agree"] + by[rcv]["disagree"] == 0:
            print("FAIL: --kernel %s: no %s frame replayed" % (kernel, rcv))
            fail = True
    if res.get("not-replayable-here", 0):
        print("FAIL: --kernel %s: %d frames the VM kernel could not make a device for"
              % (kernel, res["not-replayable-here"]))
        fail = True
    line = ("csumcheck --live --kernel %s (%s, Debian %s in a VM, model era %s) on captures/, --rx none: "
            "%d/%d replayed frames agree (%.1f%%), %d not replayable, VM %.0f s"
            % (kernel, s["kernel"], suite, s["era"], agree, rep, 100.0 * agree / rep if rep else 0.0,
               res.get("not-replayable", 0), s["vm_seconds"]))
    print(line)
    if out:
        with open(out, "w") as f:
            f.write(line + "\n")
    sys.exit(1 if fail or rep < 100 else 0)


def main():
    args = sys.argv[1:]
    out = None
    if "--summary" in args:
        i = args.index("--summary")
        out = args[i + 1]
        del args[i:i + 2]
    if "--kernel" in args:
        i = args.index("--kernel")
        kernel = args[i + 1]
        del args[i:i + 2]
        kernel_main(args[0], args[1], kernel, out)
    csc, capdir, corpus, pending = args
    files = sorted(os.path.join(capdir, f) for f in os.listdir(capdir)
                   if f.endswith((".pcap", ".pcapng")))
    cfiles = corpus_files(corpus)
    if cfiles is None:
        print("FAIL: the public corpus is not at %s (tests/data/real)" % corpus)
        sys.exit(1)
    try:
        check_known(csc, capdir)
    except AssertionError as e:
        print("FAIL: vxlan-gpe.pcap's live objects: %s" % e)
        sys.exit(1)
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
