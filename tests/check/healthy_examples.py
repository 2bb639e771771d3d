#!/usr/bin/env python3
"""The healthy examples show their features working, not "not checked"
(issue 43): on each example that is not a broken one, the loaded RDMA
modules are compared with their files (lib/modules/<release>/modules.dep
and the .ko files, gen_fixtures.write_lib_modules), so no driver.*
finding is "not checked"; and each has a boot id, so `check --state DIR`
keeps its memory there (a second run of the same boot remembers, exit as
the plain check).

Each leaves nothing unchecked: the NICs' config space is there (MaxPayload
and MaxReadReq judged), the RoCE rails have their DCB replies (PFC and
trust judged), and the inbox-driver RoCE ones show DCQCN at work in their
CNP counters (roce.ecn judged without ecn/ files).  Every active port
names its switch (SMP answers from the IB leaves, lldpd's JSON for RoCE).  Those that are the
machine their profile describes pass; the others (a800-2x100g-*: a budget
box judged as the 8-rail one; rtx4090-cx6dx-x8: a desktop's x8 slot and
1500-byte MTU) keep their own findings.

usage: healthy_examples.py RDMADOCTOR FIXTURES_DIR"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

# not the machine their profile describes, on purpose (their own findings)
NOT_THEIR_PROFILE = {"a800-2x100g-roce", "a800-2x100g-x8", "rtx4090-cx6dx-x8"}

# the driver shapes of issue 45 (tests/fixtures/README.md, "Driver shapes"):
# laid out from the driver source, without the live-only replies (DCB, LLDP,
# config space) the mlx5 examples carry, and with what the tool cannot yet
# judge on those drivers left "not checked" on purpose (tests/check/driver_classes.py);
# mi300x-thor2 is bnxt_re's eight-rail machine (tests/check/amd_instinct.py)
DRIVER_SHAPES = {"bnxt-re-thor2", "irdma-e810", "efa-g6e", "ionic-pollara", "mi300x-thor2"}

h = Harness("healthy-examples")
shapes = sorted(n for n in os.listdir(h.fixtures)
                if os.path.isdir(os.path.join(h.fixtures, n, "root")) and "broken" not in n
                and n not in DRIVER_SHAPES)
h.expect(len(shapes) >= 8, "the healthy examples found", str(shapes))
for shape in shapes:
    root = os.path.join(h.fixtures, shape, "root")
    rc, doc, _, err = h.run(root)
    if not h.expect(doc is not None and rc in (0, 1), f"{shape}: check runs", f"rc {rc}: {err}"):
        continue
    drv = [f for f in doc["findings"] if f["id"].startswith("driver.")]
    h.expect(not [f for f in drv if f.get("unchecked")],
             f"{shape}: the driver stack is compared with lib/modules",
             "; ".join(f"{f['id']} {f['observed']}" for f in drv))
    left = collections.Counter(f["id"] for f in doc["findings"] if f.get("unchecked"))
    h.expect(doc["unchecked"] == 0 and not left, f"{shape}: 0 unchecked",
             f"{doc['unchecked']} unchecked {dict(left)}")
    # every port that is up names the switch it is cabled to: the IB ones
    # from their leaf's SMP answers, the RoCE ones from lldpd (a RoCE LAG's
    # bond: through its slaves, said in its neighbor_unknown)
    blind = [f"{n['name']}/{p['port']}: {p.get('neighbor_unknown')}"
             for n in doc["inventory"]["nics"] for p in n.get("ports", [])
             if (p.get("state") or {}).get("code") == 4 and not p.get("neighbor") and
             not (p.get("neighbor_unknown") or "").startswith("RoCE LAG: its slaves carry")]
    active = sum((p.get("state") or {}).get("code") == 4
                 for n in doc["inventory"]["nics"] for p in n.get("ports", []))
    # (the Atlas shapes' ports are NPU ports: their neighbours are
    # hccn_tool's, judged in tests/ascend)
    if not shape.startswith("atlas"):
        h.expect(not blind and active,
                 f"{shape}: every active port's neighbour known ({active})", "; ".join(blind))
    if shape not in NOT_THEIR_PROFILE:
        h.expect(rc == 0 and doc["verdict"] == "pass", f"{shape}: PASS",
                 f"rc {rc} {doc['verdict']}")
    state = os.path.join(h.tmp, shape)
    for run in (1, 2):
        src, sdoc, _, serr = h.run(root, "--state", state)
        h.expect(src == rc and sdoc is not None and "boot_id" not in serr,
                 f"{shape}: check --state, run {run}: exit {rc} as the plain check",
                 f"rc {src}: {serr}")
    h.expect(os.path.exists(os.path.join(state, "latched")),
             f"{shape}: check --state keeps its memory", str(os.listdir(h.tmp)))
h.done()
