#!/usr/bin/env python3
"""What lldp_cabling.sh expects of one `check --json` document.

usage: lldp_cabling_judge.py right|crossed|unknown CHECK.json

right    rails rxe_a, rxe_b cabled to leaf-r0, leaf-r1 as the site file
         maps them: no rail.cabling finding, the rails carry their
         neighbours.
crossed  rails rxe_c, rxe_d reach leaf-r1 and leaf-r0: exactly one
         rail.cabling finding, an error, naming both devices.
unknown  lldpd stopped: rail.cabling is not checked on the rails (an
         unchecked finding), and the verdict is not PASS.
"""
import json
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


case, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
cab = [f for f in doc["findings"] if f["id"] == "rail.cabling"]
rails = doc.get("rails")
if rails is None:
    fail(f"{case}: no `rails` in the check document")
names = [r["device"] for r in rails]

if case == "right":
    if names != ["rxe_a", "rxe_b"]:
        fail(f"right: rails {names}")
    if cab:
        fail(f"right: rail.cabling fired on a node cabled right: {cab}")
    systems = [(r["neighbor"] or {}).get("system") for r in rails]
    if systems != ["leaf-r0", "leaf-r1"]:
        fail(f"right: the rails' neighbours {systems}")
    print("ok: cabled right, no rail.cabling finding")
elif case == "crossed":
    if names != ["rxe_c", "rxe_d"]:
        fail(f"crossed: rails {names}")
    if len(cab) != 1:
        fail(f"crossed: {len(cab)} rail.cabling findings, want one: {cab}")
    f = cab[0]
    text = json.dumps(f)
    if f["severity"] != "error" or "rxe_c" not in text or "rxe_d" not in text:
        fail(f"crossed: the finding does not name both rails as an error: {f}")
    if doc["verdict"] == "pass":
        fail("crossed: the verdict is pass")
    print("ok: the crossed pair is one rail.cabling error naming both rails")
elif case == "unknown":
    if not any(f.get("unchecked") or f["severity"] == "info" for f in cab):
        fail(f"unknown: no not-checked rail.cabling finding: {cab}")
    if doc["verdict"] == "pass":
        fail("unknown: the verdict is pass with the rails' cabling unknown")
    if not doc.get("unchecked"):
        fail("unknown: nothing counted as unchecked")
    print("ok: without lldpd the cabling is not checked and the verdict is not PASS")
else:
    fail(f"unknown case {case}")
