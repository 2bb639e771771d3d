"""Fleet documents for tests and the bench: `check --json` of the fixture
machines, copied under other host names with edited values.

Used by test_fleet.py and bench/bench_fleet.sh; standard library only."""
import json
import os
import subprocess

# the fixture shapes whose check documents make the fleets
SHAPES = ["dgx-h100", "dgx-a100", "hgx-roce-lag", "a800-8x100g-roce", "dgx-b200",
          "hgx-a100-8x200g", "rtx3090-x16", "roce-broken", "broken"]


def check_doc(binary, examples, shape):
    """The check document of one fixture machine (exit 0 or 1 are both runs)."""
    p = subprocess.run([binary, "--root", os.path.join(examples, shape), "--json", "check"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode not in (0, 1):
        raise RuntimeError("check of %s exited %d: %s" % (shape, p.returncode, p.stderr))
    return json.loads(p.stdout)


# the Ascend fixture machines (tests/fixtures/SHAPE/root, a snapshot with
# the hccn_tool and npu-smi outputs)
ATLAS_SHAPES = ["atlas-800-9000", "atlas-800-9000-broken"]


def fixture_check_doc(binary, fixtures, shape):
    """The check document of a tests/fixtures machine."""
    return check_doc(binary, os.path.join(fixtures, shape), "root")


def npu(doc, npu_id):
    """The inventory NPU with that id (as hccn_tool -i takes it)."""
    return next(n for n in doc["inventory"]["npus"]["devices"] if n["id"] == npu_id)


def as_host(doc, name):
    """A copy of a check document that claims to be host `name`."""
    d = json.loads(json.dumps(doc))
    d["inventory"]["host"]["hostname"] = name
    return d


def set_fw(doc, fw):
    for n in doc["inventory"]["nics"]:
        n["fw_ver"] = fw


def set_mtu(doc, mtu):
    for n in doc["inventory"]["nics"]:
        for p in n["ports"]:
            p["active_mtu"] = mtu


def set_netdev_mtu(doc, mtu):
    for n in doc["inventory"]["nics"]:
        for p in n["ports"]:
            p["netdev_mtu"] = mtu


def set_pcie_width(doc, width, nic=0):
    doc["inventory"]["nics"][nic]["pci"]["link"]["width"] = width


def set_pcie_settings(doc, mps, mrrs, relaxed_ordering, nic=None):
    """The settings every NIC (or only NIC `nic`) runs with, as a root check
    reads them from config space."""
    for i, n in enumerate(doc["inventory"]["nics"]):
        if nic is None or i == nic:
            n["pci"]["settings"].update(express=True, mps=mps, mrrs=mrrs,
                                        relaxed_ordering=relaxed_ordering)


def set_node_mode(doc, kind, mode):
    """The mode of every /dev/infiniband node of one kind (uverbs, umad, ...)."""
    for d in doc["inventory"]["host"]["device_nodes"]:
        if d["name"].rstrip("0123456789") == kind:
            d["mode"] = mode


def set_module(doc, name, version, source):
    """The loaded RDMA module name runs version, its file from source."""
    for m in doc["inventory"]["host"]["driver_stack"]["modules"]:
        if m["name"] == name:
            m.update(loaded=True, version=version, source=source)


def set_slurmd_memlock(doc, soft_bytes):
    """slurmd's unit sets LimitMEMLOCK to soft_bytes (None: unlimited)."""
    lim = doc["inventory"]["host"]["job_memlock"]["slurmd_limit"]
    lim.update(soft_bytes=soft_bytes, soft_unlimited=soft_bytes is None)


def rail_ports(doc):
    """(device, port) of the doc's NIC ports in inventory order: the rails
    as check numbers them when every NIC is a rail NIC."""
    return [(n["name"], p["port"]) for n in doc["inventory"]["nics"] for p in n["ports"]]


def set_rails(doc, switches, ports="Ethernet1"):
    """The check's top-level `rails` (docs/json/check.md), rail k reaching
    switches[k]: a system name, ("chassis", ID) for a switch that sends
    only its chassis id, or None for a neighbour not known."""
    rails = []
    for k, ((dev, port), sw) in enumerate(zip(rail_ports(doc), switches)):
        nb = None
        if isinstance(sw, tuple):
            nb = {"system": None, "port": ports, "chassis_id": sw[1], "source": "lldpd"}
        elif sw is not None:
            nb = {"system": sw, "port": ports, "chassis_id": "02:00:00:00:00:%02x" % k,
                  "source": "lldpd"}
        rails.append({"rail": k, "device": dev, "port": port, "neighbor": nb})
    doc["rails"] = rails


def bw_doc(host, peer, rails, size=1 << 20):
    """A `bw --json` client document: rails is [(device, avg Gb/s)]."""
    total = sum(g for _, g in rails)
    return {
        "schema": 1, "test": "bw", "role": "client", "transport": "verbs", "op": "write",
        "local": {"host": host, "address": "10.0.0.1"},
        "remote": {"host": peer, "address": "10.0.0.2"},
        "results": [
            {"size_bytes": 65536,
             "rails": [{"device": d, "port": 1, "gbps": {"avg": g / 2, "min": g / 2, "max": g / 2}}
                       for d, g in rails],
             "total": {"gbps": {"avg": total / 2, "min": total / 2, "max": total / 2}}},
            {"size_bytes": size,
             "rails": [{"device": d, "port": 1, "gbps": {"avg": g, "min": g * 0.98, "max": g * 1.01}}
                       for d, g in rails],
             "total": {"gbps": {"avg": total, "min": total, "max": total}}},
        ],
        "verdict": "pass",
    }


def record(doc, time, bw=None):
    """A record document (the store's own form) around a check document."""
    return {"schema": 1, "host": doc["inventory"]["host"]["hostname"], "time": time,
            "profile": doc["profile"], "verdict": doc["verdict"], "check": doc,
            "bw": bw or []}


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
