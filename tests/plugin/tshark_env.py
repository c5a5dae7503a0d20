"""Run the stock tshark with the freshly built csumcheck.so (stdlib only).

tshark ignores WIRESHARK_PLUGIN_DIR and the personal plugin folder when it
runs as root (started_with_special_privs()). As root we therefore drop to
uid/gid 65534 with setpriv; otherwise WIRESHARK_PLUGIN_DIR is enough.

Uid 65534 may not be able to reach the checkout (a clone under a 0700
folder): as root, everything tshark reads - csumcheck.so, the configuration
folder, every capture given with -r - is first copied into a world-readable
stage folder made for this process (tempfile, mode 0755) and removed when the
process exits.

Environment (set by tests/plugin/CMakeLists.txt): CSC_TSHARK, CSC_SETPRIV,
CSC_PLUGIN_DIR, CSC_WS_CONFIG, CSC_PRELOAD (libasan in sanitizer builds).
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading

SKIP = 77


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(SKIP)


def need_env(name):
    v = os.environ.get(name, "")
    if not v:
        skip("%s is not set (run through ctest)" % name)
    return v


class Stage:
    """A world-readable copy of what tshark must read, for uid 65534."""
    def __init__(self):
        self.dir = None
        self.copies = {}
        self.lock = threading.Lock()

    def root(self):
        if self.dir is None:
            parent = os.environ.get("CSC_STAGE_PARENT") or None
            self.dir = tempfile.mkdtemp(prefix="csc-tshark-", dir=parent)
            os.chmod(self.dir, 0o755)
            atexit.register(shutil.rmtree, self.dir, True)
        return self.dir

    def _readable(self, path):
        for root, dirs, files in os.walk(path):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)

    def copy(self, src, kind):
        """Path of a staged copy of file or folder src (copied once)."""
        src = os.path.abspath(src)
        with self.lock:
            if src in self.copies:
                return self.copies[src]
            dst = os.path.join(self.root(), "%s%d-%s" % (kind, len(self.copies), os.path.basename(src)))
            if os.path.isdir(src):
                shutil.copytree(src, dst)
                self._readable(dst)
            else:
                shutil.copyfile(src, dst)
                os.chmod(dst, 0o644)
            self.copies[src] = dst
            return dst

    def plugin_dir(self, built, ver, plugin):
        """DIR/<ver>/epan/csumcheck.so, or an empty DIR/<ver>/epan."""
        key = ("plugins" if plugin else "plugins-none", built)
        with self.lock:
            if key in self.copies:
                return self.copies[key]
            d = os.path.join(self.root(), key[0])
            epan = os.path.join(d, ver, "epan")
            os.makedirs(epan)
            if plugin:
                shutil.copyfile(os.path.join(built, ver, "epan", "csumcheck.so"),
                                os.path.join(epan, "csumcheck.so"))
            self._readable(d)
            self.copies[key] = d
            return d


STAGE = Stage()


def stage_args(args):
    """Captures given with -r, staged."""
    out, i = [], 0
    args = list(args)
    while i < len(args):
        out.append(args[i])
        if args[i] == "-r" and i + 1 < len(args):
            out.append(STAGE.copy(args[i + 1], "cap"))
            i += 1
        i += 1
    return out


def preload_env():
    """An ASan-built plugin in a stock tshark: the ASan runtime must come first."""
    preload = os.environ.get("CSC_PRELOAD", "")
    if preload and os.path.exists(preload):
        return ["LD_PRELOAD=" + preload, "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0",
                "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"]
    return []


def tshark_cmd(args, config_dir=None, plugin=True):
    tshark = os.environ.get("CSC_TSHARK", "")
    if not tshark or not os.path.exists(tshark):
        skip("tshark not found (apt-get install tshark)")
    plugin_dir = need_env("CSC_PLUGIN_DIR")
    ver = os.environ.get("CSC_WS_VERSION", "4.0")
    if not os.path.exists(os.path.join(plugin_dir, ver, "epan", "csumcheck.so")):
        skip("csumcheck.so not built in %s" % plugin_dir)
    root = os.geteuid() == 0
    none_dir = os.path.join(os.path.dirname(plugin_dir), "plugins-none")
    extcap_dir = os.path.join(os.path.dirname(plugin_dir), "extcap-none")
    if root:
        args = stage_args(args)
        none_dir = STAGE.plugin_dir(plugin_dir, ver, False)
        plugin_dir = STAGE.plugin_dir(plugin_dir, ver, True)
        extcap_dir = none_dir   # empty of extcap binaries too
        if config_dir:
            config_dir = STAGE.copy(config_dir, "config")
    env = ["HOME=/nonexistent", "LC_ALL=C"]
    if plugin:
        env.append("WIRESHARK_PLUGIN_DIR=" + plugin_dir)
    else:
        # Same plugin folder layout, without csumcheck.so: the baseline.
        env.append("WIRESHARK_PLUGIN_DIR=" + none_dir)
    env.append("WIRESHARK_CONFIG_DIR=" + (config_dir or "/nonexistent/wireshark"))
    # No extcap binaries: they are irrelevant here, slow, and androiddump
    # hangs when the ASan runtime is preloaded into it.
    env.append("WIRESHARK_EXTCAP_DIR=" + extcap_dir)
    env += preload_env()
    cmd = ["env", "-i", "PATH=/usr/bin:/bin"] + env + [tshark] + list(args)
    if root:
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


def columns(path, extra=(), config_dir=None):
    """The packet list as tshark prints it (-T psml), one {column title: text}
    per frame: custom columns by title work the same in every version (4.0's
    `-e _ws.col.TITLE` is gone from 4.2 on)."""
    import re
    import xml.sax.saxutils as su
    out, _, _ = run_tshark(["-n", "-r", path, "-T", "psml"] + list(extra), config_dir=config_dir)
    text = "\n".join(out)
    sec = re.compile(r"<section>(.*?)</section>", re.S)
    head = re.search(r"<structure>(.*?)</structure>", text, re.S)
    titles = [su.unescape(t) for t in sec.findall(head.group(1))] if head else []
    return [dict(zip(titles, (su.unescape(v) for v in sec.findall(p))))
            for p in re.findall(r"<packet>(.*?)</packet>", text, re.S)]


def boolean(raw):
    """-T fields / JSON text of an FT_BOOLEAN: "1"/"0" in 4.0, "True"/"False" later."""
    return {"True": "1", "False": "0", "true": "1", "false": "0"}.get(raw, raw)


def name_of(field, raw):
    """Raw -T fields text ("2" or "9,11") -> names ("bad", "ipv4,udp")."""
    if raw == "":
        return ""
    m = values().get(field)
    if not m:
        return raw
    return ",".join(m.get(v, "?" + v) for v in raw.split(","))
