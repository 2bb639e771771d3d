#!/usr/bin/env python3
"""check --state DIR: the long baseline of a boot (docs/state.md).  Between
two readings of the agent the window is as long as the time between them:
too short for a per-hour ceiling (a profile's ib_symbol_errors_per_hour =
20 needs 180 s to tell one error from the ceiling), which such a window
leaves unsaid.  The baseline of the boot's first reading is kept too, and
link.ber judges over it when the short window cannot tell.

The clock is faked in the memory itself: its 'taken' and 'boot_taken'
lines are set back before each reading, as if the readings were that far
apart.  On a copy of dgx-h100 (NDR InfiniBand) whose mlx5_0 port 1 gains
one symbol error before each reading.

usage: latch_boot.py RDMADOCTOR FIXTURES_DIR
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("latch_boot")
BOOT1 = "6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70"
BOOT2 = "0b7d3c1e-5a2f-4e8d-8c6b-1a2b3c4d5e6f"
SUBJ = "mlx5_0 port 1"

root = h.copy("dgx-h100", "root")
state = os.path.join(h.tmp, "state")
latched = os.path.join(state, "latched")
sym = os.path.join(root, "sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error")
prof = os.path.join(h.tmp, "ceiling.ini")


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def boot(bid):
    d = os.path.join(root, "proc/sys/kernel/random")
    os.makedirs(d, exist_ok=True)
    put(os.path.join(d, "boot_id"), bid + "\n")


def grow():
    put(sym, "%d\n" % (int(read(sym)) + 1))


def set_back(short, long):
    """The memory as if the last reading were SHORT s ago and the boot's
    first LONG s ago."""
    now = int(time.time())
    text = read(latched)
    text = re.sub(r"(?m)^taken \d+$", "taken %d" % (now - short), text)
    text = re.sub(r"(?m)^boot_taken \d+$", "boot_taken %d" % (now - long), text)
    put(latched, text)


def ber():
    rc, doc, _, err = h.run(root, "--profile", prof, "--state", state)
    h.expect(doc is not None, "a JSON document", f"rc {rc}: {err}")
    # what this reading saw, not what the memory holds from an earlier one
    return [f for f in (doc or {}).get("findings", [])
            if f["id"] == "link.ber" and f["subject"] == SUBJ and
            not (f.get("latched") or {}).get("remembered")]


put(prof, "[profile]\nname = ceiling\nbased_on = dgx-h100\nib_symbol_errors_per_hour = 20\n")
boot(BOOT1)
put(sym, "5\n")	# a lifetime count from before the first reading

# the boot's first reading: both baselines taken, at the same time
h.expect(ber() == [], "first reading: nothing to judge")
text = read(latched)
m = re.search(r"(?m)^taken (\d+)$", text)
b = re.search(r"(?m)^boot_taken (\d+)$", text)
h.expect(m and b and m.group(1) == b.group(1) and
         "boot_base\tmlx5_0\t1\tpma\tsymbol_error\t5\n" in text,
         "first reading: the long baseline taken with the short one", text[:400])

# 1 error in 60 s (short) and 120 s (long): neither can tell 20 an hour
set_back(60, 120)
grow()
h.expect(ber() == [], "1 error in 60 s / 120 s: too short for 20 an hour, unsaid")
text = read(latched)
h.expect("boot_base\tmlx5_0\t1\tpma\tsymbol_error\t5\n" in text and
         "base\tmlx5_0\t1\tpma\tsymbol_error\t6\n" in text,
         "second reading: the short baseline moved, the long one stayed", text[:600])

# 1 more in 60 s: the short window still cannot tell; the long one, 2 in
# 300 s, is 24 an hour, past 20
set_back(60, 300)
grow()
fs = ber()
# (24 if the reading takes no time; a loaded machine's seconds lower it)
# the rate may carry a decimal (2 in 301 s: 23.9 an hour)
rate = re.search(r"symbol errors ([\d.]+) per hour", fs[0]["observed"]) if len(fs) == 1 else None
h.expect(len(fs) == 1 and fs[0]["severity"] == "error" and
         rate and 20 < float(rate.group(1)) <= 24 and
         "since this boot's first reading" in fs[0]["observed"] and
         "symbol errors at most 20 per hour" in fs[0]["expected"],
         "third reading: the long window passes the ceiling", repr(fs))

# the same over a short window long enough to tell: judged over it, not
# the long one
set_back(600, 900)
for _ in range(5):
    grow()
fs = ber()
h.expect(len(fs) == 1 and re.search(r"symbol errors (29|30)(\.\d+)? per hour", fs[0]["observed"]) and
         re.search(r"in a 60[0-9] s window", fs[0]["observed"]),
         "a short window long enough: judged over it", repr(fs))

# a counter cleared: the long baseline begins again at this reading
put(sym, "0\n")
set_back(60, 900)
fs = ber()
h.expect(all(f["severity"] == "info" and "went down (cleared)" in f["observed"] for f in fs),
         "cleared counter: not checked, nothing judged over the long window", repr(fs))
text = read(latched)
m = re.search(r"(?m)^taken (\d+)$", text)
b = re.search(r"(?m)^boot_taken (\d+)$", text)
h.expect(m and b and m.group(1) == b.group(1) and
         "boot_base\tmlx5_0\t1\tpma\tsymbol_error\t0\n" in text,
         "cleared counter: the long baseline taken anew", text[:400])

# another boot: the long baseline is that boot's first reading
set_back(60, 900)
boot(BOOT2)
grow()
h.expect(ber() == [], "a new boot: a fresh memory, nothing judged")
text = read(latched)
m = re.search(r"(?m)^taken (\d+)$", text)
b = re.search(r"(?m)^boot_taken (\d+)$", text)
h.expect(f"boot {BOOT2}\n" in text and m and b and m.group(1) == b.group(1) and
         "boot_base\tmlx5_0\t1\tpma\tsymbol_error\t1\n" in text,
         "a new boot: the long baseline begins at its first reading", text[:400])

h.done()
