#!/usr/bin/env python3
"""bench/report.py - the tables of bench/run.sh (issue 13).

  report.py OUT TOOL_BYTES SWEEP      -> results.md on stdout (+ OUT/flows.dat)
  report.py --docs OUT DOC            -> the results into DOC between
                                         <!-- bench:begin --> and <!-- bench:end -->

Every figure comes from the hyperfine JSON files, the csumcheck summaries and
the RSS/load files run.sh wrote in OUT; nothing is typed in by hand.
"""
import json
import os
import sys


def shapes(out):
    res = []
    for line in open(os.path.join(out, "shapes.txt")):
        line = line.rstrip("\n")
        if not line:
            continue
        name, size, opts = line.split("|", 2)
        res.append((name, size, opts))
    return res


def hyper(path):
    d = json.load(open(path))["results"]
    return {r["command"]: r for r in d}


def frames_of(path):
    try:
        return json.loads(open(path).read())["frames"]
    except (OSError, ValueError, KeyError):
        return None


def rss_of(out):
    r = {}
    for line in open(os.path.join(out, "rss.txt")):
        f = line.split()
        if len(f) >= 2:
            r[f[0]] = f[1:]
    return r


def kind(name):
    return name.split("-")[0]


def flows(name, opts):
    o = opts.split()
    if "--flows" in o:
        return int(o[o.index("--flows") + 1])
    return None


def table(out, tool):
    lines = []
    rss = rss_of(out)
    lines.append("| shape | frames | floor | csumcheck | ratio | ns/frame | --threads 1 | ratio | "
                 "t1 / default | tshark (scaled) | tshark / csumcheck | tcpdump -vv (scaled) | "
                 "peak RSS |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    verdicts = []
    for name, size, opts in shapes(out):
        h = hyper(os.path.join(out, name + ".json"))
        big = os.path.getsize(os.path.join(out, name + ".pcap"))
        cut = os.path.getsize(os.path.join(out, name + ".cut.pcap"))
        scale = big / cut
        n = frames_of(os.path.join(out, name + ".summary.json"))
        fl = h["floor"]["median"]
        c = h["csumcheck"]["median"]
        t1 = h["csumcheck --threads 1"]["median"]
        ts = h["tshark"]["median"] * scale
        td = h["tcpdump -vv"]["median"] * scale
        r = rss.get(name, ["?"])[0]
        rmib = "%.1f MiB" % (int(r) / 1024) if r.isdigit() else "?"
        nsf = "%.0f" % (c / n * 1e9) if n else "?"
        lines.append("| %s | %s | %.3f s | %.3f s | **%.2f×** | %s | %.3f s | %.2f× | %.2f | %.1f s | %d× | %.2f s | %s |"
                     % (name, "{:,}".format(n) if n else "?", fl, c, c / fl, nsf, t1, t1 / fl, t1 / c,
                        ts, ts / c, td, rmib))
        fcount = flows(name, opts)
        if fcount is not None and fcount >= 4096:
            lim = 1.5 if kind(name) == "full" else 5.0
            verdicts.append((name, c / fl, lim, t1 / c, ts / c, r))
    lines.append("")
    lines.append("Cuts for tshark and tcpdump: %s per shape; their medians are multiplied by the "
                 "byte ratio to the full file (start-up included, a slight advantage to csumcheck)." % tool)
    lines.append("")
    if verdicts:
        lines.append("| shape (≥ 4,096 flows) | csumcheck / floor | target | --threads 1 / default (≤ 2) | "
                     "tshark / csumcheck (≥ 100) | RSS ≤ 32 MiB |")
        lines.append("|---|---|---|---|---|---|")
        for name, ratio, lim, t1r, tsr, r in verdicts:
            ok = lambda b: "met" if b else "**missed**"
            rs = int(r) / 1024 if r.isdigit() else 1e9
            lines.append("| %s | %.2f× | ≤ %.1f× %s | %.2f %s | %d× %s | %s |"
                         % (name, ratio, lim, ok(ratio <= lim), t1r, ok(t1r <= 2), tsr, ok(tsr >= 100),
                            ok(rs <= 32)))
        lines.append("")
    base = baseline(out)
    if base:
        lines.extend(base)
    for k, v in rss.items():
        if k.startswith("stream-"):
            wall = " (wall %.1f s, generator included)" % float(v[1]) if len(v) > 1 and v[1] != "?" else ""
            lines.append("Peak RSS on a %s stream of 1,000,000 flows (full-size frames, random interleave) "
                         "from standard input: %.1f MiB%s." % (k[7:], int(v[0]) / 1024, wall))
    return lines


def baseline(out):
    """With BASE=rev: csumcheck now against csumcheck built from rev, per
    shape, from the same hyperfine session (medians, and the spread of the
    runs so a difference can be read against the noise)."""
    rows = []
    for name, size, opts in shapes(out):
        h = hyper(os.path.join(out, name + ".json"))
        if "csumcheck (baseline)" not in h:
            continue
        b, c = h["csumcheck (baseline)"], h["csumcheck"]
        rows.append("| %s | %.3f s ± %.3f | %.3f s ± %.3f | %+.1f%% |"
                    % (name, b["median"], b["stddev"] or 0, c["median"], c["stddev"] or 0,
                       (c["median"] / b["median"] - 1) * 100))
    if not rows:
        return []
    return (["Regression check, in the same sessions (median ± standard deviation of the runs):", "",
             "| shape | csumcheck (baseline) | csumcheck | change |", "|---|---|---|---|"]
            + rows + [""])


def sweep(out):
    lines = []
    pts = {}
    for size in ("full", "small"):
        for fl in (16, 256, 4096, 65536, 1000000):
            p = os.path.join(out, "sweep-%s-%d.json" % (size, fl))
            if not os.path.exists(p):
                continue
            h = hyper(p)
            n = frames_of(os.path.join(out, "sweep-%s-%d.summary.json" % (size, fl)))
            if not n:
                continue
            pts[(size, fl)] = tuple(h[k]["median"] / n * 1e9
                                    for k in ("floor", "csumcheck", "csumcheck --threads 1")) + (n,)
    if not pts:
        return lines
    with open(os.path.join(out, "flows.dat"), "w") as f:
        f.write("# flows full_floor full_csc full_t1 small_floor small_csc small_t1 (ns per frame)\n")
        for fl in (16, 256, 4096, 65536, 1000000):
            a = pts.get(("full", fl))
            b = pts.get(("small", fl))
            if a and b:
                f.write("%d %.1f %.1f %.1f %.1f %.1f %.1f\n" % (fl, a[0], a[1], a[2], b[0], b[1], b[2]))
    lines.append("| frames | flows | frames in file | floor ns/frame | csumcheck ns/frame | vs 16 flows | "
                 "--threads 1 ns/frame | vs 16 flows |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for size in ("full", "small"):
        base = pts.get((size, 16))
        for fl in (16, 256, 4096, 65536, 1000000):
            p = pts.get((size, fl))
            if not p:
                continue
            lines.append("| %s | %s | %s | %.0f | %.0f | %+.0f%% | %.0f | %+.0f%% |"
                         % (size, "{:,}".format(fl), "{:,}".format(p[3]), p[0], p[1],
                            (p[1] / base[1] - 1) * 100 if base else 0, p[2],
                            (p[2] / base[2] - 1) * 100 if base else 0))
    lines.append("")
    return lines


def report(out, tool, do_sweep):
    lines = table(out, tool)
    if do_sweep == "1":
        lines.append("")
        lines.extend(sweep(out))
    return "\n".join(lines) + "\n"


def docs(out, doc):
    text = open(doc).read()
    b, e = "<!-- bench:begin -->", "<!-- bench:end -->"
    if b not in text or e not in text:
        sys.exit("report.py: %s has no bench markers" % doc)
    machine = open(os.path.join(out, "machine.txt")).read().rstrip()
    load = open(os.path.join(out, "load.txt")).read().rstrip()
    results = open(os.path.join(out, "results.md")).read().rstrip()
    sh = "\n".join("    %-22s csc-gen bench --bytes %s %s" % (n, s, o) for n, s, o in shapes(out)
                   if s != "kernel")
    body = "\n".join([
        b,
        "",
        "Written by `bench/run.sh` (do not edit by hand; run it again).",
        "",
        "**Machine and run**",
        "",
        "\n".join("    " + l for l in machine.splitlines()),
        "",
        "Load average (1, 5, 15 min) before each session:",
        "",
        "\n".join("    " + l for l in load.splitlines()),
        "",
        "**Shapes** (`csc-gen bench`, into bench/out/):",
        "",
        sh,
        "",
        results,
        "",
        "![time per frame against the number of flows](img/flows.png)",
        "",
        e,
    ])
    text = text[:text.index(b)] + body + text[text.index(e) + len(e):]
    open(doc, "w").write(text)


if __name__ == "__main__":
    if sys.argv[1] == "--docs":
        docs(sys.argv[2], sys.argv[3])
    else:
        sys.stdout.write(report(sys.argv[1], sys.argv[2], sys.argv[3]))
