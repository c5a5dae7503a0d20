#!/usr/bin/env python3
"""csumcheck plugin tests: tshark + the freshly built csumcheck.so on real
captures of the public corpus, tests/data/real. One CTest per case:

    plugin_tests.py CASE

Assertions are on `-T fields -e csumcheck.*` output (value_string fields
print numbers there; `tshark -G values` of the plugin itself maps them back
to the words), on `-Y` filters, expert info and custom columns. Exit 77
(skip, with the reason) when tshark or setpriv (as root) is missing; a
capture of the corpus that is not there is a failure.
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tshark_env import boolean, columns, name_of, need_env, preload_env, run_tshark, skip  # noqa: E402

failures = []


def corpus(name):
    d = os.environ.get("CSC_CORPUS", "")
    p = os.path.join(d, name)
    if not d or not os.path.exists(p):
        print("FAIL: corpus capture %s not found (CSC_CORPUS=%s, tests/data/real)" % (name, d))
        sys.exit(1)
    return p


def eq(what, got, want):
    if got != want:
        failures.append("%s:\n    got  %r\n    want %r" % (what, got, want))
    else:
        print("ok  %s = %r" % (what, got))


def fields(path, names, extra=(), config_dir=None):
    """One row per frame: {field: value with value_strings resolved}."""
    args = ["-n", "-r", path, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,",
            "-E", "separator=/t"] + list(extra)
    for n in names:
        args += ["-e", n]
    out, _, _ = run_tshark(args, config_dir=config_dir)
    rows = []
    for line in out:
        cols = line.split("\t")
        cols += [""] * (len(names) - len(cols))
        rows.append({n: boolean(name_of(n, c)) for n, c in zip(names, cols)})
    return rows


def tree_labels(path, prefix, extra=()):
    """The labels starting with prefix in every frame's csumcheck tree (-O csumcheck)."""
    out, _, _ = run_tshark(["-n", "-r", path, "-O", "csumcheck"] + list(extra))
    return [l.strip().strip("[]") for l in out if l.strip().startswith("[" + prefix)]


def kernel_labels(path, extra=()):
    """'Kernel (rx ..., era ...): outcome' of every frame (the label up to its counts)."""
    return [l.split(";")[0] for l in tree_labels(path, "Kernel (rx ", extra)]


def layer_offsets(path, extra=()):
    """Per frame, the offsets of its checksummed layers, from their labels ('tcp @84: ...')."""
    out, _, _ = run_tshark(["-n", "-r", path, "-O", "csumcheck"] + list(extra))
    frames, cur = [], None
    for line in out:
        if line.startswith("csumcheck: "):
            cur = []
            frames.append(cur)
        elif cur is not None and line.startswith("    [") and " @" in line.split(":")[0]:
            cur.append(int(line.split(" @")[1].split(":")[0]))
    return [",".join(map(str, f)) for f in frames]


def frames_matching(path, dfilter, extra=()):
    out, _, _ = run_tshark(["-n", "-r", path, "-Y", dfilter, "-T", "fields", "-e", "frame.number"]
                           + list(extra))
    return [int(x) for x in out if x]


LAYER = ["frame.number", "csumcheck.verdict", "csumcheck.summary", "csumcheck.stack",
         "csumcheck.layer", "csumcheck.layer.verdict", "csumcheck.layer.checksum",
         "csumcheck.layer.checksum_calculated", "csumcheck.kernel", "csumcheck.kernel.counter",
         "csumcheck.kernel.summary", "csumcheck.kernel.sw_passes", "csumcheck.kernel.drop_proto",
         "csumcheck.gro"]
# Every per-layer field: once per checksummed layer, always.
PER_LAYER = ["csumcheck.layer", "csumcheck.layer.verdict", "csumcheck.layer.reason",
             "csumcheck.layer.checksum", "csumcheck.layer.checksum_calculated"]


# ---------------------------------------------------------------------------
def t_loads():
    out, _, _ = run_tshark(["-G", "plugins"])
    line = [l for l in out if l.startswith("csumcheck.so")]
    eq("csumcheck.so listed by -G plugins", len(line), 1)
    if line:
        # As root, tshark loads a staged copy (tshark_env.py); it must be the build's file.
        loaded = line[0].split("\t")[-1]
        built = os.path.join(os.environ["CSC_PLUGIN_DIR"], os.environ.get("CSC_WS_VERSION", "4.0"),
                             "epan", "csumcheck.so")
        eq("loaded from <dir>/%s/epan/" % os.environ.get("CSC_WS_VERSION", "4.0"),
           loaded.endswith("/%s/epan/csumcheck.so" % os.environ.get("CSC_WS_VERSION", "4.0")), True)
        eq("the loaded csumcheck.so is the build's", filecmp.cmp(loaded, built, shallow=False), True)
    out, _, _ = run_tshark(["-G", "fields"])
    have = {l.split("\t")[2] for l in out if l.startswith("F\t") and "\tcsumcheck." in l}
    want = {"csumcheck.verdict", "csumcheck.summary", "csumcheck.stack", "csumcheck.gro", "csumcheck.dev",
            "csumcheck.layer", "csumcheck.layer.verdict", "csumcheck.layer.reason", "csumcheck.layer.checksum",
            "csumcheck.layer.checksum_calculated", "csumcheck.note", "csumcheck.fill", "csumcheck.kernel",
            "csumcheck.kernel.counter", "csumcheck.kernel.sw_passes", "csumcheck.kernel.summary",
            "csumcheck.kernel.drop_reason", "csumcheck.dev.ip_summed", "csumcheck.dev.fate", "csumcheck.dev.super"}
    eq("registered fields missing", sorted(want - have), [])
    print("    %d csumcheck fields registered" % len(have))
    out, _, _ = run_tshark(["-G", "protocols"])
    eq("protocol registered", [l.split("\t")[2] for l in out if l.split("\t")[2:3] == ["csumcheck"]],
       ["csumcheck"])


def t_exports():
    nm = os.environ.get("CSC_NM", "")
    if not nm:
        skip("nm not found")
    so = need_env("CSC_PLUGIN_SO")
    out = subprocess.run([nm, "-D", "--defined-only", so], stdout=subprocess.PIPE, text=True,
                         check=True).stdout.split("\n")
    syms = sorted(l.split()[-1] for l in out if l.strip())
    # plugin_describe() from 4.4 on (plugin/CMakeLists.txt)
    eq("exported symbols", syms, sorted(need_env("CSC_PLUGIN_EXPORTS").split(",")))


def t_vxlan_inner_bad():
    f = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    rows = fields(f, LAYER)
    eq("frames", len(rows), 1)
    r = rows[0]
    eq("csumcheck.verdict", r["csumcheck.verdict"], "bad")
    eq("csumcheck.summary", r["csumcheck.summary"], "bad tcp")
    eq("csumcheck.stack", r["csumcheck.stack"], "eth:ipv4:udp:vxlan:eth:ipv4:tcp")
    eq("csumcheck.layer", r["csumcheck.layer"], "ipv4,udp,ipv4,tcp")
    eq("layer offsets (labels)", layer_offsets(f), ["14,34,64,84"])
    eq("csumcheck.layer.verdict", r["csumcheck.layer.verdict"], "good,good,good,bad")
    eq("csumcheck.layer.checksum", r["csumcheck.layer.checksum"], "0xf73e,0x8947,0x66cd,0xdead")
    eq("csumcheck.layer.checksum_calculated", r["csumcheck.layer.checksum_calculated"], "0xf73e,0x8947,0x66cd,0x4b57")
    eq("csumcheck.kernel", r["csumcheck.kernel"], "drop")
    eq("csumcheck.kernel.drop_proto", r["csumcheck.kernel.drop_proto"], "tcp")
    eq("csumcheck.kernel.counter", r["csumcheck.kernel.counter"].split(",")[0], "TcpInCsumErrors")
    eq("csumcheck.kernel.summary", r["csumcheck.kernel.summary"], "drop TcpInCsumErrors")
    eq("csumcheck.gro", r["csumcheck.gro"], "csum-fail")
    eq("-Y csumcheck.verdict == \"bad\"", frames_matching(f, 'csumcheck.verdict == "bad"'), [1])
    eq("-Y csumcheck.verdict == \"good\"", frames_matching(f, 'csumcheck.verdict == "good"'), [])
    eq("-Y inner tcp bad", frames_matching(
        f, 'csumcheck.layer == "tcp" && csumcheck.layer.verdict == "bad"'), [1])
    eq("-Y csumcheck.kernel == \"drop\"",
       frames_matching(f, 'csumcheck.kernel == "drop"'), [1])
    eq("-Y csumcheck.layer.checksum_calculated == 0x4b57",
       frames_matching(f, "csumcheck.layer.checksum_calculated == 0x4b57"), [1])


def t_udp_bad():
    # 127.0.0.1 > 127.0.0.1: a loopback frame, sent by the capturing host (its TX
    # view, no replay: "sent, not received"); replay_sent replays it as received
    f = corpus("zeek__ip4-udp-bad-chksum.pcap")
    sent = fields(f, LAYER + ["csumcheck.kernel.drop_reason"])[0]
    eq("csumcheck.kernel (sent)", sent["csumcheck.kernel"], "sent")
    eq("csumcheck.kernel.summary (sent)", sent["csumcheck.kernel.summary"], "sent, not received")
    eq("csumcheck.kernel.drop_reason (sent)", sent["csumcheck.kernel.drop_reason"], "")
    eq("csumcheck.verdict (sent)", sent["csumcheck.verdict"], "bad")
    eq("-Y csumcheck.kernel == \"sent\"", frames_matching(f, 'csumcheck.kernel == "sent"'), [1])
    rs = ["-o", "csumcheck.replay_sent:TRUE"]
    r = fields(f, LAYER, rs)[0]
    eq("csumcheck.verdict", r["csumcheck.verdict"], "bad")
    eq("csumcheck.layer", r["csumcheck.layer"], "ipv4,udp")
    eq("csumcheck.layer.verdict", r["csumcheck.layer.verdict"], "good,bad")
    eq("csumcheck.layer.checksum", r["csumcheck.layer.checksum"], "0x7cca,0x0001")
    eq("csumcheck.layer.checksum_calculated", r["csumcheck.layer.checksum_calculated"], "0x7cca,0xa92a")
    eq("csumcheck.kernel.summary", r["csumcheck.kernel.summary"], "drop UdpInCsumErrors")
    rr = fields(f, ["csumcheck.layer.reason", "csumcheck.kernel.drop_reason"], rs)[0]
    eq("csumcheck.layer.reason (one per layer)", rr["csumcheck.layer.reason"], ",mismatch")
    eq("csumcheck.kernel.drop_reason", rr["csumcheck.kernel.drop_reason"], "UDP_CSUM")
    eq("-Y csumcheck.verdict == \"bad\"", frames_matching(f, 'csumcheck.verdict == "bad"'), [1])


def t_gso_partial():
    f = corpus("tcpdump__gso-ipv4-vxlan-ipv4.pcap")
    rows = fields(f, LAYER + ["csumcheck.layer.reason", "csumcheck.gso_segs"])
    eq("frames", len(rows), 1)
    r = rows[0]
    eq("csumcheck.verdict", r["csumcheck.verdict"], "partial")
    eq("csumcheck.stack", r["csumcheck.stack"], "eth:ipv4:udp:vxlan:eth:ipv4:tcp")
    eq("csumcheck.layer.verdict", r["csumcheck.layer.verdict"], "good,partial,good,partial")
    eq("csumcheck.summary", r["csumcheck.summary"], "partial udp,tcp")
    eq("-Y layer.verdict == partial",
       frames_matching(f, 'csumcheck.layer.verdict == "partial"'), [1])
    eq("-Y csumcheck.verdict == \"bad\"", frames_matching(f, 'csumcheck.verdict == "bad"'), [])
    # "probably sent" (its outer UDP checksum is a partial seed): the TX view's note
    eq("-Y csumcheck.sent (note)", frames_matching(f, "csumcheck.sent"), [1])
    eq("-Y csumcheck.offload", frames_matching(f, "csumcheck.offload"), [])
    eq("-Y csumcheck.offload (replayed)",
       frames_matching(f, "csumcheck.offload", ["-o", "csumcheck.replay_sent:TRUE"]), [1])
    eq("-Y csumcheck.bad (error)", frames_matching(f, "csumcheck.bad"), [])


def t_gue_inner():
    f = corpus("gen__gue-ipip-ping.pcap")
    rows = fields(f, LAYER + ["frame.protocols"])
    gue = [r for r in rows if "gue" in r["csumcheck.stack"]]
    eq("GUE frames", [r["frame.number"] for r in gue], ["3", "4"])
    for r in gue:
        n = r["frame.number"]
        # Wireshark 4.0 has no GUE dissector: it stops at udp:data ...
        eq("frame %s frame.protocols" % n, r["frame.protocols"], "eth:ethertype:ip:udp:data")
        # ... our fields still carry the inner layers' verdicts.
        eq("frame %s csumcheck.stack" % n, r["csumcheck.stack"], "eth:ipv4:udp:gue:ipv4:icmp")
        eq("frame %s layer.proto" % n, r["csumcheck.layer"], "ipv4,udp,ipv4,icmp")
        eq("frame %s layer offsets (labels)" % n, layer_offsets(f)[int(n) - 1], "14,34,46,66")
        eq("frame %s layer.verdict" % n, r["csumcheck.layer.verdict"], "good,none,good,good")
        eq("frame %s kernel.verdict" % n, r["csumcheck.kernel"], "accept")
    eq("-Y inner icmp good after gue", frames_matching(
        f, 'csumcheck.stack contains "gue" && csumcheck.layer == "icmp" '
           '&& csumcheck.layer.verdict == "good"'), [3, 4])


def t_ndpi_vxlan_filters():
    f = corpus("nDPI__vxlan.pcap")
    rows = fields(f, LAYER)
    n = len(rows)
    eq("frames", n, 127)
    partial = [int(r["frame.number"]) for r in rows if r["csumcheck.verdict"] == "partial"]
    drops = [int(r["frame.number"]) for r in rows if r["csumcheck.kernel"] == "drop"]
    sent = [int(r["frame.number"]) for r in rows if r["csumcheck.kernel"] == "sent"]
    tcp = [int(r["frame.number"]) for r in rows if "tcp" in r["csumcheck.layer"].split(",")]
    print("    %d partial, %d dropped, %d with inner TCP" % (len(partial), len(drops), len(tcp)))
    eq("some partial frames", len(partial) > 10, True)
    # The -Y filter engine sees the same values as -T fields.
    eq("-Y verdict == partial", frames_matching(f, 'csumcheck.verdict == "partial"'), partial)
    eq("-Y kernel.verdict == drop", frames_matching(f, 'csumcheck.kernel == "drop"'), drops)
    eq("-Y layer.proto == tcp", frames_matching(f, 'csumcheck.layer == "tcp"'), tcp)
    # A partial (TX-side) outer UDP checksum: the frame was sent ("probably sent",
    # the guess), not received: no replay, no drop ...
    eq("partial outer UDP frames are sent", partial, sent)
    eq("no drop", drops, [])
    eq("-Y kernel.verdict == sent", frames_matching(f, 'csumcheck.kernel == "sent"'), sent)
    # ... and replayed as received, wrong for a receiver reporting none
    rs = ["-o", "csumcheck.replay_sent:TRUE"]
    eq("replayed: partial outer UDP frames are dropped",
       frames_matching(f, 'csumcheck.kernel == "drop"', rs), partial)
    eq("every frame is VXLAN", all("vxlan" in r["csumcheck.stack"] for r in rows), True)


def t_sent():
    # tx-sll2.pcapng: cooked v2 with packet type outgoing on frames 1-10 (the
    # plugin reads the direction from the packet type, as the CLI does)
    f = captured("tx-sll2.pcapng")
    rows = fields(f, ["frame.number", "csumcheck.kernel", "csumcheck.kernel.summary", "csumcheck.tx",
                      "csumcheck.tx.wire"])
    r1 = rows[0]
    eq("frame 1 kernel", r1["csumcheck.kernel"], "sent")
    eq("frame 1 summary", r1["csumcheck.kernel.summary"], "sent, not received")
    eq("frame 1 tx", r1["csumcheck.tx"], "partial")
    eq("frame 1 tx.wire", r1["csumcheck.tx.wire"], "0x4fd4")
    eq("frame 3 tx (outer lco, inner partial)", rows[2]["csumcheck.tx"], "lco,partial")
    eq("frame 3 tx.wire", rows[2]["csumcheck.tx.wire"], "0x1420,0x4dd4")
    eq("frame 8 tx (gso)", rows[7]["csumcheck.tx"], "gso,gso")
    eq("-Y csumcheck.kernel == sent", frames_matching(f, 'csumcheck.kernel == "sent"'), list(range(1, 11)))
    eq("-Y csumcheck.kernel == drop", frames_matching(f, 'csumcheck.kernel == "drop"'), [12, 13])
    eq("-Y csumcheck.sent (note)", frames_matching(f, "csumcheck.sent"), [1, 2, 3, 4, 5, 6, 7, 8, 10])
    out, _, _ = run_tshark(["-n", "-r", f, "-c", "3", "-T", "fields", "-E", "occurrence=a", "-E",
                            "aggregator=|", "-e", "_ws.expert.message"])
    eq("frame 1 expert", [m for m in out[0].split("|") if "sent" in m],
       ["tcp@40 checksum is partial (seed): sent, not received; the NIC writes 0x4fd4"])
    eq("frame 3 expert", [m for m in out[2].split("|") if "sent" in m],
       ["udp@40 checksum is lco (lco): sent, not received; the wire carries it as is, right once "
        "the NIC completes the inner one",
        "tcp@90 checksum is partial (seed): sent, not received; the NIC writes 0x4dd4"])
    # replay_sent: replayed as received, the offload note as before
    rs = ["-o", "csumcheck.replay_sent:TRUE"]
    eq("replayed: frame 1 kernel", fields(f, ["csumcheck.kernel"], rs)[0]["csumcheck.kernel"], "drop")
    eq("replayed: no sent note", frames_matching(f, "csumcheck.sent", rs), [])


def t_expert():
    f = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    out, _, _ = run_tshark(["-n", "-r", f, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
                            "-e", "_ws.expert.message", "-e", "_ws.expert.severity",
                            "-e", "_ws.expert.group"])
    msgs = out[0].split("\t")[0].split("|")
    ours = [m for m in msgs if m.startswith("tcp checksum bad") or m.startswith("The kernel drops")]
    eq("csumcheck expert messages", ours,
       ["tcp checksum bad: 0xdead, expected 0x4b57 - mismatch",
        "The kernel drops this packet at tcp (layer 6): TCP_CSUM, TcpInCsumErrors"])
    eq("-Y csumcheck.bad", frames_matching(f, "csumcheck.bad"), [1])
    eq("-Y csumcheck.kernel.drop", frames_matching(f, "csumcheck.kernel.drop"), [1])
    out, _, _ = run_tshark(["-n", "-q", "-r", f, "-z", "expert,warn"])
    text = "\n".join(out)
    eq("-z expert lists the error", "tcp checksum bad: 0xdead, expected 0x4b57" in text, True)
    # unverifiable -> warning: a frame cut by the snaplen
    f2 = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    tmp = tempfile.mkdtemp(prefix="csc-plugin-")
    try:
        os.chmod(tmp, 0o755)
        cut = os.path.join(tmp, "cut.pcap")
        editcap = shutil.which("editcap")
        if not editcap:
            skip("editcap not found")
        subprocess.run([editcap, "-s", "90", f2, cut], check=True)
        os.chmod(cut, 0o644)
        r = fields(cut, ["csumcheck.stack", "csumcheck.layer", "csumcheck.layer.verdict",
                         "csumcheck.layer.reason", "csumcheck.stop", "csumcheck.stop.offset",
                         "csumcheck.kernel", "csumcheck.kernel.warning"])[0]
        # The outer UDP checksum covers bytes the capture lacks; the inner TCP
        # header (84..104) is cut, so the stack ends there.
        eq("snaplen 90: stack", r["csumcheck.stack"], "eth:ipv4:udp:vxlan:eth:ipv4")
        eq("snaplen 90: verdicts", r["csumcheck.layer.verdict"], "good,unverifiable,good")
        eq("snaplen 90: reasons (one per layer)", r["csumcheck.layer.reason"], ",snaplen,")
        eq("snaplen 90: stop", (r["csumcheck.stop"], r["csumcheck.stop.offset"]), ("truncated", "84"))
        eq("snaplen 90: kernel verdict", r["csumcheck.kernel"], "unknown")
        eq("snaplen 90: kernel warning", r["csumcheck.kernel.warning"], "assumed")
        eq("-Y csumcheck.unverifiable", frames_matching(cut, "csumcheck.unverifiable"), [1])
        eq("-Y csumcheck.stack_ends", frames_matching(cut, "csumcheck.stack_ends"), [1])
    finally:
        shutil.rmtree(tmp)


def t_prefs_rx():
    f = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    names = ["csumcheck.kernel", "csumcheck.kernel.warning", "csumcheck.kernel.sw_passes",
             "csumcheck.dev", "csumcheck.dev.ip_summed"]
    r = fields(f, names)[0]
    eq("default rx", kernel_labels(f), ["Kernel (rx none, era modern): drop TcpInCsumErrors at layer 6"])
    eq("default: drop", r["csumcheck.kernel"], "drop")
    eq("default: devices", r["csumcheck.dev"], "nic,vxlan")
    eq("default: entry state", r["csumcheck.dev.ip_summed"], "NONE,COMPLETE")
    # A NIC claiming csum_level 1 (outer UDP and inner TCP checked) makes the
    # kernel accept the bad inner checksum without looking.
    o = ["-o", "csumcheck.rx:unnecessary:1"]
    r = fields(f, names, o)[0]
    eq("rx unnecessary:1 in force", kernel_labels(f, o), ["Kernel (rx unnecessary:1, era modern): accept"])
    eq("rx unnecessary:1: accept", r["csumcheck.kernel"], "accept")
    eq("rx unnecessary:1: warning", r["csumcheck.kernel.warning"], "bad-checksum-accepted")
    eq("rx unnecessary:1: no software pass", r["csumcheck.kernel.sw_passes"], "0")
    eq("rx unnecessary:1: the NIC's entry state (label)", tree_labels(f, "Device nic:", o)[0].split(",")[0],
       "Device nic: entry UNNECESSARY level 1")
    eq("-Y with -o", frames_matching(f, 'csumcheck.kernel == "accept"', o), [1])
    eq("-Y csumcheck.kernel.warn (bad-checksum-accepted)", frames_matching(f, "csumcheck.kernel.warn", o), [1])


def t_prefs_era():
    f = corpus("gen__vxlan-ping.pcap")
    names = ["frame.number", "csumcheck.stack", "csumcheck.gro", "csumcheck.layer.verdict"]
    # Zero outer UDP checksum (verdict none): before 5.12 (89e5c58fc1e2) the
    # tunnel GRO gate refuses such frames; modern kernels let them in.
    for era, want in (("modern", "no-gro-handler"), ("5.12", "no-gro-handler"),
                      ("4.6", "udp-tunnel-gate")):
        rows = fields(f, names, ["-o", "csumcheck.era:" + era])
        vx = [r for r in rows if r["csumcheck.stack"] == "eth:ipv4:udp:vxlan:eth:ipv4:icmp"]
        eq("era %s: VXLAN/ICMP frames" % era, len(vx) > 0, True)
        eq("era %s in force" % era, {l.split(")")[0] for l in kernel_labels(f, ["-o", "csumcheck.era:" + era])},
           {"Kernel (rx none, era %s" % era})
        eq("era %s: outer udp verdict" % era, {r["csumcheck.layer.verdict"].split(",")[1] for r in vx},
           {"none"})
        eq("era %s: frame GRO outcome" % era, {r["csumcheck.gro"] for r in vx}, {want})


def t_prefs_invalid():
    f = corpus("nDPI__vxlan.pcap")
    bad = ["-o", "csumcheck.rx:bogus", "-o", "csumcheck.era:2.6", "-o", "csumcheck.fou_ports:5555"]
    out, err, rc = run_tshark(["-n", "-r", f, "-c", "3"] + bad +
                              ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
                               "-e", "_ws.expert.message"])
    eq("rc", rc, 0)
    eq("stderr names the bad device report", 'csumcheck.rx "bogus" is not a device report' in err, True)
    eq("stderr names the bad era", 'csumcheck.era "2.6" is not an era' in err, True)
    eq("frames", len(out), 3)
    for line in out:
        m = line.split("|")
        eq("expert info on every frame: rx", any(x.startswith('csumcheck.rx "bogus"') for x in m), True)
        eq("expert info on every frame: era", any(x.startswith('csumcheck.era "2.6"') for x in m), True)
        eq("expert info on every frame: fou", any(x.startswith('csumcheck.fou_ports: "5555"') for x in m),
           True)
    eq("defaults in force", set(l.split(")")[0] for l in kernel_labels(f, bad + ["-c", "3"])),
       {"Kernel (rx none, era modern"})
    eq("-Y csumcheck.bad_preference", len(frames_matching(f, "csumcheck.bad_preference",
                                                          ["-o", "csumcheck.rx:bogus"])), 127)
    # Valid values: no complaint.
    good = ["-o", "csumcheck.rx:partial:34:6", "-o", "csumcheck.era:4.13", "-o", "csumcheck.fou_ports:5555:4"]
    out, err, _ = run_tshark(["-n", "-r", f, "-c", "1"] + good + ["-T", "fields", "-e", "_ws.expert.message"])
    eq("valid prefs: no warning", "csumcheck preferences" in err, False)
    eq("valid prefs: in force", [l.split(")")[0] for l in kernel_labels(f, good + ["-c", "1"])],
       ["Kernel (rx partial:34:6, era 4.13"])
    # An unknown preference name is tshark's own error.
    _, err, rc = run_tshark(["-n", "-r", f, "-o", "csumcheck.nosuch:1"], check=False)
    eq("unknown preference name rejected", rc != 0 and "unknown preference" in err, True)


def t_columns():
    f = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    cfg = need_env("CSC_WS_CONFIG")
    rows = columns(f, ["-C", "csumcheck"], config_dir=cfg)
    eq("profile columns", list(rows[0]) if rows else [],
       ["No.", "Time", "Source", "Destination", "Protocol", "Length", "csum", "kernel", "Info"])
    eq("profile columns csum/kernel", [(r["csum"], r["kernel"]) for r in rows],
       [("bad tcp", "drop TcpInCsumErrors")])
    out, _, _ = run_tshark(["-n", "-C", "csumcheck", "-r", f], config_dir=cfg)
    eq("default output shows the columns", "bad tcp drop TcpInCsumErrors" in out[0], True)
    print("    " + out[0])
    g = corpus("gen__gue-ipip-ping.pcap")
    rows = columns(g, ["-C", "csumcheck"], config_dir=cfg)
    got = [(r["No."], r["csum"], r["kernel"]) for r in rows]
    eq("GUE columns", got[2:4], [("3", "none udp", "accept, 1 sw pass"), ("4", "none udp", "accept, 1 sw pass")])
    eq("no-IP frame columns", got[0], ("1", "n/a", "not run"))
    # The same through -o, as docs/wireshark.md shows.
    rows = columns(f, ["-o", 'gui.column.format:"No.","%m","csum","%Cus:csumcheck.summary:0:R",'
                             '"kernel","%Cus:csumcheck.kernel.summary:0:R","v","%Cus:csumcheck.layer.verdict"'])
    eq("-o gui.column.format", rows, [{"No.": "1", "csum": "bad tcp", "kernel": "drop TcpInCsumErrors",
                                       "v": "good,good,good,bad"}])


def t_two_pass():
    # Results are computed once (first pass, capture order) and kept per
    # frame: a two-pass run, a filtered run and a plain run agree.
    for name in ("nDPI__dns_fragmented.pcap", "nDPI__vxlan.pcap", "PcapPlusPlus__ip6_fragments.pcap"):
        f = corpus(name)
        names = LAYER + ["csumcheck.layer.reason", "csumcheck.reassembled"]
        one = fields(f, names)
        two = fields(f, names, ["-2"])
        eq("%s: -2 equals one pass" % name, two, one)
        last = str(len(one))
        filt = fields(f, names, ["-2", "-Y", "frame.number == %s" % last])
        eq("%s: -2 -Y last frame equals one pass" % name, filt, [one[-1]])


def captured(name):
    d = os.environ.get("CSC_CAPTURES", "")
    p = os.path.join(d, name)
    if not d or not os.path.exists(p):
        skip("capture %s not found (CSC_CAPTURES)" % name)
    return p


def t_stops():
    # Why decoding ended, one frame per reason (captures/stops.pcap): the
    # fields, the one-line text as csumcheck -v prints it, the two expert
    # groups; and with the preference the stop names, decoding goes on.
    f = captured("stops.pcap")
    names = ["frame.number", "csumcheck.stop", "csumcheck.stop.offset", "csumcheck.stop.value",
             "csumcheck.stop.option", "csumcheck.stop.text"]
    rows = {r["frame.number"]: r for r in fields(f, names)}
    eq("unknown EtherType", (rows["1"]["csumcheck.stop"], rows["1"]["csumcheck.stop.text"]),
       ("unknown-ethertype", "unknown-ethertype 0x88b5 eth@0"))
    eq("unknown GRE protocol: value", rows["2"]["csumcheck.stop.value"], "0x000088b6")
    eq("unknown IP protocol", rows["3"]["csumcheck.stop.text"], "unknown-ipproto 253 ipv4@14")
    eq("VXLAN on 8472", (rows["7"]["csumcheck.stop"], rows["7"]["csumcheck.stop.option"],
                         rows["7"]["csumcheck.stop.text"]),
       ("needs-option", "vxlan-port", "needs-option --vxlan-port 8472 udp@34"))
    eq("ARP is no stop", rows["11"]["csumcheck.stop"], "")
    eq("-Y csumcheck.stack_ends (malformed group)", frames_matching(f, "csumcheck.stack_ends"), [9])
    eq("-Y csumcheck.stack_ends.undecoded", frames_matching(f, "csumcheck.stack_ends.undecoded"),
       [1, 2, 3, 4, 5, 6, 7, 8])
    out, _, _ = run_tshark(["-n", "-r", f, "-Y", "frame.number == 7", "-T", "fields", "-E", "occurrence=a",
                            "-E", "aggregator=|", "-e", "_ws.expert.message"])
    eq("needs-option expert names the preference",
       [m for m in out[0].split("|") if m.startswith("Layer stack ends early")],
       ["Layer stack ends early: needs-option --vxlan-port 8472 udp@34; the layers after it are not judged. "
        "Preference csumcheck.vxlan_ports"])
    rows = fields(f, ["frame.number", "csumcheck.stop", "csumcheck.stack"], ["-o", "csumcheck.vxlan_ports:8472"])
    eq("with the port preference: decoded", (rows[6]["csumcheck.stop"], rows[6]["csumcheck.stack"]),
       ("", "eth:ipv4:udp:vxlan:eth:ipv4:tcp"))
    # L2TPv3 without the sublayer: chosen from the bytes (auto), or as told
    f = captured("l2tpv3-nosub.pcap")
    rows = fields(f, ["csumcheck.stack", "csumcheck.l2spec_guessed"], ["-c", "1"])
    eq("l2spec auto: stack, chosen length", (rows[0]["csumcheck.stack"], rows[0]["csumcheck.l2spec_guessed"]),
       ("eth:ipv4:l2tp:eth:ipv4:tcp", "0"))
    eq("-Y csumcheck.l2spec_guessed.note", frames_matching(f, "csumcheck.l2spec_guessed.note"), [1, 2, 3])
    rows = fields(f, ["csumcheck.stack", "csumcheck.l2spec_guessed"],
                  ["-c", "1", "-o", "csumcheck.l2tp_l2spec_len:0"])
    eq("l2spec 0: stack, nothing guessed", (rows[0]["csumcheck.stack"], rows[0]["csumcheck.l2spec_guessed"]),
       ("eth:ipv4:l2tp:eth:ipv4:tcp", ""))


def t_gro_engine():
    # One TCP flow over VXLAN, segment 4 with a bad inner checksum (csc-gen
    # flow --bad-seg 4): the NIC holds 1, merges 2-3, passes 4 up at once
    # (csum-fail), and 5 cannot follow 3 (seq-gap flushes 1-3) so it starts
    # a new super-packet that 6-8 join. The tunnel device sees 1, 4 and 5.
    f = captured("flow-bad-middle.pcap")
    names = ["frame.number", "csumcheck.dev", "csumcheck.dev.fate", "csumcheck.dev.super",
             "csumcheck.dev.super_segs", "csumcheck.dev.flushed", "csumcheck.gro"]
    rows = fields(f, names, ["-2"])
    got = [[r[n] for n in names] for r in rows]
    eq("fates per frame (-2: segment counts complete)", got, [
        ["1", "nic,vxlan", "held,held", "1,1", "3,1", "", "held"],
        ["2", "nic,vxlan", "merged", "1", "", "", "held"],
        ["3", "nic,vxlan", "merged", "1", "", "", "held"],
        ["4", "nic,vxlan", "alone,alone", "", "", "", "csum-fail"],
        ["5", "nic,vxlan", "held,held", "5,5", "4,1", "seq-gap,seq-gap", "held"],
        ["6", "nic,vxlan", "merged", "5", "", "", "held"],
        ["7", "nic,vxlan", "merged", "5", "", "", "held"],
        ["8", "nic,vxlan", "merged", "5", "", "", "held"],
    ])
    # why alone, and the segment counts, in the devices' labels
    eq("frame 4's devices (labels)", [l.split("; ")[1] for l in tree_labels(f, "Device ", ["-2", "-Y", "frame.number == 4"])
                                      if ": entry " in l],
       ["GRO engine: alone (csum-fail)", "GRO engine: alone (csum-fail)"])
    eq("frame 1's NIC (label)", tree_labels(f, "Device nic:", ["-2", "-Y", "frame.number == 1"])[0].split("; ")[1],
       "GRO engine: held, first of 3 segments so far")
    eq("-Y csumcheck.dev.fate == merged", frames_matching(f, "csumcheck.dev.fate == merged"), [2, 3, 6, 7, 8])
    eq("-Y csumcheck.dev.super == 5", frames_matching(f, "csumcheck.dev.super == 5"), [5, 6, 7, 8])
    # Engine preferences, as the CLI's --poll-gap: every frame its own NAPI
    # poll, nothing merges; with a flush timeout, merging is back.
    gap0 = ["-o", "csumcheck.poll_gap:0"]
    eq("poll_gap 0: nothing merged", frames_matching(f, "csumcheck.dev.fate == merged", gap0), [])
    eq("poll_gap 0 + gro_flush_timeout 1000: merged again",
       frames_matching(f, "csumcheck.dev.fate == merged", gap0 + ["-o", "csumcheck.gro_flush_timeout:1000"]),
       [2, 3, 6, 7, 8])
    out, err, _ = run_tshark(["-n", "-r", f, "-c", "1", "-o", "csumcheck.gro_budget:0", "-T", "fields",
                              "-e", "_ws.expert.message"])
    eq("gro_budget 0 reported", "csumcheck.gro_budget must be 1-65535" in err and
       "csumcheck.gro_budget must be 1-65535" in out[0], True)


def t_frag_reassembly():
    f = corpus("nDPI__dns_fragmented.pcap")
    rows = fields(f, ["frame.number", "csumcheck.stack", "csumcheck.layer",
                      "csumcheck.layer.verdict", "csumcheck.layer.reason", "csumcheck.reassembled"])
    by = {r["frame.number"]: r for r in rows}
    # frame 2: first fragment, UDP unverifiable (fragment); frame 3 completes it
    eq("frame 2 verdicts", by["2"]["csumcheck.layer.verdict"], "good,unverifiable")
    eq("frame 2 reasons", by["2"]["csumcheck.layer.reason"], ",fragment")
    eq("frame 3 verdicts", by["3"]["csumcheck.layer.verdict"], "good,good")
    eq("frame 3 reasons", by["3"]["csumcheck.layer.reason"], ",reassembled")
    eq("frame 3 csumcheck.reassembled", by["3"]["csumcheck.reassembled"], "1")
    done = frames_matching(f, "csumcheck.reassembled")
    eq("-Y csumcheck.reassembled: the first three datagrams", done[:3], [3, 6, 9])
    eq("-Y layer.reason == reassembled is the same set",
       frames_matching(f, 'csumcheck.layer.reason == "reassembled"'), done)


def t_raw_ip_lengths():
    # Raw-IP link: Wireshark's IPv6 dissector trims the frame tvb to the
    # datagram before postdissectors run; the plugin must still analyse the
    # record's lengths (caplen 79, wire length 188109), as the CLI does.
    f = corpus("tcpdump__erspan-type-iii-pb-1.pcap")
    r = fields(f, ["frame.len", "frame.cap_len", "csumcheck.stack", "csumcheck.gro"])[0]
    eq("record lengths", (r["frame.len"], r["frame.cap_len"]), ("188109", "79"))
    eq("stack", r["csumcheck.stack"], "ipv6:gre")
    eq("NIC GRO flushes on the IPv6 length vs the wire length", r["csumcheck.gro"], "ip-len")
    eq("at the IPv6 layer (the NIC's label)", tree_labels(f, "Device nic:")[0].split("; ")[0].split(", ")[1],
       "GRO ip-len at layer 0")


def t_disable():
    f = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    out, _, _ = run_tshark(["-n", "-r", f, "--disable-protocol", "csumcheck", "-T", "fields",
                            "-e", "frame.number", "-e", "csumcheck.verdict"])
    eq("--disable-protocol csumcheck", out, ["1\t"])


def t_install():
    """Both install components: plugin (the current user, run as a non-root
    user: exit 0, no root warning, tshark then loads it for that user with the
    csumcheck profile) and plugin-system (with DESTDIR)."""
    cmake = need_env("CSC_CMAKE")
    build = need_env("CSC_BUILD_DIR")
    ver = os.environ.get("CSC_WS_VERSION", "4.0")
    tmp = tempfile.mkdtemp(prefix="csc-install-")
    os.chmod(tmp, 0o755)
    try:
        # plugin-system, staged under DESTDIR
        env = dict(os.environ, DESTDIR=os.path.join(tmp, "root"))
        p = subprocess.run([cmake, "--install", build, "--component", "plugin-system"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        eq("plugin-system: exit status", p.returncode, 0)
        so = os.path.join(tmp, "root", os.environ["CSC_WS_SYSTEM_PLUGIN_DIR"].lstrip("/"), "epan/csumcheck.so")
        eq("plugin-system: csumcheck.so in the distribution's plugin folder", os.path.exists(so), True)
        prof = [os.path.relpath(os.path.join(d, f), tmp) for d, _, fs in os.walk(os.path.join(tmp, "root"))
                for f in fs if f == "preferences"]
        eq("plugin-system: profile in the global profiles folder",
           [x for x in prof if x.endswith("/wireshark/profiles/csumcheck/preferences")] == prof and len(prof) == 1,
           True)

        # plugin, as a non-root user with a home of its own
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        user = []
        if os.geteuid() == 0:
            os.chown(home, 65534, 65534)
            user = [need_env("CSC_SETPRIV"), "--reuid=65534", "--regid=65534", "--clear-groups"]
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "LC_ALL": "C"}
        built_so = os.path.join(os.environ["CSC_PLUGIN_DIR"], ver, "epan", "csumcheck.so")
        reach = subprocess.run(user + ["sh", "-c", 'test -r "$0" && test -r "$1"',
                                       os.path.join(build, "cmake_install.cmake"), built_so], env=env)
        man = os.path.join(build, "install_manifest_plugin.txt")
        if reach.returncode == 0:
            # cmake writes its install manifest into the build folder, which a
            # user's own build would let it do; this one is root's.
            if user:
                open(man, "w").close()
                os.chown(man, 65534, 65534)
            p = subprocess.run(user + [cmake, "--install", build, "--component", "plugin"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            how = "as uid %d" % (65534 if user else os.geteuid())
        else:
            # The build is in a folder that user cannot enter (a 0700 clone):
            # install as root into that home, and check that nothing was
            # written outside it (what made a non-root install fail before).
            p = subprocess.run([cmake, "--install", build, "--component", "plugin"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            subprocess.run(["chown", "-R", "65534:65534", home], check=True)
            how = "as root into that home (the build is unreachable for uid 65534)"
            outside = [l for l in open(man).read().split() if not l.startswith(home + "/")]
            eq("plugin: every installed file is in the user's home", outside, [])
        print("    user install " + how)
        print("    " + p.stdout.strip().replace("\n", "\n    "))
        eq("plugin (user install): exit status", p.returncode, 0)
        if reach.returncode != 0:
            # root ran it, so root's warning is right here
            eq("plugin: the root warning when root installs into a home", "installed for root only" in p.stdout,
               True)
        else:   # run as uid 65534 (or as the non-root user running the tests)
            eq("plugin: no root warning for a non-root user", "root" in p.stdout, False)
        got = os.path.join(home, ".local/lib/wireshark/plugins", ver, "epan/csumcheck.so")
        eq("plugin: csumcheck.so in ~/.local/lib/wireshark/plugins/%s/epan" % ver, os.path.exists(got), True)
        eq("plugin: profile in ~/.config/wireshark/profiles/csumcheck",
           os.path.exists(os.path.join(home, ".config/wireshark/profiles/csumcheck/preferences")), True)
        # That user's tshark loads it, no WIRESHARK_PLUGIN_DIR, and has the profile.
        tshark = need_env("CSC_TSHARK")
        ts = user + ["env", "-i", "PATH=/usr/bin:/bin", "HOME=" + home, "LC_ALL=C",
                     "WIRESHARK_EXTCAP_DIR=" + home] + preload_env() + [tshark]
        p = subprocess.run(ts + ["-G", "plugins"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        eq("that user's tshark loads it from the personal folder",
           [l.split("\t")[-1] for l in p.stdout.splitlines() if l.startswith("csumcheck.so")], [got])
        cap = readable_copy(corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap"), tmp)
        p = subprocess.run(ts + ["-n", "-C", "csumcheck", "-r", cap], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        eq("that user's csumcheck profile shows the columns", "bad tcp drop TcpInCsumErrors" in p.stdout, True)
        # As root, the user component warns (root ignores the personal folder).
        if os.geteuid() == 0:
            env = dict(os.environ, DESTDIR=os.path.join(tmp, "rootinst"), HOME="/root")
            p = subprocess.run([cmake, "--install", build, "--component", "plugin"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            eq("plugin as root: exit 0 and the root warning", (p.returncode, "installed for root only" in p.stdout),
               (0, True))
    finally:
        shutil.rmtree(tmp)


def readable_copy(path, tmp):
    dst = os.path.join(tmp, os.path.basename(path))
    shutil.copyfile(path, dst)
    os.chmod(dst, 0o644)
    return dst


def t_field_names():
    """tshark -G fields: every csumcheck field (expert fields included) has a
    description, no two share a display name, and none is a number with a
    value_string (words are string fields, so -T fields prints words)."""
    out, _, _ = run_tshark(["-G", "fields"])
    ours = [l.split("\t") for l in out if l.startswith("F\t") and
            (l.split("\t")[2] == "csumcheck" or l.split("\t")[2].startswith("csumcheck."))]
    print("    %d csumcheck fields" % len(ours))
    eq("fields registered", len(ours) >= 30, True)
    eq("fields without a description", [f[2] for f in ours if len(f) < 8 or not f[7].strip()], [])
    names = {}
    for f in ours:
        names.setdefault(f[1], []).append(f[2])
    eq("display names shared by two fields", {n: a for n, a in names.items() if len(a) > 1}, {})
    out, _, _ = run_tshark(["-G", "values"])
    eq("value_strings on csumcheck fields", sorted({l.split("\t")[1] for l in out
                                                     if l.startswith("V\tcsumcheck.")}), [])


def t_layer_lists():
    """-T fields over every frame of captures/: each per-layer field has one
    entry per checksummed layer (csumcheck.layer's count), always."""
    d = os.environ.get("CSC_CAPTURES", "")
    if not d or not os.path.isdir(d):
        skip("captures/ not found (CSC_CAPTURES)")
    files = sorted(os.path.join(r, n) for r, _, ns in os.walk(d) for n in ns
                   if n.endswith((".pcap", ".pcapng")))
    frames = layers = 0
    bad = []
    for path in files:
        args = ["-n", "-r", path, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|"]
        for n in PER_LAYER:
            args += ["-e", n]
        out, _, _ = run_tshark(args, check=False)
        for i, line in enumerate(out):
            cols = (line.split("\t") + [""] * len(PER_LAYER))[:len(PER_LAYER)]
            n = len(cols[0].split("|")) if cols[0] else 0
            counts = [len(c.split("|")) if n else (0 if c == "" else -1) for c in cols]
            frames += 1
            layers += n
            if counts != [n] * len(PER_LAYER):
                bad.append("%s frame %d: %s" % (os.path.basename(path), i + 1, dict(zip(PER_LAYER, counts))))
    print("    %d files, %d frames, %d checksummed layers" % (len(files), frames, layers))
    eq("every frame of captures/ read", frames >= 250, True)
    eq("frames whose per-layer lists differ in length", bad[:10], [])


def t_private_checkout():
    """The checkout in a folder only root may enter (a clone under a 0700
    temporary folder): tshark runs as uid 65534 and cannot reach the build or
    the captures, so tshark_env.py stages what it reads in a world-readable
    folder and removes it. Replays three cases against such a layout."""
    if os.geteuid() != 0:
        skip("not root: tshark runs as you and reads the checkout directly")
    built = need_env("CSC_PLUGIN_DIR")
    ver = os.environ.get("CSC_WS_VERSION", "4.0")
    cap = corpus("zeek__vxlan-inner-tcp-bad-checksum.pcap")
    priv = tempfile.mkdtemp(prefix="csc-private-")   # 0700
    stages = tempfile.mkdtemp(prefix="csc-stages-")
    os.chmod(stages, 0o755)   # the stage folders inside must be reachable
    try:
        eq("private folder mode", oct(os.stat(priv).st_mode & 0o777), "0o700")
        os.makedirs(os.path.join(priv, "plugins", ver, "epan"))
        shutil.copy(os.path.join(built, ver, "epan", "csumcheck.so"), os.path.join(priv, "plugins", ver, "epan"))
        shutil.copytree(need_env("CSC_WS_CONFIG"), os.path.join(priv, "wsconfig"))
        os.makedirs(os.path.join(priv, "corpus"))
        for name in ("zeek__vxlan-inner-tcp-bad-checksum.pcap", "gen__gue-ipip-ping.pcap"):
            shutil.copy(corpus(name), os.path.join(priv, "corpus"))
        # Control: uid 65534 really cannot read it there.
        p = subprocess.run([need_env("CSC_SETPRIV"), "--reuid=65534", "--regid=65534", "--clear-groups",
                            "cat", os.path.join(priv, "corpus", os.path.basename(cap))],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        eq("uid 65534 cannot read the private folder", p.returncode != 0, True)
        env = dict(os.environ, CSC_PLUGIN_DIR=os.path.join(priv, "plugins"),
                   CSC_WS_CONFIG=os.path.join(priv, "wsconfig"), CSC_CORPUS=os.path.join(priv, "corpus"),
                   CSC_STAGE_PARENT=stages)
        for case in ("loads", "vxlan-inner-bad", "columns"):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), case], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            eq("case %s from a 0700 folder: exit status" % case, r.returncode, 0)
            if r.returncode:
                print(r.stdout[-3000:])
        eq("stage folders removed", os.listdir(stages), [])
    finally:
        shutil.rmtree(priv)
        shutil.rmtree(stages)


CASES = {name[2:].replace("_", "-"): fn for name, fn in globals().items() if name.startswith("t_")}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit("usage: plugin_tests.py {%s}" % ",".join(sorted(CASES)))
    CASES[sys.argv[1]]()
    if failures:
        print("\nFAILED %d check(s):" % len(failures))
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print("PASS")
