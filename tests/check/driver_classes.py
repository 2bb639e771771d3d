"""On each driver fixture (issue 45: bnxt_re, irdma, efa, ionic), some
hw_counters grow between two readings; check --window --until and watch
--until --json must say the same of them, class by class: a grown
retransmit, sequence-error or ACK-timeout counter is in counters.errors'
observed of both; a grown drop, CNP or ECN counter is shown (watch's delta;
CNP and ECN in watch's cnp block under mlx5's key) and judged by neither.
serve's /metrics gives each as a series of its own.

argv: RDMADOCTOR FIXTURES_DIR"""
import os
import sys

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


for shape, dev, grown in CASES:
    judged = {n for n, c in grown.items() if c in JUDGED}
    a = h.copy(shape, shape + "-a")
    b = h.copy(shape, shape + "-b")
    grow(b, dev, grown)
    rc, doc, out, err = h.run(a, "--window", "60", "--until", b)
    h.expect(doc is not None, f"{shape}: check --window --until gives JSON", err)
    h.expect(errors_of(doc or {"findings": []}, dev) == judged,
             f"{shape}: check judges exactly the grown {sorted(judged)}",
             str(errors_of(doc or {"findings": []}, dev)))
    rc, wdoc, out, err = h.run(a, "--until", b, "--duration", "60", cmd="watch")
    h.expect(wdoc is not None, f"{shape}: watch --until --json gives JSON", err)
    port = next((p for p in (wdoc or {}).get("ports", []) if p["nic"] == dev), None)
    h.expect(port is not None, f"{shape}: watch lists {dev}")
    if port:
        for n, cls in grown.items():
            ch = port["hw_counters"].get(n)
            h.expect(ch is not None and ch["delta"] == 17, f"{shape}: watch shows {n} +17", str(ch))
            if cls in CNP_KEY:
                c = (port["cnp"] or {}).get(CNP_KEY[cls])
                h.expect(c is not None and c["delta"] == 17,
                         f"{shape}: watch's cnp.{CNP_KEY[cls]} is {n} ({cls})", str(port["cnp"]))
    h.expect(errors_of(wdoc or {"findings": []}, dev) == judged,
             f"{shape}: watch judges what check judges", str(errors_of(wdoc or {"findings": []}, dev)))
    # serve: every grown counter is a series of its own (one reading of the
    # grown copy; two scrapes of one --root around a change are not yet
    # seen to differ: the class of a series is not exposed either)
    srv = rdtest.Server(h.binary, b, "--cache", "0")
    try:
        st, _, body = srv.get()
        metrics = rdtest.parse(body)
    finally:
        srv.kill()
    for n in grown:
        m = "rdmadoctor_hw_%s_total" % n
        v = rdtest.series(metrics, m, device=dev)
        h.expect(len(v) == 1, f"{shape}: serve gives {m} of {dev}", str(v))
h.done()
