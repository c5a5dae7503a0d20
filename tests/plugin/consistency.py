#!/usr/bin/env python3
"""Plugin vs CLI, frame by frame, over every capture in captures/ and
../shared/corpus/real.

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
all files; tshark runs per file with `-T json -J csumcheck` (the tree keeps
each layer's fields together). Files one reader cannot read completely
(fuzzer finds, cut files) are compared over the frames both read, and listed.
Exit 1 on any difference; 77 (skip) without the CLI, tshark or the corpus.
"""
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tshark_env import name_of, run_tshark, skip, values  # noqa: E402

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
        skip("corpus %s not found (CSC_SHARED/corpus/real)" % corpus)
    files += [os.path.join(corpus, n) for n in sorted(os.listdir(corpus)) if n.endswith(EXTS)]
    return sorted(files), n_caps


def multi(pairs):
    """JSON object hook: every key maps to the list of its values (tshark
    repeats keys for repeated fields and subtrees)."""
    d = {}
    for k, v in pairs:
        d.setdefault(k, []).append(v)
    return d


def one(d, k, default=""):
    v = d.get(k)
    return v[0] if v else default


def allv(d, k):
    return d.get(k, [])


def tshark_frames(path, prefs=()):
    args = ["-n", "-r", path, "-T", "json", "-J", "csumcheck"]
    for p in prefs:
        args += ["-o", p]
    out, err, rc = run_tshark(args, check=False)
    text = "\n".join(out)
    try:
        pkts = json.loads(text, object_pairs_hook=multi) if text.strip() else []
    except ValueError:
        # a read error mid-file can leave the array open
        try:
            pkts = json.loads(text.rstrip().rstrip(",") + "\n]", object_pairs_hook=multi)
        except ValueError:
            return None, "tshark output unparsable (rc %d): %s" % (rc, err.strip()[:200])
    frames = []
    for p in pkts:
        layers = one(one(p, "_source"), "layers")
        frames.append(one(layers, "csumcheck", None))
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


def hexnorm(s):
    return "%04x" % int(s, 16) if s not in ("", None) else ""


def plugin_view(t):
    """The plugin's csumcheck tree of one frame -> the CLI's vocabulary."""
    if t is None:
        return None
    v = {"stack": one(t, "csumcheck.stack"),
         "worst": name_of("csumcheck.verdict", one(t, "csumcheck.verdict"))}
    layers = []
    for L in allv(t, "csumcheck.layer"):
        k = one(L, "csumcheck.layer.kernel", {})
        # the replay's method item heads the subtree of the other details;
        # absent items mean their default (no conversion, no pass)
        m = one(L, "csumcheck.layer.method")
        k = one(L, "csumcheck.layer.method_tree", {})
        layer = {
            "index": int(one(L, "csumcheck.layer.index")),
            "proto": name_of("csumcheck.layer.proto", one(L, "csumcheck.layer.proto")),
            "offset": int(one(L, "csumcheck.layer.offset")),
            "verdict": name_of("csumcheck.layer.verdict", one(L, "csumcheck.layer.verdict")),
            "reason": name_of("csumcheck.layer.reason", one(L, "csumcheck.layer.reason")),
            "field": hexnorm(one(L, "csumcheck.layer.field")),
            "expected": hexnorm(one(L, "csumcheck.layer.expected")),
            "resolved": hexnorm(one(L, "csumcheck.layer.resolved")),
            "rco_delta": hexnorm(one(L, "csumcheck.layer.rco_delta")),
        }
        if m != "":
            layer["k"] = {
                "method": name_of("csumcheck.layer.method", m),
                "path": name_of("csumcheck.layer.path", one(k, "csumcheck.layer.path")) or None,
                "ok": name_of("csumcheck.layer.kernel_result", one(k, "csumcheck.layer.kernel_result"))
                or None,
                "passes": int(one(k, "csumcheck.layer.sw_passes", "0")),
                "pass_bytes": int(one(k, "csumcheck.layer.sw_bytes", "0")),
                "gro_convert": one(k, "csumcheck.layer.gro_converted") == "1",
                "convert": one(k, "csumcheck.layer.converted") == "1",
                "assumed": one(k, "csumcheck.layer.assumed") == "1",
            }
        layers.append(layer)
    v["layers"] = layers
    K = one(t, "csumcheck.kernel", {})
    ran = one(K, "csumcheck.kernel.replayed") == "1"
    kv = {"ran": ran,
          "verdict": name_of("csumcheck.kernel.verdict", one(K, "csumcheck.kernel.verdict")),
          "warnings": sorted(allv(K, "csumcheck.kernel.warning"))}
    if ran:
        kv.update({
            "counters": sorted(allv(K, "csumcheck.kernel.counter")),
            "sw_passes": int(one(K, "csumcheck.kernel.sw_passes")),
            "sw_bytes": int(one(K, "csumcheck.kernel.sw_bytes")),
            "hdr_bytes": int(one(K, "csumcheck.kernel.hdr_bytes", "0")),
        })
        if kv["verdict"] == "drop":
            dl = one(K, "csumcheck.kernel.drop_layer")
            kv["drop"] = {"layer": int(dl) if dl != "" else None,
                          "proto": name_of("csumcheck.kernel.drop_proto",
                                           one(K, "csumcheck.kernel.drop_proto")) or None,
                          "reason": one(K, "csumcheck.kernel.drop_reason")}
        devs = []
        # csumcheck.dev is the device name; its fields are in csumcheck.dev_tree
        for name, D in zip(allv(K, "csumcheck.dev"), allv(K, "csumcheck.dev_tree")):
            devs.append({
                "device": name,
                "ip_summed": name_of("csumcheck.dev.ip_summed", one(D, "csumcheck.dev.ip_summed")),
                "csum_level": int(one(D, "csumcheck.dev.csum_level", "0")),
                "csum_valid": int(one(D, "csumcheck.dev.csum_valid", "0")),
                "gro_ran": one(D, "csumcheck.dev.gro_ran") == "1",
                "gro": name_of("csumcheck.dev.gro", one(D, "csumcheck.dev.gro")),
                "gro_layer": int(one(D, "csumcheck.dev.gro_layer", "-1")),
                "passes": int(one(D, "csumcheck.dev.sw_passes", "0")),
                "pass_bytes": int(one(D, "csumcheck.dev.sw_bytes", "0")),
            })
            fate = name_of("csumcheck.dev.fate", one(D, "csumcheck.dev.fate"))
            if fate:   # the GRO engine's fate (absent: merged at the NIC, never here alone)
                devs[-1]["fate"] = {"fate": fate,
                                    "super": int(one(D, "csumcheck.dev.super", "0")) or None,
                                    "reason": name_of("csumcheck.dev.alone", one(D, "csumcheck.dev.alone")) or None,
                                    "flushed": one(D, "csumcheck.dev.flushed") or None}
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
        layer = {"index": i, "proto": L["proto"], "offset": L["offset"], "verdict": c["verdict"],
                 "reason": c.get("reason") or "", "field": hexnorm(c.get("field")),
                 "expected": hexnorm(c.get("expected")), "resolved": hexnorm(c.get("resolved")),
                 "rco_delta": hexnorm(c.get("rco_delta"))}
        k = L.get("kernel")
        if k is not None and K.get("ran"):
            reached = k["method"] != "not-reached"
            dev = k.get("device")
            layer["k"] = {
                "method": k["method"],
                "path": k.get("path") if reached else None,
                "ok": ({True: "ok", False: "failed"}.get(k.get("ok"), "not decided")) if reached else None,
                "passes": k.get("passes", 0), "pass_bytes": k.get("pass_bytes", 0),
                "gro_convert": bool(k.get("gro_convert")), "convert": bool(k.get("convert")),
                "assumed": bool(k.get("assumed")),
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
                         "gro_layer": -1 if g.get("layer") is None else g.get("layer"),
                         "passes": e.get("passes", 0), "pass_bytes": e.get("pass_bytes", 0)})
        for i, g in enumerate(o.get("gro_fate", [])):
            if i < len(devs):
                devs[i]["fate"] = {"fate": g["fate"], "super": g.get("super"), "reason": g.get("reason"),
                                   "flushed": g.get("flushed")}
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


def prefs_for(opts):
    """The CLI's receiver/decoder options -> the plugin's preferences."""
    prefs, fou, i = [], [], 0
    simple = {"--rx": "rx", "--era": "era", "--gro": "gro", "--gre-csum": "gre_csum",
              "--l2tp-cookie-len": "l2tp_cookie_len", "--l2tp-l2spec-len": "l2tp_l2spec_len"}
    flags = {"--remcsum-rx": "remcsum_rx", "--remcsum-nopartial": "remcsum_nopartial",
             "--udp6-zero-csum-rx": "udp6_zero_csum_rx", "--assume-bad": "assume_bad",
             "--no-socket": "no_socket"}
    ports = {"--vxlan-port": ("vxlan_ports", "4789"), "--vxlan-gpe-port": ("vxlan_gpe_ports", "4790"),
             "--geneve-port": ("geneve_ports", "6081"), "--gue-port": ("gue_ports", "6080"),
             "--l2tp-port": ("l2tp_ports", "1701"), "--mpls-port": ("mpls_ports", "6635")}
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
    values()  # fails/skips early if tshark or the plugin is missing

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
