#!/usr/bin/env python3
"""Every check id against the fixture machines.

For each id: a fixture (and, where needed, a profile) where it must fire,
with the subject and a piece of the observed value it must name.  Then the
healthy fixtures of the built-in profiles: no error and no warning at all.

usage: table.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

binary, fixtures = sys.argv[1], sys.argv[2]

# id, fixture, profile (None: the one check picks), subject part, observed part
FIRES = [
    ("nic.count", "roce-broken", None, "", "7"),
    ("port.down", "broken", None, "ibp152s0", "DOWN"),
    ("port.down", "roce-broken", None, "", "DOWN"),
    ("port.no_sm", "broken", None, "ibp169s0", "INIT"),
    ("port.rate_low", "broken", None, "ibp57s0", "40"),
    ("port.width_low", "broken", None, "ibp202s0", "2X"),
    ("pcie.link_degraded", "broken", None, "ibp74s0", "x8"),
    ("pcie.upstream_degraded", "broken", None, "ibp221s0", "Gen4"),
    # an x16 card in a slot wired for x8, judged against the card: on the
    # budget A800 its two 100G ports are storage under the board's profile
    ("pcie.link_degraded", "rtx4090-cx6dx-x8", None, "0000:41:00", "Gen4 x8"),
    ("pcie.link_degraded", "a800-2x100g-x8", None, "mlx5_0, mlx5_1 (0000:31:00)", "Gen4 x8"),
    # 2 x 200 Gb/s rails on a full Gen4 x16 link: the ports alone need more
    ("pcie.bottleneck", "rtx3090-x16", "rate-200.ini", "0000:a2:00", "Gen4 x16"),
    ("mtu.ib", "broken", None, "", "2048"),
    ("mtu.roce", "rtx4090-cx6dx-x8", None, "rocep65s0f0", "1500"),
    ("mtu.roce", "roce-broken", None, "", "1500"),
    ("gid.rocev2_missing", "roce-broken", None, "", ""),
    ("gid.index_mismatch", "roce-broken", None, "", "5"),
    ("counters.errors", "broken", None, "ibp24s0", "symbol_error"),
    ("counters.saturated", "broken", None, "ibp202s0", "65535"),
    # the PHY's lifetime counts in `ethtool -S` on a RoCE port, as IB's
    ("counters.errors", "roce-broken", None, "mlx5_0 port 1", "ethtool rx_crc_errors_phy 1532"),
    ("counters.errors", "roce-broken", None, "mlx5_0 port 1", "ethtool link_down_events_phy 4"),
    ("gdr.missing", "broken", None, "", ""),
    ("gdr.unsupported", "rtx4090-cx6dx-x8", None, "", "GeForce"),
    ("topo.nic_far", "broken", None, "ibp229s0", "NODE"),
    ("topo.nic_shared", "a800-2x100g-roce", "a800-8x100g-roce", "", "4"),
    ("pcie.acs", "broken", None, "", ""),
    ("pcie.acs", "roce-broken", None, "", ""),
    ("sys.job_memlock", "broken", None, "", "65536"),
    # the jobs' limits: slurmd's unit without LimitMEMLOCK, a 64 KiB limits.d line
    ("sys.job_memlock", "broken", None, "", "sets no LimitMEMLOCK"),
    ("sys.job_memlock", "broken", None, "", "pam_limits gives any user a soft memlock of 64 KiB"),
    ("sys.device_access", "broken", None, "", "missing"),
    ("sys.device_access", "broken", None, "ibp221s0", "crw-rw---- root:rdma"),
    ("fw.mixed", "broken", None, "ConnectX-7", "28.37.1014"),
    ("roce.ecn", "roce-broken", None, "", ""),
    # DCB netlink replies in roce-broken/root/.rdmadoctor/dcb/ (gen_fixtures.py)
    ("roce.pfc", "roce-broken", "roce-qos.ini", "mlx5_1 port 1", "none"),
    ("roce.trust", "roce-broken", "roce-qos.ini", "mlx5_2 port 1", "pcp"),
    ("roce.qos_mismatch", "roce-broken", "roce-qos.ini", "mlx5_6 port 1", "priority 4"),
    # hgx-8x400g names no priority, yet a RoCE rail needs PFC on one
    ("roce.pfc", "roce-broken", None, "mlx5_1 port 1", "PFC enabled on priorities: none"),
    # the rails agree: without a profile value, the odd rail out
    ("roce.trust", "roce-broken", None, "mlx5_2 port 1", "pcp while 3 rails use dscp"),
    # transceiver pages in roce-broken/root/.rdmadoctor/module/ (gen_fixtures.py)
    ("module.dom", "roce-broken", None, "mlx5_0 port 1", "lane 3 RX power"),
    # FEC_GET reply in roce-broken/root/.rdmadoctor/ethtool-nl/ (gen_fixtures.py):
    # FEC forced off on a 4x100G PAM4 link
    ("port.fec", "roce-broken", None, "mlx5_3 port 1", "FEC off (None) at 400000 Mb/s"),
    # RoCE rails under a profile whose rails are InfiniBand: VPI cards left in
    # the wrong link layer
    ("port.link_layer", "hgx-roce-lag", "link-ib.ini", "mlx5_0 port 1",
     "link layer Ethernet; not counted as a rail"),
    # 8 A800 on 2 x 100G: the field guide's worst pitfall, under the profile
    # of the board (automatic) and still shown when the budget build is named
    ("nic.bandwidth_per_gpu", "a800-2x100g-roce", None, "8 GPUs", "25 Gb/s per GPU"),
    ("nic.bandwidth_per_gpu", "a800-2x100g-roce", "budget-2x100g-roce", "8 GPUs",
     "8 GPUs share 200 Gb/s"),
    ("nic.bandwidth_per_gpu", "roce-broken", None, "8 GPUs", "300 Gb/s per GPU"),
]

# healthy machines of the built-in profiles: nothing at error or warn.  The
# budget build is healthy only for its own profile, named (it is never
# picked by itself), and even there the network per GPU shows as a warning.
HEALTHY = [("dgx-h100", None), ("dgx-a100", None), ("hgx-roce-lag", None),
           ("a800-2x100g-roce", "budget-2x100g-roce"), ("dgx-b200", None),
           ("hgx-a100-8x200g", None), ("a800-8x100g-roce", None), ("rtx3090-x16", None)]
ACCEPTED_WARN = {("a800-2x100g-roce", "budget-2x100g-roce"): {"nic.bandwidth_per_gpu"}}

t = rdtest.Tally()
cache = {}


def check(fixture, profile):
    key = (fixture, profile)
    if key not in cache:
        cmd = ["--json", "check"]
        if profile:
            # a profile file beside this script, or a built-in name
            if profile.endswith(".ini"):
                profile = os.path.join(os.path.dirname(os.path.abspath(__file__)), profile)
            cmd += ["--profile", profile]
        root = f"{fixtures}/{fixture}/root"
        res = rdtest.run(binary, *cmd, root=root)
        if res.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(res.args)} exited {res.returncode}: {res.stderr}")
        doc = json.loads(res.stdout)
        # the exit code agrees with the verdict
        want = 1 if doc["verdict"] == "fail" else 0
        if res.returncode != want:
            raise SystemExit(f"{fixture}: verdict {doc['verdict']} but exit {res.returncode}")
        cache[key] = doc
    return cache[key]


for cid, fixture, profile, subject, observed in FIRES:
    doc = check(fixture, profile)
    hits = [f for f in doc["findings"] if f["id"] == cid]
    ok = any(subject in (f["subject"] or "") and observed in (f["observed"] or "") for f in hits)
    if ok and all(f["why"] and f["fix"] and f["expected"] is not None for f in hits):
        t.ok(True, cid)
    else:
        t.ok(False, f"{cid} on {fixture}: wanted subject~'{subject}' observed~'{observed}', got:")
        for f in hits or [{"subject": "(no finding with this id)", "observed": ""}]:
            print(f"    {f['subject']!r}: {f['observed']!r}")

for fixture, profile in HEALTHY:
    doc = check(fixture, profile)
    accepted = ACCEPTED_WARN.get((fixture, profile), set())
    bad = [f for f in doc["findings"] if f["severity"] == "error" or
           (f["severity"] == "warn" and f["id"] not in accepted)]
    shown = {f["id"] for f in doc["findings"] if f["severity"] == "warn"}
    want = "warn" if accepted else "pass"
    if bad or doc["verdict"] != want or not accepted <= shown:
        t.ok(False, f"healthy {fixture} (profile {doc['profile']}): {doc['verdict']}")
        for f in bad:
            print(f"    {f['severity']} {f['id']} {f['subject']}: {f['observed']}")
    else:
        t.ok(True, fixture)

# every check id (docs/checks.md) that the inventory can judge is covered
ids = {c[0] for c in FIRES}
need = {"nic.count", "port.down", "port.no_sm", "port.rate_low", "port.width_low",
        "pcie.link_degraded", "pcie.upstream_degraded", "pcie.bottleneck", "mtu.ib",
        "mtu.roce", "gid.rocev2_missing", "gid.index_mismatch", "counters.errors",
        "counters.saturated", "gdr.missing", "gdr.unsupported", "topo.nic_far",
        "topo.nic_shared", "pcie.acs", "sys.job_memlock", "sys.device_access", "fw.mixed", "roce.ecn", "port.fec",
        "nic.bandwidth_per_gpu", "port.link_layer"}
t.ok(not need - ids, f"no fixture for {sorted(need - ids)}")
t.done()
