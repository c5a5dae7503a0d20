#!/usr/bin/env python3
"""Plugin vs CLI, frame by frame, over every capture in captures/ and
the public corpus, tests/data/real.

Both front-ends call csc_analyze() + csc_frag_feed() on the same bytes, so
everything both expose must be equal:
  - the layer stack (protocols, outermost first) and the worst verdict;
  - per checksummed layer: index, protocol, offset, verdict, reason, field,
    expected, RCO/LCO resolved value and RCO delta, and the replay's method,
    path, device, result, passes, bytes,
    conversions;
  - the kernel outcome: replayed, verdict, drop layer/protocol/reason,
    counters, software passes and bytes, header bytes, warnings;
  - per device: entry ip_summed, csum_level, csum_valid, GRO ran/result/layer,
    and the GRO engine's fate (held/merged/alone, super-packet, why alone,
    the flush it caused).

The CLI (build/analyzer/csumcheck --format json, JSON Lines) runs once over
all files; tshark runs per file with `-T pdml -J csumcheck`: the tree keeps
each layer's fields together, and PDML carries each item's label
(showname) too, where the plugin puts what is not worth an item of its own
(a layer's replay path, device, result and software passes; a device's
csum_level, GRO layer and passes; the kernel's bytes), so those are compared
as well, read back from the labels. Files one reader cannot read completely
(fuzzer finds, cut files) are compared over the frames both read, and listed.
Exit 1 on any difference or without the corpus; 77 (skip) without the CLI or tshark.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tshark_env import run_tshark, skip  # noqa: E402

EXTS = (".pcap", ".pcapng", ".cap")


def capture_files():
    files = []
    caps = os.environ.get("CSC_CAPTURES", "")
    if caps and os.path.isdir(caps):
        for root, _, names in os.walk(caps):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(EXTS)]
    n_caps = len(files)
    corpus = os.environ.get("CSC_CORPUS", "")
    if not corpus or not os.path.isdir(corpus):
        print("FAIL: corpus %s not found (CSC_CORPUS, tests/data/real)" % corpus)
        sys.exit(1)
    files += [os.path.join(corpus, n) for n in sorted(os.listdir(corpus)) if n.endswith(EXTS)]
    return sorted(files), n_caps


def tshark_frames(path, prefs=()):
    """The csumcheck <proto> element of every frame (None where absent)."""
    args = ["-n", "-r", path, "-T", "pdml", "-J", "csumcheck"]
    for p in prefs:
        args += ["-o", p]
    out, err, rc = run_tshark(args, check=False)
    text = "\n".join(out)
    frames = []
    # packet by packet: a read error mid-file can leave the document open
    for blk in re.findall(r"<packet>.*?</packet>", text, re.S):
        try:
            pkt = ET.fromstring(blk)
        except ET.ParseError as e:
            return None, "tshark PDML unparsable (rc %d): %s" % (rc, e)
        frames.append(next((p for p in pkt.findall("proto") if p.get("name") == "csumcheck"), None))
    problem = None
    if rc != 0:
        problem = "tshark rc %d: %s" % (rc, " ".join(err.split())[:160])
    return frames, problem


def cli_frames(cli, files, opts=()):
    """{file: [packet objects in frame order]} and {file: error text}."""
    p = subprocess.run([cli, "--format", "json", "-q", "-j", "2"] + list(opts) + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    by = {f: [] for f in files}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        if o.get("type") == "packet":
            by.setdefault(o["file"], []).append(o)
    errs = {}
    for line in p.stderr.splitlines():
        for f in files:
            if f in line:
                errs[f] = line.strip()
    for f in by:
        by[f].sort(key=lambda o: o["frame"])
    return by, errs, p.returncode


def kids(e, name):
    return [f for f in e.findall("field") if f.get("name") == name]


def show(e, name, default=""):
    k = kids(e, name)
    return k[0].get("show") if k else default


def hexnorm(s):
    return "%04x" % int(s, 16) if s not in ("", None) else ""


LAYER_LABEL = re.compile(
    r"^(?P<proto>\S+) @(?P<off>\d+): (?P<verdict>\S+)(?: 0x[0-9a-f]{4})?(?:, expected 0x[0-9a-f]{4})?"
    r"(?: \((?P<reason>[^)]*)\))?"
    r"(?:; kernel: (?P<method>\S+)(?: on the (?P<path>\S+) path at (?P<dev>\S+), "
    r"(?P<ok>ok|failed|not decided)(?: \((?P<passes>\d+) sw pass(?:es)?, (?P<bytes>\d+) bytes\))?"
    r"(?P<gconv>, converted in GRO)?(?P<conv>, converted)?(?P<assumed>, assumed)?)?)?$")
KERNEL_LABEL = re.compile(
    r"^Kernel \(rx (?P<rx>.*), era (?P<era>\S+)\): (?P<sum>.*?)(?: at layer (?P<dl>\d+))?"
    r"(?:; (?P<passes>\d+) sw pass(?:es)?(?: over (?P<bytes>\d+) bytes)?(?:, (?P<hdr>\d+) header bytes)?)?$")
DEV_LABEL = re.compile(
    r"^Device (?P<name>\S+): entry (?P<summed>\S+)(?: level (?P<level>\d+))?(?P<valid> csum_valid)?"
    r"(?P<bad> csum_bad)?, (?:GRO (?P<gro>\S+)(?: at layer (?P<layer>\d+))?|no GRO pass \((?P<nogro>[^)]*)\))"
    r"(?:, (?P<passes>\d+) sw pass(?:es)? \((?P<bytes>\d+) bytes(?:, (?P<gp>\d+) in GRO)?\))?"
    r"(?:; GRO engine: (?:alone \((?P<alone>[^)]*)\)|(?P<held>held), first of \d+ segments? so far|"
    r"merged into the super-packet of frame (?P<msuper>\d+))(?:, flushed a held packet \((?P<flushed>[^)]*)\))?"
    r"(?P<depends> \(depends on the order the NIC sends packets up\))?)?$")


def label(e, rx, what):
    m = rx.match(e.get("showname", ""))
    if not m:
        raise SystemExit("consistency.py: unexpected %s label %r" % (what, e.get("showname")))
    return m


def plugin_view(t):
    """The plugin's csumcheck tree of one frame (PDML) -> the CLI's vocabulary."""
    if t is None:
        return None
    v = {"stack": show(t, "csumcheck.stack"), "worst": show(t, "csumcheck.verdict")}
    fills = {}
    for F in kids(t, "csumcheck.fill"):
        fills[int(show(F, "csumcheck.fill.offset"))] = (hexnorm(F.get("show")),
                                                        hexnorm(show(F, "csumcheck.fill.rco_delta")))
    layers = []
    for L in kids(t, "csumcheck.layer"):
        m = label(L, LAYER_LABEL, "layer")
        off = int(m["off"])
        fill, delta = fills.pop(off, ("", ""))
        layer = {
            "proto": L.get("show"), "offset": off,
            "verdict": show(L, "csumcheck.layer.verdict"),
            "reason": show(L, "csumcheck.layer.reason"),
            "field": hexnorm(show(L, "csumcheck.layer.checksum")),
            "expected": hexnorm(show(L, "csumcheck.layer.checksum_calculated")),
            "resolved": fill, "rco_delta": delta,
        }
        # the label must say what the items say
        if (m["proto"], m["verdict"], m["reason"] or "") != (layer["proto"], layer["verdict"], layer["reason"]):
            raise SystemExit("consistency.py: layer label %r disagrees with its items" % L.get("showname"))
        if m["method"]:
            reached = m["path"] is not None
            layer["k"] = {
                "method": m["method"], "path": m["path"], "device": m["dev"], "ok": m["ok"],
                "passes": int(m["passes"] or 0), "pass_bytes": int(m["bytes"] or 0),
                "gro_convert": bool(m["gconv"]), "convert": bool(m["conv"]), "assumed": bool(m["assumed"]),
            } if reached else {"method": m["method"], "path": None, "device": None, "ok": None, "passes": 0,
                               "pass_bytes": 0, "gro_convert": False, "convert": False, "assumed": False}
        layers.append(layer)
    if fills:
        raise SystemExit("consistency.py: checksum fill for no layer: %r" % fills)
    v["layers"] = layers
    K = kids(t, "csumcheck.kernel")[0]
    km = label(K, KERNEL_LABEL, "kernel")
    # (a sent frame is not replayed: "sent, not received", csumcheck.kernel == "sent")
    ran = show(K, "csumcheck.kernel.summary") not in ("not run", "sent, not received")
    if km["sum"] != show(K, "csumcheck.kernel.summary"):
        raise SystemExit("consistency.py: kernel label %r disagrees with its summary" % K.get("showname"))
    kv = {"ran": ran, "verdict": K.get("show"),
          "warnings": sorted(f.get("show") for f in kids(K, "csumcheck.kernel.warning"))}
    if ran:
        kv.update({
            "counters": sorted(f.get("show") for f in kids(K, "csumcheck.kernel.counter")),
            "sw_passes": int(show(K, "csumcheck.kernel.sw_passes")),
            "sw_bytes": int(km["bytes"] or 0),
            "hdr_bytes": int(km["hdr"] or 0),
        })
        if int(km["passes"]) != kv["sw_passes"]:
            raise SystemExit("consistency.py: kernel label %r disagrees with its items" % K.get("showname"))
        if kv["verdict"] == "drop":
            dl = show(K, "csumcheck.kernel.drop_layer")
            kv["drop"] = {"layer": int(dl) if dl != "" else None,
                          "proto": show(K, "csumcheck.kernel.drop_proto") or None,
                          "reason": show(K, "csumcheck.kernel.drop_reason")}
        devs = []
        for D in kids(K, "csumcheck.dev"):
            dm = label(D, DEV_LABEL, "device")
            dev = {"device": D.get("show"), "ip_summed": show(D, "csumcheck.dev.ip_summed"),
                   "csum_level": int(dm["level"] or 0), "csum_valid": 1 if dm["valid"] else 0,
                   "gro_ran": dm["gro"] is not None, "gro": dm["gro"] or dm["nogro"],
                   "gro_layer": int(dm["layer"]) if dm["layer"] else -1,
                   "passes": int(dm["passes"] or 0), "pass_bytes": int(dm["bytes"] or 0)}
            if dm["name"] != dev["device"] or dm["summed"] != dev["ip_summed"]:
                raise SystemExit("consistency.py: device label %r disagrees with its items" % D.get("showname"))
            fate = show(D, "csumcheck.dev.fate")
            if fate:   # the GRO engine's fate (absent: merged at the NIC)
                dev["fate"] = {"fate": fate, "super": int(show(D, "csumcheck.dev.super", "0")) or None,
                               "reason": dm["alone"], "flushed": show(D, "csumcheck.dev.flushed") or None,
                               "depends": "nic-order" if dm["depends"] else None}
            devs.append(dev)
        kv["devices"] = devs
    v["kernel"] = kv
    return v


def cli_view(o):
    v = {"stack": ":".join(L["proto"] for L in o["layers"]), "worst": o.get("worst")}
    K = o.get("kernel", {})
    layers = []
    for i, L in enumerate(o["layers"]):
        c = L.get("csum")
        if not c:
            continue
        layer = {"proto": L["proto"], "offset": L["offset"], "verdict": c["verdict"],
                 "reason": c.get("reason") or "", "field": hexnorm(c.get("field")),
                 "expected": hexnorm(c.get("expected")), "resolved": hexnorm(c.get("resolved")),
                 "rco_delta": hexnorm(c.get("rco_delta"))}
        k = L.get("kernel")
        if k is not None and K.get("ran"):
            reached = k["method"] != "not-reached"
            dev = k.get("dev")   # an index into entry_state: the plugin names the device
            es = K.get("entry_state", [])
            if isinstance(dev, int) and 0 <= dev < len(es):
                dev = es[dev]["device"]
            layer["k"] = {
                "method": k["method"],
                "path": k.get("path") if reached else None,
                "device": dev if reached else None,
                "ok": ({True: "ok", False: "failed"}.get(k.get("ok"), "not decided")) if reached else None,
                "passes": k.get("passes", 0) if reached else 0,
                "pass_bytes": k.get("pass_bytes", 0) if reached else 0,
                "gro_convert": bool(k.get("gro_convert")) and reached, "convert": bool(k.get("convert")) and reached,
                "assumed": bool(k.get("assumed")) and reached,
            }
        layers.append(layer)
    v["layers"] = layers
    kv = {"ran": bool(K.get("ran")), "verdict": K.get("verdict"), "warnings": sorted(K.get("warnings", []))}
    if kv["ran"]:
        kv.update({"counters": sorted(K.get("counters", [])), "sw_passes": K.get("sw_passes"),
                   "sw_bytes": K.get("sw_bytes"), "hdr_bytes": K.get("hdr_bytes")})
        if kv["verdict"] == "drop":
            d = K.get("drop", {})
            kv["drop"] = {"layer": d.get("layer"), "proto": d.get("proto"), "reason": d.get("reason")}
        gro = K.get("gro", [])
        devs = []
        for i, e in enumerate(K.get("entry_state", [])):
            g = gro[i] if i < len(gro) else {}
            devs.append({"device": e["device"], "ip_summed": e["ip_summed"],
                         "csum_level": e["csum_level"], "csum_valid": int(e["csum_valid"]),
                         "gro_ran": bool(g.get("ran")), "gro": g.get("result"),
                         # the label names the layer where a GRO pass that ran decided
                         "gro_layer": -1 if g.get("layer") is None or not g.get("ran") else g.get("layer"),
                         "passes": e.get("passes", 0), "pass_bytes": e.get("pass_bytes", 0)})
        for i, g in enumerate(o.get("gro_fate", [])):
            if i < len(devs):
                devs[i]["fate"] = {"fate": g["fate"], "super": g.get("super"), "reason": g.get("reason"),
                                   "flushed": g.get("flushed"), "depends": g.get("depends")}
        kv["devices"] = devs
    v["kernel"] = kv
    return v


def diff(a, b, path=""):
    """First differences between two nested values, as 'path: plugin != cli'."""
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            out += diff(a.get(k, "<absent>"), b.get(k, "<absent>"), "%s.%s" % (path, k))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a and isinstance(a[0], dict):
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, "%s[%d]" % (path, i))
    elif a != b:
        out.append("%s: plugin %r != cli %r" % (path, a, b))
    return out


_port_prefs = None


def port_prefs():
    """{CLI port option: (preference, its default)} as the plugin registered
    them from the core's protocol table (csc_proto_desc: option, pref,
    ports), read back from `tshark -G defaultprefs`: each port preference's
    description names the CLI option ("the CLI's --vxlan-port"), the line
    after it the preference and its default."""
    global _port_prefs
    if _port_prefs is None:
        _port_prefs = {}
        out, _, _ = run_tshark(["-G", "defaultprefs"])
        option = None
        for line in out:
            m = re.search(r"the CLI's (--[a-z0-9-]+-port);", line)
            if m:
                option = m.group(1)
                continue
            m = re.match(r"#?csumcheck\.([a-z0-9_]+_ports): *(.*)$", line)
            if m and option:
                _port_prefs[option] = (m.group(1), m.group(2).strip())
            if not line.startswith("#") or m:
                option = None
        if "--vxlan-port" not in _port_prefs:
            raise SystemExit("consistency.py: the plugin registered no port preference for --vxlan-port "
                             "(tshark -G defaultprefs)")
    return _port_prefs


def prefs_for(opts):
    """The CLI's receiver/decoder options -> the plugin's preferences."""
    prefs, fou, i = [], [], 0
    simple = {"--rx": "rx", "--era": "era", "--gro": "gro", "--gre-csum": "gre_csum",
              "--l2tp-cookie-len": "l2tp_cookie_len", "--l2tp-l2spec-len": "l2tp_l2spec_len"}
    flags = {"--remcsum-rx": "remcsum_rx", "--remcsum-nopartial": "remcsum_nopartial",
             "--udp6-zero-csum-rx": "udp6_zero_csum_rx", "--assume-bad": "assume_bad",
             "--no-socket": "no_socket", "--replay-sent": "replay_sent"}
    ports = port_prefs()
    extra = {}
    while i < len(opts):
        o = opts[i]
        if o in simple:
            prefs.append("csumcheck.%s:%s" % (simple[o], opts[i + 1]))
            i += 2
        elif o in flags:
            prefs.append("csumcheck.%s:TRUE" % flags[o])
            i += 1
        elif o == "--fou-port":
            fou.append(opts[i + 1])
            i += 2
        elif o in ports:   # the CLI adds to the default ports; the pref lists them all
            name, dflt = ports[o]
            extra.setdefault(name, [dflt]).append(opts[i + 1])
            i += 2
        else:
            raise SystemExit("consistency.py: no preference for CLI option %s" % o)
    if fou:
        prefs.append("csumcheck.fou_ports:" + ",".join(fou))
    for name, lst in extra.items():
        prefs.append("csumcheck.%s:%s" % (name, ",".join(lst)))
    return prefs


def compare(cli, files, opts, tally, mismatches, partial_files):
    prefs = prefs_for(opts)
    by_cli, cli_errs, _ = cli_frames(cli, files, opts)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        ts = dict(zip(files, ex.map(lambda f: tshark_frames(f, prefs), files)))
    tag = (" [%s]" % " ".join(opts)) if opts else ""
    for f in files:
        tframes, tproblem = ts[f]
        cframes = by_cli.get(f, [])
        short = os.path.relpath(f, os.path.dirname(os.path.dirname(f))) + tag
        if tframes is None:
            mismatches.append("%s: %s" % (short, tproblem))
            continue
        n = min(len(tframes), len(cframes))
        if len(tframes) != len(cframes) or tproblem or f in cli_errs:
            note = "%s: tshark read %d frames, CLI %d" % (short, len(tframes), len(cframes))
            reasons = [x for x in (tproblem, cli_errs.get(f)) if x]
            if not reasons:
                mismatches.append(note + " (neither reported a read error)")
            partial_files.append(note + ("; " + " | ".join(reasons) if reasons else ""))
        for i in range(n):
            o = cframes[i]
            if o["frame"] != i + 1:
                mismatches.append("%s: CLI frame numbering %d at position %d" % (short, o["frame"], i + 1))
                break
            pv = plugin_view(tframes[i])
            if pv is None:
                mismatches.append("%s frame %d: no csumcheck tree" % (short, i + 1))
                continue
            cv = cli_view(o)
            d = diff(pv, cv)
            tally["frames"] += 1
            tally["layers"] += len(cv["layers"])
            tally["kernel"] += 1 if cv["kernel"]["ran"] else 0
            if d:
                mismatches.append("%s frame %d: %s" % (short, i + 1, "; ".join(d[:4])))


def capture_runs():
    """(capture path, [CLI options]) from captures/expected/runs.tsv, for the
    runs with options (receiver configurations the captures are kept for)."""
    caps = os.environ.get("CSC_CAPTURES", "")
    runs_tsv = os.path.join(caps, "expected", "runs.tsv")
    runs = []
    if caps and os.path.exists(runs_tsv):
        for line in open(runs_tsv):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 3 and cols[2].strip() and os.path.exists(os.path.join(caps, cols[0])):
                runs.append((os.path.join(caps, cols[0]), cols[2].split()))
    return runs


def main():
    cli = os.environ.get("CSC_CLI", "")
    if not cli:
        skip("the CLI target csumcheck is not part of this build (libpcap/GLib missing?)")
    if not os.path.exists(cli):
        skip("CLI %s not built" % cli)
    files, n_caps = capture_files()
    if not files:
        skip("no captures found")
    run_tshark(["-G", "protocols"])  # fails/skips early if tshark or the plugin is missing

    mismatches, partial_files = [], []
    base = {"frames": 0, "layers": 0, "kernel": 0}
    compare(cli, files, [], base, mismatches, partial_files)
    print("consistency: default configuration: %d capture files (%d from captures/, %d from the corpus)" %
          (len(files), n_caps, len(files) - n_caps))
    print("consistency: default configuration: compared %d frames, %d checksummed layers, %d kernel replays" %
          (base["frames"], base["layers"], base["kernel"]))

    runs = capture_runs()
    alt = {"frames": 0, "layers": 0, "kernel": 0}
    for path, opts in runs:
        if "--peer-rx" in opts:   # the TX view's peer replay: the CLI's only (docs/direction.md)
            continue
        compare(cli, [path], opts, alt, mismatches, partial_files)
    if runs:
        print("consistency: %d other configurations of captures/expected/runs.tsv (CLI options <-> "
              "plugin preferences): compared %d frames, %d checksummed layers, %d kernel replays" %
              (len(runs), alt["frames"], alt["layers"], alt["kernel"]))
    total = base["frames"] + alt["frames"]
    print("consistency: %d frames compared in all, %d difference(s)" % (total, len(mismatches)))
    if partial_files:
        print("files one reader could not read to the end (compared over the frames both read):")
        for p in partial_files:
            print("  " + p)
    if mismatches:
        print("DIFFERENCES (first 40):")
        for m in mismatches[:40]:
            print("  " + m)
        return 1
    if total == 0:
        print("no frame compared")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
