#!/usr/bin/env python3
"""Build a fleet of host documents for the report test from the fixture
machines: `rdmadoctor --root examples/<shape> --json check` per shape, copied
per host with its hostname, firmware or MTU varied, plus synthetic `bw
--json` documents (per-rail results, pairs, a server side that must be left
out, two message sizes of which only the largest counts).

usage: make_fleet.py RDMADOCTOR SRCDIR OUTDIR
writes OUTDIR/checks/<n>.json (check documents, for `record --from`),
OUTDIR/bw/<n>.json (the host's bw documents, a JSON array),
OUTDIR/records.json (the records the report is given, in the shape of issue
6), OUTDIR/records/<n>.json (the same, one a file, for `record --from`) and OUTDIR/diff.json (a `fleet diff --json` document
computed here, used until the store's own command renders the page)."""
import copy
import json
import os
import random
import subprocess
import sys
from collections import Counter

# A hostname no browser may take for markup, with both quotes and an ampersand.
HOSTILE = "<img src=x onerror=\"document.title='pwned'\">&amp;<script>x</script>"

rng = random.Random(6)  # fixed: the same fleet every run


def check_doc(tool, src, shape):
    out = subprocess.run([tool, "--root", os.path.join(src, "examples", shape), "--json",
                          "check"], capture_output=True, text=True, timeout=60)
    if out.returncode not in (0, 1):
        sys.exit(f"make_fleet: check on {shape} exited {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def fixture_check_doc(tool, src, shape):
    """The check document of a tests/fixtures machine (the Ascend ones)."""
    out = subprocess.run([tool, "--root", os.path.join(src, "tests", "fixtures", shape, "root"),
                          "--json", "check"], capture_output=True, text=True, timeout=60)
    if out.returncode not in (0, 1):
        sys.exit(f"make_fleet: check on {shape} exited {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def set_npu(doc, npu_id, fw=None, speed_mbps=None):
    """One Ascend NPU of the document with other firmware or port speed."""
    for npu in doc["inventory"]["npus"]["devices"]:
        if npu["id"] == npu_id:
            if fw is not None:
                npu["firmware"] = fw
            if speed_mbps is not None:
                npu["port"]["speed_mbps"] = speed_mbps


def set_fw(doc, fw):
    for nic in doc["inventory"]["nics"]:
        nic["fw_ver"] = fw


def set_mtu(doc, mtu):
    for nic in doc["inventory"]["nics"]:
        for port in nic["ports"]:
            port["active_mtu"] = mtu


def rail_doc(local, remote, devices, gbps, transport="verbs", role="client"):
    """A `bw --json` client document: a small size first (must not count),
    then the large one with per-rail and total figures."""
    def stats(v):
        return {"avg": v, "min": round(v * 0.97, 3), "max": round(v * 1.01, 3)}
    results = []
    for size, scale in ((4096, 0.25), (1048576, 1.0)):
        rails = [{"device": d, "port": 1, "gbps": stats(round(g * scale, 3))}
                 for d, g in zip(devices, gbps)]
        total = round(sum(g * scale for g in gbps), 3)
        results.append({"size_bytes": size, "rails": rails, "total": {"gbps": stats(total)}})
    return {"schema": 1, "test": "bw", "role": role, "transport": transport, "op": "write",
            "local": {"host": local, "address": "192.0.2.1"},
            "remote": {"host": remote, "address": "192.0.2.2"},
            "results": results, "verdict": "pass"}


def majority_diff(records):
    """A `fleet diff --json` document: group by profile, NIC model and the
    first port's link layer (as src/fleet/facts.c: "unknown" without one); the
    most common value of each field is the baseline (ties: the smallest)."""
    def fields(rec):
        inv = rec["check"]["inventory"]
        fws = sorted({n["fw_ver"] for n in inv["nics"]})
        mtus = sorted({p["active_mtu"] for n in inv["nics"] for p in n["ports"]
                       if p["active_mtu"] is not None})
        return {"fw": ",".join(fws), "mtu": mtus[0] if mtus else None,
                "driver_stack": inv["host"]["drivers"]["stack"]}
    groups = {}
    for rec in records:
        nics = rec["check"]["inventory"]["nics"]
        ports = nics[0]["ports"] if nics else []
        key = (rec["profile"], nics[0]["model"] if nics else None,
               (ports[0].get("link_layer") if ports else None) or "unknown")
        groups.setdefault(key, []).append(rec)
    out = []
    for (profile, model, ll), recs in sorted(groups.items(), key=lambda kv: str(kv[0])):
        values = {r["host"]: fields(r) for r in recs}
        baseline, outliers = {}, []
        for field in ("fw", "mtu", "driver_stack"):
            shares = Counter(str(v[field]) for v in values.values())
            top = sorted(shares.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            base = next(v[field] for v in values.values() if str(v[field]) == top)
            baseline[field] = base
            for host in sorted(values):
                if str(values[host][field]) != top:
                    outliers.append({"host": host, "field": field,
                                     "value": values[host][field], "baseline": base,
                                     "shares": dict(shares)})
        out.append({"profile": profile, "nic_model": model, "link_layer": ll,
                    "hosts": sorted(values),
                    "baseline": baseline, "outliers": outliers})
    return {"schema": 1, "hosts": len(records), "groups": out}


def main():
    tool, src, outdir = sys.argv[1:4]
    shapes = {s: check_doc(tool, src, s)
              for s in ("dgx-h100", "dgx-a100", "a800-8x100g-roce", "roce-broken", "broken")}
    shapes["atlas-800-9000"] = fixture_check_doc(tool, src, "atlas-800-9000")
    hosts = []  # (name, shape, tweak)
    for i in range(1, 7):
        hosts.append((f"h100-{i:02d}", "dgx-h100",
                      {4: ("fw", "28.37.1014"), 5: ("mtu", 1024)}.get(i)))
    for i in range(1, 4):
        hosts.append((f"a100-{i:02d}", "dgx-a100", ("fw", "20.39.1002") if i == 2 else None))
    for i in range(1, 4):
        hosts.append((f"a800-{i:02d}", "a800-8x100g-roce", ("mtu", 1024) if i == 3 else None))
    # Atlas 800 9000 hosts (Ascend NPU ports): atlas-03's npu5 on other
    # firmware and at 25G
    for i in range(1, 5):
        hosts.append((f"atlas-{i:02d}", "atlas-800-9000",
                      ("npu", 5, "6.4.10.1.100", 25000) if i == 3 else None))
    hosts.append(("esc-n8-r12n05", "roce-broken", None))
    hosts.append((HOSTILE, "broken", None))

    bw = {h[0]: [] for h in hosts}
    h100 = [h[0] for h in hosts if h[1] == "dgx-h100"]
    dev8 = [f"mlx5_{k}" for k in range(8)]
    for i, host in enumerate(h100):  # a ring: every host a client once
        gbps = [round(rng.uniform(385, 395), 3) for _ in dev8]
        if host == "h100-05":
            gbps[3] = 181.5  # a slow rail
        bw[host].append(rail_doc(host, h100[(i + 1) % len(h100)], dev8, gbps))
        bw[host].append(rail_doc(host, h100[(i - 1) % len(h100)], dev8, gbps, role="server"))
    # a second run of h100-01, to h100-03: rails and the pair are means
    bw["h100-01"].append(rail_doc("h100-01", "h100-03", dev8,
                                  [round(rng.uniform(370, 380), 3) for _ in dev8]))
    bw["a800-01"].append(rail_doc("a800-01", "a800-02", [f"mlx5_{k}" for k in range(2)],
                                  [97.25, 96.5], transport="tcp"))
    odd = rail_doc(HOSTILE, "<b>bold</b>", ["mlx5_0", "mlx5_1"], [42.125, 40.0])
    del odd["results"][1]["rails"][1]["gbps"]  # no figure: left out, no crash
    bw[HOSTILE].append(odd)

    os.makedirs(os.path.join(outdir, "checks"), exist_ok=True)
    os.makedirs(os.path.join(outdir, "bw"), exist_ok=True)
    records = []
    for n, (host, shape, tweak) in enumerate(hosts):
        doc = copy.deepcopy(shapes[shape])
        doc["inventory"]["host"]["hostname"] = host
        if tweak and tweak[0] == "fw":
            set_fw(doc, tweak[1])
        if tweak and tweak[0] == "mtu":
            set_mtu(doc, tweak[1])
        if tweak and tweak[0] == "npu":
            set_npu(doc, tweak[1], fw=tweak[2], speed_mbps=tweak[3])
        with open(os.path.join(outdir, "checks", f"{n:02d}.json"), "w") as f:
            json.dump(doc, f, indent=1)
        with open(os.path.join(outdir, "bw", f"{n:02d}.json"), "w") as f:
            json.dump(bw[host], f, indent=1)
        records.append({"schema": 1, "host": host, "time": f"2026-11-30T07:{n:02d}:00Z",
                        "profile": doc["profile"], "verdict": doc["verdict"],
                        "check": doc, "bw": bw[host]})
    os.makedirs(os.path.join(outdir, "records"), exist_ok=True)
    for n, rec in enumerate(records):  # one file each, for `record --from`
        with open(os.path.join(outdir, "records", f"{n:02d}.json"), "w") as f:
            json.dump(rec, f)
    with open(os.path.join(outdir, "records.json"), "w") as f:
        json.dump(records, f)
    with open(os.path.join(outdir, "diff.json"), "w") as f:
        json.dump(majority_diff(records), f, indent=1)
    print(f"make_fleet: {len(records)} hosts, "
          f"{sum(len(v) for v in bw.values())} bw documents in {outdir}")


if __name__ == "__main__":
    main()
