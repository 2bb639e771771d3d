#!/usr/bin/env python3
"""A profile's link_layer is judged (issue 29): a card in the other link
layer than the profile's rails is port.link_layer (error) with the
mlxconfig LINK_TYPE_P<n> fix on its own PCI address, is not counted as a
rail (nic.count names it), and nothing else blames its consequences.

Each case judges a bundled fixture, or a copy with one port's link_layer
file changed, under a profile file written here.

usage: link_layer.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("link-layer")
binary, fixtures, tmp, expect = h.binary, h.fixtures, h.tmp, h.expect


def profile(name, text):
    path = os.path.join(tmp, name + ".ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def check(root, prof=None):
    argv = [binary, "--root", root, "--json", "check"] + (["--profile", prof] if prof else [])
    res = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    return res.returncode, json.loads(res.stdout)


def ids(doc, fid):
    return [f for f in doc["findings"] if f["id"] == fid]


def rails(doc):
    """The rail count nic.count observed ("7 (mlx5_0 ...)" or "none"); 8 when
    nic.count is silent, as every profile here expects 8."""
    f = [x for x in ids(doc, "nic.count") if x["subject"] == "rail NICs"]
    if not f:
        return 8
    obs = f[0]["observed"]
    return 0 if obs.startswith("none") else int(obs.split()[0])


IB = profile("our-h100-ib", "[profile]\nname = our-h100-ib\nbased_on = hgx-8x400g\n"
             "[rail]\nlink_layer = InfiniBand\n")
# the README's own example profile
ETH = profile("our-h100-roce", "[profile]\nname = our-h100-roce\nbased_on = hgx-8x400g\n\n"
              "[rail]\nlink_layer = Ethernet\nmtu = 9000\n")
# no count and no placement: the link layer alone tells rails from storage
BARE = profile("bare-ib", "[profile]\nname = bare-ib\n[rail]\nlink_layer = InfiniBand\n")

# --- eight RoCE rails under an InfiniBand profile ----------------------------
for shape, n in (("hgx-roce-lag", 8), ("roce-broken", 7)):
    rc, doc = check(os.path.join(fixtures, shape, "root"), IB)
    ll = ids(doc, "port.link_layer")
    first = [f for f in ll if f["subject"] == "mlx5_0 port 1"]
    expect(rc == 1 and doc["verdict"] == "fail" and len(ll) == n and first and
           first[0]["severity"] == "error" and
           first[0]["observed"] == "link layer Ethernet; not counted as a rail" and
           first[0]["expected"].startswith("link layer InfiniBand") and
           "`mlxconfig -d 0000:18:00.0 set LINK_TYPE_P1=1`" in first[0]["fix"] and
           "`mlxfwreset -d 0000:18:00.0 reset`" in first[0]["fix"],
           f"{shape} under [rail] link_layer = InfiniBand: {n} port.link_layer errors, "
           "mlx5_0's with the mlxconfig fix on 0000:18:00.0",
           f"rc {rc} {doc['verdict']} {len(ll)} {first}")
    expect(rails(doc) == 0 and "not counted, in the wrong link layer: mlx5_0 (Ethernet)"
           in ids(doc, "nic.count")[0]["observed"],
           f"{shape}: no rail counted; nic.count names the cards not counted",
           str(ids(doc, "nic.count")))
    expect(not ids(doc, "nic.bandwidth_per_gpu") and not ids(doc, "topo.nic_shared"),
           f"{shape}: one cause: no per-GPU bandwidth or shared-NIC finding for it")

# without count, model or placement, and no InfiniBand card at all, every
# card is in the wrong link layer: the 8 rails and the bonded storage card
rc, doc = check(os.path.join(fixtures, "hgx-roce-lag", "root"), BARE)
expect(rc == 1 and len(ids(doc, "port.link_layer")) == 9,
       "hgx-roce-lag under a bare [rail] link_layer = InfiniBand: 9 port.link_layer",
       f"rc {rc} {len(ids(doc, 'port.link_layer'))}")
# the same profile on a machine with InfiniBand cards: the link layer tells
# rails from storage, and the Ethernet storage cards are no fault
rc, doc = check(os.path.join(fixtures, "dgx-h100", "root"), BARE)
expect(not ids(doc, "port.link_layer"),
       "dgx-h100 under a bare [rail] link_layer = InfiniBand: its Ethernet storage "
       "ports are no port.link_layer", str(ids(doc, "port.link_layer")))

# --- the InfiniBand dgx-h100 under the README's Ethernet example -------------
rc, doc = check(os.path.join(fixtures, "dgx-h100", "root"), ETH)
ll = ids(doc, "port.link_layer")
subjects = sorted(f["subject"] for f in ll)
f3 = [f for f in ll if f["subject"] == "mlx5_3 port 1"]
expect(rc == 1 and doc["verdict"] == "fail" and len(ll) == 8 and
       "mlx5_1 port 1" not in subjects and "mlx5_2 port 1" not in subjects and f3 and
       f3[0]["observed"] == "link layer InfiniBand; not counted as a rail" and
       "`mlxconfig -d 0000:40:00.0 set LINK_TYPE_P1=2`" in f3[0]["fix"],
       "dgx-h100 under the README's Ethernet profile: the 8 rails, not the storage cards, "
       "are port.link_layer with LINK_TYPE_P1=2", f"rc {rc} {subjects} {f3}")
expect(rails(doc) == 0, "dgx-h100 under the Ethernet profile: no rail counted",
       str(ids(doc, "nic.count")))

# --- one rail of dgx-h100 left in Ethernet -------------------------------------
root = h.copy("dgx-h100", "dgx-h100-eth")
port = os.path.join(os.path.realpath(os.path.join(root, "sys/class/infiniband/mlx5_5")),
                    "ports", "1")
with open(os.path.join(port, "link_layer"), "w") as f:
    f.write("Ethernet\n")
rc, doc = check(root)
ll = ids(doc, "port.link_layer")
expect(rc == 1 and doc["verdict"] == "fail" and doc["profile"] == "dgx-h100" and
       len(ll) == 1 and ll[0]["subject"] == "mlx5_5 port 1" and ll[0]["severity"] == "error" and
       ll[0]["observed"] == "link layer Ethernet; not counted as a rail" and
       "`mlxconfig -d 0000:5e:00.0 set LINK_TYPE_P1=1`" in ll[0]["fix"],
       "dgx-h100 with mlx5_5 in Ethernet: one port.link_layer error naming mlx5_5 port 1",
       f"rc {rc} {doc['verdict']} {ll}")
expect(rails(doc) == 7 and "mlx5_5 (Ethernet), see port.link_layer" in
       ids(doc, "nic.count")[0]["observed"],
       "dgx-h100 with mlx5_5 in Ethernet: 7 rails counted, nic.count names mlx5_5",
       str(ids(doc, "nic.count")))
# (but the driver stack, not checked on fixtures that hold no lib/modules,
# and the MaxPayload, not checked on fixtures that hold no config space)
expect(sorted(f["id"] for f in doc["findings"] if not f["id"].startswith("driver.") and
              not (f["id"] == "pcie.mps_mismatch" and f.get("unchecked"))) ==
       ["nic.count", "port.link_layer"],
       "dgx-h100 with mlx5_5 in Ethernet: the link layer and the count, nothing else "
       "(no RoCE GID, no GPU without a NIC, no storage count)",
       str([(f["id"], f["subject"]) for f in doc["findings"]]))
nc = ids(doc, "nic.count")[0]
expect(doc["roles"]["mlx5_5"] == "wrong_link_layer" and "<" not in nc["fix"] and
       "port.link_layer" in nc["fix"],
       "dgx-h100 with mlx5_5 in Ethernet: its role is wrong_link_layer, and nic.count's fix "
       "points at port.link_layer without a placeholder", f"{doc['roles']} {nc['fix']}")
head = subprocess.run([binary, "--root", root, "check"], capture_output=True,
                      text=True, timeout=60).stdout.splitlines()[:6]
expect("  wrong link layer: mlx5_5" in head and
       not any(l.startswith("  storage:") and "mlx5_5" in l for l in head),
       "dgx-h100 with mlx5_5 in Ethernet: the header names it in the wrong link layer, "
       "not as storage", str(head))
# the site file decides the role of a NIC it names: as storage, its link
# layer is not judged; as a rail, it is, and a missing RoCE GID or DCB reading
# on it is no second finding
site = os.path.join(root, "etc", "rdmadoctor")
os.makedirs(site, exist_ok=True)
for role, want in (("storage", []), ("rail", ["mlx5_5 port 1"])):
    with open(os.path.join(site, "rdmadoctor.conf"), "w") as f:
        f.write(f"[site]\n{role} = mlx5_5\n")
    rc, doc = check(root)
    on5 = sorted(f["id"] for f in doc["findings"] if f["subject"] == "mlx5_5 port 1")
    expect([f["subject"] for f in ids(doc, "port.link_layer")] == want and
           on5 == (["port.link_layer"] if want else ["gid.rocev2_missing"]),
           f"site file names mlx5_5 {role}: port.link_layer {want}, on mlx5_5 only {on5}",
           str([(f["id"], f["subject"]) for f in doc["findings"]]))
os.unlink(os.path.join(site, "rdmadoctor.conf"))

# the unchanged fixture passes: every rail InfiniBand, as dgx-h100 wants
rc, doc = check(os.path.join(fixtures, "dgx-h100", "root"))
expect(rc == 0 and not ids(doc, "port.link_layer"), "dgx-h100 itself: no port.link_layer")

h.done()
