#!/usr/bin/env python3
"""One judgement of GPUDirect RDMA readiness (src/check/gpudirect.c), the
same in every command: on examples/roce-broken `check` names ACS redirect
on a GPU-NIC path (pcie.acs), so `nccl` must not set NCCL_NET_GDR_LEVEL or
NCCL_NET_GDR_READ (it says why, naming the same id) and `labels` says
gpudirect=false; on the healthy dgx-h100 check has no gdr.*/pcie.acs error,
nccl sets both and labels say true.

usage: gpudirect_agree.py RDMADOCTOR SOURCE_DIR
"""
import json
import subprocess
import sys

GDR_IDS = ("gdr.missing", "gdr.unsupported", "pcie.acs")


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.stdout


def main():
    exe, src = sys.argv[1], sys.argv[2]
    bad = []
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
