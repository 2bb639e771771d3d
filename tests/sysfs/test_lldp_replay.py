#!/usr/bin/env python3
"""Neighbours on a replay tree: what inventory, topo and their JSON say.

hgx-roce-lag is copied and given a real lldpd 1.0.16 recording
(tests/fixtures/lldp) with the recording's interface names replaced by the
tree's netdevs, at .rdmadoctor/lldp/neighbors, as a snapshot would hold it.
usage: test_lldp_replay.py BINARY SRCDIR"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

BIN, SRC = sys.argv[1], sys.argv[2]
FIX = os.path.join(SRC, "tests", "fixtures")
tally = rdtest.Tally()
check = tally.ok


def run(root, *args):
    p = rdtest.run(BIN, *args, root=root, timeout=None)
    check(p.returncode in (0, 1), f"{args}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def ports(root):
    doc = json.loads(run(root, "--json", "inventory"))
    return {p["netdev"]: p for n in doc["nics"] for p in n["ports"]}


def tree(tmp, name, recording=None, renames=(), errno=None, raw=None):
    root = os.path.join(tmp, name)
    shutil.copytree(os.path.join(FIX, "hgx-roce-lag", "root"), root, symlinks=True)
    d = os.path.join(root, ".rdmadoctor", "lldp")
    shutil.rmtree(d, ignore_errors=True)	# the example's own neighbours
    os.makedirs(d, exist_ok=True)
    if recording:
        with open(os.path.join(FIX, "lldp", recording), "rb") as f:
            data = f.read()
        for old, new in renames:
            data = data.replace(b'"%s"' % old.encode(), b'"%s"' % new.encode())
        raw = data
    if raw is not None:
        with open(os.path.join(d, "neighbors"), "wb") as f:
            f.write(raw)
    if errno is not None:
        with open(os.path.join(d, "neighbors.errno"), "w") as f:
            f.write(f"{errno}\n")
    return root


with tempfile.TemporaryDirectory() as tmp:
    # r0 -> a rail, r1 -> one slave of the LAG
    root = tree(tmp, "two", "lldpd-1.0.16-two-ports.json",
                [("r0", "enp24s0np0"), ("r1", "ens9f0np0")])
    p = ports(root)
    check(p["enp24s0np0"]["neighbor"] == {"system": "leaf-r0", "port": "Ethernet1",
                                          "chassis_id": "52:c3:40:da:bd:84",
                                          "source": "lldpd"}, "rail 0's neighbour")
    check("neighbor_unknown" not in p["enp24s0np0"], "no why beside a neighbour")
    check(p["enp57s0np0"]["neighbor"] is None and
          p["enp57s0np0"]["neighbor_unknown"] == "lldpd heard no LLDP neighbour on enp57s0np0",
          "a port lldpd heard nothing on")
    bond = p["bond0"]
    check(bond["neighbor"] is None and "RoCE LAG" in bond["neighbor_unknown"] and
          "ens9f0np0: leaf-r0 port Ethernet2" in bond["neighbor_unknown"] and
          "ens9f1np1: none heard" in bond["neighbor_unknown"], "the LAG names its slaves'")
    text = run(root, "inventory")
    check("      neighbor leaf-r0 port Ethernet1 chassis 52:c3:40:da:bd:84 (lldpd)\n" in text,
          "inventory's neighbour line")
    check("      neighbor not checked: lldpd heard no LLDP neighbour on enp57s0np0\n" in text,
          "inventory's not-checked line")
    topo = run(root, "topo")
    check(any(l.startswith("mlx5_0 ") and l.endswith("leaf-r0 Ethernet1")
              for l in topo.splitlines()), "topo's switch port column")
    tj = json.loads(run(root, "--json", "topo"))
    check(tj["nics"][0]["ports"][0]["neighbor"]["port"] == "Ethernet1", "topo --json")
    # a snapshot of the tree keeps the bytes, and its replay says the same
    snap = os.path.join(tmp, "snap")
    run(root, "-q", "snapshot", snap)
    with open(os.path.join(snap, ".rdmadoctor", "lldp", "neighbors"), "rb") as f, \
            open(os.path.join(root, ".rdmadoctor", "lldp", "neighbors"), "rb") as g:
        check(f.read() == g.read(), "the snapshot keeps lldpcli's bytes")
    check(run(snap, "--json", "inventory") == run(root, "--json", "inventory"),
          "the snapshot replays the same inventory")

    # one port hearing two switches has no neighbour, and says whom it heard
    root = tree(tmp, "shared", "lldpd-1.0.16-shared-segment.json", [("r0", "enp24s0np0")])
    p = ports(root)
    check(p["enp24s0np0"]["neighbor"] is None and
          p["enp24s0np0"]["neighbor_unknown"] ==
          "lldpd heard 2 LLDP neighbours on enp24s0np0, so its switch port is not known: "
          "leaf-a port Ethernet3, leaf-b port Ethernet4", "two neighbours on one port")

    # lldpcli failed on the machine (lldpd not running): kept as an errno
    root = tree(tmp, "down", errno=111)
    p = ports(root)
    check(p["enp24s0np0"]["neighbor"] is None and
          p["enp24s0np0"]["neighbor_unknown"].startswith("lldpd is not running"),
          "lldpd not running")
    root = tree(tmp, "missing", errno=65)  # ENOPKG
    check(ports(root)["enp24s0np0"]["neighbor_unknown"].startswith("lldpcli is not installed"),
          "lldpcli not installed")

    # bytes that are not lldpcli's JSON: no facts, and -v says why
    root = tree(tmp, "bad", raw=b'{"lldp": {"interface": {"enp24s0np0": 3}}}\n')
    p = ports(root)
    check(p["enp24s0np0"]["neighbor"] is None and
          p["enp24s0np0"]["neighbor_unknown"].startswith("lldpcli's output unusable: "),
          "malformed output")
    check(p["enp57s0np0"]["neighbor"] is None, "malformed output gives no port a neighbour")

    # an InfiniBand tree with no SMP replies stored: no lldpcli asked, and
    # the port is not checked (tests/sysfs has the replies' own tests)
    noib = os.path.join(tmp, "no-smp")
    shutil.copytree(os.path.join(FIX, "dgx-h100", "root"), noib, symlinks=True)
    shutil.rmtree(os.path.join(noib, ".rdmadoctor", "ibsmp"))
    ib = ports(noib)
    check(ib["ibp24s0"]["neighbor_unknown"] == "not in the snapshot", "InfiniBand ports")

tally.done()
