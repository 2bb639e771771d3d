#!/usr/bin/env python3
"""A real Prometheus server scrapes `rdmadoctor serve` every second; queries
over its HTTP API return the series with the fixture's values and labels.

usage: test_serve_prometheus.py RDMADOCTOR SOURCE_DIR"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Server, check, fail, fixture, run_json  # noqa: E402


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def api(port, path, **params):
    url = "http://127.0.0.1:%d/api/v1/%s?%s" % (port, path, urllib.parse.urlencode(params))
    with urllib.request.urlopen(url, timeout=10) as r:
        doc = json.load(r)
    check(doc.get("status") == "success", "%s: %s" % (url, doc))
    return doc["data"]


def start_prometheus(tmp, target_port):
    conf = os.path.join(tmp, "prometheus.yml")
    with open(conf, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                "scrape_configs:\n  - job_name: rdmadoctor\n"
                "    static_configs:\n      - targets: ['127.0.0.1:%d']\n" % target_port)
    for attempt in range(3):	# the free port may be taken in between
        port = free_port()
        log = open(os.path.join(tmp, "prometheus.log"), "w")
        proc = subprocess.Popen(["prometheus", "--config.file=" + conf,
                                 "--storage.tsdb.path=" + os.path.join(tmp, "tsdb"),
                                 "--web.listen-address=127.0.0.1:%d" % port],
                                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/-/ready" % port,
                                            timeout=2) as r:
                    if r.status == 200:
                        return proc, port
            except OSError:
                pass
            time.sleep(0.3)
        proc.kill()
        proc.wait()
    with open(os.path.join(tmp, "prometheus.log")) as f:
        fail("prometheus did not start:\n" + f.read()[-3000:])


def stop_prometheus(proc, tmp):
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        fail("prometheus did not stop within 30 s")
    if rc != 0:
        with open(os.path.join(tmp, "prometheus.log")) as f:
            fail("prometheus exited %d:\n%s" % (rc, f.read()[-3000:]))


def query_until(port, q, want, timeout=60):
    """Poll an instant query until it returns want series."""
    deadline = time.monotonic() + timeout
    while True:
        res = api(port, "query", query=q)["result"]
        if len(res) >= want:
            return res
        if time.monotonic() > deadline:
            fail("query %s: %d series after %d s, expected %d" % (q, len(res), timeout, want))
        time.sleep(0.5)


def main():
    binary, src = sys.argv[1], sys.argv[2]
    if not shutil.which("prometheus"):
        print("SKIP: prometheus (Debian prometheus) is not installed")
        sys.exit(77)
    root = fixture(src, "dgx-h100")
    inv = run_json(binary, root, "inventory")
    chk = run_json(binary, root, "check")
    want = {}
    for nic in inv["nics"]:
        for p in nic["ports"]:
            if p["rate_gbps"] is not None:
                want[(nic["name"], str(p["port"]), p["netdev"] or "", nic["pci"]["bdf"])] = \
                    p["rate_gbps"] * 1e9 / 8
    check(len(want) >= 8, "the fixture has only %d ports with a rate" % len(want))
    srv = Server(binary, root)
    tmp = tempfile.mkdtemp(prefix="rd-serve-prom-")
    prom = None
    try:
        prom, pport = start_prometheus(tmp, srv.port)
        res = query_until(pport, "rdmadoctor_port_rate_bytes_per_second", len(want))
        got = {(r["metric"]["device"], r["metric"]["port"], r["metric"].get("netdev", ""),
                r["metric"]["pci"]): float(r["value"][1]) for r in res}
        check(got == want, "port rates in Prometheus %s\n  vs inventory %s" % (got, want))
        check(all(r["metric"]["job"] == "rdmadoctor" for r in res), "job label")
        # the scrape itself is healthy
        targets = api(pport, "targets")["activeTargets"]
        check(len(targets) == 1 and targets[0]["health"] == "up" and
              not targets[0]["lastError"], "target: %s" % targets)
        # a counter and the check's verdict came through with their values
        n0 = inv["nics"][0]
        q = 'rdmadoctor_port_xmit_data_bytes_total{device="%s"}' % n0["name"]
        res = query_until(pport, q, 1)
        check(float(res[0]["value"][1]) == n0["ports"][0]["counters"]["port_xmit_data"],
              "%s: %s" % (q, res))
        q = 'rdmadoctor_check_verdict{verdict="%s"}' % chk["verdict"]
        res = query_until(pport, q, 1)
        check(float(res[0]["value"][1]) == 1 and res[0]["metric"]["profile"] == chk["profile"],
              "%s: %s" % (q, res))
        # several scrapes went in; the cache made them cheap, not absent
        res = query_until(pport, "count_over_time(rdmadoctor_build_info[1m])", 1)
        scrapes = float(res[0]["value"][1])
        time.sleep(2.5)
        res = query_until(pport, "count_over_time(rdmadoctor_build_info[1m])", 1)
        check(float(res[0]["value"][1]) > scrapes, "Prometheus stopped scraping")
        print("prometheus: %d port rates, a counter and the verdict as the fixture says; "
              "target up" % len(got))
    finally:
        if prom:
            stop_prometheus(prom, tmp)
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")


if __name__ == "__main__":
    main()
