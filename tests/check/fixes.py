#!/usr/bin/env python3
"""Every fix `check` proposes on roce-broken clears its finding.

For each finding (under the profile check picks, and under roce-qos.ini),
a fresh copy of the fixture is edited the way the proposed fix would change
what the kernel shows, check runs again, and the finding (id and subject)
must be gone.  The commands in a fix (`...`) map to file edits:

  mlnx_qos -i IF --trust dscp|--pfc v,..|--dscp2prio set,D,P
                       the DCB netlink reply at .rdmadoctor/dcb/IF, rebuilt
                       from its parsed state (mlx5 fills the 64 DSCP entries
                       with DSCP >> 3 when trust turns to dscp)
  echo V > /sys/...    that sysfs file
  ip link set dev IF mtu N | up
                       sys/class/net/IF/mtu and the verbs active MTU the RDMA
                       port then gets; the port's state, rate and link modes
  ip addr add|del A/PREFIX dev IF, ip -6 addr flush dev IF scope global
                       the port's GID table (the kernel's first free entries)
  ethtool --set-fec IF encoding auto
                       the FEC_GET reply at .rdmadoctor/ethtool-nl/IF/fec
  setpci -s BDF ECAP_ACS+0x6.w=0000
                       the ACS control word in the bridge's config space
  rdmadoctor check --window 60
                       run it: a second reading 60 s later (the copy itself,
                       nothing grew)

Other commands in a fix only look (mlxlink, ethtool -m, lspci, ...).  Fixes
whose first step is hands on hardware are applied as their outcome: a swapped
transceiver is another rail's healthy module EEPROM; a missing card seated
is the same machine generated with that card present.  A finding whose fix
this script cannot apply fails the test, so every new fix gets a way here.

usage: fixes.py RDMADOCTOR SRCDIR
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

binary, src = sys.argv[1], sys.argv[2]
fixtures = os.path.join(src, "tests", "fixtures")
sys.path.insert(0, fixtures)
import gen_fixtures  # noqa: E402  (dcb_reply, ethnl_fec, link_params, ...)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import done, ok  # noqa: E402

FIXTURE = os.path.join(fixtures, "roce-broken", "root")
PROFILES = [None, os.path.join(src, "tests", "check", "roce-qos.ini")]


def check(root, profile, *extra):
    cmd = [binary, "--root", root, "--json", "check", *extra]
    if profile:
        cmd += ["--profile", profile]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if res.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {res.returncode}: {res.stderr}")
    return json.loads(res.stdout)


# ---- the tree ---------------------------------------------------------------

class Tree:
    def __init__(self, root, doc):
        self.root = root
        self.doc = doc
        self.window = False

    def path(self, rel):
        return os.path.join(self.root, rel.lstrip("/"))

    def write(self, rel, text):
        p = self.path(rel)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)        # an errno directory: the read now succeeds
        elif os.path.lexists(p):
            os.remove(p)            # a link to the fixture's file: never write through
        mode = "wb" if isinstance(text, bytes) else "w"
        with open(p, mode) as f:
            f.write(text)

    def read(self, rel):
        with open(self.path(rel)) as f:
            return f.read()

    def fail_read(self, rel, errno_name="EINVAL"):
        p = self.path(rel)
        if os.path.isdir(p):
            return                  # already an errno directory
        if os.path.lexists(p):
            os.remove(p)
        os.makedirs(p)
        with open(os.path.join(p, ".errno"), "w") as f:
            f.write(errno_name + "\n")

    def port_of(self, netdev):
        for n in self.doc["inventory"]["nics"]:
            for p in n["ports"]:
                if p.get("netdev") == netdev:
                    return n["name"], p["port"]
        raise KeyError(netdev)


# ---- DCB netlink --------------------------------------------------------------

def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from("=HH", buf, off)
        if ln < 4:
            break
        yield typ & 0x3fff, buf[off + 4:off + ln]
        off += (ln + 3) & ~3


def dcb_state(data):
    """pfc_en and the DSCP map (None: PCP trust) of an IEEE_GET reply."""
    pfc_en, dscp = 0, None
    for typ, payload in attrs(data[20:]):
        if typ != 13:
            continue
        for t, p in attrs(payload):
            if t == 2:
                pfc_en = p[1]
            elif t == 3:
                for t2, app in attrs(p):
                    sel, prio, proto = struct.unpack("=BBH", app[:4])
                    if t2 == 1 and sel == 5:
                        dscp = dscp or {}
                        dscp[proto] = prio
    return pfc_en, dscp


def mlnx_qos(t, ifname, args):
    rel = f".rdmadoctor/dcb/{ifname}"
    with open(t.path(rel), "rb") as f:
        pfc_en, dscp = dcb_state(f.read())
    i = 0
    while i < len(args):
        opt, val = args[i], args[i + 1] if i + 1 < len(args) else ""
        if opt == "--trust":
            if val == "dscp" and dscp is None:
                dscp = {d: d >> 3 for d in range(64)}
            elif val == "pcp":
                dscp = None
        elif opt == "--pfc":
            bits = [int(b) for b in val.split(",")]
            pfc_en = sum(1 << k for k, b in enumerate(bits) if b)
        elif opt == "--dscp2prio":
            _, d, p = val.split(",")
            if dscp is None:
                raise ValueError("--dscp2prio under PCP trust")
            dscp[int(d)] = int(p)
        else:
            raise ValueError(f"mlnx_qos {opt}")
        i += 2
    t.write(rel, gen_fixtures.dcb_reply(ifname, pfc_en=pfc_en,
                                        dscp2prio=None if dscp is None else dscp.get))


# ---- GIDs ---------------------------------------------------------------------

def gid_dir(t, ifname):
    dev, port = t.port_of(ifname)
    return f"sys/class/infiniband/{dev}/ports/{port}"


def gid_entries(t, ifname):
    base = gid_dir(t, ifname)
    n = len(os.listdir(t.path(base + "/gids")))
    out = []
    for i in range(n):
        g = t.read(f"{base}/gids/{i}").strip()
        out.append(g)
    return base, out


def mapped(ip):
    a, b, c, d = (int(x) for x in ip.split("."))
    return "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % (a, b, c, d)


ZERO = "0000:0000:0000:0000:0000:0000:0000:0000"


def gid_free(t, base, i):
    t.write(f"{base}/gids/{i}", ZERO + "\n")
    t.fail_read(f"{base}/gid_attrs/types/{i}")
    t.fail_read(f"{base}/gid_attrs/ndevs/{i}")


def ip_addr(t, words):
    """ip addr add|del A/PREFIX dev IF; ip -6 addr flush dev IF scope global"""
    if words[:3] == ["-6", "addr", "flush"]:
        base, gids = gid_entries(t, words[4])
        for i, g in enumerate(gids):
            if g != ZERO and not g.startswith("fe80") and ":ffff:" not in g:
                gid_free(t, base, i)
        return
    verb, addr, ifname = words[1], words[2].split("/")[0], words[4]
    if addr == "ADDR":
        addr = "10.99.12.5"         # the address the engineer chooses
    base, gids = gid_entries(t, ifname)
    if verb == "del":
        for i, g in enumerate(gids):
            if g == mapped(addr):
                gid_free(t, base, i)
        return
    free = [i for i, g in enumerate(gids) if g == ZERO]
    for i, typ in zip(free[:2], ("IB/RoCE v1", "RoCE v2")):
        t.write(f"{base}/gids/{i}", mapped(addr) + "\n")
        t.write(f"{base}/gid_attrs/types/{i}", typ + "\n")
        t.write(f"{base}/gid_attrs/ndevs/{i}", ifname + "\n")


# ---- links --------------------------------------------------------------------

def ip_link(t, words):
    """ip link set dev IF mtu N | up"""
    ifname, what = words[3], words[4:]
    dev, port = t.port_of(ifname)
    if what[:1] == ["mtu"]:
        mtu = int(what[1])
        t.write(f"sys/class/net/{ifname}/mtu", f"{mtu}\n")
        # the RDMA MTU: the largest IB MTU within the netdev's less headers
        rdma = max([m for m in (256, 512, 1024, 2048, 4096) if m <= mtu - 96] or [256])
        t.write(f".rdmadoctor/verbs/{dev}/{port}/active_mtu", f"{rdma}\n")
    elif what == ["up"]:
        p = f"sys/class/infiniband/{dev}/ports/{port}"
        t.write(p + "/state", "4: ACTIVE\n")
        t.write(p + "/phys_state", "5: LinkUp\n")
        t.write(p + "/rate", "400 Gb/sec (4X NDR)\n")
        n = f"sys/class/net/{ifname}"
        t.write(n + "/operstate", "up\n")
        t.write(n + "/carrier", "1\n")
        t.write(n + "/flags", "0x%x\n" % (int(t.read(n + "/flags"), 16) | 0x1))
        t.write(n + "/speed", "400000\n")
        ifindex = int(t.read(n + "/ifindex"))
        lp = gen_fixtures.link_params(400000)
        t.write(f".rdmadoctor/ethtool-nl/{ifname}/linkmodes",
                gen_fixtures.ethnl_linkmodes(ifindex, ifname, lp))
        t.write(f".rdmadoctor/ethtool-nl/{ifname}/fec", gen_fixtures.ethnl_fec(ifindex, ifname, lp))
    else:
        raise ValueError(f"ip link {what}")


def set_fec(t, words):
    """ethtool --set-fec IF encoding auto|rs"""
    ifname = words[1]
    ifindex = int(t.read(f"sys/class/net/{ifname}/ifindex"))
    rel = f".rdmadoctor/ethtool-nl/{ifname}/linkmodes"
    lp = gen_fixtures.link_params(400000, fec="FEC_RS", fec_auto=words[3] == "auto",
                                  fec_configured=[] if words[3] == "auto" else ["FEC_RS"])
    assert os.path.exists(t.path(rel))
    t.write(f".rdmadoctor/ethtool-nl/{ifname}/fec", gen_fixtures.ethnl_fec(ifindex, ifname, lp))


def setpci(t, words):
    """setpci -s BDF ECAP_ACS+0x6.w=0000"""
    bdf, what = words[2], words[3]
    m = re.fullmatch(r"ECAP_ACS\+0x([0-9a-f]+)\.w=([0-9a-f]+)", what)
    rel = f"sys/bus/pci/devices/{bdf}/config"
    with open(t.path(rel), "rb") as f:
        cfg = bytearray(f.read())
    off = 0x100
    while off:
        head = struct.unpack_from("<I", cfg, off)[0]
        if head & 0xffff == 0x000d:
            struct.pack_into("<H", cfg, off + int(m.group(1), 16), int(m.group(2), 16))
            t.write(rel, bytes(cfg))
            return
        off = head >> 20
    raise ValueError(f"no ACS capability in {bdf}")


def echo(t, cmd):
    m = re.fullmatch(r"echo (\S+) > (/sys/\S+)", cmd)
    t.write(m.group(2), m.group(1) + "\n")


LOOK_ONLY = ("net.ipv6", "mlxlink", "ethtool -m", "ethtool -S", "ethtool --show-fec", "lspci", "dmesg",
             "mlxfwmanager", "mlxconfig", "rdmadoctor topo", "ibv_devinfo", "dcb pfc",
             "perfquery")


def apply_command(t, cmd):
    """True when cmd changed the tree (or is the window run); False when it
    only looks; ValueError when it is not understood."""
    words = cmd.split()
    if cmd.startswith("mlnx_qos -i "):
        mlnx_qos(t, words[2], words[3:])
    elif cmd.startswith("echo "):
        echo(t, cmd)
    elif cmd.startswith("ip link set dev "):
        ip_link(t, words[1:])
    elif re.match(r"ip (-6 )?addr (add|del|flush) ", cmd):
        ip_addr(t, words[1:])
    elif cmd.startswith("ethtool --set-fec "):
        set_fec(t, words[1:])
    elif cmd.startswith("setpci -s "):
        setpci(t, words)
    elif cmd.startswith("rdmadoctor check --window"):
        t.window = True
    elif cmd.startswith(LOOK_ONLY):
        return False
    else:
        raise ValueError(f"no edit for `{cmd}`")
    return True


# ---- fixes whose first step is hands on hardware -------------------------------

def swap_module(t, f):
    """module.dom: the transceiver swapped for a healthy one (another rail's)."""
    ifname = re.search(r"\((\w+)\)", f["subject"]).group(1)
    healthy = sorted(x for x in os.listdir(t.path(".rdmadoctor/module")) if x != ifname)[0]
    mine, theirs = f".rdmadoctor/module/{ifname}", f".rdmadoctor/module/{healthy}"
    shutil.rmtree(t.path(mine))
    os.makedirs(t.path(mine))
    for page in os.listdir(t.path(theirs)):
        with open(t.path(f"{theirs}/{page}"), "rb") as fp:
            t.write(f"{mine}/{page}", fp.read())


def seat_missing_card(t, f):
    """nic.count, topo.nic_shared: the empty rail slot given its card.  After
    a reboot the kernel numbers the RDMA devices anew, so the copy becomes
    the same machine generated with that card present."""
    real = gen_fixtures.h100_board

    def with_every_card(*a, **kw):
        kw["overrides"] = {k: {x: y for x, y in o.items() if x != "nic_absent"}
                           for k, o in (kw.get("overrides") or {}).items()}
        return real(*a, **kw)

    gen_fixtures.h100_board = with_every_card
    try:
        tree = gen_fixtures.render(gen_fixtures.SHAPES["roce-broken"]())
    finally:
        gen_fixtures.h100_board = real
    shutil.rmtree(t.root)
    os.makedirs(t.root)
    tree.write(t.root)


def add_rails(t, f):
    """nic.bandwidth_per_gpu: the rails the machine is built for: the empty
    slot given its card, then every rail port that is down brought up by
    its own port.down fix."""
    seat_missing_card(t, f)
    doc = check(t.root, None)
    t2 = Tree(t.root, doc)
    for g in doc["findings"]:
        if g["id"] == "port.down":
            for cmd in re.findall(r"`([^`]+)`", g["fix"] or ""):
                apply_command(t2, cmd)


HARDWARE = {"module.dom": swap_module, "nic.count": seat_missing_card,
            "topo.nic_shared": seat_missing_card, "nic.bandwidth_per_gpu": add_rails}


def apply(t, f):
    cmds = re.findall(r"`([^`]+)`", f["fix"] or "")
    changed = False
    for cmd in cmds:
        changed |= apply_command(t, cmd)
    if not changed:
        if f["id"] not in HARDWARE:
            raise ValueError(f"nothing to apply in: {f['fix']}")
        HARDWARE[f["id"]](t, f)


# ---- the test -------------------------------------------------------------------

def link_or_copy(a, b):
    """Copies share the fixture's files (Tree.write replaces, never writes
    through); a copy where hard links cannot reach."""
    try:
        os.link(a, b)
    except OSError:
        shutil.copy2(a, b)


# beside the binary: on the file system of the build, where links reach
tmp = tempfile.mkdtemp(prefix="ckb-fixes-", dir=os.path.dirname(os.path.abspath(binary)))
try:
    for profile in PROFILES:
        base = check(FIXTURE, profile)
        pname = os.path.basename(profile) if profile else base["profile"]
        for k, f in enumerate(base["findings"]):
            what = f"{pname}: {f['id']} {f['subject']}"
            if f.get("unchecked"):
                continue    # says what could not be read: it proposes no change
            root = os.path.join(tmp, f"copy{k}", "root")
            shutil.rmtree(os.path.dirname(root), ignore_errors=True)
            shutil.copytree(FIXTURE, root, symlinks=True, copy_function=link_or_copy)
            t = Tree(root, base)
            try:
                apply(t, f)
            except (ValueError, KeyError, OSError, AttributeError, NotImplementedError) as e:
                ok(False, f"{what}: the fix cannot be applied ({e!r}): {f['fix']}")
                continue
            extra = ["--window", "60", "--until", root] if t.window else []
            after = check(root, profile, *extra)
            left = [g for g in after["findings"]
                    if g["id"] == f["id"] and g["subject"] == f["subject"]]
            ok(not left, f"{what}: still there after `{f['fix']}`: "
                         f"{[g['observed'] for g in left]}")
            shutil.rmtree(os.path.dirname(root))
finally:
    shutil.rmtree(tmp)

done()
