#!/usr/bin/env python3
"""Inside the Soft-RoCE VM: compare `rdmadoctor inventory --json` with the
tools engineers trust on the same kernel: ibv_devinfo -v, rdma link, the GID
files themselves and lspci -vv (LnkCap/LnkSta) for the NIC's PCI function and
every bridge above it.  Then take a snapshot for the host to replay.

usage: check_inventory.py RDMADOCTOR OUTDIR
"""
import ipaddress
import json
import os
import re
import subprocess
import sys

binary, outdir = sys.argv[1], sys.argv[2]
passed = failed = 0


def same(what, ours, theirs):
    global passed, failed
    if ours == theirs:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}: rdmadoctor says {ours!r}, the peer says {theirs!r}")


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


inv_text = run(binary, "--json", "inventory")
with open(os.path.join(outdir, "inventory.json"), "w") as f:
    f.write(inv_text)
inv = json.loads(inv_text)
nics = {n["name"]: n for n in inv["nics"]}
same("RDMA devices", sorted(nics),
     sorted(line.split()[0] for line in run("ibv_devices").splitlines()[2:] if line.strip()))

# ibv_devinfo -v: device and port attributes
devinfo = run("ibv_devinfo", "-v")
for block in re.split(r"^hca_id:\s*", devinfo, flags=re.M)[1:]:
    name = block.split()[0]
    nic = nics.get(name)
    if nic is None:
        same("device listed by ibv_devinfo", None, name)
        continue
    guid = re.search(r"node_guid:\s*(\S+)", block).group(1)
    same(f"{name} node_guid", nic["node_guid"], guid)
    for pblock in re.split(r"^\s*port:\s*", block, flags=re.M)[1:]:
        num = int(pblock.split()[0])
        port = next(p for p in nic["ports"] if p["port"] == num)

        def field(key):
            return re.search(rf"^\s*{key}:\s*(.*)$", pblock, flags=re.M).group(1).strip()

        same(f"{name}/{num} state", port["state"]["code"], int(re.search(r"\((\d+)\)", field("state")).group(1)))
        same(f"{name}/{num} phys_state", port["phys_state"]["code"],
             int(re.search(r"\((\d+)\)", field("phys_state")).group(1)))
        same(f"{name}/{num} active_mtu", port["active_mtu"], int(field("active_mtu").split()[0]))
        same(f"{name}/{num} max_mtu", port["max_mtu"], int(field("max_mtu").split()[0]))
        same(f"{name}/{num} link_layer", port["link_layer"], field("link_layer"))
        peer_gids = {}
        for m in re.finditer(r"GID\[\s*(\d+)\]:\s*([^,\s]+)(?:,\s*(.*))?", pblock):
            peer_gids[int(m.group(1))] = (ipaddress.ip_address(m.group(2)), (m.group(3) or "").strip())
        ours = {g["index"]: (ipaddress.ip_address(g["gid"]), g["type"]) for g in port["gids"]}
        same(f"{name}/{num} GID table", ours, peer_gids)

        # the GID files themselves, every non-zero entry
        gdir = f"/sys/class/infiniband/{name}/ports/{num}/gids"
        files = {}
        for entry in os.listdir(gdir):
            with open(os.path.join(gdir, entry)) as f:
                text = f.read().strip()
            if int(ipaddress.ip_address(text)) & ((1 << 64) - 1):
                files[int(entry)] = text
        same(f"{name}/{num} GID files", {g["index"]: g["gid"] for g in port["gids"]}, files)
        v4 = [g["ipv4"] for g in port["gids"] if g["ipv4"]]
        same(f"{name}/{num} IPv4 on a GID", os.environ.get("VM_IP") in v4, True)

# rdma link: state names and the netdev of each port
for link in json.loads(run("rdma", "-j", "link", "show")):
    nic = nics[link["ifname"]]
    port = next(p for p in nic["ports"] if p["port"] == link["port"])
    same(f"{link['ifname']}/{link['port']} state", port["state"]["name"], link["state"])
    same(f"{link['ifname']}/{link['port']} physical_state (LINK_UP)",
         port["phys_state"]["name"].upper().replace("LINKUP", "LINK_UP"), link["physical_state"])
    same(f"{link['ifname']}/{link['port']} netdev", port["netdev"], link.get("netdev"))

# lspci -vv: LnkCap is the capability, LnkSta the negotiated link
def lnk(bdf):
    out = run("lspci", "-vv", "-s", bdf)
    res = {}
    for key in ("LnkCap", "LnkSta"):
        m = re.search(rf"{key}:.*?Speed ([\d.]+)GT/s[^,]*, Width x(\d+)", out)
        res[key] = (float(m.group(1)), int(m.group(2))) if m else None
    return res


def num(v):
    return float(v) if v is not None else None


for name, nic in nics.items():
    pci = nic["pci"]
    same(f"{name} has a PCI function (via its netdev)", pci is not None, True)
    if pci is None:
        continue
    for dev in [dict(pci["link"], bdf=pci["bdf"])] + pci["upstream"]:
        peer = lnk(dev["bdf"])
        same(f"{name} {dev['bdf']} LnkCap", (num(dev["max_speed_gts"]), dev["max_width"]), peer["LnkCap"])
        same(f"{name} {dev['bdf']} LnkSta", (num(dev["speed_gts"]), dev["width"]), peer["LnkSta"])
    same(f"{name} upstream bridges", len(pci["upstream"]) >= 1, True)

# memlock: what this process may lock
soft = run("sh", "-c", "ulimit -l").strip()
same("memlock", inv["host"]["memlock_bytes"], None if soft == "unlimited" else int(soft) * 1024)
same("rdma_rxe module", inv["host"]["modules"]["rdma_rxe"], True)

subprocess.run([binary, "-q", "snapshot", os.path.join(outdir, "snap")], check=True)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
