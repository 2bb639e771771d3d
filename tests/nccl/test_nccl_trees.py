#!/usr/bin/env python3
"""rdmadoctor nccl on every bundled tree (examples/* and tests/fixtures/*/root),
each variable compared with a value this test derives itself from the tree's
own files by the rules of docs/nccl.md -- never from nccl's output.

    test_nccl_trees.py BINARY SRCDIR               derive, run nccl, compare
    test_nccl_trees.py BINARY SRCDIR --derive-only print what is derived

What is taken from the program, and why:
  roles (rail / storage / neither) from `check --json`'s "roles": which NICs
  are compute rails is the profile's judgement, not a file in the tree;
  each NIC's nearest GPU and path from `topo --json` (the PCIe tree walk).
Everything else is read here: port state and link layer, GIDs and their
types, the DCB netlink reply a snapshot keeps in .rdmadoctor/dcb/<netdev>,
the kernel modules and NVIDIA driver flavour, the bridges' ACS Control in their
config space images (redirect on a GPU-NIC path: no GPUDirect), and on Ascend the hccn_tool
-pfc and -link captures in .rdmadoctor/hccn/<N>/.

Then `nccl --check --env FILE` with each tests/nccl/envs/*.env: the ids
its header names must be among the findings (exit 1).
"""
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

NCCL_VARS = ["NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_IB_TC", "NCCL_IB_SL",
             "NCCL_SOCKET_IFNAME", "NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ"]
HCCL_VARS = ["HCCL_RDMA_TC", "HCCL_RDMA_SL", "HCCL_IF_IP", "HCCL_SOCKET_IFNAME"]


def natkey(s):
    """strverscmp-like order, as the readers list directories."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace").strip()
    except OSError:     # missing, or a directory standing for a read error
        return None


def ls(path):
    try:
        return sorted(os.listdir(path), key=natkey)
    except OSError:
        return []


def trees(src):
    out = []
    for name in ls(os.path.join(src, "examples")):
        t = os.path.join(src, "examples", name)
        if os.path.isdir(os.path.join(t, "sys")):
            out.append(("examples/" + name, t))
    for name in ls(os.path.join(src, "tests", "fixtures")):
        t = os.path.join(src, "tests", "fixtures", name, "root")
        if os.path.isdir(t):
            out.append(("fixtures/" + name, t))
    return out


def run_json(binary, tree, *args):
    p = rdtest.run(binary, "--json", *args, root=tree, timeout=120)
    try:
        return p.returncode, json.loads(p.stdout)
    except ValueError:
        return p.returncode, None


# ---- DCB: the raw RTM_GETDCB / DCB_CMD_IEEE_GET reply (linux/dcbnl.h) ----
DCB_ATTR_IEEE, IEEE_PFC, IEEE_APP_TABLE, IEEE_APP = 13, 2, 3, 1
SEL_DSCP = 5


def attrs(b):
    o = 0
    while o + 4 <= len(b):
        ln, ty = struct.unpack_from("<HH", b, o)
        if ln < 4 or o + ln > len(b):
            return
        yield ty & 0x3fff, b[o + 4:o + ln]
        o += (ln + 3) & ~3


def parse_dcb(path):
    """{'pfc': mask or None, 'trust': 'dscp'/'pcp'/None, 'dscp': {d: p}} or None."""
    try:
        b = open(path, "rb").read()
    except OSError:
        return None
    if len(b) < 20:
        return None
    ln, ty = struct.unpack_from("<IH", b, 0)
    if ty == 2:         # NLMSG_ERROR: no DCB on this netdev
        return None
    q = {"pfc": None, "trust": None, "dscp": {}}
    for t, v in attrs(b[20:ln]):
        if t != DCB_ATTR_IEEE:
            continue
        for t2, v2 in attrs(v):
            if t2 == IEEE_PFC and len(v2) >= 2:
                q["pfc"] = v2[1]
            elif t2 == IEEE_APP_TABLE:
                q["trust"] = "pcp"
                for t3, v3 in attrs(v2):
                    if t3 == IEEE_APP and len(v3) >= 4:
                        sel, prio, proto = struct.unpack_from("<BBH", v3)
                        if sel == SEL_DSCP:
                            q["trust"] = "dscp"
                            if proto < 64 and prio < 8:
                                q["dscp"].setdefault(proto, prio)
    return q


# ---- the machine's ports, from sysfs ----
def ports_of(tree, roles):
    ib = os.path.join(tree, "sys/class/infiniband")
    out = []
    for dev in ls(ib):
        for pn in ls(os.path.join(ib, dev, "ports")):
            pd = os.path.join(ib, dev, "ports", pn)
            state, phys = read(pd + "/state") or "", read(pd + "/phys_state") or ""
            ll = read(pd + "/link_layer") or ""
            gid, ndev = None, None
            if ll == "Ethernet":
                for n in ls(pd + "/gids"):
                    g = read(pd + "/gids/" + n) or ""
                    ty = read(pd + "/gid_attrs/types/" + n) or ""
                    if ty == "RoCE v2" and g.startswith("0000:0000:0000:0000:0000:ffff:"):
                        gid, ndev = int(n), read(pd + "/gid_attrs/ndevs/" + n)
                        break
                if ndev is None:
                    nets = ls(os.path.join(ib, dev, "device/net"))
                    ndev = nets[0] if nets else None
            up = "ACTIVE" in state and "LinkUp" in phys
            drv = os.path.basename(os.readlink(os.path.join(ib, dev, "device/driver"))) \
                if os.path.islink(os.path.join(ib, dev, "device/driver")) else None
            if drv == "efa":
                # SRD, through aws-ofi-nccl, not NCCL's IB transport: never
                # in NCCL_IB_* (docs/nccl.md, "RCCL and EFA")
                continue
            out.append({"dev": dev, "port": int(pn), "role": roles.get(dev),
                        "ib": ll == "InfiniBand",
                        "up": up,
                        "gid": gid, "netdev": ndev,
                        "qos": parse_dcb(os.path.join(tree, ".rdmadoctor/dcb", ndev))
                        if ndev else None})
    return out


def amd_gpus(tree):
    """AMD Instinct accelerators: vendor 0x1002 of class 0x1200."""
    pci = os.path.join(tree, "sys/bus/pci/devices")
    return [f for f in ls(pci) if read(os.path.join(pci, f, "vendor")) == "0x1002"
            and (read(os.path.join(pci, f, "class")) or "").startswith("0x1200")]


def kernel_at_least(tree, major, minor):
    m = re.match(r"(\d+)\.(\d+)", read(os.path.join(tree, "proc/sys/kernel/osrelease")) or "")
    return bool(m) and (int(m[1]), int(m[2])) >= (major, minor)


def amd_ready(tree):
    """ROCm's amdkfd memory peer, or DMA-BUF: amdgpu loaded, kernel 5.12+,
    a libibverbs of IBVERBS_1.12 or later (ibv_reg_dmabuf_mr, rdma-core 34;
    its soname's minor, libibverbs.so.1.MINOR.*)."""
    for d in ("sys/kernel/mm/memory_peers", "sys/kernel/memory_peers", "sys/memory_peers"):
        if os.path.exists(os.path.join(tree, d, "amdkfd/version")):
            return ready_by_acs(tree)
    mods = read(os.path.join(tree, "proc/modules")) or ""
    loaded = os.path.exists(os.path.join(tree, "sys/module/amdgpu/initstate")) or \
        "amdgpu" in {l.split()[0] for l in mods.splitlines() if l.split()}
    if not loaded or not kernel_at_least(tree, 5, 12):
        return False
    minors = [int(m[1]) for lib in ("usr/lib/x86_64-linux-gnu", "usr/lib64", "usr/lib")
              for f in ls(os.path.join(tree, lib))
              for m in [re.match(r"libibverbs\.so\.1\.(\d+)\.", f)] if m]
    if minors and max(minors) < 12:
        return False
    return ready_by_acs(tree)


def gdr_ready(tree):
    """None: no datacenter GPU (or GeForce only), or ACS control on a
    GPU-NIC path not readable (unknown, never ready); else True/False."""
    if amd_gpus(tree):
        return amd_ready(tree)
    pci = os.path.join(tree, "sys/bus/pci/devices")
    dc = geforce = 0
    for f in ls(pci):
        if (read(os.path.join(pci, f, "vendor")) or "") != "0x10de":
            continue
        cls = read(os.path.join(pci, f, "class")) or ""
        if cls.startswith("0x0302"):
            dc += 1         # 3D controller: the datacenter parts here
        elif cls.startswith("0x0300"):
            geforce += 1    # VGA: the GeForce cards of these trees
    if not dc:
        return None
    mods = read(os.path.join(tree, "proc/modules")) or ""
    names = {l.split()[0] for l in mods.splitlines() if l.split()}
    if names & {"nvidia_peermem", "nv_peer_mem"}:
        return ready_by_acs(tree)
    if any(n.startswith("nv_mem") for n in ls(os.path.join(tree, "sys/kernel/mm/memory_peers"))):
        return ready_by_acs(tree)
    ver = read(os.path.join(tree, "proc/driver/nvidia/version")) or ""
    rel = read(os.path.join(tree, "proc/sys/kernel/osrelease")) or ""
    m = re.match(r"(\d+)\.(\d+)", rel)
    first = ver.splitlines()[0] if ver else ""
    if not ("Open Kernel Module" in first and bool(m and (int(m[1]), int(m[2])) >= (5, 12))):
        return False
    return ready_by_acs(tree)


def ready_by_acs(tree):
    acs = acs_redirect(tree)
    return None if acs is None else not acs


def acs_control(cfg):
    """ACS Control of a config space image: the extended capability list
    from 0x100 (PCIe base spec 7.6.3), ACS is ID 0x000d, Control at +6.
    None: not there or not readable (a short image)."""
    off, seen = 0x100, 0
    while cfg and 0x100 <= off and off + 8 <= len(cfg) and seen < 64:
        hdr = int.from_bytes(cfg[off:off + 4], "little")
        if hdr & 0xffff == 0x000d:
            return int.from_bytes(cfg[off + 6:off + 8], "little")
        off, seen = hdr >> 20, seen + 1
    return None


def acs_redirect(tree):
    """ACS Request or Completion Redirect on a bridge between a GPU and an
    RDMA NIC under the same PCIe switch (pcie.acs: GPUDirect RDMA broken);
    None: none seen, but a bridge's config is not readable past the 64
    bytes a user who is not root gets (unknown)."""
    unknown = False
    pci = os.path.join(tree, "sys/bus/pci/devices")

    def chain(f):
        real = os.path.realpath(os.path.join(pci, f))
        return [c for c in real.split(os.sep) if re.match(r"[0-9a-f]{4}:", c)]
    gpus = [f for f in ls(pci) if read(os.path.join(pci, f, "vendor")) == "0x10de"
            and (read(os.path.join(pci, f, "class")) or "").startswith("0x03")]
    nics = [os.path.basename(os.path.realpath(os.path.join(tree, "sys/class/infiniband", d,
                                                           "device")))
            for d in ls(os.path.join(tree, "sys/class/infiniband"))]
    for g in gpus:
        for n in nics:
            a, b = chain(g), chain(n)
            common = 0
            while common < min(len(a), len(b)) - 1 and a[common] == b[common]:
                common += 1
            if common < 2:
                continue        # not under one switch (PHB or farther)
            for br in a[common:-1] + b[common:-1]:
                try:
                    with open(os.path.join(pci, br, "config"), "rb") as fh:
                        cfg = fh.read()
                except OSError:
                    cfg = b""   # not readable: check says not checked
                unknown |= len(cfg) <= 64
                v = acs_control(cfg)
                if v is not None and v & 0x0c:
                    return True
    return None if unknown else False


def nearest_paths(binary, tree):
    """{dev: path name} from topo --json (NICs' nearest GPU)."""
    _, t = run_json(binary, tree, "topo")
    out = {}
    for n in (t or {}).get("nics", []):
        name, path = n.get("name") or n.get("device"), n.get("nearest_gpu_path") or n.get("path")
        if name and path:
            out[name] = path
    return out


def lossless(up_rails, profile_prio=None):
    """(P, why) by the PFC rule; P None when left out (why says)."""
    masks = []
    for p in up_rails:
        q = p["qos"]
        if not q or q["pfc"] is None:
            return None, "unknown: PFC of %s:%d not read" % (p["dev"], p["port"])
        masks.append(q["pfc"])
    anym = 0
    allm = 0xff
    for m in masks:
        anym |= m
        allm &= m
    if not anym:
        return None, "warning: nothing is lossless"
    if not allm:
        return None, "no priority lossless on every rail"
    pr = [i for i in range(8) if allm & (1 << i)]
    if len(pr) == 1:
        return pr[0], "PFC on %d" % pr[0]
    if profile_prio in pr:
        return profile_prio, "profile"
    return None, "warning: several"


def derive_nccl(binary, tree):
    rc, chk = run_json(binary, tree, "check")
    roles = (chk or {}).get("roles") or {}
    ports = ports_of(tree, roles)
    rails = [p for p in ports if p["role"] == "rail" and p["up"]]
    exp = {v: None for v in NCCL_VARS}
    if rails:
        exp["NCCL_IB_HCA"] = "=" + ",".join("%s:%d" % (p["dev"], p["port"]) for p in rails)
    roce = [p for p in rails if not p["ib"]]
    if roce and not [p for p in rails if p["ib"]]:
        idx = {p["gid"] for p in roce}
        if len(idx) == 1 and None not in idx:
            exp["NCCL_IB_GID_INDEX"] = str(idx.pop())
        P, _ = lossless(roce)
        trusts = {(p["qos"] or {}).get("trust") for p in roce}
        if P is not None and trusts == {"dscp"}:
            ds = [sorted(d for d, pr in p["qos"]["dscp"].items() if pr == P) for p in roce]
            if all(8 * P + 2 in d for d in ds):
                exp["NCCL_IB_TC"] = str(4 * (8 * P + 2) + 2)
            elif all(ds) and len({d[0] for d in ds}) == 1:
                exp["NCCL_IB_TC"] = str(4 * ds[0][0] + 2)
        elif P is not None and trusts == {"pcp"}:
            exp["NCCL_IB_SL"] = str(P)
    ready = gdr_ready(tree)
    if ready and rails:
        paths = nearest_paths(binary, tree)
        order = {"PIX": 0, "PXB": 1, "PHB": 2, "NODE": 2, "SYS": 3}
        got = [paths.get(p["dev"]) for p in rails]
        if None not in got and all(g in order for g in got):
            worst = max(got, key=lambda g: order[g])
            if worst != "SYS":
                exp["NCCL_NET_GDR_LEVEL"] = "PHB" if worst == "NODE" else worst
        exp["NCCL_NET_GDR_READ"] = "1"
    # RCCL where the GPUs are AMD's: it reads the same NCCL_* variables
    lib = "rccl" if amd_gpus(tree) else "nccl"
    return lib, exp, {"roles": roles, "rails": rails, "gdr_ready": ready}


def hccn_pfc(text):
    pr = en = None
    for line in (text or "").splitlines():
        w = line.split()
        if w and w[0] == "priority":
            pr = [int(x) for x in w[1:]]
        elif w and w[0] == "enabled":
            en = [int(x) for x in w[1:]]
    if pr is None or en is None or len(pr) != len(en):
        return None
    return sum(1 << p for p, e in zip(pr, en) if e)


def derive_hccl(tree):
    h = os.path.join(tree, ".rdmadoctor/hccn")
    exp = {v: None for v in HCCL_VARS}
    masks = []
    for n in ls(h):
        link = read(os.path.join(h, n, "link")) or ""
        if "UP" not in link.split(":")[-1]:
            continue
        masks.append(hccn_pfc(read(os.path.join(h, n, "pfc"))))
    P = None
    if masks and None not in masks:
        allm, anym = 0xff, 0
        for m in masks:
            allm &= m
            anym |= m
        pr = [i for i in range(8) if allm & (1 << i)]
        if len(pr) == 1:
            P = pr[0]
    if P is not None:
        exp["HCCL_RDMA_SL"] = str(P)
        if P == 4:
            exp["HCCL_RDMA_TC"] = "132"
    return "hccl", exp, {"npu_ports_up": len(masks)}


def derive(binary, tree):
    if os.path.isdir(os.path.join(tree, ".rdmadoctor/hccn")):
        return derive_hccl(tree)
    return derive_nccl(binary, tree)


def compare(binary, name, tree, lib, exp):
    rc, out = run_json(binary, tree, "nccl")
    if out is None:
        return ["%s: nccl --json gave no JSON (exit %d)" % (name, rc)]
    bad = []
    if out.get("library") != lib:
        bad.append("%s: library %r, derived %r" % (name, out.get("library"), lib))
    got = {v["name"]: v.get("value") for v in out.get("vars", [])}
    left = {v["name"] for v in out.get("left_out", [])}
    for var, want in exp.items():
        have = got.get(var)
        if want is None and var in got:
            bad.append("%s: %s=%s set, derived: left out" % (name, var, have))
        elif want is not None and have != want:
            bad.append("%s: %s=%s, derived %s%s" % (name, var, have, want,
                                                    " (left out)" if var in left else ""))
    for var in got:
        if var not in exp:
            bad.append("%s: %s set, which the rules do not name" % (name, var))
    want_rc = 0 if out.get("verdict") == "ok" else 1
    if rc != want_rc:
        bad.append("%s: exit %d with verdict %s" % (name, rc, out.get("verdict")))
    return bad


def env_cases(binary, src):
    """Each tests/nccl/envs/<tree>--<case>.env: '# tree: T' and '# ids: a b'."""
    d = os.path.join(src, "tests/nccl/envs")
    bad = []
    for f in ls(d):
        if not f.endswith(".env"):
            continue
        head = dict(re.findall(r"^# (tree|ids):[ \t]*(.*)$", open(os.path.join(d, f)).read(), re.M))
        tree, ids = os.path.join(src, head["tree"]), head.get("ids", "").split()
        rc, out = run_json(binary, tree, "nccl", "--check", "--env", os.path.join(d, f))
        if out is None:
            bad.append("%s: no JSON (exit %d)" % (f, rc))
            continue
        found = {x.get("id") for x in out.get("findings", [])}
        for i in ids:
            if i not in found:
                bad.append("%s: %s not found (got %s)" % (f, i, " ".join(sorted(found))))
        if ids and rc != 1:
            bad.append("%s: exit %d, expected 1" % (f, rc))
        if not ids:     # a clean environment: nothing above info, exit 0
            loud = [x.get("id") for x in out.get("findings", [])
                    if x.get("severity") not in ("info", None)]
            if loud or rc != 0:
                bad.append("%s: exit %d, findings %s, expected none" % (f, rc, loud))
    return bad


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary, src = sys.argv[1], sys.argv[2]
    derive_only = "--derive-only" in sys.argv[3:]
    if not derive_only:
        p = rdtest.run(binary, "nccl", timeout=None)
        if "unknown command 'nccl'" in p.stderr:
            print("SKIP: this rdmadoctor has no nccl command yet")
            return 77
    bad = []
    for name, tree in trees(src):
        lib, exp, why = derive(binary, tree)
        if derive_only:
            print("%-32s %s %s" % (name, lib, json.dumps(exp, sort_keys=False)))
            continue
        bad += compare(binary, name, tree, lib, exp)
    if derive_only:
        return 0
    bad += env_cases(binary, src)
    for b in bad:
        print("FAIL", b)
    print("nccl trees: %d problem(s)" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
