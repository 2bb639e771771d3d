#!/usr/bin/env python3
"""The check catalog is complete: every id the checks can give is listed by
`check --list` (text and JSON), once, in id order, with its severity, what
fires it and a fix; and every finding any fixture machine gives has a listed id.

usage: catalog.py RDMADOCTOR SRCDIR
"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import done, ok  # noqa: E402

binary, src = sys.argv[1], sys.argv[2]


def run(*args):
    res = rdtest.run(binary, *args)
    return res.returncode, res.stdout, res.stderr


rc, out, err = run("--json", "check", "--list")
ok(rc == 0, f"--json check --list exited {rc}: {err}")
rows = json.loads(out)["checks"]
ids = [r["id"] for r in rows]
ok(len(ids) == len(set(ids)), f"an id listed twice: {ids}")
ok(ids == sorted(ids), "ids not in order")
for r in rows:
    ok(all(r.get(k) for k in ("id", "severity", "fires", "fix")), f"{r['id']}: an empty column")
    ok(re.fullmatch(r"[a-z]+\.[a-z][a-z0-9_]*", r["id"]) is not None, f"id {r['id']!r}")

rc, text, err = run("check", "--list")
ok(rc == 0, f"check --list exited {rc}")
listed = [line for line in text.splitlines() if line and not line.startswith(" ")]
ok(listed == ids, f"text --list names {listed}, JSON {ids}")
ok(all(len(line) <= 80 for line in text.splitlines()), "check --list wider than 80 columns")

# every id the code names (a string literal like "port.rate_low" in the
# check families, or "nccl.hca_down" in the judge of a job's environment
# that `check --env` adds) is in the catalog
code = set()
for path in glob.glob(os.path.join(src, "src", "check", "*.c")) + \
        glob.glob(os.path.join(src, "src", "nccl", "env_judge*.c")) + \
        [os.path.join(src, "src", "pipeline", "snapshot_gaps.c")]:  # snapshot.incomplete
    if os.path.basename(path) == "catalog.c":
        continue
    for m in re.finditer(r'"([a-z]+\.[a-z][a-z0-9_]*)"', open(path, encoding="utf-8").read()):
        if not m.group(1).endswith((".c", ".h")):
            code.add(m.group(1))
ok(code and not code - set(ids), f"ids in src/check but not in the catalog: {sorted(code - set(ids))}")
ok(not set(ids) - code, f"catalog ids no check gives: {sorted(set(ids) - code)}")

# and every finding on every fixture
fixtures = os.path.join(src, "tests", "fixtures")
profile = os.path.join(src, "tests", "check", "roce-qos.ini")
for root in sorted(glob.glob(os.path.join(fixtures, "*", "root"))):
    for extra in ([], ["--profile", profile]):
        rc, out, err = run("--root", root, "--json", "check", *extra)
        if rc not in (0, 1):
            ok(False, f"{root}: check exited {rc}: {err}")
            continue
        for f in json.loads(out)["findings"]:
            ok(f["id"] in ids, f"{root}: finding id {f['id']} not listed")

done()
