#!/usr/bin/env python3
"""serve against every fixture machine: /metrics passes `promtool check metrics`,
its values are the ones `inventory --json` and `check --json` give, the
cache holds a reading for --cache seconds and then reads again, / and HEAD
work, usage errors and an unreadable root are said, signals stop it.

usage: test_serve_metrics.py RDMADOCTOR SOURCE_DIR"""
import collections
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import Server, check, fail, fixture, one, parse, run_json, series  # noqa: E402

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


# The assertions that need promtool (Debian prometheus) are the only ones that
# depend on it: without it every other one still runs, and the test then
# reports a skip naming how many promtool checks it could not make.
PROMTOOL = shutil.which("promtool")
promtool_missed = 0


def promtool(text, what):
    global promtool_missed
    if not PROMTOOL:
        promtool_missed += 1
        return
    p = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(),
          "promtool check metrics on %s: rc %d\n%s%s" % (what, p.returncode, p.stdout,
                                                          p.stderr))


def port_labels(nic, port):
    return dict(device=nic["name"], port=port["port"], netdev=port["netdev"] or "",
                pci=(nic["pci"] or {}).get("bdf") or "")


def compare_qos(metrics, pl, qos):
    """PFC, pause counts, ECN and trust of a port as inventory --json has
    them; a priority not known is absent."""
    n = 0
    if qos["trust"]:
        check(one(metrics, "rdmadoctor_port_qos_info", **pl, trust=qos["trust"]) == 1,
              "qos_info %s" % pl)
    for prio in range(8):
        if qos["pfc_enabled"] is not None:
            check(one(metrics, "rdmadoctor_port_pfc_enabled", **pl, priority=prio)
                  == (prio in qos["pfc_enabled"]), "pfc_enabled %s prio %d" % (pl, prio))
            n += 1
        for key, metric in (("pfc_pause_tx", "rdmadoctor_port_pfc_pause_frames_sent_total"),
                            ("pfc_pause_rx", "rdmadoctor_port_pfc_pause_frames_received_total"),
                            ("ecn_np", "rdmadoctor_port_ecn_np_enabled"),
                            ("ecn_rp", "rdmadoctor_port_ecn_rp_enabled")):
            v = qos[key][prio] if qos[key] is not None else None
            if v is None:
                check(not series(metrics, metric, **pl, priority=prio),
                      "%s %s prio %d unknown yet shown" % (metric, pl, prio))
            else:
                check(one(metrics, metric, **pl, priority=prio) == float(v),
                      "%s %s prio %d" % (metric, pl, prio))
                n += 1
    return n


MODULE_QUANTITIES = (  # inventory key, metric, divisor to base units, per lane
    ("temp_c", "rdmadoctor_module_temperature_celsius", 1, False),
    ("vcc_v", "rdmadoctor_module_voltage_volts", 1, False),
    ("tx_bias_ma", "rdmadoctor_module_tx_bias_amperes", 1000, True),
    ("tx_power_mw", "rdmadoctor_module_tx_power_watts", 1000, True),
    ("rx_power_mw", "rdmadoctor_module_rx_power_watts", 1000, True),
)


def compare_module(metrics, pl, mod):
    """A port's transceiver readings and the module's own limits, in base
    units; what the inventory does not know is absent."""
    n = 0
    for key, metric, div, per_lane in MODULE_QUANTITIES:
        limit = metric.rsplit("_", 1)
        limit = limit[0] + "_threshold_" + limit[1]
        if not mod:
            check(not series(metrics, metric, **pl), "%s of %s without a module" % (metric, pl))
            check(not series(metrics, limit, **pl), "%s of %s without a module" % (limit, pl))
            continue
        values = mod.get(key)
        values = values if per_lane else [values]
        for lane, v in enumerate(values or []):
            labels = dict(pl, lane=str(lane + 1)) if per_lane else pl
            if v is None:
                check(not series(metrics, metric, **labels), "%s %s unknown yet shown" % (metric, labels))
            else:
                # --json writes DOM readings to 10 digits, the exposition exactly
                check(math.isclose(one(metrics, metric, **labels), v / div, rel_tol=1e-9),
                      "%s %s: %s vs %s" % (metric, labels, series(metrics, metric, **labels), v))
                n += 1
        for level, v in ((mod.get("thresholds") or {}).get(key) or {}).items():
            if v is not None:
                check(math.isclose(one(metrics, limit, **pl, level=level), v / div, rel_tol=1e-9),
                      "%s %s %s" % (limit, pl, level))
                n += 1
    return n


# the JSON key and the metric's name (promtool wants no "_bits_" in one)
FEC_KEYS = (("corrected_blocks", "corrected_blocks"), ("uncorrectable_blocks", "uncorrectable_blocks"),
            ("corrected_bits", "corrected_bit_errors"))


def compare_fec(metrics, pl, link):
    """The link's FEC statistics (link.fec.stats of inventory --json) as
    counters: totals, lanes and histogram bins; none when it has none."""
    n = 0
    stats = ((link or {}).get("fec") or {}) if isinstance((link or {}).get("fec"), dict) else {}
    stats = stats.get("stats") or {}
    for key, name in FEC_KEYS:
        metric = "rdmadoctor_port_fec_%s_total" % name
        lane_metric = "rdmadoctor_port_fec_lane_%s_total" % name
        c = stats.get(key)
        if not c:
            check(not series(metrics, metric, **pl), "%s %s unknown yet shown" % (metric, pl))
            continue
        check(one(metrics, metric, **pl) == float(c["total"]), "%s %s" % (metric, pl))
        n += 1
        for lane, v in enumerate(c["lanes"]):
            check(one(metrics, lane_metric, **pl, lane=str(lane)) == float(v),
                  "%s %s lane %d" % (lane_metric, pl, lane))
            n += 1
    for b in stats.get("histogram") or []:
        check(one(metrics, "rdmadoctor_port_fec_histogram_codewords_total", **pl,
                  low=str(b["low"]), high=str(b["high"])) == float(b["total"]), "fec bin %s" % pl)
        n += 1
    return n


def compare_driver_stack(metrics, host):
    """Each loaded RDMA module as host.driver_stack has it, one info
    sample; a module not loaded has none."""
    st = host.get("driver_stack")
    if not st:
        check(not series(metrics, "rdmadoctor_kernel_module_info"), "modules without a stack")
        return 0
    n = 0
    for m in st["modules"]:
        labels = dict(module=m["name"], version=m["version"] or "",
                      srcversion=m["srcversion"] or "", source=m["source"] or "",
                      kernel=st["kernel"] or "")
        if m["loaded"]:
            check(one(metrics, "rdmadoctor_kernel_module_info", **labels) == 1,
                  "kernel_module_info %s" % labels)
            n += 1
        else:
            check(not series(metrics, "rdmadoctor_kernel_module_info", module=m["name"]),
                  "%s not loaded yet shown" % m["name"])
    return n


def compare_access(metrics, host):
    """The /dev/infiniband nodes and slurmd's memlock as inventory --json
    has them; a node not known is absent."""
    n = 0
    for d in host.get("device_nodes") or []:
        nl = dict(node=d["name"], device=d["nic"] or "")
        if d["present"] is None:
            check(not series(metrics, "rdmadoctor_device_node_present", **nl),
                  "node %s unknown yet shown" % nl)
            continue
        there = bool(d["present"] and d["char_device"])
        check(one(metrics, "rdmadoctor_device_node_present", **nl) == there, "present %s" % nl)
        if there:
            check(one(metrics, "rdmadoctor_device_node_info", **nl, mode=d["mode"],
                      owner=d["owner"] or str(d["uid"]), group=d["group"] or str(d["gid"])) == 1,
                  "device_node_info %s" % nl)
        n += 1
    jm = host.get("job_memlock") or {}
    lim = jm.get("slurmd_limit") or jm.get("systemd_default")
    if jm.get("slurmd_unit") and lim:
        for kind in ("soft", "hard"):
            want = math.inf if lim[kind + "_unlimited"] else lim[kind + "_bytes"]
            check(one(metrics, "rdmadoctor_slurmd_memlock_bytes", limit=kind,
                      source=lim["source"]) == want, "slurmd memlock %s" % kind)
            n += 1
    else:
        check(not series(metrics, "rdmadoctor_slurmd_memlock_bytes"),
              "slurmd memlock shown without a limit set")
    return n


def compare(metrics, inv, chk, per_queue=None):
    """Every value the exposition shows is the inventory's; what the
    inventory does not know is absent.  The per-queue ethtool statistics
    met (and found left out) are added to the set per_queue."""
    compared = 0
    for nic in inv["nics"]:
        link = (nic["pci"] or {}).get("link") or {}
        nl = dict(device=nic["name"], pci=(nic["pci"] or {}).get("bdf") or "")
        for key, metric in (("speed_gts", "rdmadoctor_pcie_link_speed_transfers_per_second"),
                            ("max_speed_gts", "rdmadoctor_pcie_link_max_speed_transfers_per_second")):
            if link.get(key) is None:
                check(not series(metrics, metric, **nl), "%s for %s unknown yet shown" % (metric, nl))
            else:
                check(one(metrics, metric, **nl) == link[key] * 1e9, "%s %s" % (metric, nl))
                compared += 1
        for key, metric in (("width", "rdmadoctor_pcie_link_width_lanes"),
                            ("max_width", "rdmadoctor_pcie_link_max_width_lanes")):
            if link.get(key) is not None:
                check(one(metrics, metric, **nl) == link[key], "%s %s" % (metric, nl))
                compared += 1
        check(one(metrics, "rdmadoctor_nic_info", **nl, model=nic["model"] or "",
                  fw_ver=nic["fw_ver"] or "") == 1, "nic_info %s" % nl)
        settings = (nic["pci"] or {}).get("settings") or {}
        for key, metric in (("mps", "rdmadoctor_pcie_max_payload_bytes"),
                            ("mrrs", "rdmadoctor_pcie_max_read_request_bytes"),
                            ("relaxed_ordering", "rdmadoctor_pcie_relaxed_ordering_enabled"),
                            ("ext_tag", "rdmadoctor_pcie_ext_tag_enabled"),
                            ("ats_enable", "rdmadoctor_pcie_ats_enabled")):
            if settings.get(key) is None:
                check(not series(metrics, metric, **nl), "%s for %s unknown yet shown" % (metric, nl))
            else:
                check(one(metrics, metric, **nl) == float(settings[key]), "%s %s" % (metric, nl))
                compared += 1
        for port in nic["ports"]:
            pl = port_labels(nic, port)
            state = port["state"]["code"] if port["state"] else None
            if state is None:
                check(not series(metrics, "rdmadoctor_port_up", **pl), "port_up unknown shown")
            else:
                check(one(metrics, "rdmadoctor_port_up", **pl) == (state == 4), "port_up %s" % pl)
                check(one(metrics, "rdmadoctor_port_state", **pl,
                          state=port["state"]["name"]) == state, "port_state %s" % pl)
            check(one(metrics, "rdmadoctor_port_info", **pl,
                      link_layer=port["link_layer"] or "") == 1, "port_info %s" % pl)
            for key, metric, scale in (
                    ("rate_gbps", "rdmadoctor_port_rate_bytes_per_second", 1e9 / 8),
                    ("active_mtu", "rdmadoctor_port_active_mtu_bytes", 1),
                    ("lanes", "rdmadoctor_port_lanes", 1),
                    ("netdev_mtu", "rdmadoctor_netdev_mtu_bytes", 1)):
                if port.get(key) is None:
                    check(not series(metrics, metric, **pl), "%s %s unknown yet shown" % (metric, pl))
                else:
                    check(one(metrics, metric, **pl) == port[key] * scale,
                          "%s %s: %s vs %s" % (metric, pl, series(metrics, metric, **pl), port[key]))
                    compared += 1
            for group, prefix in (("counters", "rdmadoctor_port_"), ("hw_counters", "rdmadoctor_hw_"),
                                  ("ethtool_stats", "rdmadoctor_ethtool_")):
                for name, value in (port.get(group) or {}).items():
                    if group == "ethtool_stats" and re.match(r"(rx|tx|ch)\d+_|.*_queue_\d", name):
                        check(not any(name in m for m in metrics), "per-queue %s shown" % name)
                        if per_queue is not None:
                            per_queue.add(name)
                        continue
                    base = name[5:] if group == "counters" and name.startswith("port_") else name
                    data = group == "counters" and name in ("port_xmit_data", "port_rcv_data")
                    metric = prefix + base + ("_bytes" if data else "") + "_total"
                    if value is None:
                        check(not series(metrics, metric, **pl), "%s %s unreadable yet shown" % (metric, pl))
                    else:
                        check(one(metrics, metric, **pl) == float(value),
                              "%s %s: %s vs %s" % (metric, pl, series(metrics, metric, **pl), value))
                        compared += 1
            qos = port.get("qos")
            if qos:
                compared += compare_qos(metrics, pl, qos)
            else:
                check(not series(metrics, "rdmadoctor_port_pfc_enabled", **pl),
                      "QoS of %s unknown yet shown" % pl)
            compared += compare_module(metrics, pl, port.get("module"))
            if not port.get("bond_members"):
                compared += compare_fec(metrics, pl, port.get("link"))
            if port["netdev"] and port.get("carrier_changes") is not None:
                check(one(metrics, "rdmadoctor_netdev_carrier_changes_total", **pl)
                      == port["carrier_changes"], "carrier_changes %s" % pl)
    compared += compare_access(metrics, inv["host"])
    compared += compare_driver_stack(metrics, inv["host"])
    # the check
    counts = collections.Counter((f["id"], f["severity"]) for f in chk["findings"])
    shown = {(l["id"], l["severity"]): v for l, v in metrics.get("rdmadoctor_findings", [])}
    check(shown == counts, "findings: %s vs check --json %s" % (shown, dict(counts)))
    each = collections.Counter((l["id"], l["severity"], l["subject"])
                               for l, v in metrics.get("rdmadoctor_finding", []) if v == 1)
    check(each == collections.Counter((f["id"], f["severity"], f["subject"]) for f in chk["findings"]),
          "one rdmadoctor_finding series per finding of check --json")
    for sev in ("error", "warn", "info"):
        check(one(metrics, "rdmadoctor_findings_by_severity", severity=sev)
              == sum(1 for f in chk["findings"] if f["severity"] == sev), "by severity " + sev)
    check(one(metrics, "rdmadoctor_check_unchecked") == chk["unchecked"],
          "unchecked %s vs check --json %s" % (one(metrics, "rdmadoctor_check_unchecked"),
                                              chk["unchecked"]))
    for v in ("pass", "warn", "fail"):
        check(one(metrics, "rdmadoctor_check_verdict", profile=chk["profile"], verdict=v)
              == (v == chk["verdict"]), "verdict %s" % v)
    return compared


def test_fixture(binary, src, name, full):
    root = fixture(src, name)
    inv = run_json(binary, root, "inventory")
    chk = run_json(binary, root, "check")
    srv = Server(binary, root)
    try:
        status, headers, body = srv.get("/metrics")
        check(status == 200, "%s: /metrics status %d" % (name, status))
        check(headers.get("content-type") == CONTENT_TYPE,
              "%s: content type %r" % (name, headers.get("content-type")))
        promtool(body, name)
        metrics = parse(body)
        per_queue = set()
        n = compare(metrics, inv, chk, per_queue)
        check(n > (100 if full else 10), "%s: only %d values compared" % (name, n))
        if name == "roce-broken":
            # the fixture holds one of each spelling (gen_fixtures.py): the
            # left-out check above must have met them
            want = {"rx0_packets", "tx_queue_3_bytes", "ch2_events"}
            check(want <= per_queue, "per-queue ethtool statistics not met: %s of %s"
                  % (sorted(per_queue), sorted(want)))
        if not full:
            print("%s: %d values as inventory/check --json say, promtool clean" % (name, n))
            return
        check(one(metrics, "rdmadoctor_refresh_success") == 1, "refresh_success")
        check(abs(one(metrics, "rdmadoctor_last_check_timestamp_seconds") - time.time()) < 600,
              "last check time is not now")
        # within --cache (default 10 s) the same reading is served again
        read_at = one(metrics, "rdmadoctor_last_check_timestamp_seconds")
        asked = time.time()
        _, _, again = srv.get("/metrics")
        if asked < read_at + 9.5:
            check(again == body, "%s: a second scrape within the cache period read again" % name)
            check(one(parse(again), "rdmadoctor_refreshes_total") == 1, "refreshes_total")
        else:
            fail("%s: this machine took %.1f s to scrape twice" % (name, asked - read_at))
        # / points to /metrics; HEAD has the headers and no body
        status, headers, page = srv.get("/")
        check(status == 200 and 'href="/metrics"' in page and
              headers["content-type"].startswith("text/html"), "%s: / page" % name)
        status, headers, empty = srv.get("/metrics", method="HEAD")
        check(status == 200 and empty == "" and headers["content-type"] == CONTENT_TYPE,
              "%s: HEAD /metrics" % name)
        print("%s: %d values as inventory/check --json say, promtool clean, %d bytes"
              % (name, n, len(body)))
    finally:
        srv.kill() if not srv.alive() else srv.stop(signal.SIGINT if name == "dgx-h100" else signal.SIGTERM)


def copy_fixture(src, name, tmp):
    """A writable copy of a fixture machine (its symlinks stay inside)."""
    dst = os.path.join(tmp, name)
    shutil.copytree(os.path.realpath(fixture(src, name)), dst, symlinks=True)
    return dst


def test_cache(binary, src, tmp):
    """A counter that changes is seen only once the cache period is over."""
    root = copy_fixture(src, "dgx-h100", tmp)
    path = os.path.join(root, "sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error")
    with open(path) as f:
        original = f.read()
    pl = dict(device="mlx5_0", port=1)
    for attempt in range(3):
        srv = Server(binary, root, "--cache", "5")
        first = parse(srv.get()[2])
        read_at = one(first, "rdmadoctor_last_check_timestamp_seconds")
        before = one(first, "rdmadoctor_port_symbol_error_total", **pl)
        with open(path, "w") as f:
            f.write("%d\n" % (before + 12345))
        asked = time.time()
        cached = parse(srv.get()[2])
        if asked < read_at + 4.5:	# surely within the period
            break
        # a machine so loaded that 5 s went by: once more, from the start
        with open(path, "w") as f:
            f.write(original)
        srv.stop()
    else:
        fail("could not scrape twice within 5 s in three tries")
    try:
        check(one(cached, "rdmadoctor_port_symbol_error_total", **pl) == before,
              "a scrape within --cache 5 read the machine again")
        check(one(cached, "rdmadoctor_refreshes_total") == 1, "refreshes_total within --cache")
        deadline = time.monotonic() + 60
        while True:
            time.sleep(0.5)
            now = parse(srv.get()[2])
            if one(now, "rdmadoctor_port_symbol_error_total", **pl) == before + 12345:
                break
            check(time.monotonic() < deadline, "the new counter value never came")
        check(one(now, "rdmadoctor_refreshes_total") == 2, "refreshes_total did not grow by one")
        check(one(now, "rdmadoctor_last_check_timestamp_seconds") >= read_at + 5,
              "read again before the period was over")
        # the machine becomes unreadable: the reading says it failed, and
        # stale values are not passed off as current
        shutil.rmtree(os.path.join(root, "sys"))
        os.rename(root, root + ".gone")
        deadline = time.monotonic() + 60
        while True:
            time.sleep(0.5)
            status, _, body = srv.get()
            check(status == 200, "status %d after the root went away" % status)
            gone = parse(body)
            if one(gone, "rdmadoctor_refresh_success") == 0:
                break
            check(time.monotonic() < deadline, "refresh_success never went to 0")
        check(not series(gone, "rdmadoctor_port_symbol_error_total"), "stale counters served")
        check(one(gone, "rdmadoctor_refresh_failures_total") >= 1, "failures_total")
        promtool(body, "a failed reading")
    finally:
        srv.proc.send_signal(signal.SIGTERM)
        rc = srv.proc.wait(10)
    # a failed reading is an error worth a line on stderr
    check(rc == 0, "rc %d" % rc)
    check(any("cannot" in l for l in srv.lines), "no error said: %s" % "".join(srv.lines))
    print("cache: a changed counter shows only after --cache; a vanished root reads as failed")


def test_usage(binary, src):
    root = fixture(src, "dgx-h100")

    def run(*args, root=root):
        p = rdtest.run(binary, "serve", *args, root=root, timeout=30)
        return p.returncode, p.stdout, p.stderr

    rc, out, _ = run("--help")
    check(rc == 0 and "--listen" in out and "/metrics" in out, "--help")
    for bad in (["--listen", "localhost:9879"], ["--listen", "127.0.0.1"],
                ["--listen", "127.0.0.1:65536"], ["--listen", "[::1]9879"],
                ["--listen", "127.0.0.1:-1"], ["--cache", "-1"], ["--cache", "x"],
                ["--timeout", "0"], ["--timeout", "1.5"], ["--frobnicate"],
                ["--profile", "no-such-profile"]):
        rc, _, err = run(*bad)
        check(rc == 2 and re.match(r"rdmadoctor serve: [a-z-]", err),
              "%s: rc %d %r, expected 2 and a lower-case message" % (bad, rc, err))
    # an option given last without its value says so, not "unexpected argument"
    for opt in ("--listen", "--cache", "--profile", "--timeout"):
        rc, _, err = run(opt)
        check(rc == 2 and err.startswith("rdmadoctor serve: %s needs a value" % opt),
              "%s without a value: rc %d %r" % (opt, rc, err))
    rc, _, err = run(root="/nonexistent-root-dir")
    check(rc == 3 and "cannot" in err, "unreadable root: rc %d %r" % (rc, err))
    # a port already taken is said as such
    srv = Server(binary, root)
    try:
        rc, _, err = run("--listen", "127.0.0.1:%d" % srv.port)
        check(rc == 3 and "in use" in err, "port in use: rc %d %r" % (rc, err))
    finally:
        srv.stop()
    # IPv6 loopback when the machine has it
    if os.path.exists("/proc/net/if_inet6"):
        p = subprocess.Popen([binary, "--root", root, "serve", "--listen", "[::1]:0"],
                             stderr=subprocess.PIPE, text=True)
        line = p.stderr.readline()
        p.send_signal(signal.SIGTERM)
        rc = p.wait(10)
        check(rc == 0 and "http://[::1]:" in line, "[::1]: rc %d %r" % (rc, line))
    print("usage: --help, bad or missing --listen/--cache/--timeout/--profile, unreadable root, "
          "port in use")


def test_profile(binary, src):
    """--profile: the check is the one `check --profile` makes."""
    root = fixture(src, "roce-broken")
    inv = run_json(binary, root, "inventory")
    chk = run_json(binary, root, "check", "--profile", "generic")
    check(chk["profile"] == "generic", "check --profile generic said %s" % chk["profile"])
    srv = Server(binary, root, "--profile", "generic")
    try:
        compare(parse(srv.get()[2]), inv, chk)
    finally:
        srv.stop()
    print("--profile generic: verdict and findings as `check --profile generic`")


def main():
    binary, src = sys.argv[1], sys.argv[2]
    # the two the issue names in full; every other machine shape for its
    # values and promtool (the broken ones hold odd names)
    for name in ("dgx-h100", "roce-broken"):
        test_fixture(binary, src, name, True)
    for name in sorted(os.listdir(os.path.join(src, "examples"))):
        if name not in ("dgx-h100", "roce-broken"):
            test_fixture(binary, src, name, False)
    with tempfile.TemporaryDirectory(prefix="rd-serve-") as tmp:
        test_cache(binary, src, tmp)
    test_profile(binary, src)
    test_usage(binary, src)
    if promtool_missed:
        print("SKIP: promtool (Debian prometheus) is not installed: every other assertion "
              "passed, %d `promtool check metrics` runs were not made" % promtool_missed)
        sys.exit(77)
    print("PASS")


if __name__ == "__main__":
    main()
