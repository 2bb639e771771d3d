#!/usr/bin/env python3
"""Unknown is never healthy (issue 29): what a reader could not read is
"not checked", counted in "unchecked", and where it hides a rail it keeps
the verdict from PASS; a file too short for its layout yields no facts.

Each case copies a bundled fixture, breaks one file the way a machine or
a snapshot breaks it (removed, a directory where a file should be, garbage,
truncated) and asserts the count, the subject and the verdict.

usage: unknown.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness, take_dcb  # noqa: E402

h = Harness("unknown")
binary, fixtures, tmp, expect = h.binary, h.fixtures, h.tmp, h.expect
run, copy = h.run, h.copy




def port_dir(root, dev, port=1):
    """The port's directory in the copy, through its sys/class link (the
    tree's other links lead to the same place many times over)."""
    return os.path.join(os.path.realpath(os.path.join(root, "sys/class/infiniband", dev)),
                        "ports", str(port))


def counted(doc):
    """The unchecked count less the fixtures' own gaps: their NICs have
    no config space past its first 64 bytes, so pcie.mps_mismatch is not
    checked (unit_check_pcie judges it), and a copy whose lib/modules a case
    takes away leaves driver.* unchecked (tests/sysfs judges those):
    gaps these cases do not make."""
    return doc["unchecked"] - len([f for f in doc["findings"] if f.get("unchecked") and
                                   (f["id"].startswith("driver.") or
                                    f["id"] == "pcie.mps_mismatch")])


def unchecked(doc, fid=None, subject=None):
    return [f for f in doc["findings"] if f.get("unchecked") and
            (fid is None or f["id"] == fid) and (subject is None or f["subject"] == subject)]


# --- a rail port whose state cannot be read ---------------------------------
def break_state(root, how):
    d = port_dir(root, "mlx5_0")
    for name in ("state", "phys_state"):
        p = os.path.join(d, name)
        os.unlink(p)
        if how == "directory":      # unreadable even as root: EISDIR
            os.mkdir(p)
        elif how == "garbage":
            with open(p, "w") as f:
                f.write("ACTIVE-ish\n")


for how, why in (("missing", "no file 'state'"), ("directory", "Is a directory"),
                 ("garbage", "malformed 'state'")):
    r = copy("dgx-h100", f"state-{how}")
    break_state(r, how)
    rc, doc, _, err = run(r)
    f = unchecked(doc, "port.down", "mlx5_0 port 1")
    expect(rc == 0 and doc["verdict"] == "warn" and counted(doc) == 1 and len(f) == 1 and
           f[0]["severity"] == "warn" and why in f[0]["observed"] and
           "not checked" in f[0]["observed"],
           f"dgx-h100, mlx5_0's state {how}: WARN, 1 unchecked, port.down mlx5_0 port 1",
           f"rc {rc} {doc['verdict']} {doc['unchecked']} {f} {err}")
    expect(not [x for x in doc["findings"] if x["id"] == "nic.bandwidth_per_gpu"],
           f"state {how}: one cause, one finding (no per-GPU bandwidth from the unseen rail)")
    rc, _, out, _ = run(r, "--nhc", json_out=False)
    expect(rc == 0 and out.startswith("UNCHECKED: rdmadoctor: port.down mlx5_0 port 1: "
                                      "not checked") and len(out.splitlines()) == 1,
           f"state {how}: --nhc names it on one UNCHECKED line, exit 0", f"rc {rc} {out!r}")
    rc, _, out, err = run(r, json_out=False, verbose=True)
    expect(out.startswith("WARN") and f", {doc['unchecked']} unchecked" in out.splitlines()[1] and
           "RoCE port that is not up" not in err,
           f"state {how}: text WARN, '1 unchecked'; -v does not call it a port that is down",
           out.splitlines()[1] + err[-300:])

# a storage NIC nobody saw is counted, but does not hold the verdict
r = copy("dgx-h100", "state-storage")
d = port_dir(r, "mlx5_1")
os.unlink(os.path.join(d, "state"))
os.unlink(os.path.join(d, "phys_state"))
rc, doc, _, _ = run(r)
f = unchecked(doc, "port.down", "mlx5_1 port 1")
expect(rc == 0 and doc["verdict"] == "pass" and counted(doc) == 1 and f and
       f[0]["severity"] == "info",
       "a storage port whose state is unknown: an unchecked info, PASS", f"{doc['verdict']} {f}")

# a state that is known to be down stays an error, not "not checked"
r = copy("dgx-h100", "state-down")
d = port_dir(r, "mlx5_0")
with open(os.path.join(d, "state"), "w") as fh:
    fh.write("1: DOWN\n")
os.unlink(os.path.join(d, "phys_state"))
rc, doc, _, _ = run(r)
f = [x for x in doc["findings"] if x["id"] == "port.down"]
expect(rc == 1 and doc["verdict"] == "fail" and f and f[0]["severity"] == "error" and
       not f[0].get("unchecked"),
       "a rail known to be DOWN without phys_state: port.down error", str(f))

# --- RoCE rails without a DCB reading ----------------------------------------
rb = os.path.join(fixtures, "roce-broken", "root")
rc, doc, _, _ = run(rb)
pfc = sorted(f["subject"] for f in unchecked(doc, "roce.pfc"))
expect(counted(doc) == 3 and pfc == ["mlx5_3 port 1", "mlx5_4 port 1", "mlx5_5 port 1"],
       "roce-broken: the 3 rails without DCB replies are counted, one roce.pfc each",
       f"{doc['unchecked']} {pfc}")
trust = [f for f in doc["findings"] if f["id"] == "roce.trust"]
expect(trust and "majority of the 4 of 7 rails where it is known" in trust[0]["observed"],
       "roce-broken: the trust majority says it was taken over 4 of 7 rails", str(trust))
_, _, out, _ = run(rb, json_out=False, cmd="inventory")
expect(out.count("dcb ?") == 3, "roce-broken inventory: 'dcb ?' on the 3 rails",
       str(out.count("dcb ?")))
# one more rail's replies gone: counted too
r = copy("roce-broken", "dcb-gone")
os.unlink(os.path.join(r, ".rdmadoctor", "dcb", "enp24s0np0"))
rc, doc2, _, _ = run(r)
expect(counted(doc2) == 4 and unchecked(doc2, "roce.pfc", "mlx5_0 port 1"),
       "roce-broken without mlx5_0's DCB replies: 4 unchecked, mlx5_0 named",
       str(doc2["unchecked"]))
# a RoCE build of hgx-8x400g (which names no priority) expects PFC on one:
# mlx5_1 has it on none, one finding for that cause
f1 = [f for f in doc["findings"] if f["subject"] == "mlx5_1 port 1" and
      f["id"] in ("roce.pfc", "roce.qos_mismatch")]
expect(doc["profile"] == "hgx-8x400g" and len(f1) == 1 and f1[0]["id"] == "roce.pfc" and
       f1[0]["severity"] == "error" and "none" in f1[0]["observed"],
       "hgx-8x400g with RoCE rails: PFC on no priority is one roce.pfc error", str(f1))
lag = copy("hgx-roce-lag", "no-dcb")
take_dcb(lag)
rc, doc, _, _ = run(lag)
expect(doc["profile"] == "hgx-8x400g" and counted(doc) == 8 and
       len(unchecked(doc, "roce.pfc")) == 8,
       "hgx-roce-lag: all 8 rails without a DCB reading are not checked", str(doc["unchecked"]))

# --- an unreadable PCIe link (Gen? x?) and memlock limit ---------------------
r = copy("dgx-h100", "pcie-unknown")
pci = os.path.dirname(os.path.dirname(port_dir(r, "mlx5_0")))   # .../infiniband/mlx5_0
pci = os.path.dirname(os.path.dirname(pci))                      # the PCI function
os.unlink(os.path.join(pci, "current_link_speed"))
os.mkdir(os.path.join(pci, "current_link_speed"))
os.unlink(os.path.join(pci, "current_link_width"))
rc, doc, _, _ = run(r)
f = unchecked(doc, "pcie.link_degraded", "mlx5_0")
expect(rc == 0 and counted(doc) == 1 and len(f) == 1 and "not checked" in f[0]["observed"],
       "dgx-h100, mlx5_0's PCIe link unreadable: pcie.link_degraded not checked, counted",
       f"rc {rc} {doc['unchecked']} {f}")
r = copy("dgx-h100", "memlock-unknown")
limits = os.path.realpath(os.path.join(r, "proc", "self", "limits"))
os.unlink(limits)
os.mkdir(limits)
rc, doc, _, _ = run(r)
f = unchecked(doc, "sys.job_memlock", "host")
expect(rc == 0 and counted(doc) == 1 and len(f) == 1 and f[0]["severity"] == "info",
       "dgx-h100, /proc/self/limits unreadable: sys.job_memlock not checked, counted",
       f"rc {rc} {doc['unchecked']} {f}")

# --- a RoCE port whose GID table cannot be read keeps its netdev -----------
# (the kernel's own fallback: the PCI function's Ethernet netdev with its
# dev_port), so the MTU and ECN are still judged and no fix says <netdev>
r = copy("a800-8x100g-roce", "gids-gone")
for sub in ("gids", "gid_attrs"):
    shutil.rmtree(os.path.join(port_dir(r, "mlx5_0"), sub))
rc, doc, text, _ = run(r)
nic = [n for n in doc["inventory"]["nics"] if n["name"] == "mlx5_0"][0]
on0 = [f for f in doc["findings"] if f["subject"] == "mlx5_0 port 1"]
want = sorted(os.listdir(os.path.join(os.path.dirname(os.path.dirname(port_dir(r, "mlx5_0"))),
                                      "device", "net")))[0]
expect(nic["ports"][0]["netdev"] == want and not unchecked(doc, "mtu.roce") and
       not any("<" in f["fix"] or "could not be found" in f["observed"] for f in on0) and
       [f["id"] for f in unchecked(doc) if f["subject"] == "mlx5_0 port 1" and
        f["id"] != "roce.pfc"] == ["gid.rocev2_missing"],
       "a800-8x100g-roce, mlx5_0's gids/ and gid_attrs/ removed: the netdev is found on the "
       "PCI function, only the GID check is newly not checked",
       f"{nic['ports'][0]['netdev']} want {want}; {[(f['id'], f['observed']) for f in on0]}")

# --- a transceiver page shorter than its layout yields no DOM facts ----------
r = copy("roce-broken", "short-page")
page = os.path.join(r, ".rdmadoctor", "module", "enp57s0np0", "50-00-0-000")  # mlx5_1, CMIS
with open(page, "r+b") as fh:
    fh.truncate(50)
rc, doc, _, err = run(r, verbose=True)
dom = [f for f in doc["findings"] if f["id"] == "module.dom" and "enp57s0np0" in f["subject"]]
mod = [p["module"] for n in doc["inventory"]["nics"] if n["name"] == "mlx5_1"
       for p in n["ports"]]
expect(not dom and mod == [None] and
       "enp57s0np0 transceiver lower page is 50 bytes, shorter than its 128-byte layout" in err,
       "roce-broken, mlx5_1's CMIS lower page cut to 50 bytes: no DOM facts, said in -v",
       f"{dom[:2]} {mod} {err[-400:]}")

h.done()
