#!/usr/bin/env python3
"""One cause, one finding, the right subject (issue 29, part 2), on the
bundled fixtures:

- PFC off on roce-broken's mlx5_1 is one finding, with or without a
  profile that names the priority, never a second with the same command;
- topo.nic_shared names the GPU without a NIC under its switch, not the
  NIC that won a tie among equally far ones;
- nic.bandwidth_per_gpu gives one design figure for a machine whichever
  profile judges it, and the FAIL names the budget profile its NICs fit;
- a rail port that trained low is port.rate_low's alone, not also a
  nic.bandwidth_per_gpu that says to buy NICs;
- pcie.acs names every bridge of a path in its fix, and no text shows a
  placeholder for a value check knows.

usage: one_cause.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import done, ok  # noqa: E402

binary, fixtures = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))


def check(fixture, *args, text=False):
    cmd = [binary, "--root", os.path.join(fixtures, fixture, "root")]
    cmd += [] if text else ["--json"]
    res = subprocess.run(cmd + ["check", *args], capture_output=True, text=True, timeout=60)
    if res.returncode not in (0, 1):
        raise SystemExit(f"{cmd} exited {res.returncode}: {res.stderr}")
    return res.stdout if text else json.loads(res.stdout)["findings"]


def check_in(root_dir, fixture, *args):
    global fixtures
    saved, fixtures = fixtures, root_dir
    try:
        return check(fixture, *args)
    finally:
        fixtures = saved


def on(findings, subject, ids=None):
    return [f for f in findings if f["subject"] == subject and (ids is None or f["id"] in ids)]


ROCE = {"roce.pfc", "roce.ecn", "roce.trust", "roce.qos_mismatch"}
PFC3 = "`mlnx_qos -i enp57s0np0 --pfc 0,0,0,1,0,0,0,0`"

# -- PFC off on mlx5_1: one finding, at the higher severity ------------------
fs = check("roce-broken")
mine = on(fs, "mlx5_1 port 1", ROCE)
# (hgx-8x400g expects PFC on some priority, so roce.pfc sees it first and
# roce.qos_mismatch's same command is not said again)
ok(len(mine) == 1 and mine[0]["id"] in ("roce.pfc", "roce.qos_mismatch")
   and mine[0]["severity"] == "error" and PFC3 in mine[0]["fix"],
   "roce-broken: PFC off on mlx5_1 is one error", json.dumps(mine, indent=1))
ok(sum(PFC3 in f["fix"] for f in fs) == 1, "roce-broken: the --pfc command is given once")
# the other sides of the setup still have their own findings
ok(len(on(fs, "mlx5_2 port 1", {"roce.trust"})) == 1, "roce-broken: mlx5_2's trust stays")
ok(len(on(fs, "mlx5_6 port 1", {"roce.qos_mismatch"})) == 1, "roce-broken: mlx5_6's map stays")

# a site that waives roce.qos_mismatch still sees PFC off on mlx5_1: the
# waived finding does not stand in for the one it would have replaced
with tempfile.TemporaryDirectory(prefix="rd-onecause-") as tmp:
    waived = os.path.join(tmp, "root")
    shutil.copytree(os.path.join(fixtures, "roce-broken", "root"), waived, symlinks=True)
    os.makedirs(os.path.join(waived, "etc", "rdmadoctor"), exist_ok=True)
    with open(os.path.join(waived, "etc", "rdmadoctor", "rdmadoctor.conf"), "w") as f:
        f.write("[site]\nignore = roce.qos_mismatch\n")
    res = subprocess.run([binary, "--root", waived, "--json", "check"], capture_output=True,
                         text=True, timeout=60)
    fs = json.loads(res.stdout)["findings"]
    seen = [f for f in on(fs, "mlx5_1 port 1", ROCE) if not f.get("waived")]
    ok(len(seen) == 1 and seen[0]["id"] == "roce.pfc" and PFC3 in seen[0]["fix"],
       "roce.qos_mismatch waived: PFC off on mlx5_1 still shows as roce.pfc",
       json.dumps(on(fs, "mlx5_1 port 1", ROCE), indent=1))

fs = check("roce-broken", "--profile", os.path.join(here, "roce-qos.ini"))
mine = on(fs, "mlx5_1 port 1", ROCE)
ok(len(mine) == 1 and mine[0]["id"] == "roce.pfc" and mine[0]["severity"] == "error"
   and PFC3 in mine[0]["fix"],
   "roce-qos profile: PFC off on mlx5_1 is one roce.pfc error", json.dumps(mine, indent=1))

# -- topo.nic_shared: the GPU without a NIC, not the NIC that won a tie ------
for fixture, gpu, nics, winner in (
        ("broken", "GPU 0000:5c:00.0", "ibp24s0 ibp57s0 ibp74s0, NODE", "ibp24s0"),
        ("roce-broken", "GPU 0000:aa:00.0", "mlx5_4 mlx5_5 mlx5_6, NODE", "mlx5_5")):
    shared = [f for f in check(fixture) if f["id"] == "topo.nic_shared"]
    ok(len(shared) == 1 and shared[0]["subject"] == gpu and nics in shared[0]["observed"]
       and "under its own PCIe switch" in shared[0]["expected"],
       f"{fixture}: topo.nic_shared is about {gpu}, naming its equally far NICs",
       json.dumps(shared, indent=1))
    ok(not any(f["subject"] == winner for f in shared), f"{fixture}: not about {winner}")
# GPUs alike near one NIC (by the board's design) make the NIC the subject
shared = [f for f in check("a800-2x100g-roce", "--profile", "a800-8x100g-roce")
          if f["id"] == "topo.nic_shared"]
ok(sorted(f["subject"] for f in shared) == ["mlx5_0", "mlx5_1"]
   and all(f["observed"].startswith("4 GPUs:") for f in shared),
   "a800-2x100g-roce: each NIC shared by its 4 GPUs", json.dumps(shared, indent=1))

# -- one machine, one design figure -------------------------------------------
figures = {}
for profile in (None, "a800-8x100g-roce", "budget-2x100g-roce"):
    bw = [f for f in check("a800-2x100g-roce", *(["--profile", profile] if profile else []))
          if f["id"] == "nic.bandwidth_per_gpu"]
    ok(len(bw) == 1 and bw[0]["subject"] == "8 GPUs", f"a800-2x100g-roce {profile}: one finding")
    figures[profile] = bw[0]
for profile, f in figures.items():
    ok("built for 100;" in f["observed"] and f["expected"].startswith("100 Gb/s per GPU"),
       f"a800-2x100g-roce {profile}: built for 100 Gb/s per GPU", f["observed"])
ok("design (a800-8x100g-roce)" in figures["budget-2x100g-roce"]["observed"],
   "budget profile: the figure is the design's, named", figures["budget-2x100g-roce"]["observed"])
fail = figures[None]
ok(fail["severity"] == "error" and "`rdmadoctor check --profile budget-2x100g-roce`" in fail["fix"],
   "a800-2x100g-roce: the FAIL names the budget profile its NICs fit", fail["fix"])
ok("budget-2x100g-roce" not in figures["budget-2x100g-roce"]["fix"],
   "budget profile: no advice to use itself")
ok(not any("budget" in f["fix"] for f in check("roce-broken")),
   "roce-broken: 7 rails fit no budget build")

# -- pcie.acs: every bridge of the path, by its address -----------------------
acs = [f for f in check("broken") if f["id"] == "pcie.acs"]
ok(len(acs) == 1 and acs[0]["subject"] == "ibp202s0"
   and "`setpci -s 0000:c9:00.0 ECAP_ACS+0x6.w=0000`" in acs[0]["fix"]
   and "`setpci -s 0000:c9:01.0 ECAP_ACS+0x6.w=0000`" in acs[0]["fix"]
   and "0000:cb:00.0" in acs[0]["observed"],
   "broken: one pcie.acs for ibp202s0 with both bridges' commands", json.dumps(acs, indent=1))
acs = [f for f in check("roce-broken") if f["id"] == "pcie.acs"]
ok(len(acs) == 1 and acs[0]["subject"] == "mlx5_6"
   and "`setpci -s 0000:da:00.0 ECAP_ACS+0x6.w=0000`" in acs[0]["fix"],
   "roce-broken: one pcie.acs for mlx5_6", json.dumps(acs, indent=1))
out = check("broken", text=True)
ok("<bdf>" not in out, "broken: no <bdf> placeholder in the text", out)
# ECN that could not be read (the inbox driver, and no CNPs counted yet):
# mlxconfig is given the card's PCI address
with tempfile.TemporaryDirectory(prefix="rd-onecause-") as tmp:
    quiet = os.path.join(tmp, "a800-2x100g-roce", "root")
    shutil.copytree(os.path.join(fixtures, "a800-2x100g-roce", "root"), quiet, symlinks=True)
    ib = os.path.join(quiet, "sys/class/infiniband")
    for dev in os.listdir(ib):
        with open(os.path.join(ib, dev, "ports/1/hw_counters/np_cnp_sent"), "w") as f:
            f.write("0\n")
    ecn = [f for f in check_in(tmp, "a800-2x100g-roce") if f["id"] == "roce.ecn"]
ok(len(ecn) == 2 and all(f["subject"] in ("mlx5_0 port 1", "mlx5_1 port 1") for f in ecn)
   and all("`mlxconfig -d 0000:" in f["fix"] and "<dev>" not in f["fix"] for f in ecn),
   "a800-2x100g-roce: roce.ecn's mlxconfig names the card", json.dumps(ecn, indent=1))

# -- a port that trained low is its own finding, not a shortfall of design ----
# one of the DGX H100's NDR rails trained at 200G (HDR): port.rate_low names it
# and its fix; nic.bandwidth_per_gpu (whose fix buys NICs) must not add a
# second finding for the same 200 Gb/s.
with tempfile.TemporaryDirectory() as tmp:
    shutil.copytree(os.path.join(fixtures, "dgx-h100"), os.path.join(tmp, "dgx-h100"),
                    symlinks=True)
    rate = os.path.join(tmp, "dgx-h100", "root", "sys/class/infiniband/mlx5_0/ports/1/rate")
    real = os.path.realpath(rate)
    os.chmod(real, 0o644)
    with open(real, "w") as fh:
        fh.write("200 Gb/sec (4X HDR)\n")
    slow = check_in(tmp, "dgx-h100")
    ids = sorted(f["id"] for f in slow if f["severity"] in ("error", "warn"))
    ok(any(f["id"] == "port.rate_low" and f["subject"].startswith("mlx5_0") for f in slow)
       and "nic.bandwidth_per_gpu" not in ids,
       "dgx-h100 with mlx5_0 at 200G: port.rate_low only, no nic.bandwidth_per_gpu",
       json.dumps(ids))

done()
