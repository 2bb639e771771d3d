#!/usr/bin/env python3
"""Every reader's "cannot read" path feeds `unchecked` (issue 29, section 4).

A table over the readers a check depends on.  Each row names a bundled
fixture, a file or directory inside its root, how to break it (removed, a
directory where the file was, garbage, cut to N bytes) and what must follow:

  - an `unchecked` finding with this id and subject (observed "not checked"),
  - the summary's unchecked count up by at least one,
  - where the rail itself was not seen, a verdict that is not PASS (rows
    marked rail=True, the port state ones: by design, docs/checks.md, the
    other "not checked" findings are infos that leave the verdict alone;
    the shape's own verdict must have been PASS),
  - and never a fault invented from the missing data: no new error or
    warning that is not "not checked", and no observed value such as 0 mA,
    -40 dBm or rate 0 that the tree never held.

A row whose break should change nothing visible (`expect=None`) asserts only
the last point.  tests/check/unknown.py holds the first cases in full
(--nhc, -v, the Slurm line); this test runs the class.

usage: readers_unknown.py RDMADOCTOR FIXTURES_DIR [ROW-NAME...]
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness, copy_root  # noqa: E402

h = Harness("readers")
binary, fixtures, tmp, expect = h.binary, h.fixtures, h.tmp, h.expect
only = set(h.args)


def check(root):
    res = subprocess.run([binary, "--root", root, "--json", "check"], capture_output=True,
                         text=True, timeout=60)
    if not res.stdout:
        return res.returncode, None, res.stderr
    return res.returncode, json.loads(res.stdout), res.stderr


# --- where things are, in a copy ---------------------------------------------
def ib(dev):
    return lambda r: os.path.realpath(os.path.join(r, "sys/class/infiniband", dev))


def port(dev, name, num=1):
    return lambda r: os.path.join(ib(dev)(r), "ports", str(num), name)


def pci(dev, name, up=0):
    """A file of the NIC's PCI function, or of the bridge `up` levels above."""
    def at(r):
        d = os.path.realpath(os.path.join(ib(dev)(r), "device"))
        for _ in range(up):
            d = os.path.dirname(d)
        return os.path.join(d, name)
    return at


def netdev(dev, name):
    def at(r):
        nets = sorted(os.listdir(os.path.join(ib(dev)(r), "device", "net")))
        return os.path.join(r, "sys/class/net", nets[0], name)
    return at


def host(path):
    return lambda r: os.path.join(r, path)


def gpu(index, name):
    """A file of the index-th NVIDIA GPU (by PCI address)."""
    def at(r):
        gpus = []
        for d in sorted(glob.glob(os.path.join(r, "sys/bus/pci/devices/*"))):
            try:
                with open(os.path.join(d, "vendor")) as v, open(os.path.join(d, "class")) as c:
                    if v.read().strip() == "0x10de" and c.read().strip()[:4] in ("0x03",
                                                                                  "0x0302"):
                        gpus.append(d)
            except OSError:
                continue
        return os.path.join(os.path.realpath(gpus[index]), name)
    return at


# --- how to break it ---------------------------------------------------------
def breaker(how):
    def remove(p):
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.unlink(p)

    def directory(p):
        remove(p)
        os.mkdir(p)

    def garbage(p):
        remove(p)
        with open(p, "wb") as f:
            f.write(b"\xff\xfegarbage?\n")

    def truncate(n):
        def cut(p):
            real = os.path.realpath(p)
            with open(real, "r+b") as f:
                f.truncate(n)
        return cut

    if how.startswith("truncate:"):
        return truncate(int(how.split(":")[1]))
    return {"remove": remove, "directory": directory, "garbage": garbage}[how]


INVENTED = re.compile(r"(?<![\d.])0(\.0+)? mA|-40(\.0+)? dBm|rate 0\b|(?<![\d.])0 Gb/s|"
                      r"(?<![\d.])-?inf\b|\bnan\b", re.I)

# (name, shape, where, how, expect: (id, subject) or None, rail)
ROWS = [
    # port state and phys_state
    ("state-missing", "dgx-h100", port("mlx5_0", "state"), "remove",
     ("port.down", "mlx5_0 port 1"), True),
    # ACTIVE implies LinkUp: a state that says ACTIVE without phys_state is up
    ("phys_state-dir", "dgx-h100", port("mlx5_0", "phys_state"), "directory", None, False),
    ("state-dir", "a800-8x100g-roce", port("mlx5_2", "state"), "directory",
     ("port.down", "mlx5_2 port 1"), True),
    ("state-garbage", "a800-8x100g-roce", port("mlx5_0", "state"), "garbage",
     ("port.down", "mlx5_0 port 1"), True),
    # rate
    ("rate-missing", "dgx-h100", port("mlx5_0", "rate"), "remove",
     ("port.rate_low", "mlx5_0 port 1"), False),
    ("rate-garbage", "a800-8x100g-roce", port("mlx5_0", "rate"), "garbage",
     ("port.rate_low", "mlx5_0 port 1"), False),
    ("rate-empty", "dgx-h100", port("mlx5_0", "rate"), "truncate:0",
     ("port.rate_low", "mlx5_0 port 1"), False),
    # link_layer
    ("link_layer-missing", "dgx-h100", port("mlx5_0", "link_layer"), "remove",
     ("nic.count", "mlx5_0 port 1"), False),
    ("link_layer-garbage", "dgx-h100", port("mlx5_0", "link_layer"), "garbage",
     ("nic.count", "mlx5_0 port 1"), False),
    # GIDs
    ("gids-missing", "a800-8x100g-roce", port("mlx5_0", "gids"), "remove",
     ("gid.rocev2_missing", "mlx5_0 port 1"), False),
    ("gid_attrs-missing", "a800-8x100g-roce", port("mlx5_0", "gid_attrs"), "remove",
     ("gid.rocev2_missing", "mlx5_0 port 1"), False),
    # the netdev's MTU and operstate
    ("netdev-mtu-missing", "a800-8x100g-roce", netdev("mlx5_0", "mtu"), "remove",
     ("mtu.roce", "mlx5_0 port 1"), False),
    ("netdev-mtu-garbage", "a800-8x100g-roce", netdev("mlx5_0", "mtu"), "garbage",
     ("mtu.roce", "mlx5_0 port 1"), False),
    ("netdev-operstate-missing", "a800-8x100g-roce", netdev("mlx5_0", "operstate"), "remove",
     None, False),
    # PCIe link: the NIC's current and max, and a bridge above it
    ("pcie-cur-speed-missing", "dgx-h100", pci("mlx5_0", "current_link_speed"), "remove",
     ("pcie.link_degraded", "mlx5_0"), False),
    ("pcie-cur-width-garbage", "dgx-h100", pci("mlx5_0", "current_link_width"), "garbage",
     ("pcie.link_degraded", "mlx5_0"), False),
    ("pcie-max-speed-missing", "dgx-h100", pci("mlx5_0", "max_link_speed"), "remove",
     ("pcie.link_degraded", "mlx5_0"), False),
    ("pcie-max-width-dir", "dgx-h100", pci("mlx5_0", "max_link_width"), "directory",
     ("pcie.link_degraded", "mlx5_0"), False),
    ("bridge-cur-speed-missing", "dgx-h100", pci("mlx5_0", "current_link_speed", up=1),
     "remove", ("pcie.upstream_degraded", "mlx5_0"), False),
    ("bridge-cur-width-garbage", "dgx-h100", pci("mlx5_0", "current_link_width", up=2),
     "garbage", ("pcie.upstream_degraded", "mlx5_0"), False),
    # DCB / PFC / trust (the snapshot's netlink replies) and ECN
    ("dcb-reply-missing", "roce-broken", host(".rdmadoctor/dcb/enp24s0np0"), "remove",
     ("roce.pfc", "mlx5_0 port 1"), False),
    ("dcb-reply-garbage", "roce-broken", host(".rdmadoctor/dcb/enp24s0np0"), "garbage",
     ("roce.pfc", "mlx5_0 port 1"), False),
    ("dcb-reply-short", "roce-broken", host(".rdmadoctor/dcb/enp24s0np0"), "truncate:40",
     ("roce.pfc", "mlx5_0 port 1"), False),
    # hgx-8x400g (roce-broken's) does not ask for ECN: nothing to say
    ("ecn-missing", "roce-broken", netdev("mlx5_0", "ecn"), "remove", None, False),
    # transceiver pages
    ("module-lower-short", "roce-broken", host(".rdmadoctor/module/enp57s0np0/50-00-0-000"),
     "truncate:50", None, False),
    ("module-lower-missing", "roce-broken", host(".rdmadoctor/module/enp57s0np0/50-00-0-000"),
     "remove", None, False),
    ("module-page11-short", "roce-broken", host(".rdmadoctor/module/enp57s0np0/50-11-0-080"),
     "truncate:20", None, False),
    ("module-page11-garbage", "roce-broken",
     host(".rdmadoctor/module/enp57s0np0/50-11-0-080"), "garbage", None, False),
    ("module-thresholds-short", "roce-broken",
     host(".rdmadoctor/module/enp57s0np0/50-02-0-080"), "truncate:10", None, False),
    # firmware version
    ("fw_ver-missing", "dgx-h100", lambda r: os.path.join(ib("mlx5_0")(r), "fw_ver"),
     "remove", ("fw.mixed", "mlx5_0"), False),
    # counters
    ("counters-missing", "dgx-h100", port("mlx5_0", "counters"), "remove",
     ("counters.errors", "mlx5_0 port 1"), False),
    ("counter-garbage", "dgx-h100", port("mlx5_0", "counters/symbol_error"), "garbage",
     ("counters.errors", "mlx5_0 port 1"), False),
    # memlock
    ("memlock-missing", "dgx-h100", host("proc/self/limits"), "remove",
     ("sys.job_memlock", "host"), False),
    ("memlock-garbage", "dgx-h100", host("proc/self/limits"), "garbage",
     ("sys.job_memlock", "host"), False),
    # the kernel modules
    ("modules-missing", "dgx-h100", host("proc/modules"), "remove", None, False),
    ("modules-and-sysmodule-missing", "dgx-h100", host("sys/module"), "remove", None, False),
    # GPUs (nvidia sysfs)
    # the device ID still names the GPU: it stays a GPU, its NIC is not blamed
    ("gpu-class-missing", "dgx-h100", gpu(0, "class"), "remove", None, False),
    ("gpu-device-garbage", "dgx-h100", gpu(0, "device"), "garbage", None, False),
    # NUMA node
    ("nic-numa-missing", "dgx-h100", pci("mlx5_0", "numa_node"), "remove", None, False),
    # ACS: the bridges' config space
    ("acs-config-short", "broken", host("sys/devices/pci0000:c7/0000:c7:01.0/0000:c8:00.0/"
                                         "0000:c9:00.0/config"), "truncate:64",
     ("pcie.acs", None), False),
]

baseline = {}


def base(shape):
    if shape not in baseline:
        rc, doc, err = check(os.path.join(fixtures, shape, "root"))
        baseline[shape] = doc
    return baseline[shape]


def key(f):
    return (f["id"], f["subject"], f["severity"])


for name, shape, where, how, want, rail in ROWS:
    if only and name not in only:
        continue
    b = base(shape)
    root = os.path.join(tmp, name)
    copy_root(os.path.join(fixtures, shape, "root"), root, overlay=True)
    target = where(root)
    if not os.path.lexists(target):
        expect(False, f"{name}: the row's target is not in {shape}", target)
        continue
    breaker(how)(target)
    rc, doc, err = check(root)
    if doc is None:
        expect(False, f"{name}: check gave no JSON (rc {rc})", err[-400:])
        continue
    before = {key(f) for f in b["findings"]}
    new = [f for f in doc["findings"] if key(f) not in before]
    invented = [f for f in new if not f.get("unchecked") and f["severity"] in ("error", "warn")]
    invented += [f for f in new if f not in invented and
                 INVENTED.search(f.get("observed") or "")]
    expect(not invented, f"{name}: no fault invented from what could not be read",
           "; ".join(f"{f['id']} {f['subject']}: {f.get('observed')}" for f in invented))
    if want is None:
        continue
    fid, subject = want
    got = [f for f in doc["findings"] if f.get("unchecked") and f["id"] == fid and
           (subject is None or f["subject"] == subject) and
           re.search(r"not checked|could not be checked", f.get("observed") or "")]
    expect(got, f"{name}: {fid} {subject or ''} 'not checked'",
           "new: " + "; ".join(f"{f['id']} {f['subject']} {f['severity']}"
                               f"{' unchecked' if f.get('unchecked') else ''}: "
                               f"{f.get('observed')}" for f in new))
    expect(doc["unchecked"] > b["unchecked"],
           f"{name}: unchecked up from {b['unchecked']}", str(doc["unchecked"]))
    if rail and b["verdict"] == "pass":
        expect(doc["verdict"] != "pass", f"{name}: a rail not seen is not a PASS",
               doc["verdict"])

h.done()
