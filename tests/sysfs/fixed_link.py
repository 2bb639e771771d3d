#!/usr/bin/env python3
"""A driver whose port state is a constant (model/driver_link.c: efa, whose
efa_query_port answers ACTIVE/LinkUp at EDR 4X whatever the link does):
the link is read from the network interface on the device's PCI function,
or is "not checked" with the driver's reason; its rate is never judged.

Laid out from source, not captured: a copy of rtx3090-x16 whose mlx5_0 is
bound to the efa driver with the files efa_query_port and the core's
link_layer_show give (state "4: ACTIVE", phys_state "5: LinkUp", rate
"100 Gb/sec (4X EDR)", link_layer "Unknown").
usage: fixed_link.py RDMADOCTOR FIXTURES
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("fixed-link")
DEV = "mlx5_0"
NETDEV = "enp162s0f0np0"


def efa(name, operstate="up", netdev=True):
    root = h.copy("rtx3090-x16", name)
    pci = os.path.realpath(os.path.join(root, "sys/class/infiniband", DEV, "device"))
    os.makedirs(os.path.join(root, "sys/bus/pci/drivers/efa"), exist_ok=True)
    drv = os.path.join(pci, "driver")
    os.remove(drv)
    os.symlink("../../../../bus/pci/drivers/efa", drv)
    port = os.path.join(root, "sys/class/infiniband", DEV, "ports/1")
    for f, v in (("state", "4: ACTIVE"), ("phys_state", "5: LinkUp"),
                 ("rate", "100 Gb/sec (4X EDR)"), ("link_layer", "Unknown")):
        with open(os.path.join(port, f), "w") as fh:
            fh.write(v + "\n")
    # the efa device has no GID of a netdev (it keeps no ndevs)
    shutil.rmtree(os.path.join(port, "gid_attrs"), ignore_errors=True)
    if netdev:
        with open(os.path.join(root, "sys/class/net", NETDEV, "operstate"), "w") as fh:
            fh.write(operstate + "\n")
    else:
        shutil.rmtree(os.path.join(pci, "net"))
        os.remove(os.path.join(root, "sys/class/net", NETDEV))
    return root


def port_findings(doc, fid="port.down"):
    return [f for f in doc["findings"] if f["id"] == fid and f["subject"].startswith(DEV + " ")]


def the_port(root):
    _, inv, _, _ = h.run(root, cmd="inventory")
    return [n for n in inv["nics"] if n["name"] == DEV][0]["ports"][0]


# 1. its interface is up: up, and nothing about the link
root = efa("up")
rc, doc, out, err = h.run(root)
p = the_port(root)
h.expect(p["state"]["code"] == 4 and p["netdev"] == NETDEV and "interface" in p["state"]["name"],
         "an efa port whose interface is up is ACTIVE, by its interface", p["state"])
h.expect(p["rate_gbps"] is None, "efa's fixed EDR 4X is not read as the link's rate",
         p["rate_gbps"])
h.expect(not port_findings(doc), "no port.down while the interface is up", port_findings(doc))

# 2. its interface is down while the driver says ACTIVE: port.down, with the
# driver's own advice (no cable to reseat on a virtual NIC)
root = efa("down", operstate="down")
rc, doc, out, err = h.run(root)
f = port_findings(doc)
h.expect(len(f) == 1 and not f[0].get("unchecked") and f[0]["severity"] in ("error", "warn"),
         "an efa port whose interface is down is port.down although the driver says ACTIVE", f)
h.expect(f and NETDEV in f[0]["observed"] and "DOWN" in f[0]["observed"],
         "the finding names the interface", f and f[0]["observed"])
h.expect(f and "EFA" in f[0]["fix"] and "reseat" not in f[0]["fix"],
         "the fix is the EFA's, not a cable's", f and f[0]["fix"])
h.expect(doc["verdict"] != "pass", "the verdict is not PASS", doc["verdict"])

# 3. no interface on its PCI function: not checked, with the driver's reason
root = efa("alone", netdev=False)
rc, doc, out, err = h.run(root)
f = port_findings(doc)
h.expect(len(f) == 1 and f[0].get("unchecked") and "efa_query_port" in f[0]["observed"],
         "an efa port with no interface is not checked, with the driver's reason", f)
h.expect(doc.get("unchecked", 0) >= 1, "and counted", doc.get("unchecked"))
rc, _, out, err = h.run(root, "--nhc", json_out=False)
h.expect(rc != 0 or "not checked" in out + err or "port.down" in out + err,
         "--nhc does not pass it in silence", (rc, out[-300:], err[-300:]))
h.done()
