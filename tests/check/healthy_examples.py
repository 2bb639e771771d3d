#!/usr/bin/env python3
"""The healthy examples show their features working, not "not checked"
(issue 43): on each example that is not a broken one, the loaded RDMA
modules are compared with their files (lib/modules/<release>/modules.dep
and the .ko files, gen_fixtures.write_lib_modules), so no driver.*
finding is "not checked"; and each has a boot id, so `check --state DIR`
keeps its memory there (a second run of the same boot remembers, exit as
the plain check).

What the examples still leave unchecked is listed on stdout (pcie.mps_mismatch
without the NICs' config space, roce.pfc and roce.ecn without DCB replies on
some RoCE ones): not yet asserted away.

usage: healthy_examples.py RDMADOCTOR FIXTURES_DIR"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("healthy-examples")
shapes = sorted(n for n in os.listdir(h.fixtures)
                if os.path.isdir(os.path.join(h.fixtures, n, "root")) and "broken" not in n)
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
    print(f"{shape}: {doc['unchecked']} unchecked {dict(left)}")
    state = os.path.join(h.tmp, shape)
    for run in (1, 2):
        src, sdoc, _, serr = h.run(root, "--state", state)
        h.expect(src == rc and sdoc is not None and "boot_id" not in serr,
                 f"{shape}: check --state, run {run}: exit {rc} as the plain check",
                 f"rc {src}: {serr}")
    h.expect(os.path.exists(os.path.join(state, "latched")),
             f"{shape}: check --state keeps its memory", str(os.listdir(h.tmp)))
h.done()
