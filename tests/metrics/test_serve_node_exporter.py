#!/usr/bin/env python3
"""Every series node_exporter's infiniband collector gives for an mlx4 port
with counters_ext/ has its counterpart in serve's /metrics, with the value
node_exporter would read (where node_exporter gives a counter twice, from
counters/ and from counters_ext/, ours is the one series of the wider), and
promtool accepts the exposition.

The oracle is node_exporter's own source:
  prometheus/node_exporter collector/infiniband_linux.go: the series names
    and the field each reads;
  prometheus/procfs sysfs/class_infiniband.go: the file each field is read
    from (counters/<x>, counters_ext/<x>), and the data counters times 4.
The tree: a ConnectX-3 (mlx4_0, PCI 15b3:1003, hca_type MT4099), its two
ports laid out as the kernel writes them: port 1 as MLNX_OFED on a newer
kernel (counters/ with unicast_* and multicast_*, the 32-bit data and
packet counters stopped at 2^32-1, counters_ext/ beside it; port_rcv_packets
as the published mlx4 capture the reader cites, counters/ the wider), port 2
as a kernel before v4.5 (no counters/unicast_*: counters_ext/ alone has them).

usage: test_serve_node_exporter.py RDMADOCTOR SOURCE_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Server, check, fail, one, parse, series  # noqa: E402

# (node_exporter series, the directory and file procfs reads it from, the
# factor procfs applies, our metric).  In infiniband_linux.go's order.
# port_discards_received_total reads counters/port_rcv_discards, a file no
# kernel writes (drivers/infiniband/core/sysfs.c has no such attribute):
# node_exporter never shows it, so it has no counterpart to want.
NODE_EXPORTER = (
    ("legacy_multicast_packets_received_total", "counters_ext", "port_multicast_rcv_packets", 1,
     "rdmadoctor_port_multicast_rcv_packets_total"),
    ("legacy_multicast_packets_transmitted_total", "counters_ext", "port_multicast_xmit_packets", 1,
     "rdmadoctor_port_multicast_xmit_packets_total"),
    ("legacy_data_received_bytes_total", "counters_ext", "port_rcv_data_64", 4,
     "rdmadoctor_port_rcv_data_bytes_total"),
    ("legacy_packets_received_total", "counters_ext", "port_rcv_packets_64", 1,
     "rdmadoctor_port_rcv_packets_total"),
    ("legacy_unicast_packets_received_total", "counters_ext", "port_unicast_rcv_packets", 1,
     "rdmadoctor_port_unicast_rcv_packets_total"),
    ("legacy_unicast_packets_transmitted_total", "counters_ext", "port_unicast_xmit_packets", 1,
     "rdmadoctor_port_unicast_xmit_packets_total"),
    ("legacy_data_transmitted_bytes_total", "counters_ext", "port_xmit_data_64", 4,
     "rdmadoctor_port_xmit_data_bytes_total"),
    ("legacy_packets_transmitted_total", "counters_ext", "port_xmit_packets_64", 1,
     "rdmadoctor_port_xmit_packets_total"),
    ("link_downed_total", "counters", "link_downed", 1, "rdmadoctor_port_link_downed_total"),
    ("link_error_recovery_total", "counters", "link_error_recovery", 1,
     "rdmadoctor_port_link_error_recovery_total"),
    ("multicast_packets_received_total", "counters", "multicast_rcv_packets", 1,
     "rdmadoctor_port_multicast_rcv_packets_total"),
    ("multicast_packets_transmitted_total", "counters", "multicast_xmit_packets", 1,
     "rdmadoctor_port_multicast_xmit_packets_total"),
    ("port_constraint_errors_received_total", "counters", "port_rcv_constraint_errors", 1,
     "rdmadoctor_port_rcv_constraint_errors_total"),
    ("port_constraint_errors_transmitted_total", "counters", "port_xmit_constraint_errors", 1,
     "rdmadoctor_port_xmit_constraint_errors_total"),
    ("port_data_received_bytes_total", "counters", "port_rcv_data", 4,
     "rdmadoctor_port_rcv_data_bytes_total"),
    ("port_data_transmitted_bytes_total", "counters", "port_xmit_data", 4,
     "rdmadoctor_port_xmit_data_bytes_total"),
    ("port_discards_transmitted_total", "counters", "port_xmit_discards", 1,
     "rdmadoctor_port_xmit_discards_total"),
    ("port_errors_received_total", "counters", "port_rcv_errors", 1,
     "rdmadoctor_port_rcv_errors_total"),
    ("port_packets_received_total", "counters", "port_rcv_packets", 1,
     "rdmadoctor_port_rcv_packets_total"),
    ("port_packets_transmitted_total", "counters", "port_xmit_packets", 1,
     "rdmadoctor_port_xmit_packets_total"),
    ("port_transmit_wait_total", "counters", "port_xmit_wait", 1,
     "rdmadoctor_port_xmit_wait_total"),
    ("unicast_packets_received_total", "counters", "unicast_rcv_packets", 1,
     "rdmadoctor_port_unicast_rcv_packets_total"),
    ("unicast_packets_transmitted_total", "counters", "unicast_xmit_packets", 1,
     "rdmadoctor_port_unicast_xmit_packets_total"),
)

MAX32 = 2 ** 32 - 1
# the PMA error counters every kernel writes in counters/ (sysfs.c PORT_PMA_ATTR)
ERRORS = ("symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
          "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors",
          "port_xmit_discards", "port_xmit_constraint_errors", "port_rcv_constraint_errors",
          "local_link_integrity_errors", "excessive_buffer_overrun_errors", "VL15_dropped")

PORTS = {
    1: {  # MLNX_OFED on a newer kernel: both spellings
        "counters": dict({e: i for i, e in enumerate(ERRORS)}, port_xmit_wait=777,
                         port_xmit_data=MAX32, port_rcv_data=MAX32,
                         port_xmit_packets=MAX32, port_rcv_packets=6825908347,
                         unicast_xmit_packets=4000000000, unicast_rcv_packets=11,
                         multicast_xmit_packets=13, multicast_rcv_packets=4000000009),
        "counters_ext": dict(port_xmit_data_64=20000000000, port_rcv_data_64=30000000000,
                             port_xmit_packets_64=5000000000, port_rcv_packets_64=0,
                             port_unicast_xmit_packets=4000000007, port_unicast_rcv_packets=12,
                             port_multicast_xmit_packets=14, port_multicast_rcv_packets=3),
    },
    2: {  # a kernel before v4.5: the unicast and multicast ones in counters_ext/ alone
        "counters": dict({e: 0 for e in ERRORS}, port_xmit_wait=5,
                         port_xmit_data=1000, port_rcv_data=2000,
                         port_xmit_packets=30, port_rcv_packets=40),
        "counters_ext": dict(port_xmit_data_64=1000, port_rcv_data_64=2000,
                             port_xmit_packets_64=30, port_rcv_packets_64=40,
                             port_unicast_xmit_packets=25, port_unicast_rcv_packets=35,
                             port_multicast_xmit_packets=5, port_multicast_rcv_packets=5),
    },
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def mlx4_tree(t):
    pci = "sys/devices/pci0000:00/0000:00:02.0/0000:02:00.0"
    dev = os.path.join(t, pci, "infiniband", "mlx4_0")
    os.makedirs(os.path.join(t, "sys/class/infiniband"))
    os.makedirs(os.path.join(t, "sys/bus/pci/devices"))
    os.makedirs(dev)
    os.symlink("../../" + pci[4:] + "/infiniband/mlx4_0", os.path.join(t, "sys/class/infiniband/mlx4_0"))
    os.symlink("../../../" + pci[4:], os.path.join(t, "sys/bus/pci/devices/0000:02:00.0"))
    os.symlink("../../../0000:02:00.0", os.path.join(dev, "device"))
    for name, v in (("vendor", "0x15b3"), ("device", "0x1003"), ("class", "0x020700")):
        write(os.path.join(t, pci, name), v + "\n")
    write(os.path.join(dev, "hca_type"), "MT4099\n")
    write(os.path.join(dev, "fw_ver"), "2.42.5000\n")
    write(os.path.join(dev, "node_type"), "1: CA\n")
    write(os.path.join(t, "proc/sys/kernel/hostname"), "mlx4-node\n")
    for num, sets in PORTS.items():
        pd = os.path.join(dev, "ports", str(num))
        write(os.path.join(pd, "link_layer"), "InfiniBand\n")
        write(os.path.join(pd, "state"), "4: ACTIVE\n")
        write(os.path.join(pd, "phys_state"), "5: LinkUp\n")
        write(os.path.join(pd, "rate"), "56 Gb/sec (4X FDR)\n")
        for d, files in sets.items():
            for name, v in files.items():
                write(os.path.join(pd, d, name), "%d\n" % v)


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="rd-nodeexp-") as tmp:
        root = os.path.join(tmp, "root")
        mlx4_tree(root)
        srv = Server(binary, root)
        try:
            status, _, body = srv.get("/metrics")
        finally:
            srv.stop()
    check(status == 200, "/metrics status %d" % status)
    metrics = parse(body)
    compared = 0
    for num, sets in PORTS.items():
        pl = dict(device="mlx4_0", port=num)
        # state_id, physical_state_id, rate_bytes_per_second (56 * 125000000)
        check(one(metrics, "rdmadoctor_port_state", **pl, state="ACTIVE") == 4, "state %s" % pl)
        check(one(metrics, "rdmadoctor_port_phys_state", **pl, phys_state="LinkUp") == 5,
              "phys_state %s" % pl)
        check(one(metrics, "rdmadoctor_port_rate_bytes_per_second", **pl) == 56 * 125000000,
              "rate %s" % pl)
        want = {}
        for ne, d, f, factor, ours in NODE_EXPORTER:
            if f not in sets.get(d, {}):
                continue	# node_exporter shows no series without the file
            want.setdefault(ours, []).append((ne, sets[d][f] * factor))
        for ours, theirs in sorted(want.items()):
            got = series(metrics, ours, **pl)
            check(len(got) == 1, "port %d: node_exporter's %s, yet %s has %d series"
                  % (num, ", ".join(n for n, _ in theirs), ours, len(got)))
            wider = max(v for _, v in theirs)
            check(got[0] == wider, "port %d: %s %s, node_exporter's %s read %s"
                  % (num, ours, got[0], ", ".join(n for n, _ in theirs),
                     ", ".join(str(v) for _, v in theirs)))
            compared += len(theirs)
    check(compared >= 38, "only %d node_exporter series compared" % compared)
    # one name for one counter: counters_ext/'s spelling makes no second family
    check(not [m for m in metrics if "port_port_" in m or m.startswith("rdmadoctor_port_port_")],
          "a family named after counters_ext/'s spelling")
    if not shutil.which("promtool"):
        print("SKIP: promtool (Debian prometheus) is not installed; %d node_exporter series "
              "have their counterpart" % compared)
        sys.exit(77)
    p = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0 or p.stdout.strip() or p.stderr.strip():
        fail("promtool check metrics: rc %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    print("PASS: %d node_exporter series of an mlx4 port with counters_ext/ have their "
          "counterpart, promtool clean" % compared)


if __name__ == "__main__":
    main()
