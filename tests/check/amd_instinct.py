#!/usr/bin/env python3
"""AMD Instinct GPUs (issue 45, item 3): a copy of hgx-roce-lag (8 GPUs,
each with a ConnectX-7 400G RoCE rail under one PCIe switch) with every GPU
made an MI300X (1002:74a1, class 0x120000, as pci.ids and amdgpu's
accelerator-class entry give them), NVIDIA's driver modules swapped for
amdgpu and the DMI product an AS-8125GS-TNMR2.  Not a capture: the PCI tree
and the NICs are the fixture's.

inventory lists 8 AMD GPUs with their vendor; topo places each next to its
NIC (PIX); check picks mi300x-8x400g and judges GPUDirect by AMD's path
(DMA-BUF with amdgpu on 6.8, or amdkfd's memory peer; not loaded: a
finding; no module list: not checked); nccl gives RCCL's environment.  A
Radeon and a BMC's VGA beside them are no GPU.

The generated shape mi300x-thor2 is the whole machine: 8 MI300X and 8
Broadcom Thor2 (bnxt_re) rails, each pair under its own PCIe switch, amdgpu
on 6.8 and rdma-core 50's libibverbs.  On it: the profile by DMI, each GPU
PIX to its own bnxt_re, GPUDirect ready by DMA-BUF (and not with amdgpu
gone from proc/modules of a copy), RCCL's environment naming the 8 rails;
its rails answer DCB as bnxt_en does (lossless: DSCP trust, PFC on 3), so
it passes, with nothing judged wrong and nothing the profile requires
left unread; a copy without those replies is WARN by the rails' PFC.

usage: amd_instinct.py RDMADOCTOR FIXTURES_DIR
"""
import glob
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("amd_instinct")
expect, run = h.expect, h.run
SHAPE = "hgx-roce-lag"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read().strip()


def gpu_dirs(root):
    """Every NVIDIA display-class PCI function of the tree."""
    out = []
    # os.walk keeps off the links (driver, subsystem...), which loop
    for d, _, files in os.walk(os.path.join(root, "sys/devices")):
        if "vendor" in files and "class" in files and \
                read(os.path.join(d, "vendor")) == "0x10de" and \
                read(os.path.join(d, "class")).startswith("0x03"):
            out.append(d)
    return sorted(out)


def make_amd(name, amdgpu=True, peer=False, modules=True):
    root = h.copy(SHAPE, name)
    for d in gpu_dirs(root):
        write(os.path.join(d, "vendor"), "0x1002\n")
        write(os.path.join(d, "device"), "0x74a1\n")
        write(os.path.join(d, "class"), "0x120000\n")
    mods = os.path.join(root, "sys/module")
    for m in glob.glob(os.path.join(mods, "nvidia*")):
        shutil.rmtree(m)
    shutil.rmtree(os.path.join(root, "proc/driver/nvidia"), ignore_errors=True)
    lines = [ln for ln in open(os.path.join(root, "proc/modules")).read().splitlines()
             if not ln.startswith("nvidia")]
    if amdgpu:
        # /proc/modules' format (kernel/module/procfs.c m_show)
        lines.append("amdgpu 19386368 0 - Live 0x0000000000000000")
        write(os.path.join(mods, "amdgpu/initstate"), "live\n")
    write(os.path.join(root, "proc/modules"), "\n".join(lines) + "\n")
    if peer:
        write(os.path.join(root, "sys/kernel/mm/memory_peers/amdkfd/version"), "1.0\n")
    if not modules:
        os.remove(os.path.join(root, "proc/modules"))
        shutil.rmtree(mods)
    write(os.path.join(root, "sys/class/dmi/id/product_name"), "AS-8125GS-TNMR2\n")
    return root


root = make_amd("mi300x")

# inventory: 8 AMD GPUs, vendor in JSON and text
rc, doc, _, err = run(root, cmd="inventory")
gpus = doc["gpus"] if doc else []
expect(len(gpus) == 8, "inventory lists 8 GPUs", f"{len(gpus)}: {err}")
expect(all(g["vendor"] == "1002" and g["vendor_name"] == "AMD" and
           g["model"] == "Instinct MI300X" and g["kind"] == "datacenter" for g in gpus),
       "each is an AMD Instinct MI300X, datacenter", str(gpus[:1]))
rc, _, out, _ = run(root, json_out=False, cmd="inventory")
expect(out.count("AMD Instinct MI300X") == 8, "inventory text names the vendor",
       out[out.find("GPUs ("):][:200])

# topo: each GPU is PIX to its rail, as on the NVIDIA original
rc, _, out, _ = run(root, json_out=False, cmd="topo")
rows = [ln for ln in out.splitlines() if ln.startswith("GPU")]
expect(len(rows) == 8 and all(ln.split()[2 + i] == "PIX" for i, ln in enumerate(rows)),
       "topo places GPU i PIX to mlx5_i", out[:600])

# check: the profile by DMI and GPUs, GPUDirect ready by DMA-BUF
rc, doc, _, err = run(root)
expect(doc and doc["profile"] == "mi300x-8x400g", "check picks mi300x-8x400g",
       f"{doc and doc['profile']} {err}")
ids = [f["id"] for f in doc["findings"]] if doc else []
expect("gdr.missing" not in ids, "amdgpu on kernel 6.8: GPUDirect ready", str(ids))
expect(not any(f["id"].startswith("topo.") for f in doc["findings"]),
       "no placement finding", str(ids))

# the same GPUs picked by GPUs alone, on a board the profile does not name
other = make_amd("by-gpus")
write(os.path.join(other, "sys/class/dmi/id/product_name"), "Some Board\n")
rc, doc, _, _ = run(other)
expect(doc and doc["profile"] == "mi300x-8x400g", "8 MI300X pick the profile without DMI",
       str(doc and doc["profile"]))

# nccl: RCCL's environment, with the AMD path of GPUDirect as its reason
rc, doc, _, err = run(root, cmd="nccl")
expect(doc and doc["library"] == "rccl", "nccl says RCCL", f"{doc and doc['library']} {err}")
vars_ = {v["name"]: v for v in doc["vars"]} if doc else {}
left = {v["name"]: v for v in doc["left_out"]} if doc else {}
for name in ("NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ"):
    expect(name in vars_ and vars_[name]["why"], f"RCCL's environment sets {name}",
           str(sorted(vars_)))
expect("DMA-BUF: amdgpu loaded" in vars_.get("NCCL_NET_GDR_READ", {}).get("why", ""),
       "NCCL_NET_GDR_READ's reason is AMD's path", str(vars_.get("NCCL_NET_GDR_READ")))
expect("RCCL_FORCE_ENABLE_GDRDMA" in left, "RCCL's own variable is named, left out",
       str(sorted(left)))
rc, _, out, _ = run(root, json_out=False, cmd="nccl")
expect(out.startswith("# RCCL (AMD GPUs)"), "nccl's text says RCCL", out[:120])

# GPUDirect: amdgpu not loaded is a finding with AMD's reason
rc, doc, _, _ = run(make_amd("no-amdgpu", amdgpu=False))
f = [x for x in doc["findings"] if x["id"] == "gdr.missing"] if doc else []
expect(len(f) == 1 and f[0]["severity"] == "error" and "amdgpu is not loaded" in f[0]["observed"]
       and "AMD" in f[0]["observed"], "no amdgpu: gdr.missing, error, AMD's reason", str(f))
# ... unless ROCm's amdkfd memory peer is registered
rc, doc, _, _ = run(make_amd("peer", amdgpu=False, peer=True))
expect(doc and "gdr.missing" not in [x["id"] for x in doc["findings"]],
       "amdkfd memory peer: ready", str(doc and [x["id"] for x in doc["findings"]]))
rc, doc, _, _ = run(make_amd("peer-nccl", amdgpu=False, peer=True), cmd="nccl")
g = {v["name"]: v for v in doc["vars"]}.get("NCCL_NET_GDR_READ", {}) if doc else {}
expect("amdkfd memory peer" in g.get("why", ""), "nccl: ready by the memory peer", str(g))
# no module list: not checked, never ready
rc, doc, _, _ = run(make_amd("unknown", modules=False))
f = [x for x in doc["findings"] if x["id"] == "gdr.missing"] if doc else []
# (a warning, not an info: the profile requires GPUDirect, and what it
# requires and nobody saw keeps the verdict from PASS: check_required)
expect(len(f) == 1 and f[0]["severity"] != "error" and f[0].get("unchecked") and
       doc["verdict"] != "pass", "no module list: gdr.missing not checked, no pass", str(f))
rc, doc, _, _ = run(make_amd("unknown-nccl", modules=False), cmd="nccl")
left = {v["name"] for v in doc["left_out"]} if doc else set()
expect("NCCL_NET_GDR_READ" in left, "unknown GPUDirect: NCCL_NET_GDR_READ not set", str(left))

# a Radeon (class 0300, an ID no Instinct has) and a BMC's VGA are no GPU
extra = make_amd("radeon")
for fn, vendor, device, cls in (("0000:00:1d.0", "0x1002", "0x744c", "0x030000"),
                                ("0000:00:1d.1", "0x1a03", "0x2000", "0x030000")):
    d = os.path.join(extra, "sys/devices/pci0000:00", fn)
    for k, v in (("vendor", vendor), ("device", device), ("class", cls)):
        write(os.path.join(d, k), v + "\n")
    os.symlink(os.path.join("../../../devices/pci0000:00", fn),
               os.path.join(extra, "sys/bus/pci/devices", fn))
rc, doc, _, err = run(extra, cmd="inventory")
expect(doc and len(doc["gpus"]) == 8, "a Radeon and an ASPEED VGA are not GPUs",
       f"{doc and [g['bdf'] for g in doc['gpus']]} {err}")

# ---- mi300x-thor2: the generated MI300X + Broadcom Thor2 machine ----------
THOR = os.path.join(h.fixtures, "mi300x-thor2", "root")
RAILS = ["bnxt_re%d" % i for i in range(8)]
rc, doc, _, err = run(THOR)
expect(doc and doc["profile"] == "mi300x-8x400g" and doc["profile_source"] == "DMI",
       "mi300x-thor2: check picks mi300x-8x400g from DMI",
       f"{doc and (doc['profile'], doc['profile_source'])} {err}")
ids = [f["id"] for f in doc["findings"]] if doc else []
expect("gdr.missing" not in ids, "mi300x-thor2: GPUDirect ready (amdgpu, 6.8, IBVERBS_1.14)",
       str(ids))
expect(not any(i.startswith("topo.") for i in ids), "mi300x-thor2: no placement finding",
       str(ids))
expect(doc and sorted(k for k, v in doc["roles"].items() if v == "rail") == RAILS,
       "mi300x-thor2: the 8 bnxt_re are the rails", str(doc and doc["roles"]))
# the verdict: PASS, nothing judged wrong and nothing required unread (the
# rails' PFC and trust are judged from bnxt_en's DCB replies)
judged = [f for f in doc["findings"] if not f.get("unchecked")] if doc else [None]
required = [f for f in doc["findings"] if f.get("required")] if doc else [None]
expect(not judged, "mi300x-thor2: no finding but what could not be read",
       str([(f["id"], f["subject"]) for f in judged if f]))
expect(doc and doc["verdict"] == "pass" and not required,
       "mi300x-thor2: PASS, nothing the profile requires unread",
       f"{doc and doc['verdict']} {[(f['id'], f['subject']) for f in required if f]}")
# without the DCB replies (a driver that does not answer): WARN by the PFC
# the board profile requires
nodcb = h.copy("mi300x-thor2", "nodcb")
shutil.rmtree(os.path.join(nodcb, ".rdmadoctor", "dcb"))
rc, doc2, _, err = run(nodcb)
pfc = [f for f in doc2["findings"] if f["id"] == "roce.pfc"] if doc2 else []
expect(doc2 and doc2["verdict"] == "warn" and len(pfc) == 8 and
       all(f.get("unchecked") and f.get("required") for f in pfc),
       "mi300x-thor2 without DCB replies: WARN, by the 8 rails' unread PFC",
       f"{doc2 and doc2['verdict']} {[(f['subject'], f.get('required')) for f in pfc]}")
# a rail card missing on a Thor2 machine: nic.count's fix names no Mellanox
# tool (the profile allows any 400G model; the cards present are Broadcom's)
lost = h.copy("mi300x-thor2", "lost-rail")
os.remove(os.path.join(lost, "sys", "class", "infiniband", "bnxt_re7"))
rc, doc3, _, err = run(lost)
cnt = [f for f in doc3["findings"] if f["id"] == "nic.count" and not f.get("unchecked")] \
    if doc3 else []
expect(len(cnt) == 1 and "15b3" not in cnt[0]["fix"] and "mlx" not in cnt[0]["fix"]
       and "devlink dev info" in cnt[0]["fix"],
       "mi300x-thor2 with a rail gone: nic.count's fix names no Mellanox tool",
       str([f["fix"] for f in cnt]))
rc, doc, _, err = run(THOR, cmd="inventory")
expect(doc and len(doc["gpus"]) == 8 and all(g["model"] == "Instinct MI300X"
                                              for g in doc["gpus"]),
       "mi300x-thor2: 8 Instinct MI300X", f"{doc and doc['gpus'][:1]} {err}")
rc, _, out, _ = run(THOR, json_out=False, cmd="topo")
head = [ln for ln in out.splitlines() if ln.strip().startswith("bnxt_re0")][:1]
rows = [ln for ln in out.splitlines() if ln.startswith("GPU")]
cols = head[0].split()[:8] if head else []
expect(cols == RAILS and len(rows) == 8 and
       all(ln.split()[2 + i] == "PIX" and ln.split()[2:10].count("PIX") == 1
           for i, ln in enumerate(rows)),
       "mi300x-thor2: topo places GPU i PIX to bnxt_re i, and to no other", out[:900])
rc, doc, _, err = run(THOR, cmd="nccl")
vars_ = {v["name"]: v for v in doc["vars"]} if doc else {}
expect(doc and doc["library"] == "rccl", "mi300x-thor2: nccl says RCCL",
       f"{doc and doc['library']} {err}")
hca = vars_.get("NCCL_IB_HCA", {}).get("value", "")
expect(hca == "=" + ",".join(r + ":1" for r in RAILS),
       "mi300x-thor2: NCCL_IB_HCA names the 8 bnxt_re rails", hca)
expect("DMA-BUF: amdgpu loaded" in vars_.get("NCCL_NET_GDR_READ", {}).get("why", ""),
       "mi300x-thor2: GPUDirect by DMA-BUF in RCCL's environment",
       str(vars_.get("NCCL_NET_GDR_READ")))
# amdgpu unloaded (a copy): gone from proc/modules and from sys/module,
# as rmmod leaves them (host_module_read believes sys/module's initstate
# before proc/modules, so both go): no DMA-BUF, no memory peer
gone = h.copy("mi300x-thor2", "thor2-no-amdgpu")
mods = os.path.join(gone, "proc/modules")
write(mods, "".join(ln + "\n" for ln in open(mods).read().splitlines()
                    if not ln.startswith("amdgpu ")))
shutil.rmtree(os.path.join(gone, "sys/module/amdgpu"))
for holder in glob.glob(os.path.join(gone, "sys/module/*/holders/amdgpu")):
    os.remove(holder)
os.remove(os.path.join(gone, "sys/bus/pci/drivers/amdgpu/module"))
rc, doc, _, _ = run(gone)
f = [x for x in doc["findings"] if x["id"] == "gdr.missing"] if doc else []
expect(len(f) == 1 and f[0]["severity"] == "error" and "amdgpu is not loaded" in f[0]["observed"],
       "mi300x-thor2 without amdgpu: gdr.missing, error", str(f))
rc, doc, _, _ = run(gone, cmd="nccl")
left = {v["name"] for v in doc["left_out"]} if doc else set()
expect("NCCL_NET_GDR_READ" in left, "mi300x-thor2 without amdgpu: no NCCL_NET_GDR_READ",
       str(left))

h.done()
