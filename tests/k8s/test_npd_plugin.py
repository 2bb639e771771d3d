#!/usr/bin/env python3
"""Node Problem Detector's plugin, run the way NPD runs it, where NPD runs
it (issue 44).  NPD executes a custom plugin inside its own pod, which has
none of rdmadoctor's libraries; the DaemonSet's agent (`labels --every
--npd FILE`) writes the verdict and rdmadoctor-npd, a static program,
prints it.  Here:

  - the agent's verdict on fixture machines, printed by rdmadoctor-npd in
    an empty root (bwrap: no /lib, no /usr, only the program and the
    verdict's directory), read as NPD's plugin.go reads a plugin (stdout
    trimmed and cut at max_output_length 80, exit 0 OK, 1 NonOK, anything
    else Unknown): the same status and message as `check --npd` on the
    same machine (a healthy one, a broken one, one with a rail not seen);
  - a verdict older than --max-age, a missing file, a malformed one: Unknown,
    saying why;
  - `rdmadoctor-npd --install DIR` (the DaemonSet's init container) and the
    installed copy;
  - the manifests agree: the init container installs where the NPD rule
    runs from, and the agent writes the verdict the rule reads.

usage: test_npd_plugin.py RDMADOCTOR RDMADOCTOR_NPD SOURCE_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import done, expect, npd_read  # noqa: E402

binary, plugin, src = sys.argv[1], sys.argv[2], sys.argv[3]
fixtures = os.path.join(src, "tests", "fixtures")
tmp = tempfile.mkdtemp(prefix="rdmadoctor-npd-")


def in_empty_root(verdict_dir, *args):
    """rdmadoctor-npd in a root holding nothing but itself and the
    verdict's directory, as in NPD's pod: no library to load."""
    r = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent",
                        "--ro-bind", plugin, "/rdmadoctor-npd",
                        "--ro-bind", verdict_dir, "/var/lib/rdmadoctor",
                        "/rdmadoctor-npd", *args],
                       capture_output=True, timeout=30)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


def check_npd(root):
    r = subprocess.run([binary, "--root", root, "check", "--npd"], capture_output=True,
                       timeout=120)
    return npd_read(r.returncode, r.stdout)


if shutil.which("bwrap") is None:
    print("FAIL: bwrap is missing (tests/debian-packages.txt has bubblewrap)")
    sys.exit(1)
with open(plugin, "rb") as f:
    elf = f.read()


def program_headers(b):
    """The p_type of each program header of a 64-bit little-endian ELF."""
    phoff, = struct.unpack_from("<Q", b, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", b, 0x36)
    return [struct.unpack_from("<I", b, phoff + i * phentsize)[0] for i in range(phnum)]


PT_INTERP = 3
expect(elf[:5] == b"\x7fELF\x02" and PT_INTERP not in program_headers(elf),
       "rdmadoctor-npd asks for no program interpreter: linked statically")

# 1. the agent's verdict, printed in an empty root, is check --npd's
unseen = os.path.join(tmp, "unseen")
shutil.copytree(os.path.join(fixtures, "a800-8x100g-roce", "root"), unseen, symlinks=True)
state = os.path.join(unseen, "sys/class/infiniband/mlx5_3/ports/1/state")
os.unlink(os.path.realpath(state)) if os.path.islink(state) else os.unlink(state)
machines = [("dgx-h100", os.path.join(fixtures, "dgx-h100", "root"), "OK"),
            ("broken", os.path.join(fixtures, "broken", "root"), "NonOK"),
            ("a rail not seen", unseen, "Unknown")]
for name, root, want in machines:
    vdir = os.path.join(tmp, "v-" + name.replace(" ", "-"))
    os.makedirs(vdir)
    r = subprocess.run([binary, "--root", root, "labels", "-o", os.path.join(vdir, "labels"),
                        "--npd", os.path.join(vdir, "npd")], capture_output=True, timeout=120)
    expect(r.returncode == 0, f"{name}: the agent wrote its labels and verdict",
           r.stderr.decode(errors="replace"))
    rc, out, err = in_empty_root(vdir, "/var/lib/rdmadoctor/npd")
    got = npd_read(rc, out)
    expect(got[0] == want and got == check_npd(root),
           f"{name}: NPD reads {want}, as check --npd says it: {got[1]!r}",
           (got, check_npd(root), err))

# 2. what is not a fresh verdict is Unknown, never OK
vdir = os.path.join(tmp, "v-stale")
os.makedirs(vdir)
with open(os.path.join(vdir, "npd"), "w") as f:
    f.write("rdmadoctor-npd 1 0 %d\nOK: rdmadoctor check passes (dgx-h100)\n" %
            (time.time() - 1000))
got = npd_read(*in_empty_root(vdir, "--max-age", "900", "/var/lib/rdmadoctor/npd")[:2])
expect(got[0] == "Unknown" and "s old: is its agent running?" in got[1],
       f"an OK older than --max-age: Unknown: {got[1]!r}", got)
got = npd_read(*in_empty_root(vdir, "--max-age", "2000", "/var/lib/rdmadoctor/npd")[:2])
expect(got[0] == "OK", "the same within --max-age: OK", got)
with open(os.path.join(vdir, "future"), "w") as f:
    f.write("rdmadoctor-npd 1 0 %d\nOK: rdmadoctor check passes (dgx-h100)\n" %
            (time.time() + 86400))
got = npd_read(*in_empty_root(vdir, "/var/lib/rdmadoctor/future")[:2])
expect(got[0] == "Unknown" and "ahead of this clock" in got[1],
       f"an OK dated a day ahead (a clock stepped back): Unknown: {got[1]!r}", got)
got = npd_read(*in_empty_root(vdir, "/var/lib/rdmadoctor/none")[:2])
expect(got[0] == "Unknown" and got[1].startswith("no verdict from rdmadoctor's agent yet"),
       f"no verdict file: Unknown: {got[1]!r}", got)
for name, data in (("empty", b""), ("garbage", b"\x7fELF" + b"\0" * 300),
                   ("status 2", b"rdmadoctor-npd 1 2 %d\nOK\n" % time.time()),
                   ("an escape in the line", b"rdmadoctor-npd 1 0 %d\n\x1b[2JOK\n" % time.time()),
                   ("no newline", b"rdmadoctor-npd 1 0 %d\nOK" % time.time())):
    with open(os.path.join(vdir, "bad"), "wb") as f:
        f.write(data)
    got = npd_read(*in_empty_root(vdir, "/var/lib/rdmadoctor/bad")[:2])
    expect(got[0] == "Unknown" and "malformed" in got[1], f"{name}: Unknown, malformed", got)
rc, out, _ = in_empty_root(vdir, "--max-age", "soon")
expect(npd_read(rc, out)[0] == "Unknown" and b"--max-age" in out,
       "a usage error is Unknown too, said on stdout (NPD shows no stderr)", out)

# 3. the init container's install, and the installed copy
inst = os.path.join(tmp, "host-state")
os.makedirs(inst)
r = subprocess.run([plugin, "--install", inst], capture_output=True, timeout=30)
installed = os.path.join(inst, "rdmadoctor-npd")
expect(r.returncode == 0 and os.access(installed, os.X_OK) and
       open(installed, "rb").read() == elf and
       not [n for n in os.listdir(inst) if n.startswith(".")],
       "--install DIR: the same program at DIR/rdmadoctor-npd, no temporary left",
       r.stderr.decode(errors="replace"))
shutil.copy(os.path.join(tmp, "v-broken", "npd"), os.path.join(inst, "npd"))
r = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", inst,
                    "/var/lib/rdmadoctor", "/var/lib/rdmadoctor/rdmadoctor-npd",
                    "/var/lib/rdmadoctor/npd"], capture_output=True, timeout=30)
expect(npd_read(r.returncode, r.stdout)[0] == "NonOK",
       "the installed copy runs in an empty root", (r.returncode, r.stdout, r.stderr))

# 4. the manifests: where the plugin is installed, the rule runs it; what
# the agent writes, the rule reads
with open(os.path.join(src, "contrib/kubernetes/rdmadoctor-npd.json")) as f:
    rule = json.load(f)["rules"][0]
with open(os.path.join(src, "contrib/kubernetes/daemonset.yaml")) as f:
    pod = yaml.safe_load(f)["spec"]["template"]["spec"]
init = {c["name"]: c for c in pod.get("initContainers", [])}.get("npd-plugin", {})
agent = {c["name"]: c for c in pod["containers"]}.get("agent", {})
install_dir = (init.get("args") or ["", ""])[-1]
npd_arg = [a.split("=", 1)[1] for a in agent.get("args", []) if a.startswith("--npd=")]
expect(init.get("command") == ["/usr/libexec/rdmadoctor/rdmadoctor-npd"] and
       init.get("args", [None])[0] == "--install" and
       rule["path"] == os.path.join(install_dir, "rdmadoctor-npd"),
       "the init container installs the plugin where NPD's rule runs it", (init, rule))
expect(npd_arg and rule["args"][-1] == npd_arg[0],
       "the agent writes the verdict NPD's rule reads", (agent.get("args"), rule["args"]))
expect(agent.get("args", [None])[0] == "labels" and "--every=300" in agent["args"] and
       "--state=/var/lib/rdmadoctor" in agent["args"],
       "the agent reads every 5 minutes, with the memory", agent.get("args"))

shutil.rmtree(tmp)
done()
