#!/usr/bin/env python3
"""kmsg.*: the kernel log as real machines print it.

tests/check/kmsg_corpus.tsv holds kernel lines published in public issue
threads and other tools' test data, each byte-exact with its source, and
labelled: fault or benign, and the kmsg.* id the table must give it (or
none).  Lines built from a kernel format string for want of a published
capture say so (synthetic-*).  This test strips what the publisher put
before the kernel's message (dmesg's [seconds] or [date], journalctl's
"date host kernel: ", dmesg -x's "kern  :err   : date", a quote's "> "),
makes each message one /dev/kmsg record (kernel facility), stores them as
a snapshot's .rdmadoctor/kmsg/faults on a copy of roce-broken, and asserts
that `inventory` matched each as labelled, and that `check` names the GPU
events on the GPU's PCI address with the severity the driver's words give.

usage: kmsg_corpus.py RDMADOCTOR FIXTURES_DIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("kmsg-corpus")
HERE = os.path.dirname(os.path.abspath(__file__))
PREFIXES = [
    re.compile(r"^> "),
    re.compile(r"^line "),
    re.compile(r"^kern\s+:\w+\s+: \S+ "),
    re.compile(r"^[A-Z][a-z]{2} [A-Z][a-z]{2} +\d+ [\d:]+ \d{4} kern\.\w+ kernel: "),
    re.compile(r"^[A-Z][a-z]{2} +\d+ [\d:]+ (\S+ )?kernel: "),
    re.compile(r"^kernel: "),
    re.compile(r"^\[[^\]]*\] "),
    re.compile(r"^ +"),
]


def message(line):
    while True:
        for p in PREFIXES:
            m = p.match(line)
            if m:
                line = line[m.end():]
                break
        else:
            return line


rows = []
with open(os.path.join(HERE, "kmsg_corpus.tsv"), encoding="utf-8") as f:
    for n, raw in enumerate(f, 1):
        raw = raw.rstrip("\n")
        if not raw or raw.startswith("#"):
            continue
        parts = raw.split("\t")
        h.expect(len(parts) == 4 and parts[0] in ("fault", "benign", "synthetic-fault",
                                                  "synthetic-benign") and parts[2],
                 f"corpus line {n}: label, id, source, line", raw)
        if len(parts) == 4:
            rows.append((n, parts[0], parts[1], parts[2], message(parts[3])))

real = [r for r in rows if not r[1].startswith("synthetic")]
h.expect(len(real) >= 40, "at least 40 real lines", str(len(real)))
for want in ("kmsg.nic_probe", "kmsg.tx_timeout", "kmsg.peermem", "kmsg.gpu_lost",
             "kmsg.nvlink_error", "kmsg.nvswitch_error", "kmsg.health", "kmsg.link_flap"):
    h.expect(any(r[2] == want for r in real), f"a real line for {want}")
h.expect(sum(r[2] == "none" for r in real) >= 15, "at least 15 real lines that must stay quiet")

# one record each, kernel facility, level err; USEC = its row's index + 1 s
records = "".join(f"3,{i},{(i + 1) * 1000000},-;{r[4]}\n" for i, r in enumerate(rows))
root = h.copy("roce-broken", "corpus")
d = os.path.join(root, ".rdmadoctor", "kmsg")
os.makedirs(d)
with open(os.path.join(d, "faults"), "w", encoding="utf-8") as f:
    f.write(records)

rc, inv, _, err = h.run(root, cmd="inventory")
kl = (inv or {}).get("host", {}).get("kernel_log") or {}
faults = kl.get("faults") or []
h.expect(kl.get("records") == len(faults) and len(faults) < 64,
         "every matched record listed (fewer than the 64 the inventory shows)", repr(kl)[:300])
got = {round(x["seconds"]) - 1: x for x in faults}
for i, (n, label, want, src, msg) in enumerate(rows):
    x = got.get(i)
    have = x["id"] if x else "none"
    h.expect(have == want, f"line {n} ({label}) judged {want}", f"{have}: {msg}")

rc, doc, _, err = h.run(root)
fs = {(x["id"], x["subject"]): x for x in (doc or {}).get("findings", [])
      if x["id"].startswith("kmsg.")}
for key, sev in {
        ("kmsg.gpu_lost", "0000:44:00.0"): "error",		# Xid 79
        ("kmsg.gpu_lost", "0000:01:00.0"): "error",		# "NVRM: GPU at ... fallen off"
        ("kmsg.nvlink_error", "0003:00:00.0"): "error",	# Xid 74, fatal
        ("kmsg.nvlink_error", "0018:01:00.0"): "warn",	# Xid 145, Nonfatal
        ("kmsg.nvlink_error", "0019:01:00.0"): "error",	# Xid 149, Fatal
        ("kmsg.nvswitch_error", "0000:84:00.0"): "error",	# SXid 12028
        ("kmsg.nic_probe", "0000:03:00.0"): "error",		# a rail that never came up
}.items():
    f = fs.get(key)
    h.expect(f is not None and f["severity"] == sev and f["why"] and f["fix"],
             f"check: {key} at {sev}", repr(f)[:300] if f else repr(sorted(fs))[:600])
# Xid 13/45/94/109 name GPUs too, and must not make findings of their own
for bdf in ("0000:dc:00.0", "0000:ed:00.0", "0000:cb:00.0", "0000:9b:00.0"):
    h.expect(not [k for k in fs if k[1] == bdf], f"no finding on {bdf} (an application's Xid)")
h.done()
