#!/usr/bin/env python3
"""The site file's exclude = (issue 31, item 5): a device it names, by
RDMA device name or by PCI address pattern, is read no further than its
name and PCI address, and is "not checked": one nic.excluded finding,
unchecked and counted, a warning on a rail (the node cannot PASS), an
info on a storage NIC; no other finding on it; listed as excluded in the
inventory; said in -v.  Proven not read: faults planted in its files
(counters, firmware, rate) give nothing, and a snapshot taken under the
site file holds none of its files.

usage: excluded.py RDMADOCTOR FIXTURES_DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("excluded")
binary, expect, run = h.binary, h.expect, h.run
SHAPE = "a800-8x100g-roce"


def copy(shape, name):
    """A copy of a healthy machine, to break."""
    return h.copy(shape, name)


def site(root, text):
    os.makedirs(os.path.join(root, "etc", "rdmadoctor"), exist_ok=True)
    with open(os.path.join(root, "etc", "rdmadoctor", "rdmadoctor.conf"), "w") as f:
        f.write(text)


def devdir(root, dev):
    return os.path.realpath(os.path.join(root, "sys/class/infiniband", dev))


def plant_faults(root, dev):
    """What would give findings on dev were it read: error counters, an
    odd firmware version, a rate of half the others."""
    d = devdir(root, dev)
    with open(os.path.join(d, "ports/1/counters/symbol_error"), "w") as f:
        f.write("4242\n")
    with open(os.path.join(d, "ports/1/counters/link_downed"), "w") as f:
        f.write("17\n")
    with open(os.path.join(d, "fw_ver"), "w") as f:
        f.write("22.31.0001\n")
    with open(os.path.join(d, "ports/1/rate"), "w") as f:
        f.write("50 Gb/sec (2X HDR)\n")


def on(doc, dev):
    return [f for f in doc["findings"] if f["subject"] == dev or
            f["subject"].startswith(dev + " ")]


# the fixture as it is: the baseline
rc0, base, _, _ = run(copy(SHAPE, "base"))
expect(rc0 == 0 and base["verdict"] == "pass", "baseline passes", f"{rc0} {base['verdict']}")

# --- a rail excluded by name, with faults planted in its files -------------
r = copy(SHAPE, "rail")
plant_faults(r, "mlx5_3")
rc, doc, _, _ = run(r)
expect(doc["verdict"] == "fail" and
       any(f["id"] == "counters.errors" and f["subject"].startswith("mlx5_3")
           for f in doc["findings"]),
       "without exclude the planted faults on mlx5_3 are found", f"{rc} {doc['verdict']}")
site(r, "[site]\n# the GB200 tray's internal function\nexclude = mlx5_3\n")
rc, doc, out, err = run(r, verbose=True)
mine = on(doc, "mlx5_3")
expect(len(mine) == 1 and mine[0]["id"] == "nic.excluded", "one finding on mlx5_3, nic.excluded",
       [(f["id"], f["subject"]) for f in mine])
f = mine[0] if mine else {}
expect(f.get("unchecked") is True and f.get("severity") == "warn" and
       "excluded by the site file (line 3, 'mlx5_3')" in f.get("observed", "") and
       "0000:4f:00.0" in f.get("observed", ""),
       "a rail excluded: a not-checked warning naming the line, pattern and PCI address", f)
expect(doc["verdict"] == "warn", "an excluded rail keeps the node from PASS",
       f"{rc} {doc['verdict']}")
expect(doc["unchecked"] == base["unchecked"] + 1 - len(on(base, "mlx5_3")),
       "counted among the unchecked (its own unchecked findings replaced by the one)",
       f"{doc['unchecked']} vs {base['unchecked']}")
expect(not any(x["severity"] == "error" for x in doc["findings"]),
       "no error follows from the exclusion (its rail place is kept: no nic.count)",
       [x["id"] for x in doc["findings"] if x["severity"] == "error"])
expect(doc["roles"].get("mlx5_3") == "rail", "it keeps its rail role", doc.get("roles"))
expect("excluded by the site file (line 3, 'mlx5_3'): not read beyond its name and PCI address"
       in err, "-v says it", err[-600:])
nic = [n for n in doc["inventory"]["nics"] if n["name"] == "mlx5_3"][0]
expect(nic["excluded"] == {"pattern": "mlx5_3", "line": 3} and nic["ports"] == [] and
       nic["fw_ver"] is None and nic["pci"]["bdf"] == "0000:4f:00.0" and
       nic["pci"]["vendor"] is None and nic["uverbs"] is None,
       "the inventory lists it as excluded, with its name and PCI address only", nic)
expect(all(n["excluded"] is None for n in doc["inventory"]["nics"] if n["name"] != "mlx5_3"),
       "the others are not excluded")
rc, _, text, _ = run(r, json_out=False)
# the summary line wraps at 80 columns: its words, whatever the breaks
expect("WARN  nic.excluded  mlx5_3" in text and "1 counted as a warning" in " ".join(text.split()),
       "the text says it and counts it", text[:600])
rc, _, text, _ = run(r, json_out=False, cmd="inventory")
expect("mlx5_3  excluded by the site file (line 3, 'mlx5_3'): not read  rail" in text,
       "inventory text shows it excluded", text[:200])
rc, _, text, _ = run(r, "--nhc", json_out=False)
expect("UNCHECKED: rdmadoctor: nic.excluded mlx5_3: not checked: excluded by the site file"
       in text, "--nhc says it", text)

# nothing of it was read: a snapshot under the site file holds none of its files
snap = os.path.join(h.tmp, "snap")
res = subprocess.run([binary, "--root", r, "snapshot", snap], capture_output=True, text=True)
func = os.path.dirname(os.path.dirname(devdir(r, "mlx5_3")))
rel = os.path.relpath(func, r)
held = []
for top, dirs, files in os.walk(os.path.join(snap, rel)):
    for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
        p = os.path.relpath(os.path.join(top, name), os.path.join(snap, rel))
        held.append(p)
# what the walks over classes read of every device, the kernel's own
# copies, not the device: the PCI vendor id (the GPU scan reads it of every
# function), which uverbsN and umadN belong to which device
classwide = ("vendor", "infiniband_verbs/", "infiniband_mad/")
own = sorted(p for p in held if not p.startswith(classwide))
expect(res.returncode == 0 and own == ["infiniband/mlx5_3/device"],
       "the snapshot holds nothing of the excluded function but its device link", held)
expect(not any(p.startswith("infiniband/mlx5_3/") and p != "infiniband/mlx5_3/device"
               or p in ("config", "fw_ver") or p.startswith("net/") for p in held),
       "no counters, ports, firmware, config space or netdev of it", held)

# --- a storage NIC excluded by a PCI address pattern -----------------------
r = copy(SHAPE, "storage")
site(r, "[site]\nexclude = 0000:31:00.*,\n")
rc, doc, _, _ = run(r)
mine = on(doc, "mlx5_8")
expect(rc == 0 and doc["verdict"] == "pass" and len(mine) == 1 and
       mine[0]["id"] == "nic.excluded" and mine[0]["severity"] == "info" and
       mine[0]["unchecked"] and "'0000:31:00.*'" in mine[0]["observed"],
       "a storage NIC excluded by PCI address: a not-checked info, the verdict left alone",
       f"{rc} {doc['verdict']} {mine}")

# --- several patterns, several lines; one matching nothing -----------------
r = copy(SHAPE, "several")
site(r, "[site]\nexclude = mlx5_9 mlx5_1[01]\nexclude = 0000:4f:00.0\n")
rc, doc, _, _ = run(r)
ex = sorted(f["subject"] for f in doc["findings"] if f["id"] == "nic.excluded")
expect(ex == ["mlx5_3", "mlx5_9"], "patterns on several lines add up", ex)

# --- a malformed line is refused with its line ------------------------------
r = copy(SHAPE, "broken")
site(r, "[site]\n\nexclude = mlx5/3\n")
rc, doc, _, err = run(r)
expect(rc == 2 and "rdmadoctor.conf:3: exclude: '/' in 'mlx5/3'" in err,
       "a malformed exclude is refused with FILE:LINE", f"{rc} {err}")

h.done()
