"""On each driver fixture (issue 45: bnxt_re, irdma, efa, ionic), some
hw_counters grow between two readings; check --window --until, watch
--until --json and serve must say the same of them, class by class (the
class of src/model/driver_counters.c):

  - check: a grown retransmit, sequence-error or ACK-timeout counter is in
    counters.errors' observed; a grown drop, CNP or ECN counter is not
    (shown, never judged); check names no class, so what it judges must be
    exactly the grown counters whose class watch and serve give as judged;
  - watch --json: each grown counter's delta is 17 and its "class" is the
    table's (CNP and ECN also in watch's cnp block under mlx5's key);
  - serve: each grown counter's series rises by 17 and carries the same
    class label.  serve answers a scrape with its last reading and starts
    the next (stale-while-revalidate, by design: serve --help), so after
    the counters grow the test scrapes until a reading that began after
    the change (rdmadoctor_last_check_timestamp_seconds, the time a
    reading began) is the one served.

fabric --load's kinds of the same counters: tests/fabric/test_load_classes.c.

argv: RDMADOCTOR FIXTURES_DIR"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest

JUDGED = {"retransmit", "seq_err", "ack_timeout"}
CNP_KEY = {"cnp_sent": "np_cnp_sent", "cnp_handled": "rp_cnp_handled",
           "ecn_marked": "np_ecn_marked_roce_packets"}
# shape, device, {counter: class (src/model/driver_counters.c)}
CASES = [
    ("bnxt-re-thor2", "bnxt_re0", {"to_retransmits": "ack_timeout",
                                   "seq_err_naks_rcvd": "seq_err",
                                   "rx_roce_discards": "drop", "tx_cnp_pkts": "cnp_sent"}),
    ("irdma-e810", "irdma0", {"tcpRetransSegs": "retransmit", "ip4InDiscards": "drop",
                              "cnpSent": "cnp_sent", "RxECNMrkd": "ecn_marked"}),
    ("efa-g6e", "efa_0", {"retrans_pkts": "retransmit",
                          "retrans_timeout_events": "ack_timeout", "rx_drops": "drop"}),
    ("ionic-pollara", "ionic_0", {"tx_rdma_retx_pkts": "retransmit",
                                  "req_rx_pkt_seq_err": "seq_err",
                                  "tx_rdma_ack_timeout": "ack_timeout",
                                  "resp_rx_outof_buf": "drop",
                                  "rx_rdma_cnp_pkts": "cnp_handled"}),
]

h = rdtest.Harness("driver-classes")


def grow(root, dev, names):
    d = os.path.join(root, "sys/class/infiniband", dev, "ports/1/hw_counters")
    for n in names:
        p = os.path.join(d, n)
        with open(p) as f:
            v = int(f.read())
        os.remove(p)            # an overlay's lower file: replace, not write through
        with open(p, "w") as f:
            f.write("%d\n" % (v + 17))


def errors_of(doc, dev):
    """The counter names counters.errors observed on DEV port 1 (warn or error)."""
    out = set()
    for f in doc["findings"]:
        if f["id"] == "counters.errors" and f["subject"] == dev + " port 1" \
                and f["severity"] in ("warn", "error"):
            for part in f["observed"].split(", "):
                out.add(part.split(" grew by ")[0])
    return out


def wait_reading_after(srv, t, timeout=30):
    """The metrics of the first reading serve began after wall time T."""
    until = time.time() + timeout
    while True:
        st, _, body = srv.get()
        h.expect(st == 200, "serve answers /metrics", str(st))
        metrics = rdtest.parse(body)
        began = rdtest.series(metrics, "rdmadoctor_last_check_timestamp_seconds")
        if began and began[0] > t:
            return metrics
        if time.time() > until:
            h.expect(False, "serve read the machine again within %d s" % timeout, str(began))
            return metrics
        time.sleep(0.1)


def hw_series(metrics, n, dev):
    """(value, class label) of DEV port 1's hw_counter N, or None."""
    rows = [(v, lab.get("class")) for lab, v in metrics.get("rdmadoctor_hw_%s_total" % n, [])
            if lab.get("device") == dev and lab.get("port") == "1"]
    return rows[0] if len(rows) == 1 else None


for shape, dev, grown in CASES:
    judged = {n for n, c in grown.items() if c in JUDGED}
    a = h.copy(shape, shape + "-a")
    b = h.copy(shape, shape + "-b")
    grow(b, dev, grown)
    rc, doc, out, err = h.run(a, "--window", "60", "--until", b)
    h.expect(doc is not None, f"{shape}: check --window --until gives JSON", err)
    check_judged = errors_of(doc or {"findings": []}, dev)
    h.expect(check_judged == judged,
             f"{shape}: check judges exactly the grown {sorted(judged)}", str(check_judged))
    rc, wdoc, out, err = h.run(a, "--until", b, "--duration", "60", cmd="watch")
    h.expect(wdoc is not None, f"{shape}: watch --until --json gives JSON", err)
    port = next((p for p in (wdoc or {}).get("ports", []) if p["nic"] == dev), None)
    h.expect(port is not None, f"{shape}: watch lists {dev}")
    watch_class = {}
    if port:
        for n, cls in grown.items():
            ch = port["hw_counters"].get(n)
            h.expect(ch is not None and ch["delta"] == 17, f"{shape}: watch shows {n} +17", str(ch))
            watch_class[n] = (ch or {}).get("class")
            h.expect(watch_class[n] == cls, f"{shape}: watch's class of {n} is {cls}", str(ch))
            if cls in CNP_KEY:
                c = (port["cnp"] or {}).get(CNP_KEY[cls])
                h.expect(c is not None and c["delta"] == 17,
                         f"{shape}: watch's cnp.{CNP_KEY[cls]} is {n} ({cls})", str(port["cnp"]))
        # every counter of the port has a class, "none" included
        h.expect(all("class" in c for c in port["hw_counters"].values()),
                 f"{shape}: every hw_counter of watch has a class")
    h.expect(errors_of(wdoc or {"findings": []}, dev) == judged,
             f"{shape}: watch judges what check judges", str(errors_of(wdoc or {"findings": []}, dev)))
    h.expect({n for n, c in watch_class.items() if c in JUDGED} == check_judged,
             f"{shape}: check judges exactly the grown counters of a judged class in watch",
             str(watch_class))
    # serve on A before and after its counters grow: each grown counter's
    # series rises by 17 and carries the class watch gave
    srv = rdtest.Server(h.binary, a, "--cache", "0")
    try:
        st, _, body = srv.get()
        before = rdtest.parse(body)
        grow(a, dev, grown)
        # after the last file is written: a reading begun while grow()
        # replaced them may see a file gone or not yet raised
        raised = time.time()
        after = wait_reading_after(srv, raised)
    finally:
        srv.kill()
    for n, cls in grown.items():
        x, y = hw_series(before, n, dev), hw_series(after, n, dev)
        h.expect(x is not None and y is not None and y[0] - x[0] == 17,
                 f"{shape}: serve's rdmadoctor_hw_{n}_total of {dev} rises by 17", f"{x} -> {y}")
        h.expect(y is not None and y[1] == cls == watch_class.get(n),
                 f"{shape}: serve's class label of {n} is watch's {cls}", str(y))
h.done()
