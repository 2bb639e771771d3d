#!/usr/bin/env python3
"""check's text for people: the same finding on several subjects printed
once naming them (JSON keeps one entry each), a value to type printed
whole in such a group (never with a <dev> placeholder), lines wrapped to 80 columns
when not a terminal, `--brief` one line per finding, and the option errors.

A copy of dgx-h100 where every port has link_downed 1 and nothing else.

usage: text.py RDMADOCTOR FIXTURES_DIR
"""
import glob
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import done, ok  # noqa: E402

binary, fixtures = sys.argv[1], sys.argv[2]


def run(*args):
    res = rdtest.run(binary, *args)
    return res.returncode, res.stdout, res.stderr


tmp = tempfile.mkdtemp(prefix="ckb-text-")
try:
    root = os.path.join(tmp, "root")
    shutil.copytree(os.path.join(fixtures, "dgx-h100", "root"), root, symlinks=True)
    ports = sorted(glob.glob(os.path.join(root, "sys/class/infiniband/*/ports/1")))
    for p in ports:
        with open(os.path.join(p, "counters", "link_downed"), "w") as f:
            f.write("1\n")
        for name in ("out_of_sequence", "packet_seq_err", "local_ack_timeout_err"):
            path = os.path.join(p, "hw_counters", name)
            if os.path.exists(path):
                with open(path, "w") as f:
                    f.write("0\n")
    n = len(ports)

    rc, out, _ = run("--root", root, "--json", "check")
    doc = json.loads(out)
    errs = [f for f in doc["findings"] if f["id"] == "counters.errors"]
    ok(len(errs) == n and len({f["subject"] for f in errs}) == n,
       f"JSON: one counters.errors per port ({n})", out)

    rc, out, _ = run("--root", root, "check")
    ok(out.count("counters.errors") == 1, "text: the same finding printed once", out)
    ok(f"counters.errors  {n} ports: mlx5_0 port 1, mlx5_1 port 1," in out,
       "text: the subjects listed", out)
    ok("mlx5_11 port 1\n" in out and out.count("observed  link_downed 1\n") == 1,
       "text: every subject, one observed", out)
    ok("`perfquery -R -C <dev> -P 1`" in out, "text: the name the subjects differ in", out)
    ok(all(len(line) <= 80 for line in out.splitlines()), "text: 80 columns", out)

    rc, out, _ = run("--root", root, "check", "--brief")
    lines = out.splitlines()
    ok(rc == 0 and sum(line.startswith("WARN  counters.errors mlx5_") for line in lines) == n,
       "--brief: one line per finding", out)
    ok("WARN  counters.errors mlx5_10 port 1: link_downed 1 (expected " in out,
       "--brief: severity, id, subject, observed, expected", out)

    # a port of another NIC with a different count stays apart
    with open(os.path.join(ports[0], "counters", "link_downed"), "w") as f:
        f.write("2\n")
    rc, out, _ = run("--root", root, "check")
    ok(out.count("counters.errors") == 2 and f"{n - 1} ports:" in out and
       "observed  link_downed 2" in out, "text: a different finding printed apart", out)

    # a grouped NCCL finding: the value the user wrote, and the value a fix
    # tells them to type, print whole, never with a <dev> placeholder in
    # them (NCCL_IB_HCA=<dev>,mlx5_2); one fix names every device at once
    fx = os.path.join(fixtures, "dgx-h100", "root")
    env = os.path.join(tmp, "job.env")
    with open(env, "w") as f:
        f.write("NCCL_IB_HCA=mlx5_1,mlx5_2\n")    # both storage NICs of the DGX
    rc, out, _ = run("--root", fx, "--json", "check", "--env", env)
    doc = json.loads(out)
    storage = [f for f in doc["findings"] if f["id"] == "nccl.hca_storage"]
    missing = [f for f in doc["findings"] if f["id"] == "nccl.hca_missing"]
    ok(len(storage) == 2 and len({f["fix"] for f in storage}) == 1 and
       "NCCL_IB_HCA=^=mlx5_1,mlx5_2" in storage[0]["fix"],
       "JSON: each nccl.hca_storage's fix excludes both storage NICs at once",
       json.dumps(storage, indent=1))
    every = ",".join(f["subject"].replace(" port ", ":") for f in missing)
    ok(len(missing) > 1 and len({f["fix"] for f in missing}) == 1 and
       f"add {every} to NCCL_IB_HCA" in missing[0]["fix"],
       "JSON: each nccl.hca_missing's fix adds every rail left out at once",
       json.dumps(missing, indent=1))
    rc, out, _ = run("--root", fx, "check", "--env", env)
    typed = [w for w in out.split() if ("<dev>" in w or "<bdf>" in w) and
             ("=" in w or "," in w)]
    ok(not typed, "text: no placeholder in a value to type", "\n".join(typed) + "\n" + out)
    ok(out.count("nccl.hca_storage") == 1 and "NCCL_IB_HCA=mlx5_1,mlx5_2 (line 1)" in out and
       "NCCL_IB_HCA=^=mlx5_1,mlx5_2" in out and f"add {every} to" in out,
       "text: the grouped NCCL findings print the lists whole", out)

    # every fixture: no text line beyond 80 columns but a word longer than that
    for r in sorted(glob.glob(os.path.join(fixtures, "*", "root"))):
        rc, out, _ = run("--root", r, "check")
        long = [line for line in out.splitlines() if len(line) > 80 and " " in line.strip()]
        ok(not long, f"{r}: lines beyond 80 columns", "\n".join(long))

    for args, what in ((["--json", "check", "--brief"], "--brief with --json"),
                       (["check", "--brief", "--nhc"], "--brief with --nhc"),
                       (["check", "--list", "--profile", "dgx-h100"], "--list with --profile")):
        rc, out, err = run(*args)
        ok(rc == 2 and err and not out, f"{what}: a usage error (exit {rc})", err)
finally:
    shutil.rmtree(tmp)

done()
