#!/usr/bin/python3
"""stops.py - every early end of decoding says why (issue 24).

    stops.py [--write] CSUMCHECK CSC_GEN CAPTURES_DIR [CORPUS_DIR]

Over every committed capture (its "default" run of captures/expected/runs.tsv),
over frames the generator makes here for each stop reason and, given
CORPUS_DIR (tests/data/real), over every capture of the public corpus (with
its MANIFEST.tsv options), csumcheck's JSON Lines are read and:

  * every stop names a reason of the vocabulary, and rides on the last layer
    decoded (layers[-1].stop is the packet's stop; a frame with no layer has
    only the packet's);
  * the stops seen, counted by (source, reason, proto, value, option), equal
    CAPTURES_DIR/expected/stops.tsv, the corpus's CAPTURES_DIR/expected/
    stops-real.tsv (--write rewrites them: scripts/regen-captures.sh);
  * every reason of the vocabulary is seen at least once;
  * tshark 4.0 (an independent decoder) never decodes more IP, UDP, TCP, ICMP,
    ICMPv6, GRE or IGMP headers in a frame than csumcheck does unless
    csumcheck's decode of that frame stopped with a reason: no silent early
    end. (tshark is a dependency of the build: scripts/setup.sh.)

Exit 0 when all holds, 1 otherwise, 2 on usage.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

REASONS = ["truncated", "malformed", "depth", "unsupported", "fragment", "unknown-link",
           "unknown-ethertype", "unknown-ipproto", "unknown-next", "encrypted", "needs-option"]
# One generated frame per reason the committed captures may not hold:
# (name, csc-gen stack options, csumcheck options, the reason it must end with)
GENERATED = [
    ("truncated-vxlan", ["--snaplen", "46", "eth ipv4 udp vxlan eth ipv4 tcp pay:len=60"], [], "truncated"),
    ("malformed-ip-tot-len", ["eth ipv4:lenfix=10 tcp pay:len=20"], [], "malformed"),
    ("unsupported-gre-version", ["eth ipv4 gre:gflags=0x0002 pay:len=40"], [], "unsupported"),
    ("fragment-v4", ["eth ipv4:frag=0x0010 udp pay:len=40"], [], "fragment"),
    ("unknown-ethertype", ["eth:proto=0x88b5 pay:len=46"], [], "unknown-ethertype"),
    ("unknown-ipproto", ["eth ipv4:proto=253 pay:len=40"], [], "unknown-ipproto"),
    ("unknown-next-gpe", ["eth ipv4 udp gpe:proto=9 pay:len=40"], [], "unknown-next"),
    ("encrypted-esp", ["eth ipv4 esp"], [], "encrypted"),
    ("encrypted-wlan", ["eth ipv4 gre wlan:prot pay:len=40"], [], "encrypted"),
    ("needs-option-vxlan-8472", ["eth ipv4 udp:dport=8472 vxlan eth ipv4 tcp pay:len=40"], [], "needs-option"),
    ("needs-option-l2tp-cookie", ["eth ipv4 l2tp:cookie=8,nol2spec eth ipv4 tcp pay:len=40"], [], "needs-option"),
    ("no-stop-8472-configured", ["eth ipv4 udp:dport=8472 vxlan eth ipv4 tcp pay:len=40"],
     ["--vxlan-port", "8472"], None),
    ("no-stop-arp", ["eth:proto=0x0806 pay:len=28"], [], None),
]
COUNTED = {"ip": "ipv4", "ipv6": "ipv6", "udp": "udp", "tcp": "tcp", "icmp": "icmp",
           "icmpv6": "icmpv6", "gre": "gre", "igmp": "igmp"}


def fail(msg):
    print("FAIL: " + msg)
    return 1


def packets(csc, opts, path):
    out = subprocess.run([csc, "--format", "json"] + opts + [path], capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith('{"type":"packet"')]


def check_frame(src, p):
    """the stop's shape; returns (errors, key or None)"""
    s = p.get("stop")
    layers = p["layers"]
    if not s:
        if any("stop" in l for l in layers):
            return 1, None
        return 0, None
    errs = 0
    if s["reason"] not in REASONS:
        errs += fail("%s:%d: unknown reason %s" % (src, p["frame"], s["reason"]))
    carried = [i for i, l in enumerate(layers) if "stop" in l]
    if layers and carried != [len(layers) - 1]:
        errs += fail("%s:%d: the stop is on layers %s, not the last one (%d)" %
                     (src, p["frame"], carried, len(layers) - 1))
    if layers and layers[-1].get("stop") != s:
        errs += fail("%s:%d: the last layer's stop %s differs from the packet's %s" %
                     (src, p["frame"], layers[-1].get("stop"), s))
    if (s["reason"] == "needs-option") != ("option" in s):
        errs += fail("%s:%d: option %s with reason %s" % (src, p["frame"], s.get("option"), s["reason"]))
    return errs, (src, s["reason"], s["proto"], str(s.get("value", "-")), s.get("option", "-"))


def manifest_opts(corpus):
    """the corpus's per-file csumcheck options (MANIFEST.tsv's options column), if any"""
    opts = {}
    m = os.path.join(corpus, "MANIFEST.tsv")
    if not os.path.exists(m):
        return opts
    rows = [l.rstrip("\n").split("\t") for l in open(m) if l.strip()]
    head = rows[0] if rows else []
    if "options" not in head or "file" not in head:
        return opts
    fi, oi = head.index("file"), head.index("options")
    for r in rows[1:]:
        if len(r) > max(fi, oi) and r[oi].strip() and r[oi].strip() != "-":
            opts[r[fi]] = r[oi].split()
    return opts


def tshark_layers(path):
    out = subprocess.run(["tshark", "-n", "-r", path, "-o", "l2tp.l2_specific:Detect", "-T", "fields",
                          "-e", "frame.protocols"], capture_output=True, text=True)
    rows = []
    for line in out.stdout.splitlines():
        names = line.split(":")
        # "ip:ipv6": Wireshark's ip dissector handing a version-6 packet on
        # (AMT's data message calls "ip" whatever the version): one layer
        rows.append([COUNTED[n] for k, n in enumerate(names)
                     if n in COUNTED and (k == 0 or names[k - 1] != n) and
                     not (n == "ip" and names[k + 1:k + 2] == ["ipv6"])])
    return rows


def main(argv):
    write = len(argv) > 1 and argv[1] == "--write"
    args = argv[2:] if write else argv[1:]
    if len(args) not in (3, 4):
        print(__doc__)
        return 2
    csc, gen, caps = args[:3]
    corpus = args[3] if len(args) == 4 else None
    if not shutil.which("tshark"):
        return fail("tshark not installed (scripts/setup.sh installs it)")
    errs = 0
    counts = {}
    seen = set()
    tmp = tempfile.mkdtemp()
    runs = []
    for line in open(os.path.join(caps, "expected", "runs.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 2 and cols[1] == "default":
            runs.append((cols[0], os.path.join(caps, cols[0]), (cols[2] if len(cols) > 2 else "").split()))
    for name, stack, opts, want in GENERATED:
        path = os.path.join(tmp, name + ".pcap")
        r = subprocess.run([gen, "stack", "-o", path] + stack, capture_output=True, text=True)
        if r.returncode:
            errs += fail("csc-gen stack %s: %s" % (stack, r.stderr.strip()))
            continue
        p = packets(csc, opts, path)
        got = p[0].get("stop", {}).get("reason") if p else "<no packet>"
        if got != want:
            errs += fail("generated %s: stop %s, want %s" % (name, got, want))
        runs.append(("gen:" + name, path, opts))
    nown = len(runs)
    if corpus:
        for f in sorted(os.listdir(corpus)):
            if f.endswith((".pcap", ".pcapng", ".cap")):
                runs.append(("real:" + f, os.path.join(corpus, f), manifest_opts(corpus).get(f, [])))
    real = {}
    for i, (src, path, opts) in enumerate(runs):
        into = counts if i < nown else real
        pk = packets(csc, opts, path)
        if not pk:
            errs += fail("%s: no packet record" % src)
            continue
        for p in pk:
            e, key = check_frame(src, p)
            errs += e
            if key:
                into[key] = into.get(key, 0) + 1
                seen.add(key[1])
        ts = tshark_layers(path)
        for p, t in zip(pk, ts):
            ours = [l["proto"] for l in p["layers"] if l["proto"] in COUNTED.values()]
            if len(t) > len(ours) and not p.get("stop"):
                errs += fail("%s:%d: tshark decodes %s, csumcheck %s and says nothing stopped it" %
                             (src, p["frame"], t, ours))
    shutil.rmtree(tmp)
    for r in REASONS:
        if r not in seen and r != "unknown-link" and r != "depth":
            errs += fail("no capture or generated frame stops with %s" % r)
    tables = [("stops.tsv", counts)] + ([("stops-real.tsv", real)] if corpus else [])
    for name, cnt in tables:
        table = ["# source\treason\tproto\tvalue\toption\tframes (tests/golden/stops.py --write)"]
        table += ["\t".join(k) + "\t%d" % n for k, n in sorted(cnt.items())]
        exp = os.path.join(caps, "expected", name)
        if write:
            open(exp, "w").write("\n".join(table) + "\n")
        elif not os.path.exists(exp) or open(exp).read() != "\n".join(table) + "\n":
            errs += fail("the stops seen differ from %s:\n%s" % (exp, "\n".join(table)))
        by_reason = {}
        for k, n in cnt.items():
            by_reason[k[1]] = by_reason.get(k[1], 0) + n
        print("stops (%s): %d frames, by reason %s" % (name, sum(cnt.values()),
                                                        json.dumps(by_reason, sort_keys=True)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
