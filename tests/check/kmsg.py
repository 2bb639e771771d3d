#!/usr/bin/env python3
"""kmsg.*: the kernel log's NIC/RDMA faults, judged from a snapshot's
.rdmadoctor/kmsg/faults on a copy of roce-broken (mlx5_0..3 at 0000:18,
0000:39, 0000:4a, 0000:5b, netdevs enp24s0np0...).

The records are in /dev/kmsg's form (PRIO,SEQ,USEC,FLAGS;MESSAGE then
" KEY=VALUE" lines, kernel facility 0) and their texts are the kernel's own
format strings filled in as the driver prints them (each cited in
src/sysfs/kmsg_patterns.c and docs/checks.md).  One finding per (id,
subject) with the count since boot, the last line and its time; a log that
could not be read is one "not checked" finding.

usage: kmsg.py RDMADOCTOR FIXTURES_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("kmsg")

PCI = " SUBSYSTEM=pci\n DEVICE=+pci:%s\n"
RECORDS = [
    # cmd.c wait_func: "%s(0x%x) timeout. Will cause a leak of a command resource"
    ("3,100,5000000,-;mlx5_core 0000:18:00.0: wait_func:1160:(pid 812): "
     "ACCESS_REG(0x805) timeout. Will cause a leak of a command resource\n" + PCI % "0000:18:00.0"),
    # cmd.c cb_timeout_handler: "cmd[%d]: %s(0x%x) Async, timeout. Will cause..."
    ("3,101,6000000,-;mlx5_core 0000:18:00.0: cb_timeout_handler:1012:(pid 9): cmd[3]: "
     "QUERY_VPORT_COUNTER(0x770) Async, timeout. Will cause a leak of a command resource\n"
     + PCI % "0000:18:00.0"),
    # health.c poll_health: "device's health compromised - reached miss count"
    ("3,102,7000000,-;mlx5_core 0000:39:00.0: poll_health:825:(pid 0): device's health "
     "compromised - reached miss count\n" + PCI % "0000:39:00.0"),
    # en_main.c mlx5e_update_carrier: netdev_info "Link up" / "Link down";
    # netdev_printk puts "driver BDF netdev: " before it
    ("6,103,8000000,-;mlx5_core 0000:4a:00.0 enp74s0np0: Link up\n" + PCI % "0000:4a:00.0"),
    ("6,104,9000000,-;mlx5_core 0000:4a:00.0 enp74s0np0: Link down\n" + PCI % "0000:4a:00.0"),
    ("6,105,9500000,-;mlx5_core 0000:4a:00.0 enp74s0np0: Link up\n" + PCI % "0000:4a:00.0"),
    ("6,106,9600000,-;mlx5_core 0000:4a:00.0 enp74s0np0: Link down\n" + PCI % "0000:4a:00.0"),
    ("6,107,9700000,-;mlx5_core 0000:4a:00.0 enp74s0np0: Link up\n" + PCI % "0000:4a:00.0"),
    # the first "Link up" of a boot alone: no flap
    ("6,108,4000000,-;mlx5_core 0000:5b:00.0 enp91s0np0: Link up\n" + PCI % "0000:5b:00.0"),
    # events.c mlx5_pcie_event: "Detected insufficient power on the PCIe slot (%uW)."
    ("4,109,4100000,-;mlx5_core 0000:5b:00.0: mlx5_pcie_event:301:(pid 1): Detected "
     "insufficient power on the PCIe slot (27W).\n" + PCI % "0000:5b:00.0"),
    # aer.c aer_print_error on a device on no NIC's path: not ours
    ("3,110,4200000,-;pcieport 0000:00:1c.0: PCIe Bus Error: severity=Corrected, "
     "type=Physical Layer, (Receiver ID)\n" + PCI % "0000:00:1c.0"),
    # kernel/module/main.c resolve_symbol_wait: "%s: Unknown symbol %s (err %d)"
    ("4,111,4300000,-;nvidia_peermem: Unknown symbol ib_register_peer_memory_client "
     "(err -2)\n"),
    # sch_generic.c dev_watchdog, the netdev_crit form of newer kernels
    ("2,112,4400000,-;mlx5_core 0000:18:00.0 enp24s0np0: NETDEV WATCHDOG: CPU: 3: "
     "transmit queue 5 timed out 5120 ms\n" + PCI % "0000:18:00.0"),
    # the older WARN form: no device prefix, the netdev named first
    ("4,114,4600000,-;NETDEV WATCHDOG: enp57s0np0 (mlx5_core): transmit queue 2 timed out\n"),
    # a netdev no NIC here has: its own subject
    ("2,113,4500000,-;mlx5_core 0000:c1:00.0 ens9np0: NETDEV WATCHDOG: CPU: 3: "
     "transmit queue 1 timed out 5120 ms\n"),
]
BOOT = 1764900000  # 2025-12-05T02:00:00Z


def with_log(name, faults=None, errno=None, reading=None):
    root = h.copy("roce-broken", name)
    d = os.path.join(root, ".rdmadoctor", "kmsg")
    os.makedirs(d)
    if faults is not None:
        with open(os.path.join(d, "faults"), "w") as f:
            f.write(faults)
        with open(os.path.join(d, "boot_time"), "w") as f:
            f.write(f"{BOOT}.000000\n")
    if errno is not None:
        with open(os.path.join(d, "faults.errno"), "w") as f:
            f.write(f"{errno}\n")
    if reading is not None:
        with open(os.path.join(d, "reading"), "w") as f:
            f.write(reading)
    return root


def kmsg(doc):
    return {(f["id"], f["subject"]): f for f in doc["findings"] if f["id"].startswith("kmsg.")}


rc, doc, _, err = h.run(with_log("faults", "".join(RECORDS)))
got = kmsg(doc) if doc else {}
want = {
    ("kmsg.fw_timeout", "mlx5_0"): ("error", "2 lines since boot; last at 6.000000 s after boot "
                                    "(2025-12-05T02:00:06Z): mlx5_core 0000:18:00.0: cb_timeout"),
    ("kmsg.health", "mlx5_1"): ("error", "1 line since boot"),
    ("kmsg.link_flap", "mlx5_2"): ("warn", "2 link down and 3 link up since boot; last at "
                                   "9.700000 s"),
    ("kmsg.pcie_power", "mlx5_3"): ("error", "(27W)"),
    ("kmsg.peermem", "host"): ("warn", "Unknown symbol ib_register_peer_memory_client"),
    ("kmsg.tx_timeout", "mlx5_0"): ("warn", "transmit queue 5 timed out"),
    ("kmsg.tx_timeout", "0000:c1:00.0"): ("warn", "1 line since boot"),
    ("kmsg.tx_timeout", "mlx5_1"): ("warn", "NETDEV WATCHDOG: enp57s0np0 (mlx5_core)"),
}
for key, (sev, part) in want.items():
    f = got.get(key)
    h.expect(f is not None and f["severity"] == sev and part in f["observed"] and
             f["why"] and f["fix"] and f["expected"],
             f"{key} at {sev} with '{part}'", repr(f))
extra = set(got) - set(want)
h.expect(not extra, "no other kmsg finding (no flap for a boot's first Link up, no AER off "
         "the NICs' paths)", repr(sorted(extra)))
h.expect(doc is not None and doc["verdict"] == "fail" and rc == 1, "verdict fail, exit 1",
         f"rc {rc} {err}")

# inventory --json lists the matched records (host.kernel_log)
rc, inv, _, _ = h.run(with_log("inventory", "".join(RECORDS)), cmd="inventory")
kl = (inv or {}).get("host", {}).get("kernel_log") or {}
h.expect(kl.get("records") == len(RECORDS) and kl.get("boot_time") == BOOT and
         kl.get("unreadable") is None and kl["faults"][0]["id"] == "kmsg.fw_timeout" and
         kl["faults"][0]["device"] == "0000:18:00.0" and kl["faults"][0]["seconds"] == 5.0,
         "inventory: host.kernel_log with every matched record", repr(kl)[:600])

# the text output says the same
rc, _, out, _ = h.run(with_log("text", "".join(RECORDS)), json_out=False)
h.expect("kmsg.pcie_power" in out and "Detected insufficient power" in out,
         "text names kmsg.pcie_power and its line", out[-2000:])

# a fatal AER line on a NIC's own address is an error; a corrected one a warning
aer = ("3,120,1000000,-;mlx5_core 0000:4a:00.0: PCIe Bus Error: severity=Uncorrectable "
       "(Fatal), type=Inaccessible, (Unregistered Agent ID)\n" + PCI % "0000:4a:00.0" +
       "3,121,1000001,-;mlx5_core 0000:5b:00.0: PCIe Bus Error: severity=Corrected, "
       "type=Physical Layer, (Receiver ID)\n" + PCI % "0000:5b:00.0")
rc, doc, _, _ = h.run(with_log("aer", aer))
got = kmsg(doc) if doc else {}
h.expect(got.get(("kmsg.aer", "mlx5_2"), {}).get("severity") == "error", "fatal AER: error",
         repr(got))
h.expect(got.get(("kmsg.aer", "mlx5_3"), {}).get("severity") == "warn", "corrected AER: warn",
         repr(got))

# the log not readable (EPERM, dmesg_restrict): one "not checked" finding
rc, doc, _, _ = h.run(with_log("eperm", errno=1))
got = kmsg(doc) if doc else {}
f = got.get(("kmsg.unreadable", "host"))
h.expect(f is not None and f.get("unchecked") is True and f["severity"] == "info" and
         "Operation not permitted" in f["observed"] and len(got) == 1,
         "EPERM: one kmsg.unreadable, unchecked", repr(got))
eperm_unchecked = doc["unchecked"] if doc else None

# a tree taken without the kernel log: nothing said of it
rc, doc, _, _ = h.run(h.copy("roce-broken", "none"))
h.expect(doc is not None and eperm_unchecked == doc["unchecked"] + 1,
         "the unreadable log counted with the other unchecked ones",
         f"{eperm_unchecked} vs {doc['unchecked'] if doc else None}")
h.expect(doc is not None and not kmsg(doc), "no kmsg finding without a stored log",
         repr(kmsg(doc) if doc else None))

# garbage in the stored file: no record parses, so the log says nothing:
# one kmsg.unreadable, counted unchecked, not "no faults" (issue #43)
rc, doc, _, _ = h.run(with_log("garbage", "not a record\n\x00\x01;;;\n 3,1\n"))
got = kmsg(doc) if doc else {}
f = got.get(("kmsg.unreadable", "host"))
h.expect(f is not None and f.get("unchecked") is True and f["severity"] == "info" and
         "2 records and none in /dev/kmsg's form" in f["observed"] and len(got) == 1,
         "garbage: one kmsg.unreadable, unchecked", repr(got))
h.expect(doc is not None and doc["unchecked"] == eperm_unchecked,
         "garbage: counted with the unchecked ones as EPERM is",
         f"{doc['unchecked'] if doc else None} vs {eperm_unchecked}")
rc, inv, _, _ = h.run(with_log("garbage-inv", "not a record\n"), cmd="inventory")
kl = (inv or {}).get("host", {}).get("kernel_log") or {}
h.expect(kl.get("unreadable") == "no record in /dev/kmsg's form" and kl.get("records") == 0,
         "garbage: inventory says the log is unreadable", repr(kl)[:400])

# an empty stored log is a log with no fault matched (the reader writes
# nothing when nothing matched): no finding
rc, doc, _, _ = h.run(with_log("empty", ""))
h.expect(doc is not None and not kmsg(doc), "empty log: no kmsg finding", repr(rc))

# garbage next to a record that parses: the record is judged, no unreadable
rc, doc, _, _ = h.run(with_log("mixed", "not a record\n" + RECORDS[2]))
got = kmsg(doc) if doc else {}
h.expect(set(got) == {("kmsg.health", "mlx5_1")}, "garbage beside a record: the record judged",
         repr(sorted(got)))

# "Link up" again and again with no "Link down" between (as published in
# bigstack-oss/cubecos#733, "mlx5_core 0000:01:00.1 eth1: Link up" four
# times): each up after the first is a flap, said with its counts
ups = "".join(f"6,{200 + i},{(20 + i) * 1000000},-;mlx5_core 0000:4a:00.0 enp74s0np0: Link up\n"
              + PCI % "0000:4a:00.0" for i in range(4))
rc, doc, _, _ = h.run(with_log("ups", ups))
got = kmsg(doc) if doc else {}
f = got.get(("kmsg.link_flap", "mlx5_2"))
h.expect(f is not None and "0 link down and 4 link up since boot" in f["observed"],
         "repeated Link up without Link down: a flap", repr(got))

# how the read went (.rdmadoctor/kmsg/reading, what the live reader wrote
# of itself): what a bound cut is said in each kmsg finding and in the
# inventory, since the counts are then of what is left (issue #43)
READING = "records %d\nunparsed 0\nfirst_seq %d\nlost %d\ndropped %d\ncut %d\n"
note = ("the kernel's ring had overwritten the 812 oldest records of this boot before the "
        "read; 3 records overwritten while read; 40 older matching records dropped, the "
        "newest 1 kept")
rc, doc, _, _ = h.run(with_log("cut-keep", RECORDS[2], reading=READING % (250000, 812, 3, 40, 0)))
got = kmsg(doc) if doc else {}
f = got.get(("kmsg.health", "mlx5_1"))
h.expect(f is not None and f["observed"].endswith("reached miss count (" + note + ")") and
         set(got) == {("kmsg.health", "mlx5_1")},
         "a bound that cut: said in the finding", repr(got))
rc, inv, _, _ = h.run(with_log("cut-keep-inv", RECORDS[2],
                               reading=READING % (250000, 812, 3, 40, 0)), cmd="inventory")
kl = (inv or {}).get("host", {}).get("kernel_log") or {}
h.expect(kl.get("note") == note, "a bound that cut: inventory's kernel_log.note", repr(kl)[:600])

# nothing cut: no note
rc, inv, _, _ = h.run(with_log("whole-inv", RECORDS[2], reading=READING % (9000, 0, 0, 0, 0)),
                      cmd="inventory")
kl = (inv or {}).get("host", {}).get("kernel_log") or {}
h.expect("note" in kl and kl["note"] is None, "nothing cut: note null", repr(kl)[:400])

# the time bound stopped the read short of the ring's end: what was read is
# judged, and the rest is one "not checked" kmsg.unreadable, counted
rc, doc, _, _ = h.run(with_log("cut-time", RECORDS[2], reading=READING % (123456, 0, 0, 0, 1)))
got = kmsg(doc) if doc else {}
f = got.get(("kmsg.unreadable", "host"))
h.expect(f is not None and f.get("unchecked") is True and
         "stopped at its time bound after 123456 records" in f["observed"] and
         ("kmsg.health", "mlx5_1") in got and
         "the read stopped at its time bound after 123456 records" in
         got[("kmsg.health", "mlx5_1")]["observed"],
         "time bound: the faults read and one kmsg.unreadable", repr(got))
h.expect(doc is not None and doc["unchecked"] == eperm_unchecked,
         "time bound: counted unchecked", f"{doc['unchecked'] if doc else None}")

# an account that is not in its form: no facts from it, the faults judged
rc, doc, _, _ = h.run(with_log("reading-bad", RECORDS[2], reading="dropped lots\n"))
got = kmsg(doc) if doc else {}
f = got.get(("kmsg.health", "mlx5_1"))
h.expect(f is not None and f["observed"].endswith("reached miss count") and len(got) == 1,
         "a malformed account: no note", repr(got))
h.done()
