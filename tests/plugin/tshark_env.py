"""Run the stock tshark with the freshly built csumcheck.so (stdlib only).

tshark ignores WIRESHARK_PLUGIN_DIR and the personal plugin folder when it
runs as root (started_with_special_privs()). As root we therefore drop to
uid/gid 65534 with setpriv; otherwise WIRESHARK_PLUGIN_DIR is enough. The
build tree, the corpus and WIRESHARK_CONFIG_DIR must be readable by 65534.

Environment (set by tests/plugin/CMakeLists.txt): CSC_TSHARK, CSC_SETPRIV,
CSC_PLUGIN_DIR, CSC_WS_CONFIG, CSC_PRELOAD (libasan in sanitizer builds).
"""
import os
import subprocess
import sys

SKIP = 77


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(SKIP)


def need_env(name):
    v = os.environ.get(name, "")
    if not v:
        skip("%s is not set (run through ctest)" % name)
    return v


def tshark_cmd(args, config_dir=None, plugin=True):
    tshark = os.environ.get("CSC_TSHARK", "")
    if not tshark or not os.path.exists(tshark):
        skip("tshark not found (apt-get install tshark)")
    plugin_dir = need_env("CSC_PLUGIN_DIR")
    if not os.path.exists(os.path.join(plugin_dir, os.environ.get("CSC_WS_VERSION", "4.0"), "epan",
                                       "csumcheck.so")):
        skip("csumcheck.so not built in %s" % plugin_dir)
    env = ["HOME=/nonexistent", "LC_ALL=C"]
    if plugin:
        env.append("WIRESHARK_PLUGIN_DIR=" + plugin_dir)
    else:
        # Same plugin folder layout, without csumcheck.so: the baseline.
        env.append("WIRESHARK_PLUGIN_DIR=" + os.path.join(os.path.dirname(plugin_dir), "plugins-none"))
    env.append("WIRESHARK_CONFIG_DIR=" + (config_dir or "/nonexistent/wireshark"))
    # No extcap binaries: they are irrelevant here, slow, and androiddump
    # hangs when the ASan runtime is preloaded into it.
    env.append("WIRESHARK_EXTCAP_DIR=" + os.path.join(os.path.dirname(plugin_dir), "extcap-none"))
    preload = os.environ.get("CSC_PRELOAD", "")
    if preload and os.path.exists(preload):
        # ASan-built plugin in a stock tshark: the ASan runtime must come first.
        env += ["LD_PRELOAD=" + preload, "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0",
                "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"]
    cmd = ["env", "-i", "PATH=/usr/bin:/bin"] + env + [tshark] + list(args)
    if os.geteuid() == 0:
        setpriv = os.environ.get("CSC_SETPRIV", "")
        if not setpriv or not os.path.exists(setpriv):
            skip("running as root and setpriv is missing: tshark would ignore the build's plugin dir")
        cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    return cmd


def run_tshark(args, config_dir=None, plugin=True, check=True):
    """Returns (stdout lines, stderr text, returncode). stderr carries the
    harmless 'Running as user root' line only when not dropped; tests read
    stdout."""
    cmd = tshark_cmd(args, config_dir, plugin)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if "AddressSanitizer" in p.stderr or "runtime error:" in p.stderr:
        sys.stderr.write(p.stderr)
        raise SystemExit("sanitizer report from the plugin inside tshark")
    if check and p.returncode != 0:
        sys.stderr.write("$ %s\n%s" % (" ".join(cmd), p.stderr))
        raise SystemExit("tshark exited with %d" % p.returncode)
    return p.stdout.splitlines(), p.stderr, p.returncode


_values = None


def values():
    """{field: {number: name}} from `tshark -G values` (value_string fields)."""
    global _values
    if _values is None:
        _values = {}
        out, _, _ = run_tshark(["-G", "values"])
        for line in out:
            parts = line.split("\t")
            if len(parts) == 4 and parts[0] == "V" and parts[1].startswith("csumcheck."):
                _values.setdefault(parts[1], {})[parts[2]] = parts[3]
    return _values


def name_of(field, raw):
    """Raw -T fields text ("2" or "9,11") -> names ("bad", "ipv4,udp")."""
    if raw == "":
        return ""
    m = values().get(field)
    if not m:
        return raw
    return ",".join(m.get(v, "?" + v) for v in raw.split(","))
