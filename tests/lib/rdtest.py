"""What every Python test shares, one module (tests/lib/rdtest.py):

  run()        rdmadoctor (or any program) with its output captured
  Tally        counting assertions: ok() records one, printing what failed;
               done() prints the closing line `N passed, M failed` and exits 1
               on any failure (ok/expect/done at module level use one tally)
  Harness      a tally, a scratch directory, copies of the bundled fixture
               roots and running rdmadoctor on one (argv: RDMADOCTOR FIXTURES)
  copy_root()  a writable copy of a fixture root, links kept as links (an
               overlayfs mount over it, where it can, for Harness.copy);
               drop_root() removes one
  take_dcb()   removes a copy's DCB replies: a healthy RoCE example whose
               driver did not answer, so its PFC is "not checked", which a
               profile that requires it weighs as a warning (docs/checks.md)
  Server ...   what the serve tests share: start `rdmadoctor serve` on a free
               loopback port (port 0: the server says which it got), fetch,
               parse the exposition, stop it with a signal and check it
               stopped cleanly; fail()/check() end the test at the first miss

A test finds it with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import rdtest
"""
import atexit
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading


def run(binary, *args, root=None, stdin=None, env=None, timeout=60, text=True,
        errors=None):
    """BINARY [--root ROOT] ARGS...: the CompletedProcess (returncode,
    stdout, stderr), text unless text=False; stdin is its input."""
    argv = [binary] + (["--root", root] if root is not None else []) + list(args)
    return subprocess.run(argv, input=stdin, capture_output=True, text=text,
                          errors=errors if text else None, env=env, timeout=timeout)


def copy_root(src, dst, overlay=False):
    """A writable copy of the fixture root SRC at DST, links kept as links.

    With overlay=True, and where this process may have a mount namespace of
    its own (root; RDTEST_COPY=copy turns it off), DST is an overlayfs
    mount over SRC instead: what a test writes goes to DST's upper layer
    beside it, SRC is never written, and the mount costs milliseconds where
    copying a fixture root (~4,700 files) costs a second or more of CPU,
    most of it in the kernel on this kind of virtual machine; the check
    tests copy dozens.  The caller's DST must be under a directory removed
    at exit (Harness.tmp): the mounts are taken down first, at exit, and
    vanish with the process anyway."""
    if overlay and _own_mounts():
        layers = dst + ".layers"
        os.makedirs(os.path.join(layers, "upper"))
        os.makedirs(os.path.join(layers, "work"))
        os.makedirs(dst)
        # redirect_dir: a test may rename a directory of the lower layer
        opts = (f"lowerdir={os.path.abspath(src)},upperdir={layers}/upper,"
                f"workdir={layers}/work,redirect_dir=on")
        if _libc.mount(b"overlay", dst.encode(), b"overlay", 0, opts.encode()) == 0:
            _mounts.append(dst)
            return dst
        os.rmdir(dst)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def drop_root(root):
    """Remove a copy copy_root made, an overlay mount or a plain tree."""
    if root in _mounts:
        _libc.umount2(root.encode(), 2)     # MNT_DETACH
        _mounts.remove(root)
        shutil.rmtree(root + ".layers", ignore_errors=True)
    shutil.rmtree(root)


_libc = None
_mounts = []


def _own_mounts():
    """Once per process: whether it has a mount namespace of its own, with
    nothing it mounts seen outside (unshare(2) CLONE_NEWNS, then / made
    private, as unshare(1) --mount does); the overlays are taken down at
    exit, before the scratch directory is removed."""
    global _libc
    if _libc is None:
        import ctypes
        _libc = ctypes.CDLL(None, use_errno=True)
        clone_newns, ms_rec, ms_private, mnt_detach = 0x20000, 0x4000, 0x40000, 2
        if (os.geteuid() != 0 or os.environ.get("RDTEST_COPY") == "copy"
                or _libc.unshare(clone_newns) != 0
                or _libc.mount(b"none", b"/", None, ms_rec | ms_private, None) != 0):
            _libc = False
        else:
            atexit.register(lambda: [_libc.umount2(m.encode(), mnt_detach) for m in _mounts])
    return bool(_libc)


def take_dcb(root):
    """Remove every DCB reply of ROOT (.rdmadoctor/dcb/): the copy of a
    healthy RoCE fixture whose driver did not answer DCB netlink, so its
    rails' PFC and trust cannot be read.  The netdevs whose reply went."""
    d = os.path.join(root, ".rdmadoctor/dcb")
    names = sorted(os.listdir(d)) if os.path.isdir(d) else []
    for name in names:
        os.unlink(os.path.join(d, name))
    return names


class Tally:
    """Counting assertions; the closing line is `N passed, M failed`."""

    def __init__(self):
        self.passed = self.failed = 0

    def ok(self, cond, what, show=""):
        if cond:
            self.passed += 1
            return True
        self.failed += 1
        print("FAIL:", what)
        if show:
            print(show[:3000])
        return False

    def expect(self, cond, what, detail=""):
        """ok() whose detail prints indented under the FAIL line."""
        if cond:
            self.passed += 1
            return True
        self.failed += 1
        print(f"FAIL: {what}" + (f"\n    {detail}" if detail else ""))
        return False

    def done(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


_tally = Tally()
ok = _tally.ok
expect = _tally.expect
done = _tally.done


# Node Problem Detector's reading of a custom plugin's run, written from its
# source (kubernetes/node-problem-detector, pkg/custompluginmonitor/plugin/
# plugin.go): stdout trimmed and cut at max_output_length; exit 0 OK, 1
# NonOK, anything else Unknown.
def npd_read(rc, stdout, max_output_length=80):
    """(status, message) as NPD's plugin.run makes them."""
    out = stdout.decode("utf-8", errors="strict").strip()
    if len(out.encode()) > max_output_length:
        out = out.encode()[:max_output_length].decode("utf-8", errors="replace")
    return {0: "OK", 1: "NonOK"}.get(rc, "Unknown"), out


class Harness(Tally):
    """What the check tests share: the tally, a scratch directory, copies of
    the bundled fixture roots, and running rdmadoctor on one.

        h = rdtest.Harness("verdict")   # argv: RDMADOCTOR FIXTURES_DIR [...]
        rc, doc, out, err = h.run(h.copy("dgx-h100", "case"), "--nhc")
        h.expect(rc == 0, "what must hold", "what was seen")
        h.done()                        # prints the tally, exits 1 on a failure
    """

    def __init__(self, name):
        super().__init__()
        self.binary, self.fixtures = sys.argv[1], sys.argv[2]
        self.args = sys.argv[3:]
        self.tmp = tempfile.mkdtemp(prefix=f"rdmadoctor-{name}-")
        atexit.register(shutil.rmtree, self.tmp, True)

    def copy(self, shape, name):
        """A writable copy of a bundled fixture's root, links kept as links."""
        return copy_root(os.path.join(self.fixtures, shape, "root"),
                         os.path.join(self.tmp, name), overlay=True)

    def run(self, root, *args, json_out=True, verbose=False, cmd="check"):
        """rdmadoctor --root ROOT [-v] [--json] CMD ARGS: (rc, doc, stdout, stderr);
        doc is None without JSON or without output."""
        res = run(self.binary, *(["-v"] if verbose else []),
                  *(["--json"] if json_out else []), cmd, *args, root=root)
        doc = json.loads(res.stdout) if json_out and res.stdout else None
        return res.returncode, doc, res.stdout, res.stderr


# ---- serve

LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)/metrics")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


class Server:
    """rdmadoctor --root ROOT serve --listen 127.0.0.1:0 ARGS... (in env,
    when given)"""

    def __init__(self, binary, root, *args, env=None):
        self.cmd = [binary, "--root", root, "serve", "--listen", "127.0.0.1:0", *args]
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        self.lines = []
        self.port = None
        got = threading.Event()

        def drain():
            for line in self.proc.stderr:
                self.lines.append(line)
                m = LISTENING.search(line)
                if m and self.port is None:
                    self.port = int(m.group(1))
                    got.set()
            got.set()

        self.reader = threading.Thread(target=drain, daemon=True)
        self.reader.start()
        if not got.wait(30) or self.port is None:
            self.proc.kill()
            self.proc.wait()
            fail("%s did not start listening: %s" % (" ".join(self.cmd),
                                                      "".join(self.lines)))

    def get(self, path="/metrics", method="GET", headers=None, timeout=30):
        """(status, headers dict with lower-case names, body text)"""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request(method, path, headers=headers or {})
            r = c.getresponse()
            body = r.read().decode("utf-8")
            return r.status, {k.lower(): v for k, v in r.getheaders()}, body
        finally:
            c.close()

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM):
        """Signal it; it must exit 0 within 10 s and have said nothing but
        where it listens."""
        check(self.alive(), "server died: rc %s, stderr %s"
              % (self.proc.returncode, "".join(self.lines)))
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            fail("server did not stop within 10 s of signal %d" % sig)
        self.reader.join(5)
        check(rc == 0, "server exited %d after signal %d: %s"
              % (rc, sig, "".join(self.lines)))
        extra = [l for l in self.lines if not LISTENING.search(l)]
        check(not extra, "server said more than where it listens: %s" % "".join(extra))

    def kill(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait()


def unescape(v):
    out, i = [], 0
    while i < len(v):
        if v[i] == "\\":
            out.append({"\\": "\\", '"': '"', "n": "\n"}[v[i + 1]])
            i += 2
        else:
            out.append(v[i])
            i += 1
    return "".join(out)


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')


def parse(text):
    """{name: [(labels dict, value float)]}; also checks every sample has
    a TYPE before it."""
    out, typed = {}, set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("#") or not line:
            continue
        m = SAMPLE.match(line)
        check(m, "not a sample line: %r" % line)
        name, labels, value = m.groups()
        check(name in typed, "%s has no TYPE before it" % name)
        lab = {}
        if labels:
            pos = 0
            for lm in LABEL.finditer(labels):
                check(lm.start() == pos, "bad labels in %r" % line)
                lab[lm.group(1)] = unescape(lm.group(2))
                pos = lm.end()
            check(pos == len(labels), "bad labels in %r" % line)
        out.setdefault(name, []).append((lab, float(value)))
    return out


def series(metrics, name, **labels):
    """Values of name whose labels include these."""
    return [v for lab, v in metrics.get(name, [])
            if all(lab.get(k) == str(x) for k, x in labels.items())]


def one(metrics, name, **labels):
    vals = series(metrics, name, **labels)
    check(len(vals) == 1, "%s%s: %d series, expected 1" % (name, labels, len(vals)))
    return vals[0]


def run_json(binary, root, *args):
    p = run(binary, *args, "--json", root=root)
    check(p.returncode in (0, 1), "%s %s: rc %d %s" % (root, args, p.returncode, p.stderr))
    return json.loads(p.stdout)


def fixture(src, name):
    root = os.path.join(src, "examples", name)
    check(os.path.isdir(root), "no fixture %s" % root)
    return root
