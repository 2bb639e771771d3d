"""Shared by the serve tests: start `rdmadoctor serve` on a free loopback
port (port 0: the server says which it got), fetch, parse the exposition,
stop it with a signal and check it stopped cleanly."""
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

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
    p = subprocess.run([binary, "--root", root, *args, "--json"], capture_output=True,
                       text=True, timeout=60)
    check(p.returncode in (0, 1), "%s %s: rc %d %s" % (root, args, p.returncode, p.stderr))
    return json.loads(p.stdout)


def fixture(src, name):
    root = os.path.join(src, "examples", name)
    check(os.path.isdir(root), "no fixture %s" % root)
    return root
