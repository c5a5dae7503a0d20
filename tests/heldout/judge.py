#!/usr/bin/env python3
"""The held-out judge: csumcheck's per-layer checksum verdicts against
tshark's on captures the project does not hold (the test captures of Debian
source packages, fetched by scripts/heldout-judge.sh).

For every capture, every frame and every checksum tshark reports (ip, udp,
tcp, icmp, icmpv6, gre, igmp; occurrences outermost first), csumcheck's raw
verdict (its JSON) mapped to tshark's status codes must equal tshark's, or
the difference must fall in a class of tests/heldout/known.tsv, which says
why. Prints the numbers; exits 1 on any difference no class explains (each
listed) and on a class nothing fell in (the file would be stale).

tshark's output is cached per capture (sha256) and tshark version and field
list, so a warm run only runs csumcheck.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

FIELDS = ["ip", "udp", "tcp", "icmp", "icmpv6", "gre", "igmp"]
PROTO_FIELD = {"ipv4": "ip", "udp": "udp", "tcp": "tcp", "icmp": "icmp",
               "icmpv6": "icmpv6", "gre": "gre", "igmp": "igmp"}
# tshark's status codes: 0 bad, 1 good, 2 unverified, 3 not present, 4 illegal
CODE = {"good": 1, "bad": 0, "unverifiable": 2, "none": 3, "zero6": 4}
TSHARK_COLS = ["frame.number", "frame.protocols"] + \
    ["%s.checksum.status" % f for f in FIELDS]
TSHARK_OPTS = ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
               "-o", "tcp.check_checksum:TRUE", "-o", "udplite.check_checksum:TRUE"]
PCAP_MAGIC = (b"\xa1\xb2\xc3\xd4", b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\x3c\x4d",
              b"\x4d\x3c\xb2\xa1", b"\x0a\x0d\x0d\x0a")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def held_hashes(src):
    """sha256 of every capture file in the source tree (build folders and .git
    left out): a capture with one of these contents is not held out."""
    out = set()
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
        for n in files:
            p = os.path.join(root, n)
            try:
                with open(p, "rb") as f:
                    if f.read(4) not in PCAP_MAGIC:
                        continue
            except OSError:
                continue
            out.add(sha256(p))
    return out


def tshark_version(tshark):
    line = subprocess.run([tshark, "--version"], capture_output=True, text=True).stdout
    return line.split()[2] if line.startswith("TShark") else "unknown"


def ref_key():
    """the field list and options: a change makes new cache entries"""
    return hashlib.sha256("\n".join(TSHARK_COLS + TSHARK_OPTS).encode()).hexdigest()[:12]


def run_tshark(tshark, cap, out):
    cmd = [tshark, "-n", "-r", cap] + TSHARK_OPTS + \
        ["-T", "fields", "-E", "header=n", "-E", "separator=/t", "-E", "occurrence=a",
         "-E", "aggregator=,", "-E", "quote=n"]
    for c in TSHARK_COLS:
        cmd += ["-e", c]
    p = subprocess.run(cmd, capture_output=True, env=dict(os.environ, LC_ALL="C.UTF-8"))
    tmp = "%s.%d.tmp" % (out, os.getpid())
    with open(tmp, "wb") as f:
        # the exit status on the first line: a file tshark cannot read (to its
        # end) is told from one with no checksum
        f.write(b"#rc %d\n" % p.returncode)
        f.write(p.stdout)
    os.replace(tmp, out)


def load_ref(path):
    frames = {}
    rc = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#rc "):
                rc = int(line[4:])
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < len(TSHARK_COLS) or not cols[0].isdigit():
                continue
            st = {}
            for i, fld in enumerate(FIELDS):
                v = cols[2 + i]
                st[fld] = [int(x) for x in v.split(",") if x.strip().isdigit()] if v else []
            frames[int(cols[0])] = (cols[1], st)
    return rc, frames


def run_csumcheck(csc, cap, extra):
    """{frame: the layers and stop} and the error records, the output read as
    it comes (a large capture's JSON is never held whole)"""
    frames, errors = {}, []
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([csc, "-F", "json", "-q", "--threads", "1"] + extra + [cap],
                             stdout=subprocess.PIPE, stderr=err)
        for line in p.stdout:
            try:
                o = json.loads(line)
            except ValueError:
                errors.append("unparsable line")
                continue
            t = o.get("type")
            if t == "packet":
                # what the comparison reads, not the replay
                frames[o["frame"]] = {
                    "stop": o.get("stop"),
                    "layers": [{k: x[k] for k in ("proto", "csum", "notes") if k in x}
                               for x in o["layers"]]}
            elif t == "error":
                errors.append(o.get("message", str(o)))
        rc = p.wait()
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    return rc, frames, errors, stderr


def load_known(path):
    known = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            known[cols[0]] = cols[1] if len(cols) > 1 else ""
    return known


def stop_of(pkt):
    """the frame's stop: reason[/value]@proto, or "" (also without a record)"""
    st = (pkt or {}).get("stop")
    if not st:
        return "" if pkt else "no-record"
    return "%s%s@%s" % (st["reason"], "/%s" % st["value"] if "value" in st else "", st["proto"])


# ---- classes of difference (tests/heldout/known.tsv says why for each) ----

def clamped_frames(path):
    """frame numbers whose pcap record is longer than the file's snapshot
    length: libpcap (csumcheck, tcpdump) cuts them there, tshark does not"""
    out = set()
    try:
        with open(path, "rb") as f:
            d = f.read()
    except OSError:
        return out
    if d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif d[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        return out                    # pcapng: none of its files needs it
    snap = struct.unpack(e + "I", d[16:20])[0]
    o, n = 24, 0
    while o + 16 <= len(d):
        n += 1
        cl = struct.unpack(e + "I", d[o + 8:o + 12])[0]
        if cl > snap:
            out.add(n)
        o += 16 + cl
    return out


# carriers whose payload csumcheck reads as data and tshark as a packet
# (frame.protocols before the inner ip/ipv6)
PACKET_IN_PAYLOAD = ("pim", "wg", "sflow", "capwap.data", "openflow_v4", "openflow_v1")
STOP_LINK = ("unknown-link", "unknown-ethertype", "unknown-next")


def classify(d):
    """d: the difference (keys: field, occ, ours, reason, notes, ts, protos,
    layer, layers, pkt, clamped). The class name, or None."""
    ours, reason, ts, pkt = d["ours"], d["reason"], d["ts"], d["pkt"]
    st = (pkt or {}).get("stop") or {}
    protos = d["protos"].split(":")
    l = d["layers"][d["layer"]] if d["layer"] is not None else None
    if ours == "partial" and ts == 0:
        return "tx-partial"
    if ours == "unverifiable" and reason == "gso-len" and ts == 0:
        return "tso-length-zero"
    if ours == "unverifiable" and reason == "len-mismatch" and ts == 0 and \
            d["field"] in ("tcp", "icmp", "icmpv6"):
        return "ip-length-exceeds"
    if ours == "unverifiable" and reason == "icmp-quote" and ts == 0:
        return "icmp-quote-truncated"
    if ours in ("good", "bad") and "quoted" in d["notes"] and d["field"] == "icmp" and ts == 2:
        return "icmp-in-icmp-error"
    if ours == "good" and ts == 0 and l and l["csum"]["field"] == "0xffff" and \
            l["csum"]["expected"] == "0x0000":
        return "ones-complement-ffff"
    if d["clamped"] and (reason == "snaplen" or (ours == "absent" and st.get("reason") == "truncated")):
        return "snaplen-clamp"
    if pkt is None and d["refused"]:
        return "libpcap-refuses-file"
    if ours != "absent":
        return None
    if st.get("reason") == "truncated" and ts == 2:
        return "header-cut"
    if st.get("reason") in STOP_LINK and st.get("proto") in ("none", "eth", "ppp"):
        return "link-not-decoded"
    if not st and any(p in protos for p in PACKET_IN_PAYLOAD):
        return "packet-in-payload"
    return None


def compare(name, ref, pkts, counts, diffs, clamped, refused):
    for frame, (protos, st) in ref.items():
        pkt = pkts.get(frame)
        layers = pkt["layers"] if pkt else []
        ours = {f: [] for f in FIELDS}
        for i, l in enumerate(layers):
            f = PROTO_FIELD.get(l.get("proto"))
            c = l.get("csum")
            if f is None or c is None:
                continue
            if f == "gre" and c.get("reason") == "no-c-bit":
                continue     # no C bit: tshark has no gre.checksum.status
            ours[f].append((i, l))
        for f in FIELDS:
            for occ, ts in enumerate(st[f]):
                counts["compared"] += 1
                if occ < len(ours[f]):
                    i, l = ours[f][occ]
                    v, r = l["csum"]["verdict"], l["csum"].get("reason")
                    notes = l.get("notes", [])
                else:
                    i, l, v, r, notes = None, None, "absent", None, []
                if CODE.get(v, -1) == ts:
                    counts["equal"] += 1
                    continue
                d = {"file": name, "frame": frame, "field": f, "occ": occ + 1, "ours": v,
                     "reason": r, "notes": notes, "ts": ts, "protos": protos, "layer": i,
                     "layers": layers, "pkt": pkt, "ours_n": len(ours[f]), "ts_n": len(st[f]),
                     "clamped": frame in clamped, "refused": refused}
                # classified here, kept as a short row: the frame's record
                # is let go with its file
                diffs.append((classify(d), name, frame, f, occ + 1,
                              v + ("/" + r if r else ""), ",".join(notes), ts, len(ours[f]),
                              len(st[f]), protos, stop_of(pkt),
                              "/".join(x["proto"] for x in layers)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", required=True)
    ap.add_argument("--csumcheck", required=True)
    ap.add_argument("--tshark", default="tshark")
    ap.add_argument("--src", required=True, help="the source tree (its captures are held)")
    ap.add_argument("--known", required=True)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--diffs", help="write every difference here (TSV)")
    ap.add_argument("--only", help="only captures whose name contains this")
    ap.add_argument("--cached-only", action="store_true",
                    help="only captures whose tshark output is cached (while developing)")
    a = ap.parse_args()

    pdir = os.path.join(a.cache, "pcaps")
    names = sorted(n for n in os.listdir(pdir) if not n.startswith("."))
    if a.only:
        names = [n for n in names if a.only in n]
    held = held_hashes(a.src)
    caps, seen, n_held, n_dup = [], set(), 0, 0
    for n in names:
        h = sha256(os.path.join(pdir, n))
        if h in held:
            n_held += 1
        elif h in seen:
            n_dup += 1
        else:
            seen.add(h)
            caps.append((n, h))
    ver = tshark_version(a.tshark)
    rdir = os.path.join(a.cache, "ref", "tshark-%s-%s" % (ver, ref_key()))
    os.makedirs(rdir, exist_ok=True)
    todo = [(n, h) for n, h in caps if not os.path.exists(os.path.join(rdir, h + ".tsv"))]
    if a.cached_only:
        caps = [c for c in caps if c not in todo]
        todo = []
    if todo:
        print("heldout: tshark %s over %d captures not in the cache" % (ver, len(todo)), flush=True)
        with cf.ThreadPoolExecutor(a.j) as ex:
            list(ex.map(lambda nh: run_tshark(a.tshark, os.path.join(pdir, nh[0]),
                                              os.path.join(rdir, nh[1] + ".tsv")), todo))

    counts = {"compared": 0, "equal": 0}
    diffs, problems, damaged, ts_early = [], [], [], []
    nframes = 0

    def one(nh):
        n, h = nh
        rc, ref = load_ref(os.path.join(rdir, h + ".tsv"))
        crc, pkts, errs, stderr = run_csumcheck(a.csumcheck, os.path.join(pdir, n), [])
        return n, rc, ref, crc, pkts, errs, stderr

    with cf.ThreadPoolExecutor(a.j) as ex:
        for n, rc, ref, crc, pkts, errs, stderr in ex.map(one, caps):
            nframes += len(ref)
            if rc != 0:
                ts_early.append(n)
            refused = False
            if "Sanitizer" in stderr or "runtime error:" in stderr:
                problems.append("%s: sanitizer report: %s" % (n, stderr.strip()[:600]))
            if crc not in (0, 1):
                # a damaged file: what both read is compared; csumcheck must
                # not give up on one tshark reads to its end, unless libpcap
                # refuses the file's header (a version it does not know)
                damaged.append(n)
                refused = not pkts and "unsupported pcap savefile version" in stderr
                if rc == 0 and not refused:
                    problems.append("%s: csumcheck exit %d where tshark read the file: %s" % (
                        n, crc, stderr.strip()[:300]))
            compare(n, ref, pkts, counts, diffs, clamped_frames(os.path.join(pdir, n)), refused)

    known = load_known(a.known)
    by_class, unexplained = {}, []
    for d in diffs:
        c = d[0]
        if c is None or c not in known:
            unexplained.append(d)
        else:
            by_class[c] = by_class.get(c, 0) + 1
    if a.diffs:
        with open(a.diffs, "w") as f:
            for d in diffs:
                f.write("\t".join(str(x) for x in d) + "\n")

    comp, eq = counts["compared"], counts["equal"]
    expl = sum(by_class.values())
    print("heldout: tshark %s; %d captures (%d held by the project, %d duplicates left out), "
          "%d frames" % (ver, len(caps), n_held, n_dup, nframes))
    print("heldout: csumcheck stops early on %d damaged captures, tshark on %d: %s" % (
        len(damaged), len(ts_early), " ".join(sorted(set(damaged) | set(ts_early)))))
    for c in sorted(known):
        print("heldout: class %-28s %7d" % (c, by_class.get(c, 0)))
    print("heldout: %d verdicts, %d equal (%.2f%%), %d in documented classes, %d undocumented: "
          "%.3f%% equal or documented" % (comp, eq, 100.0 * eq / max(comp, 1), expl,
                                          len(unexplained), 100.0 * (eq + expl) / max(comp, 1)))
    bad = False
    opened = [c for c in known if known[c].startswith("OPEN")]
    n_open = sum(by_class.get(c, 0) for c in opened)
    print("heldout: of those documented, %d in open classes (a gap of csumcheck's to close: %s): "
          "%.3f%% equal or a documented difference of policy or coverage" % (
              n_open, ", ".join(opened) or "none",
              100.0 * (eq + expl - n_open) / max(comp, 1)))
    for d in unexplained[:60]:
        c, fn, frame, fld, occ, ov, notes, ts, _, _, protos, stop, _ = d
        print("heldout: UNDOCUMENTED %s frame %d %s#%d ours=%s tshark=%d (%s)%s%s" % (
            fn, frame, fld, occ, ov, ts, protos, " stop " + stop if stop else "",
            " class %s not in known.tsv" % c if c else ""))
    if unexplained:
        bad = True
    stale = [c for c in known if not by_class.get(c)]
    for c in stale:
        print("heldout: STALE class %s: no difference falls in it (known.tsv)" % c)
        bad = True
    for p in problems:
        print("heldout: PROBLEM " + p)
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
