#!/usr/bin/env python3
"""Required, not checked (issue 43, section 1): a value the profile names
for a rail that could not be read keeps the verdict from PASS.  Copies of the
RoCE examples a800-8x100g-roce (pfc_priority = 3, trust dscp) and
hgx-roce-lag (a board profile: RoCE rails lossless) without their rails'
DCB replies (a driver that does not answer DCB netlink): every rail's
roce.pfc is "not checked": WARN, `--nhc` names it on one UNCHECKED line,
`--npd` exits 3 with it.  The examples themselves, with the replies, pass.  A site file's accept_unchecked
names the id: an info again, still listed and counted, marked accepted.

usage: required.py RDMADOCTOR FIXTURES_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness, take_dcb  # noqa: E402

h = Harness("required")
expect, run, copy = h.expect, h.run, h.copy


def pfc(doc):
    return [f for f in doc["findings"] if f["id"] == "roce.pfc"]


for shape in ("a800-8x100g-roce", "hgx-roce-lag"):
    r = copy(shape, shape + "-nodcb")
    expect(len(take_dcb(r)) >= 8, f"{shape}: the copy lost its rails' DCB replies")
    rc, doc, _, err = run(r)
    fs = pfc(doc)
    expect(rc == 0 and doc["verdict"] == "warn" and len(fs) == 8 and
           all(f.get("unchecked") and f.get("required") and f["severity"] == "warn" and
               not f.get("accepted") for f in fs),
           f"{shape}: 8 rails' PFC required and not read: WARN, each a required warning",
           f"rc {rc} {doc and doc['verdict']} {[(f['severity'], f.get('required')) for f in fs]} "
           f"{err}")
    rc, _, out, _ = run(r, json_out=False)
    expect(out.startswith("WARN") and "(8 counted as warnings)" in " ".join(out.split()),
           f"{shape}: the text says WARN and that 8 unchecked count as warnings", out[:400])
    rc, _, out, _ = run(r, "--nhc", json_out=False)
    expect(rc == 0 and out.startswith("UNCHECKED: rdmadoctor: roce.pfc mlx5_0 port 1: not checked")
           and out.rstrip().endswith("and 7 more not checked") and len(out.splitlines()) == 1,
           f"{shape}: --nhc names the required unchecked PFC", f"rc {rc} {out!r}")
    rc, _, out, _ = run(r, "--npd", json_out=False)
    expect(rc == 3 and out.startswith("not checked: roce.pfc mlx5_0 port 1:") and
           out.rstrip().endswith("(+7 more)"),
           f"{shape}: --npd exits 3 (unknown) and says why", f"rc {rc} {out!r}")

    # the reading was all that was missing: with the rails' DCB replies
    # (the example as shipped), the same machine passes, nothing unchecked
    rc2, doc2, _, _ = run(os.path.join(h.fixtures, shape, "root"))
    expect(rc2 == 0 and doc2["verdict"] == "pass" and not pfc(doc2) and
           doc2["unchecked"] == 0,
           f"{shape} with its rails' DCB replies: PASS, no roce.pfc, 0 unchecked",
           doc2 and (doc2["verdict"], doc2["unchecked"]))

    # the fleet accepts it: infos again, listed, counted, marked
    c = copy(shape, shape + "-accept")
    take_dcb(c)
    os.makedirs(os.path.join(c, "etc/rdmadoctor"), exist_ok=True)
    with open(os.path.join(c, "etc/rdmadoctor/rdmadoctor.conf"), "w") as f:
        f.write("[site]\naccept_unchecked = roce.pfc\n")
    rc2, doc2, _, err = run(c)
    fs = pfc(doc2)
    expect(rc2 == 0 and doc2["verdict"] == "pass" and doc2["unchecked"] == doc["unchecked"] and
           len(fs) == 8 and all(f["severity"] == "info" and f.get("accepted") and
                                f.get("unchecked") and not f.get("waived") for f in fs),
           f"{shape}, accept_unchecked = roce.pfc: PASS, the 8 still listed and counted",
           f"rc {rc2} {doc2 and doc2['verdict']} {err}")
    rc2, _, out, _ = run(c, json_out=False)
    expect("(accepted unchecked by the site file)" in out and
           f"{doc['unchecked']} unchecked" in out.splitlines()[2],
           f"{shape}, accepted: the text marks them", out[:600])
    rc2, _, out, _ = run(c, "--npd", json_out=False)
    expect(rc2 == 0 and out.startswith("OK"), f"{shape}, accepted: --npd OK", f"rc {rc2} {out!r}")

    # generic leaves lossy RoCE alone: not required
    rc, doc, _, _ = run(r, "--profile", "generic")
    fs = pfc(doc)
    expect(fs and all(f["severity"] == "info" and not f.get("required") for f in fs),
           f"{shape} under generic: PFC not read is an info", [f["severity"] for f in fs])

h.done()
