"""What the check tests share: the tally, a scratch directory, copies of the
bundled fixture roots, and running rdmadoctor on one.

    from harness import Harness
    h = Harness("verdict")          # argv: RDMADOCTOR FIXTURES_DIR [...]
    rc, doc, out, err = h.run(h.copy("dgx-h100", "case"), "--nhc")
    h.expect(rc == 0, "what must hold", "what was seen")
    h.done()                        # prints the tally, exits 1 on a failure
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile


class Harness:
    def __init__(self, name):
        self.binary, self.fixtures = sys.argv[1], sys.argv[2]
        self.args = sys.argv[3:]
        self.passed = self.failed = 0
        self.tmp = tempfile.mkdtemp(prefix=f"rdmadoctor-{name}-")
        atexit.register(shutil.rmtree, self.tmp, True)

    def expect(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}" + (f"\n    {detail}" if detail else ""))

    def copy(self, shape, name):
        """A writable copy of a bundled fixture's root, links kept as links."""
        dst = os.path.join(self.tmp, name)
        shutil.copytree(os.path.join(self.fixtures, shape, "root"), dst, symlinks=True)
        return dst

    def run(self, root, *args, json_out=True, verbose=False, cmd="check"):
        """rdmadoctor --root ROOT [-v] [--json] CMD ARGS: (rc, doc, stdout, stderr);
        doc is None without JSON or without output."""
        argv = [self.binary, "--root", root] + (["-v"] if verbose else []) + \
            (["--json"] if json_out else []) + [cmd, *args]
        res = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        doc = json.loads(res.stdout) if json_out and res.stdout else None
        return res.returncode, doc, res.stdout, res.stderr

    def done(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
