#!/usr/bin/env python3
"""Check one fabric run of a test: rank 0's report is one JSON document
with the keys docs/json/fabric.md promises, the suspects are exactly the
expected ones (KIND:SUBJECT[:REASON-WORDS]...), a pair suspect says what
its re-run said and a confirmed one was re-run alone in a retest round,
the plan rank 0 printed on stderr is the rounds that ran, and there was a
progress line per round.

usage: check_report.py REPORT.json RANK0-STDERR EXPECTED..."""
import json
import re
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    report, err, expected = args[0], args[1], args[2:]
    text = open(report).read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        fail(f"{report} is not one JSON document: {e}: {text[:300]!r}")
    for key in ("schema", "test", "nodes", "rounds", "pairs", "suspects", "cleared", "verdict",
                "reason"):
        if key not in doc:
            fail(f"no '{key}' in the report")
    if doc["test"] != "fabric":
        fail(f"test is {doc['test']!r}")
    for n in doc["nodes"]:
        for key in ("name", "rank", "rails"):
            if key not in n:
                fail(f"node without '{key}': {n}")
    for p in doc["pairs"]:
        for key in ("a", "b", "rail", "gbps", "verdict"):
            if key not in p:
                fail(f"pair without '{key}': {p}")
        if set(p["gbps"]) != {"a_to_b", "b_to_a"}:
            fail(f"pair gbps keys: {p['gbps']}")
    got = sorted(f"{s['kind']}:{s['subject']}" for s in doc["suspects"])
    want = sorted(":".join(e.split(":")[:2]) for e in expected)
    if got != want:
        detail = "\n".join(f"  {s['kind']} {s['subject']}: {s['reason']}" for s in doc["suspects"])
        slow = "\n".join(f"  {p['a']}-{p['b']} round {p['round']}{' retest' if p['retest'] else ''}: "
                         f"{p['gbps']} {p['verdict']} {p.get('error', '')}"
                         for p in doc["pairs"] if p["verdict"] != "pass")
        fail(f"suspects {got}, expected {want}:\n{detail}\nrails {doc.get('rails')}\n"
             f"pairs not passing:\n{slow}")
    for e in expected:
        parts = e.split(":")
        if len(parts) > 2:
            s = [s for s in doc["suspects"] if f"{s['kind']}:{s['subject']}" == ":".join(parts[:2])][0]
            for word in parts[2:]:
                if word not in s["reason"]:
                    fail(f"{parts[0]} {parts[1]}: reason {s['reason']!r} does not say {word!r}")
    # a pair suspect says what its re-run said; a confirmed one ran alone
    alone = {f"{r['pairs'][0][0]}-{r['pairs'][0][1]}" for r in doc["rounds"]
             if r["retest"] and len(r["pairs"]) == 1}
    for s in doc["suspects"]:
        if s["kind"] != "pair":
            continue
        if s.get("rerun") not in ("none", "confirmed", "error"):
            fail(f"pair {s['subject']}: rerun {s.get('rerun')!r}")
        if s["rerun"] == "confirmed":
            a, b = s["subject"].split("-", 1)
            if s["subject"] not in alone and f"{b}-{a}" not in alone:
                fail(f"pair {s['subject']} confirmed, but not re-run alone: {doc['rounds']}")
            if not any(e["retest"] and e["verdict"] == "slow" for e in s["evidence"]):
                fail(f"pair {s['subject']} confirmed without a slow re-run in its evidence")
    want_verdict = "fail" if expected else "pass"
    if doc["verdict"] != want_verdict:
        fail(f"verdict {doc['verdict']!r}, expected {want_verdict!r} ({doc['reason']})")
    # the plan, as printed before the first round, is what ran
    plan = {}
    lines = open(err).read().splitlines()
    for line in lines:
        m = re.match(r"fabric plan: round (\d+): (.*)$", line)
        if m:
            plan[int(m.group(1))] = sorted(m.group(2).split())
    ran = {r["round"]: sorted(f"{a}-{b}" for a, b in r["pairs"])
           for r in doc["rounds"] if not r["retest"]}
    if not plan or plan != ran:
        fail(f"the plan {plan} is not the rounds that ran {ran}")
    measured = {}
    for p in doc["pairs"]:
        if not p["retest"]:
            measured.setdefault(p["round"], set()).add(f"{p['a']}-{p['b']}")
    for r, pairs in ran.items():
        if measured.get(r, set()) - set(pairs):
            fail(f"round {r} reports pairs outside its plan: {measured[r]}")
    progress = [l for l in lines if re.search(r"fabric: round \d+/\d+ done", l)]
    if len(progress) != len(ran):
        fail(f"{len(progress)} progress lines for {len(ran)} rounds")
    print(f"ok: {len(doc['nodes'])} nodes, {len(doc['rounds'])} rounds, suspects {got}")


main()
