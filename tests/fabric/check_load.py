#!/usr/bin/env python3
"""Check one `fabric --load` run of tests/fabric/test_fabric_load.sh from
rank 0's JSON report and stderr (docs/json/fabric.md, docs/fabric.md
"Under load").

usage: check_load.py incast   REPORT ERR NODES RATE_GBPS [SLOW-NODE]
       check_load.py alltoall REPORT ERR NODES RATE_GBPS

Every receiver's port is shaped by the test to RATE_GBPS in all, each of
its senders guaranteed an equal share (htb); SLOW-NODE's flows are capped
to a tenth of RATE_GBPS.  What is asserted:

  incast: one round per receiver (fabN receives in round N+1), each with
    the other NODES-1 as senders; every flow one-way, measured; each
    receiver's goodput within 0.7..1.1 x RATE; no SLOW-NODE: every share
    near RATE/(NODES-1), min share >= 0.5 x median, no row unfair;
    SLOW-NODE: exactly the rows it sends into are unfair, naming it
    weakest with about RATE/10, the row it receives in is not unfair;
  alltoall: one round, every ordered pair a measured flow, one receiver
    row per node with NODES-1 senders, goodput near RATE, none unfair.

The verdict besides unfair is not-checked, naming the missing retransmit
counter: with the tcp transport the ranks read the interface's netdev drop
counters but not TCP's retransmits, so a row that is fair and at line rate
cannot be called lossless (see the note in the test script).  It must
never be lossless, slow, lossy, no-ecn or not-run here."""
import json
import math
import re
import sys

OK_VERDICTS = {"not-checked"}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def num(v):
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


def load(report):
    text = open(report).read()
    try:
        return json.loads(text)
    except ValueError as e:
        fail(f"{report} is not one JSON document: {e}: {text[:300]!r}")


def common(doc, err, mode, nodes, rate, n_rounds):
    for key in ("load", "rounds", "verdicts", "pairs", "verdict", "reason", "wall_s"):
        if key not in doc:
            fail(f"no '{key}' in the report")
    if doc["load"]["mode"] != mode:
        fail(f"load.mode {doc['load']['mode']!r}, expected {mode}")
    if not num(doc["load"]["line_gbps"]) or abs(doc["load"]["line_gbps"] - rate) > 1e-9:
        fail(f"load.line_gbps {doc['load']['line_gbps']!r}, expected {rate} (--expect-gbps)")
    if doc["verdict"] not in ("pass", "fail"):
        fail(f"verdict {doc['verdict']!r}: {doc['reason']}")
    if len(doc["rounds"]) != n_rounds:
        fail(f"{len(doc['rounds'])} rounds, expected {n_rounds}")
    names = {f"fab{i}" for i in range(nodes)}
    # every rank read its rail's (lo's) counters around every round
    for k, rd in enumerate(doc["rounds"]):
        got = {c["node"] for c in rd.get("counters") or []}
        if got != names:
            fail(f"round {k + 1}: counters from {sorted(got)}, expected {sorted(names)}")
        for c in rd["counters"]:
            if c["unread"] is not None or not c["counters"] or "net:rx_dropped" not in c["counters"]:
                fail(f"round {k + 1}: {c['node']}'s lo counters not read: {c}")
    # rank 0 printed a progress line per round
    text = open(err).read()
    for k in range(1, n_rounds + 1):
        if not re.search(rf"round {k}/{n_rounds} done", text):
            fail(f"no progress line for round {k}/{n_rounds}: {text[-400:]!r}")
    rows = [v for v in doc["verdicts"] if v["subject"] == "receiver"]
    rails = [v for v in doc["verdicts"] if v["subject"] == "rail"]
    if len(rails) != 1 or rails[0]["rail"] != 0:
        fail(f"rail rows {rails}, expected one for rail 0")
    for v in rows:
        if v["verdict"] in ("slow", "lossy", "no-ecn", "not-run"):
            fail(f"receiver {v['receiver']} round {v['round']}: {v['verdict']}: {v['reason']}")
        if not num(v["goodput_gbps"]) or not 0.7 * rate <= v["goodput_gbps"] <= 1.1 * rate:
            fail(f"receiver {v['receiver']}: goodput {v['goodput_gbps']} Gb/s, expected "
                 f"{0.7 * rate:.2f}..{1.1 * rate:.2f}: {v['reason']}")
        if v["line_gbps"] != rate:
            fail(f"receiver {v['receiver']}: line {v['line_gbps']}, expected {rate}")
        if v["senders"] != nodes - 1:
            fail(f"receiver {v['receiver']}: {v['senders']} senders, expected {nodes - 1}")
        if v["verdict"] == "not-checked" and "read no retransmit counter" not in v["reason"]:
            fail(f"receiver {v['receiver']}: not-checked, reason {v['reason']!r}")
        if v["totals"]["retransmits"] is not None:
            fail(f"receiver {v['receiver']}: retransmits {v['totals']['retransmits']}, not read")
    return names, rows


def flows(doc):
    """(sender, receiver) -> Gb/s of every measured flow."""
    f = {}
    for p in doc["pairs"]:
        if p.get("error"):
            fail(f"flow {p['a']}->{p['b']} failed: {p['error']}")
        g = p["gbps"]
        if num(g["a_to_b"]):
            f[(p["a"], p["b"])] = g["a_to_b"]
        if num(g["b_to_a"]):
            f[(p["b"], p["a"])] = g["b_to_a"]
    return f


def incast(doc, err, nodes, rate, slow):
    names, rows = common(doc, err, "incast", nodes, rate, nodes)
    by_recv = {v["receiver"]: v for v in rows}
    if len(rows) != nodes or set(by_recv) != names:
        fail(f"receiver rows {[(v['round'], v['receiver']) for v in rows]}, expected one per node")
    for i in range(nodes):
        if by_recv[f"fab{i}"]["round"] != i + 1:
            fail(f"fab{i} received in round {by_recv[f'fab{i}']['round']}, expected {i + 1}")
    f = flows(doc)
    want = {(s, r) for s in names for r in names if s != r}
    if set(f) != want:
        fail(f"flows {sorted(f)}, expected every sender into every receiver")
    for p in doc["pairs"]:
        if num(p["gbps"]["b_to_a"]):
            fail(f"incast is one-way, yet {p['b']}->{p['a']} sent {p['gbps']['b_to_a']}")
    share = rate / (nodes - 1)
    for r, v in by_recv.items():
        mine = {s: g for (s, rr), g in f.items() if rr == r}
        if abs(sum(mine.values()) - v["goodput_gbps"]) > 1e-6 * rate:
            fail(f"{r}: goodput {v['goodput_gbps']} is not the sum of its flows {mine}")
        if abs(min(mine.values()) - v["min_share_gbps"]) > 1e-9 or v["weakest"] not in mine or \
                mine[v["weakest"]] != min(mine.values()):
            fail(f"{r}: min share {v['min_share_gbps']} / weakest {v['weakest']} not its flows' {mine}")
        if slow is None or slow not in mine:
            # fair: every share near R/K, and the rule's own test holds
            for s, g in mine.items():
                if not 0.7 * share <= g <= 1.3 * share:
                    fail(f"{s}->{r}: {g:.3f} Gb/s, expected near {share:.3f} (fair share)")
            if v["min_share_gbps"] < 0.5 * v["median_share_gbps"]:
                fail(f"{r}: min share {v['min_share_gbps']} under half the median "
                     f"{v['median_share_gbps']}")
            if v["verdict"] not in OK_VERDICTS:
                fail(f"{r}: {v['verdict']}, expected not-checked: {v['reason']}")
        else:
            # slow sends into r at about R/10: unfair, naming it
            if v["verdict"] != "unfair":
                fail(f"{r}: {v['verdict']}, expected unfair ({slow} capped): {v['reason']}")
            if v["weakest"] != slow or slow not in v["reason"]:
                fail(f"{r}: weakest {v['weakest']}, expected {slow}: {v['reason']}")
            if not 0.05 * rate <= v["min_share_gbps"] <= 0.15 * rate:
                fail(f"{r}: {slow}'s share {v['min_share_gbps']}, expected about {rate / 10}")
            if not v["min_share_gbps"] < 0.5 * v["median_share_gbps"]:
                fail(f"{r}: unfair, yet min share {v['min_share_gbps']} >= half the median "
                     f"{v['median_share_gbps']}")
    n_unfair = sum(v["verdict"] == "unfair" for v in rows)
    expect = 0 if slow is None else nodes - 1
    if n_unfair != expect:
        fail(f"{n_unfair} unfair rows, expected {expect}")
    if doc["verdicts"][-1]["subject"] != "rail":
        fail("the rail row is not last")
    if slow is not None and (doc["verdict"] != "fail" or "unfair" not in doc["reason"]):
        fail(f"verdict {doc['verdict']}: {doc['reason']}, expected fail naming unfair")


def alltoall(doc, err, nodes, rate):
    names, rows = common(doc, err, "alltoall", nodes, rate, 1)
    if len(rows) != nodes or {v["receiver"] for v in rows} != names:
        fail(f"receiver rows {[v['receiver'] for v in rows]}, expected one per node")
    if any(v["round"] != 1 for v in rows):
        fail("an alltoall row outside round 1")
    if len(doc["pairs"]) != nodes * (nodes - 1) // 2:
        fail(f"{len(doc['pairs'])} pairs, expected {nodes * (nodes - 1) // 2}")
    f = flows(doc)
    want = {(s, r) for s in names for r in names if s != r}
    if set(f) != want:
        fail(f"flows {sorted(f)}, expected every ordered pair (both ways)")
    share = rate / (nodes - 1)
    for (s, r), g in f.items():
        if not 0.7 * share <= g <= 1.3 * share:
            fail(f"{s}->{r}: {g:.3f} Gb/s, expected near {share:.3f}")
    for v in rows:
        if v["verdict"] not in OK_VERDICTS:
            fail(f"{v['receiver']}: {v['verdict']}, expected not-checked: {v['reason']}")


def main():
    a = sys.argv[1:]
    if len(a) < 5:
        fail(__doc__)
    mode, report, err, nodes, rate = a[0], a[1], a[2], int(a[3]), float(a[4])
    doc = load(report)
    if mode == "incast":
        incast(doc, err, nodes, rate, a[5] if len(a) > 5 else None)
    else:
        alltoall(doc, err, nodes, rate)
    print(f"ok: {mode}: {doc['reason']}")


main()
