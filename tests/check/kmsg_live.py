#!/usr/bin/env python3
"""kmsg.* live: the real /dev/kmsg, read by a real `snapshot`, judged by
`check` on its replay.

The lines are WRITTEN BY THIS TEST into /dev/kmsg (root may write there):
mlx5-like texts, each saying it comes from this test, at the levels the
driver uses.  The kernel stamps them (sequence, time since boot) as it
does its own, but with facility user, not kernel: by default rdmadoctor
keeps only the kernel's records, so the test (a) sees a plain snapshot
leave them out, then (b) sets RDMADOCTOR_KMSG_ANY_FACILITY=1, the switch
that keeps them.  `snapshot` reads /dev/kmsg as `check` does (one
root_fetch); the kernel-log records it keeps are put into a copy of the
roce-broken fixture (mlx5_0 at 0000:18:00.0) and `check` judges them
there, since the machine running the test may have no RDMA device at all
(`check` then has nothing to check).  Bounded: 9 lines.

Not a skip where it cannot run: CI runs as root, and a test that cannot
write /dev/kmsg fails and says why.

usage: kmsg_live.py RDMADOCTOR FIXTURES_DIR
"""
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("kmsg-live")
nonce = f"check_kmsg_live-{os.getpid()}-{random.randrange(1 << 30)}"
# an address no machine here has, so that its counts are this run's alone
bdf = f"0000:{random.randrange(0x100):02x}:1f.{random.randrange(8)}"


def write(lines):
    # one open per line: the kernel rate-limits each open /dev/kmsg (10 lines
    # per 5 s), and a line past that is dropped without an error
    for prio, text in lines:
        try:
            with open("/dev/kmsg", "w") as f:
                f.write(f"<{prio}>{text}\n")
        except OSError as e:
            raise SystemExit(f"FAIL: cannot write /dev/kmsg ({e}): this test needs root "
                             "and the host's /dev/kmsg")


# facility user (1): <8 + level>.  Levels as the driver prints: err 3,
# info 6, warn 4.
tag = f"written by the test {nonce}"
write([(8 + 3, f"mlx5_core {bdf}: {tag}: wait_func:1160:(pid 1): ACCESS_REG(0x805) "
        "timeout. Will cause a leak of a command resource")] * 3 +
      [(8 + 6, f"mlx5_core {bdf} ethT0: {tag}: Link down"),
       (8 + 6, f"mlx5_core {bdf} ethT0: {tag}: Link up")] * 2 +
      [(8 + 4, f"mlx5_core 0000:18:00.0: {tag}: mlx5_pcie_event:301:(pid 1): Detected "
        "insufficient power on the PCIe slot (27W).")] +
      [(8 + 6, f"{tag}: an ordinary line, no fault")])


def snap(name, any_facility):
    out = os.path.join(h.tmp, name)
    env = dict(os.environ)
    env.pop("RDMADOCTOR_KMSG_ANY_FACILITY", None)
    if any_facility:
        env["RDMADOCTOR_KMSG_ANY_FACILITY"] = "1"
    res = subprocess.run([h.binary, "snapshot", out], capture_output=True, text=True,
                         timeout=300, env=env)
    h.expect(res.returncode == 0, f"snapshot {name} exits 0", res.stderr[-500:])
    return os.path.join(out, ".rdmadoctor", "kmsg")


plain = snap("plain", False)
with open(os.path.join(plain, "faults")) as f:
    h.expect(nonce not in f.read(), "a plain snapshot keeps none of the test's lines "
             "(facility user)")

kept = snap("any", True)
with open(os.path.join(kept, "faults")) as f:
    faults = f.read()
h.expect(faults.count(nonce) == 8, "the 8 fault lines kept, the ordinary one not",
         f"{faults.count(nonce)} kept")

root = h.copy("roce-broken", "replay")
shutil.copytree(kept, os.path.join(root, ".rdmadoctor", "kmsg"))
rc, doc, _, err = h.run(root)
got = {(f["id"], f["subject"]): f for f in (doc or {}).get("findings", [])
       if f["id"].startswith("kmsg.")}
today = time.strftime("(%Y-%m-%dT", time.gmtime())
f = got.get(("kmsg.fw_timeout", bdf))
h.expect(f is not None and f["severity"] == "error" and
         f["observed"].startswith("3 lines since boot; last at ") and today in f["observed"]
         and nonce in f["observed"], "kmsg.fw_timeout on the address, 3 lines, wall time",
         repr(f))
f = got.get(("kmsg.link_flap", bdf))
h.expect(f is not None and f["severity"] == "warn" and
         f["observed"].startswith("2 link down and 2 link up since boot"),
         "kmsg.link_flap: 2 down, 2 up", repr(f))
f = got.get(("kmsg.pcie_power", "mlx5_0"))
h.expect(f is not None and f["severity"] == "error" and nonce in f["observed"],
         "kmsg.pcie_power on mlx5_0 (its address), the last line this test's", repr(f))
h.done()
