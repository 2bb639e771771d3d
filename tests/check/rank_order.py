#!/usr/bin/env python3
"""Findings in the order of the bandwidth each costs (src/check/rank.c,
docs/checks.md "The order of findings"): the most likely cause of lost
bandwidth first, in the text, the JSON, --brief, the one line --nhc gives
Slurm's NHC and the --npd message.

Two machines with a count of errors that grew within the window
(counters.errors, an error) beside a state that costs bandwidth:
- a copy of dgx-h100 with one rail's port down: port.down comes first;
- a copy of a800-8x100g-roce given DCB replies (PFC on priority 3, DSCP
  trust), one rail with PFC off: roce.pfc comes first.
And `check --json --list` gives the order as one table, each catalog id
with its cost.

usage: rank_order.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import done, ok  # noqa: E402

binary, fixtures = sys.argv[1], sys.argv[2]
sys.path.insert(0, fixtures)
from gen_fixtures import dcb_reply  # noqa: E402


def run(root, *args):
    res = rdtest.run(binary, "--root", root, *args)
    return res.returncode, res.stdout, res.stderr


def grow(root, dev, name, by=1000):
    """The second reading: a PMA error counter grown by `by`."""
    path = os.path.join(root, "sys/class/infiniband", dev, "ports/1/counters", name)
    with open(path) as f:
        v = int(f.read())
    with open(path, "w") as f:
        f.write(f"{v + by}\n")


def first_error_ids(text):
    return [line.split()[1] for line in text.splitlines() if line.startswith("  ERROR ")]


def judge(what, first, root, until):
    """first (the state) ranks above counters.errors everywhere."""
    window = ["--window", "60", "--until", until]
    rc, out, err = run(root, "--json", "check", *window)
    doc = json.loads(out)
    errors = [f["id"] for f in doc["findings"] if f["severity"] == "error"]
    ok(first in errors and "counters.errors" in errors,
       f"{what}: {first} and counters.errors are both errors", f"{errors}\n{err}")
    if first not in errors or "counters.errors" not in errors:
        return
    ok(errors[0] == first and errors.index(first) < errors.index("counters.errors"),
       f"{what}: JSON: {first} is the first error, before counters.errors", f"{errors}")
    rc, out, _ = run(root, "check", *window)
    ids = first_error_ids(out)
    ok(ids and ids[0] == first, f"{what}: text: {first} printed first", out)
    rc, out, _ = run(root, "check", "--brief", *window)
    lines = [line for line in out.splitlines() if line.startswith("ERROR ")]
    ok(lines and lines[0].split()[1] == first, f"{what}: --brief: {first} first", out)
    rc, out, _ = run(root, "check", "--nhc", *window)
    ok(rc == 1 and out.startswith(f"ERROR: rdmadoctor: Health check failed: {first} "),
       f"{what}: --nhc names {first}", f"rc {rc} {out!r}")
    rc, out, _ = run(root, "check", "--npd", *window)
    ok(rc == 1 and out.startswith(f"{first} "), f"{what}: --npd names {first}",
       f"rc {rc} {out!r}")


tmp = tempfile.mkdtemp(prefix="rank-order-")
try:
    # a rail down beside a count
    a = rdtest.copy_root(os.path.join(fixtures, "dgx-h100", "root"), os.path.join(tmp, "ib-a"))
    port = os.path.join(a, "sys/class/infiniband/mlx5_3/ports/1")
    with open(os.path.join(port, "state"), "w") as f:
        f.write("1: DOWN\n")
    with open(os.path.join(port, "phys_state"), "w") as f:
        f.write("3: Disabled\n")
    b = rdtest.copy_root(a, os.path.join(tmp, "ib-b"))
    grow(b, "mlx5_0", "symbol_error")
    judge("dgx-h100, a rail down", "port.down", a, b)

    # PFC off on a rail beside a count
    a = rdtest.copy_root(os.path.join(fixtures, "a800-8x100g-roce", "root"),
                         os.path.join(tmp, "roce-a"))
    given = sorted(os.listdir(os.path.join(a, ".rdmadoctor/dcb")))
    ok(bool(given), "a800-8x100g-roce: its DCB replies", f"{given}")
    if given:
        with open(os.path.join(a, ".rdmadoctor/dcb", given[0]), "wb") as f:
            f.write(dcb_reply(given[0], pfc_en=0, dscp2prio=lambda d: d // 8))
        b = rdtest.copy_root(a, os.path.join(tmp, "roce-b"))
        grow(b, "mlx5_3", "port_rcv_errors")
        judge("a800-8x100g-roce, PFC off on a rail", "roce.pfc", a, b)

    # the table: every catalog id has a cost, the order names catalog ids once
    res = rdtest.run(binary, "--json", "check", "--list")
    doc = json.loads(res.stdout)
    ids = {r["id"] for r in doc["checks"]}
    costs = [c["cost"] for c in doc.get("order", [])]
    ok(len(costs) == len(set(costs)) and all(c.get("basis") for c in doc.get("order", [])),
       "--list: each cost once, with its basis", json.dumps(doc.get("order"), indent=1))
    ok(all(r.get("cost") in costs for r in doc["checks"]), "--list: every id has a cost",
       json.dumps([r["id"] for r in doc["checks"] if r.get("cost") not in costs]))
    named = [i for c in doc.get("order", []) for i in c["ids"]]
    ok(len(named) == len(set(named)) and set(named) <= ids,
       "--list: the order names catalog ids, each once",
       json.dumps(sorted(set(named) - ids)))
    want = ["port.down", "port.rate_low", "roce.pfc", "port.fec", "module.dom",
            "counters.errors"]
    ok([i for i in named if i in want] == want,
       "--list: a down or slow rail, PFC off, FEC off, bad optics, then a count",
       json.dumps(named))
finally:
    shutil.rmtree(tmp)
done()
