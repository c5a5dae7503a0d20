#!/usr/bin/env python3
"""captures.py - csumcheck --live over every capture in captures/ and the
public corpus (read in place from tests/data/real, never copied), under
each device report the TAP can make, and fou.pcap/gre-in-udp.pcap with
their FOU ports. Every replayed frame's kernel outcome must agree with the
model or be listed in pending.txt with its explanation (a model finding);
the agreement figures are printed and written to --summary
(docs/kernel-diff.md quotes them).

  captures.py CSUMCHECK CAPTURES_DIR CORPUS_DIR PENDING [--summary FILE]
  captures.py CSUMCHECK CAPTURES_DIR PENDING --kernel VERSION [--summary FILE]
  captures.py CSUMCHECK CAPTURES_DIR --kernels 5.10,6.1,6.12,7.x
  captures.py CSUMCHECK CAPTURES_DIR --era-fates

--kernels: demo.pcapng and seed002-rco.pcap through those kernels in one run
(one VM each): the across-kernel record of each frame, the fate changes by
value (6.12 -> 7.x: seed002-rco.pcap 1-6, demo.pcapng 17 and 19), and the
same changes from --era at the eras of those kernels (the model alone).
--era-fates: that --era comparison alone (no VM, no root).

With --kernel, the captures/ files once (--rx none) through csumcheck --live
--kernel VERSION: Debian's kernel in a VM (live/vm/csc-vm, qemu); every
replayed frame must agree or be pending for that kernel, every receiver
--live makes must have replayed frames, the summary must name that kernel
and its era, and the known frames of vxlan-gpe.pcap must hold their values.

Exit 77 (skipped) where --live cannot run here, with csumcheck's reason.
"""
import json
import os
import subprocess
import sys

REPORTS = ["none", "partial:outer", "partial:inner", "unnecessary:0", "unnecessary:1"]
# The FOU ports the captures use (captures/CASES.md): without them their
# frames are plain UDP (and GRE-in-UDP an unbound port)
FOU_PORTS = ["--fou-port", "5555:4", "--fou-port", "5556:41", "--fou-port", "4754:47"]
FOU_FILES = ("fou.pcap", "gre-in-udp.pcap")


def corpus_files(corpus):
    """every capture of the corpus (MANIFEST.tsv)"""
    manifest = os.path.join(corpus, "MANIFEST.tsv")
    if not os.path.exists(manifest):
        return None
    out = []
    with open(manifest) as f:
        f.readline()
        for line in f:
            row = line.rstrip("\n").split("\t")
            if row and row[0]:
                out.append(os.path.join(corpus, row[0]))
    return out


def read_pending(path):
    """ "FILE FRAME | why": a disagreement on every kernel; "FILE FRAME
    @host,5.10 | why": on those kernels only"""
    pend = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, why = line.partition("|")
            words = key.split()
            kernels = None
            if len(words) == 3 and words[2].startswith("@"):
                kernels = set(words[2][1:].split(","))
            pend[(words[0], int(words[1]))] = (kernels, why.strip())
    return pend


def pending_for(pend, key, kernel):
    """the explanation of a disagreement of this frame on this kernel, or None"""
    e = pend.get(key)
    if e and (e[0] is None or kernel in e[0]):
        return e[1]
    return None


def run(csc, files, rx, kernel=None, extra=()):
    vm = ["--kernel", kernel] if kernel else []
    p = subprocess.run([csc, "--live", "-F", "json", "-q", "--rx", rx] + list(extra) + vm + files,
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
              "6.12": ("6.12.", "6.12", "trixie"), "7": ("7.", "7.2", "sid")}


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


def kernel_main(csc, capdir, kernel, pending, out):
    kernel_usage(csc, capdir)
    files = sorted(os.path.join(capdir, f) for f in os.listdir(capdir)
                   if f.endswith((".pcap", ".pcapng")))
    frames, s = run(csc, files, "none", kernel)
    fou, fs = run(csc, [os.path.join(capdir, f) for f in FOU_FILES], "none", kernel, FOU_PORTS)
    release, era, suite = VM_KERNELS[kernel]
    pend = read_pending(pending) if pending else {}
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
    pending_here = 0
    for f in frames + fou:
        r = f["live"]["result"]
        res[r] = res.get(r, 0) + 1
        key = (os.path.basename(f["file"]), f["frame"])
        why = pending_for(pend, key, kernel)
        if r == "disagree" and why:
            pending_here += 1
            print("  %s frame %d: DISAGREE (pending: %s): %s" % (key[0], key[1], why, f["live"]["why"]))
        elif r in ("disagree", "error"):
            print("  %s frame %d: %s: %s" % (key[0], key[1], r.upper(), f["live"]["why"]))
            fail = True
        elif r == "agree" and why:
            print("  %s frame %d agrees on %s: its pending entry must go" % (key[0], key[1], kernel))
            fail = True
    agree, dis = res.get("agree", 0), res.get("disagree", 0)
    rep = agree + dis
    by = {r["receiver"]: r["agree"] + r["disagree"] for r in s["receivers"]}
    for r in fs["receivers"]:
        by[r["receiver"]] = by.get(r["receiver"], 0) + r["agree"] + r["disagree"]
    # every receiver --live makes exists in Debian's kernels: each must have replayed frames
    for rcv in ("plain", "vxlan", "vxlan-gpe", "geneve", "gre", "gretap", "ip6gre", "ipip", "sit", "ip6tnl",
                "fou", "gue", "erspan", "l2tp"):
        if by.get(rcv, 0) == 0:
            print("FAIL: --kernel %s: no %s frame replayed" % (kernel, rcv))
            fail = True
    if res.get("not-replayable-here", 0):
        print("FAIL: --kernel %s: %d frames the VM kernel could not make a device for"
              % (kernel, res["not-replayable-here"]))
        fail = True
    line = ("csumcheck --live --kernel %s (%s, Debian %s in a VM, model era %s) on captures/ (and %s with FOU "
            "ports), --rx none: %d/%d replayed frames agree (%.1f%%), %d pending model fixes, %d not "
            "replayable, VM %.0f s"
            % (kernel, s["kernel"], suite, s["era"], " ".join(FOU_FILES), agree, rep,
               100.0 * agree / rep if rep else 0.0, pending_here, res.get("not-replayable", 0),
               s["vm_seconds"] + fs["vm_seconds"]))
    print(line)
    if out:
        with open(out, "w") as f:
            f.write(line + "\n")
    sys.exit(1 if fail or rep < 100 else 0)


# --era for each VM kernel: the era its release maps to (live_era_for_release)
ERA_OF = {"5.10": "5.10", "6.1": "6.1", "6.12": "6.12", "7.x": "7.2"}
FATE_FILES = ("demo.pcapng", "seed002-rco.pcap")
# Debian's 6.12 drops a VXLAN RCO frame on a device without remcsumrx
# silently, 7.x counts it (VXLAN_RESERVED_EARLY): the frames whose fate the
# upgrade changes, by file and frames (captures/CASES.md); and 7.2 counts a
# drop on a bad GRE checksum in the receiving device's rx_dropped too
# (GRE_RX_DROPPED, issue 28 finding 2: demo.pcapng 10, 15)
FATE_WANT = {("6.12", "7.x"): {("demo.pcapng", "17, 19"), ("seed002-rco.pcap", "1-6"),
                               ("demo.pcapng", "10, 15")}}


def json_run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 77:
        print("SKIP: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr)
        print("FAIL: %s exited %d" % (" ".join(argv[1:]), p.returncode))
        sys.exit(1)
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    return [r for r in recs if r["type"] == "packet"], [r["live_summary"] for r in recs
                                                        if r["type"] == "live_summary"][0]


def fate_groups(summary, names):
    """{(from, to): {(file, frames)}} with the kernels renamed by position"""
    out = {}
    for i, ch in enumerate(summary["fate_changes"]):
        out[(names[i], names[i + 1])] = {(g["file"], g["frames"]) for g in ch["groups"]}
    return out


def check_fates(frames, summary, names, kernels):
    """the across-kernel record of every frame and the fate changes, by value"""
    got = fate_groups(summary, names)
    for pair in zip(names, names[1:]):
        want = FATE_WANT.get(pair, set())
        assert got[pair] == want, (pair, got[pair], want)
    assert [k["name"] for k in summary["kernels"]] == kernels, summary["kernels"]
    for f in frames:
        lv = f["live"]
        if lv.get("result") == "not-replayable":
            continue
        assert [k["name"] for k in lv["kernels"]] == kernels, lv
        key = (os.path.basename(f["file"]), f["frame"])
        if key in (("demo.pcapng", 17), ("seed002-rco.pcap", 1)):
            assert lv["fate_changes"], lv
    return got


def kernels_main(csc, capdir, kernels):
    """--live --kernel A,B,... beside --era at the same eras: the same fate changes"""
    files = [os.path.join(capdir, f) for f in FATE_FILES]
    names = kernels.split(",")
    frames, s = json_run([csc, "--live", "--kernel", kernels, "-F", "json", "-q"] + files)
    try:
        for k in s["kernels"]:
            release, era, suite = VM_KERNELS["7" if k["name"] == "7.x" else k["name"]]
            assert k["vm"] == suite and k["kernel"].startswith(release) and k["era"] == era, k
        got = check_fates(frames, s, names, names)
        eras = [ERA_OF[n] for n in names]
        mframes, ms = json_run([csc, "--era", ",".join(eras), "-F", "json"] + files)
        mgot = check_fates(mframes, ms, names, eras)
        assert got == mgot, ("kernels", got, "model", mgot)
        for f, m in zip(frames, mframes):
            if f["live"].get("kernels"):
                for k, e in zip(f["live"]["kernels"], m["live"]["kernels"]):
                    if k["result"] in ("agree", "disagree"):
                        assert k["model"] == e["model"], (f["frame"], k, e)
    except AssertionError as e:
        print("FAIL: --kernel %s: %s" % (kernels, e))
        sys.exit(1)
    dis = sum(1 for f in frames for k in f["live"].get("kernels", []) if k["result"] in ("disagree", "error"))
    print("csumcheck --live --kernel %s on %s: the fates that change %s, the same as --era %s; %d "
          "disagreements or errors (pending: LIVE2, L2TP)" % (kernels, " ".join(FATE_FILES),
                                                              sorted(got.items()), ",".join(ERA_OF[n] for n in names),
                                                              dis))
    sys.exit(0)


def era_main(csc, capdir):
    """--era A,B on its own (no VM, no root): the fate changes by value"""
    files = [os.path.join(capdir, f) for f in FATE_FILES]
    names = ["5.10", "6.1", "6.12", "7.x"]
    frames, s = json_run([csc, "--era", "5.10,6.1,6.12,7.2", "-F", "json"] + files)
    try:
        check_fates(frames, s, names, ["5.10", "6.1", "6.12", "7.2"])
        p = subprocess.run([csc, "--era", "6.12,modern"] + files, stdout=subprocess.PIPE, text=True)
        assert "upgrading 6.12 -> modern changes the fate of 8 of " in p.stdout, p.stdout[-600:]
        p = subprocess.run([csc, "--live", "--era", "6.12,modern"] + files, stderr=subprocess.PIPE, text=True)
        assert p.returncode == 2 and "--era A,B compares eras without it" in p.stderr, p.stderr
    except AssertionError as e:
        print("FAIL: --era: %s" % (e,))
        sys.exit(1)
    print("csumcheck --era 5.10,6.1,6.12,modern on %s: 8 frames change fate from 6.12 to modern "
          "(seed002-rco.pcap 1-6, demo.pcapng 17, 19), none before" % " ".join(FATE_FILES))
    sys.exit(0)


def main():
    args = sys.argv[1:]
    if "--kernels" in args:
        i = args.index("--kernels")
        kernels_main(args[0], args[1], args[i + 1])
    if "--era-fates" in args:
        era_main(args[0], args[1])
    out = None
    if "--summary" in args:
        i = args.index("--summary")
        out = args[i + 1]
        del args[i:i + 2]
    if "--kernel" in args:
        i = args.index("--kernel")
        kernel = args[i + 1]
        del args[i:i + 2]
        kernel_main(args[0], args[1], kernel, args[2] if len(args) > 2 else None, out)
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
    disagreed, agreed = set(), set()
    fail = False
    lines = []
    kernel = era = None
    runs = [(label, group, rx, ()) for rx in REPORTS for label, group in (("captures/", files), ("corpus", cfiles))]
    runs.append(("fou-ports", [os.path.join(capdir, f) for f in FOU_FILES], "none", FOU_PORTS))
    for label, group, rx, extra in runs:
        frames, s = run(csc, group, rx, None, extra)
        kernel, era = s["kernel"], s["era"]
        agree = sum(1 for f in frames if f["live"]["result"] == "agree")
        dis = [f for f in frames if f["live"]["result"] == "disagree"]
        errs = [f for f in frames if f["live"]["result"] == "error"]
        lacks = sum(1 for f in frames if f["live"]["result"] == "not-replayable-here")
        nrep = sum(1 for f in frames if f["live"]["result"] == "not-replayable")
        for f in frames:
            if f["live"]["result"] == "agree":
                agreed.add((os.path.basename(f["file"]), f["frame"]))
        pending_here = 0
        for f in dis:
            key = (os.path.basename(f["file"]), f["frame"])
            disagreed.add(key)
            why = pending_for(pend, key, "host")
            if why:
                pending_here += 1
                print("  %s frame %d --rx %s: DISAGREE (pending: %s): %s" % (key[0], key[1], rx, why,
                                                                           f["live"]["why"]))
            else:
                print("  %s frame %d --rx %s: DISAGREE, not explained: %s" % (key[0], key[1], rx,
                                                                            f["live"]["why"]))
                fail = True
        for f in errs:
            print("  %s frame %d --rx %s: HARNESS ERROR: %s" % (f["file"], f["frame"], rx, f["live"]["why"]))
            fail = True
        rep = agree + len(dis)
        line = ("%-9s %-14s %4d files %5d frames: %4d/%-4d replayed agree (%5.1f%%), %d pending, "
                "%d the kernel lacks a module for, %d not replayable"
                % (label, rx, len(group), len(frames), agree, rep, 100.0 * agree / rep if rep else 0.0,
                   pending_here, lacks, nrep))
        print(line)
        lines.append(line)
    for key in sorted(k for k in pend if pending_for(pend, k, "host") and k in agreed and k not in disagreed):
        print("  pending entry %s frame %d agrees under every report now: remove it" % key)
        fail = True
    head = "csumcheck --live on kernel %s (model era %s)" % (kernel, era)
    print(head)
    if out:
        with open(out, "w") as f:
            f.write(head + "\n" + "\n".join(lines) + "\n")
    sys.exit(1 if fail else 0)


main()
