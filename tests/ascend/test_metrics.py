#!/usr/bin/env python3
"""`serve` on the broken Atlas 800 9000: the NPU port series carry the values
inventory --json has (down port, 25G port, a lane's Rx power, net health,
flaps, the timed-out call, npu-smi's health with its status, temperature and
power), and the exposition passes `promtool check metrics` when promtool is
there.

usage: test_metrics.py RDMADOCTOR SOURCE_DIR"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Server, check, parse, run_json  # noqa: E402

binary, src = sys.argv[1], sys.argv[2]
root = os.path.join(src, "tests", "fixtures", "atlas-800-9000-broken", "root")
inv = run_json(binary, root, "inventory")
dev = {d["id"]: d for d in inv["npus"]["devices"]}

srv = Server(binary, root)
status, _, body = srv.get()
srv.stop()
check(status == 200, "GET /metrics: %d" % status)
m = parse(body)


def value(metric, **labels):
    hits = [v for l, v in m.get(metric, []) if all(l.get(k) == str(x) for k, x in labels.items())]
    check(len(hits) == 1, "%s %s: %d series" % (metric, labels, len(hits)))
    return hits[0]


n = 0
for nid, d in dev.items():
    pci = d["pci"]["bdf"]
    check(value("rdmadoctor_npu_port_up", npu=nid, pci=pci) == (d["port"]["link"] == "UP"),
          "npu%d up" % nid)
    check(value("rdmadoctor_npu_port_speed_bytes_per_second", npu=nid) ==
          d["port"]["speed_mbps"] * 1e6 / 8, "npu%d speed" % nid)
    check(value("rdmadoctor_npu_net_health_ok", npu=nid) ==
          (d["port"]["net_health"] in ("Success", "Init")), "npu%d health" % nid)
    check(value("rdmadoctor_npu_link_downs_24h", npu=nid) == d["port"]["link_downs_24h"],
          "npu%d downs" % nid)
    check(value("rdmadoctor_npu_unread_calls", npu=nid) == len(d["failures"]),
          "npu%d unread" % nid)
    # lanes numbered from 1 (docs/json/inventory.md): JSON element 0 is lane 1
    for lane, mw in enumerate(d["port"]["optical"]["rx_power_mw"], 1):
        check(abs(value("rdmadoctor_npu_module_rx_power_watts", npu=nid, lane=lane)
                  - mw / 1000) < 1e-12, "npu%d lane %d rx" % (nid, lane))
    for cname, v in d["port"]["stat"].items():
        check(value("rdmadoctor_npu_stat_total", npu=nid, name=cname) == v,
              "npu%d %s" % (nid, cname))
    health = d["health"]["status"]
    check(value("rdmadoctor_npu_health_ok", npu=nid, pci=pci, status=health) ==
          (health == "OK"), "npu%d npu-smi health %s" % (nid, health))
    check(value("rdmadoctor_npu_temperature_celsius", npu=nid) == d["temperature_c"],
          "npu%d temperature" % nid)
    check(value("rdmadoctor_npu_power_watts", npu=nid) == d["power_w"], "npu%d power" % nid)
    check(value("rdmadoctor_npu_info", npu=nid, model="Ascend 910",
                net_health=d["port"]["net_health"]) == 1, "npu%d info" % nid)
    n += 1
check(value("rdmadoctor_npu_port_up", npu=1) == 0, "npu1 is down")
check(value("rdmadoctor_npu_port_speed_bytes_per_second", npu=3) == 25000e6 / 8, "npu3 25G")
check(value("rdmadoctor_npu_module_rx_power_watts", npu=4, lane=3) == 0.02 / 1000,
      "npu4 lane 3 (hccn_tool's Rx Power2)")
check(value("rdmadoctor_npu_net_health_ok", npu=2) == 0, "npu2 Fault")
check(value("rdmadoctor_npu_unread_calls", npu=7) == 1, "npu7 -lldp timed out")
check(value("rdmadoctor_npu_health_ok", npu=0, status="Alarm") == 0, "npu0 Alarm")
check(value("rdmadoctor_npu_temperature_celsius", npu=0) == 92, "npu0 at 92 C")
check(all(l.get("status") == "OK" for l, v in m["rdmadoctor_npu_health_ok"] if l["npu"] != "0"),
      "the other NPUs OK")
if shutil.which("promtool"):
    p = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(),
          "promtool: %s%s" % (p.stdout, p.stderr))
    print("promtool clean")
print("%d NPUs: metrics as inventory --json says" % n)
