#!/usr/bin/env python3
"""One judgement of GPUDirect RDMA readiness (src/check/gpudirect.c), the
same in every command: on examples/roce-broken `check` names ACS redirect
on a GPU-NIC path (pcie.acs), so `nccl` must not set NCCL_NET_GDR_LEVEL or
NCCL_NET_GDR_READ (it says why, naming the same id) and `labels` says
gpudirect=false; on the healthy dgx-h100 check has no gdr.*/pcie.acs error,
nccl sets both and labels say true; on a copy of dgx-h100 whose PCI
config files hold only the 64 bytes a user who is not root reads (the
bridges' ACS control unreadable) readiness is unknown, never ready: check
says pcie.acs "not checked", nccl sets neither and says it could not be
confirmed (naming pcie.acs), labels say gpudirect=unknown.

usage: gpudirect_agree.py RDMADOCTOR SOURCE_DIR
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

GDR_IDS = ("gdr.missing", "gdr.unsupported", "pcie.acs")


def run(exe, *args):
    return rdtest.run(exe, *args, timeout=120).stdout


def unprivileged(src, dst):
    """A copy of the tree SRC at DST with every PCI config file cut to the
    64 bytes the kernel gives a reader without CAP_SYS_ADMIN
    (pci_read_config in drivers/pci/pci-sysfs.c: the whole cfg_size only
    'if (file_ns_capable(filp, &init_user_ns, CAP_SYS_ADMIN))', else 128 for
    a CardBus bridge and 'size = 64;' for the rest)."""
    shutil.copytree(src, dst, symlinks=True)
    cut = 0
    for d, _, files in os.walk(os.path.join(dst, "sys/devices")):
        if "config" in files:
            path = os.path.join(d, "config")
            with open(path, "rb") as f:
                head = f.read(64)
            with open(path, "wb") as f:
                f.write(head)
            cut += 1
    return cut


def unknown_case(exe, src, tmp, bad):
    root = os.path.join(tmp, "dgx-h100-user")
    if not unprivileged(f"{src}/examples/dgx-h100", root):
        bad.append("dgx-h100: no PCI config file to cut")
        return
    rep = json.loads(run(exe, "check", "--root", root, "--json"))
    acs = [f for f in rep["findings"] if f["id"] == "pcie.acs"]
    causes = sorted({f["id"] for f in rep["findings"]
                     if f["id"] in GDR_IDS and f["severity"] in ("error", "warn")})
    if not acs or not all(f.get("unchecked") for f in acs):
        bad.append(f"unreadable ACS: check's pcie.acs is {acs}, expected \"not checked\"")
    if causes:
        bad.append(f"unreadable ACS: check names {causes} as broken, expected unknown")
    nccl = run(exe, "nccl", "--root", root)
    sets = [l for l in nccl.splitlines() if l.startswith("export NCCL_NET_GDR_")]
    if sets:
        bad.append(f"unreadable ACS: nccl still sets {sets}")
    if "GPUDirect RDMA is ready" in nccl:
        bad.append("unreadable ACS: nccl says GPUDirect RDMA is ready")
    for var in ("NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ"):
        left = [l for l in nccl.splitlines() if l.startswith(f"# {var} not set")]
        if not left or "could not be confirmed" not in left[0] or "pcie.acs" not in left[0]:
            bad.append(f"unreadable ACS: nccl does not say {var} is left because "
                       f"GPUDirect RDMA could not be confirmed (pcie.acs): {left}")
    labels = run(exe, "labels", "--root", root, "--output", "-")
    label = [l.split("=", 1)[1] for l in labels.splitlines()
             if l.startswith("rdmadoctor.gpudirect=")]
    if label != ["unknown"]:
        bad.append(f"unreadable ACS: labels gpudirect={label}, expected unknown")


def main():
    exe, src = sys.argv[1], sys.argv[2]
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        unknown_case(exe, src, tmp, bad)
    for tree, ready in (("roce-broken", False), ("dgx-h100", True)):
        root = f"{src}/examples/{tree}"
        rep = json.loads(run(exe, "check", "--root", root, "--json"))
        causes = sorted({f["id"] for f in rep["findings"]
                         if f["id"] in GDR_IDS and f["severity"] in ("error", "warn")})
        nccl = run(exe, "nccl", "--root", root)
        labels = run(exe, "labels", "--root", root, "--output", "-")
        sets = [l for l in nccl.splitlines()
                if l.startswith("export NCCL_NET_GDR_")]
        label = [l.split("=", 1)[1] for l in labels.splitlines()
                 if l.startswith("rdmadoctor.gpudirect=")]
        if bool(causes) == ready:
            bad.append(f"{tree}: check's GPUDirect findings {causes}, expected "
                       f"{'none' if ready else 'some'}")
        if ready and len(sets) != 2:
            bad.append(f"{tree}: ready, but nccl sets {sets}")
        if not ready:
            if sets:
                bad.append(f"{tree}: check says {causes}, nccl still sets {sets}")
            for c in causes:
                if f"says {c}" not in nccl:
                    bad.append(f"{tree}: nccl does not name {c} as why")
        if label != ["true" if ready else "false"]:
            bad.append(f"{tree}: labels gpudirect={label}, check says "
                       f"{'ready' if ready else causes}")
    for b in bad:
        print("FAIL:", b)
    print(f"{len(bad)} disagreement(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
