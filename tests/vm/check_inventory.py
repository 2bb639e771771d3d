#!/usr/bin/env python3
"""Inside the Soft-RoCE VM: compare `rdmadoctor inventory --json` with the
tools engineers trust on the same kernel: ibv_devinfo -v, rdma link, the GID
files themselves, lspci -vv (LnkCap/LnkSta) and setpci (ACS control) for the
NIC's PCI function and every bridge above it, /dev/infiniband.  Then take a snapshot for the host to replay.

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

# ethtool -I --show-fec: the FEC and its statistics, asked of this kernel
# with ETHTOOL_FLAG_STATS as rdmadoctor asks (virtio_net has no FEC: both
# must say not supported, which shows the kernel took the flag: a refused
# one would be EINVAL, not the driver's EOPNOTSUPP)
for name, nic in nics.items():
    for port in nic["ports"]:
        if not port["netdev"] or port["link_layer"] != "Ethernet":
            continue
        r = subprocess.run(["ethtool", "-I", "--show-fec", port["netdev"]], capture_output=True,
                           text=True)
        fec = (port["link"] or {}).get("fec")
        if r.returncode != 0:
            same(f"{name}/{port['port']} fec ({r.stderr.strip()})", fec,
                 "not supported" if "not supported" in r.stderr.lower() else None)
            continue
        stats = (fec or {}).get("stats") or {}
        for key in ("corrected_blocks", "uncorrectable_blocks", "corrected_bits"):
            m = re.search(r"^\s*%s: (\d+)" % key, r.stdout, re.M)
            ours = (stats.get(key) or {}).get("total")
            same(f"{name}/{port['port']} fec {key} reported", ours is not None, m is not None)
            if m and ours is not None:
                same(f"{name}/{port['port']} fec {key} not past ethtool's later read",
                     ours <= int(m.group(1)), True)

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

# ACS control of every bridge above a NIC, as setpci reads it (the VM runs
# as root: the whole config space is readable); no ACS capability is null
def setpci_acs(bdf):
    r = subprocess.run(["setpci", "-s", bdf, "ECAP_ACS+6.w"], capture_output=True, text=True)
    return int(r.stdout.strip(), 16) if r.returncode == 0 and r.stdout.strip() else None


for name, nic in nics.items():
    for br in (nic["pci"] or {}).get("upstream", []):
        same(f"{name} {br['bdf']} config_full", br["config_full"], os.geteuid() == 0)
        same(f"{name} {br['bdf']} ACS control", br["acs_ctrl"], setpci_acs(br["bdf"]))

# uverbsN: the infiniband_verbs entry whose ibdev is the device, and whether
# /dev/infiniband/uverbsN opens for reading and writing
verbs_class = "/sys/class/infiniband_verbs"
for name, nic in nics.items():
    entry = None
    for e in sorted(os.listdir(verbs_class)):
        if e.startswith("uverbs"):
            with open(os.path.join(verbs_class, e, "ibdev")) as f:
                if f.read().strip() == name:
                    entry = e
    same(f"{name} uverbs", nic["uverbs"], entry)
    if entry:
        dev = "/dev/infiniband/" + entry
        want = ("ok" if os.access(dev, os.R_OK | os.W_OK) else
                "missing" if not os.path.exists(dev) else "no access")
        same(f"{name} uverbs_dev", nic["uverbs_dev"], want)

# memlock: what this process may lock
soft = run("sh", "-c", "ulimit -l").strip()
same("memlock", inv["host"]["memlock_bytes"], None if soft == "unlimited" else int(soft) * 1024)
same("rdma_rxe module", inv["host"]["modules"]["rdma_rxe"], True)

# the verbs userspace: the kernel's ABI files, and libibverbs' own verdict
# on its providers (ibv_devices) against driver.userspace, with the rxe
# provider renamed as an older stack leaves it (the VM's overlay: the
# host's file is untouched), then put back
def read(path):
    with open(path) as f:
        return int(f.read())


vu = inv["host"]["verbs_userspace"]
same("uverbs ABI", vu["uverbs_abi"], read("/sys/class/infiniband_verbs/abi_version"))
same("umad ABI", vu["umad_abi"], read("/sys/class/infiniband_mad/abi_version"))
same("libibverbs", vu["library"], os.path.basename(os.readlink(
    os.path.join("/", vu["libdir"], "libibverbs.so.1"))))


def userspace_findings():
    res = subprocess.run([binary, "--json", "check"], capture_output=True, text=True)
    return [f for f in json.loads(res.stdout)["findings"] if f["id"] == "driver.userspace"]


def verbs_lists_rxe0():
    res = subprocess.run(["ibv_devices"], capture_output=True, text=True)
    return "rxe0" in res.stdout


same("libibverbs loads rxe0, and driver.userspace finds nothing",
     (verbs_lists_rxe0(), userspace_findings()), (True, []))
prov = os.path.join("/", vu["libdir"], "libibverbs", f"librxe-rdmav{vu['private_abi']}.so")
old_abi = prov.replace(f"rdmav{vu['private_abi']}", "rdmav25")
os.rename(prov, old_abi)
try:
    found = userspace_findings()
    same("provider of another ABI: libibverbs loads no rxe0, driver.userspace names it",
         (verbs_lists_rxe0(), [(f["subject"], "librxe-rdmav25.so" in f["observed"])
                               for f in found]), (False, [("rxe0", True)]))
finally:
    os.rename(old_abi, prov)

# the snapshot, in the VM's own memory (files created one by one on the 9p
# share cost seconds each hundred under TCG), replayed here for the host to
# compare byte for byte, and carried out as one tar file
snap = "/tmp/inventory-snap"
subprocess.run([binary, "-q", "snapshot", snap], check=True)
with open(os.path.join(outdir, "replay-vm.json"), "w") as f:
    f.write(run(binary, "--root", snap, "--json", "inventory"))
subprocess.run(["tar", "-C", "/tmp", "-cf", os.path.join(outdir, "snap.tar"),
                "inventory-snap"], check=True)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
