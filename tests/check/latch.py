#!/usr/bin/env python3
"""check --state DIR and clear: the agent's memory (docs/state.md), driven
on a copy of a800-8x100g-roce whose files are edited between runs as the
kernel would change them: a rail port that goes DOWN and comes back, its
netdev's carrier_changes and its PMA symbol_error growing, a transport
retry counter growing, a kernel-log fault that the log later loses.  Each
run is a new process, so every remembered finding also shows the memory
surviving a restart.  The boot id is the root's
proc/sys/kernel/random/boot_id: writing another one is a reboot.

usage: latch.py RDMADOCTOR FIXTURES_DIR
"""
import fcntl
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("latch")
sys.path.insert(0, h.fixtures)
from gen_fixtures import ethnl_fec, link_params  # noqa: E402  (the fixtures' FEC replies)

BOOT1 = "6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70"
BOOT2 = "0b7d3c1e-5a2f-4e8d-8c6b-1a2b3c4d5e6f"
SUBJ = "mlx5_0 port 1"

root = h.copy("a800-8x100g-roce", "root")
state = os.path.join(h.tmp, "state")
latched = os.path.join(state, "latched")
port = os.path.join(root, "sys/class/infiniband/mlx5_0/ports/1")
net = os.path.join(root, "sys/class/net/enp25s0np0")


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


def check(*args, **kw):
    return h.run(root, "--state", state, *args, **kw)


def by_key(doc):
    return {(f["id"], f["subject"]): f for f in (doc or {}).get("findings", [])}


def events():
    return [l.split("\t") for l in read(latched).splitlines() if l.startswith("event\t")]


# no boot id under the root (the fixture has one: taken away here): the
# memory cannot be keyed, the check says so
os.remove(os.path.join(root, "proc/sys/kernel/random/boot_id"))
rc, doc, _, err = check()
h.expect(rc == 3 and "proc/sys/kernel/random/boot_id" in err and doc and
         doc["verdict"] == "error", "no boot id: exit 3 naming the file", f"rc {rc}: {err}")

# the first run of a boot: a memory with the boot id and the baselines, no event
boot(BOOT1)
rc, doc, _, err = check()
text = read(latched) if os.path.exists(latched) else ""
h.expect(rc == 0 and doc["verdict"] == "pass" and err == "", "first run passes quietly",
         f"rc {rc} {err}")
h.expect(text.startswith(f"rdmadoctor-latch 1\nboot {BOOT1}\ntaken ") and
         f"base\tmlx5_0\t1\tnet\tcarrier_changes\t2\n" in text and
         "base\tmlx5_0\t1\tpma\tsymbol_error\t0\n" in text and not events(),
         "the memory holds the boot id and the baselines of this boot", text[:400])

# the next run, nothing changed: the same verdict and nothing more "not checked"
# (link.ber judges the memory's window, a second long: too short for the
# post-FEC target, which is then left unsaid, not "not checked")
first_unchecked = doc["unchecked"] if doc else None
rc, doc, _, err = check()
h.expect(rc == 0 and doc["verdict"] == "pass" and doc["unchecked"] == first_unchecked and
         not [f for f in doc["findings"] if f["id"] == "link.ber"],
         "a second run with nothing changed: pass, as many unchecked, no link.ber",
         f"rc {rc} unchecked {doc and doc['unchecked']} vs {first_unchecked}")
h.expect("base\tmlx5_0\t1\tfec\tuncorrectable_blocks\t0\n" in read(latched),
         "the memory holds the FEC totals too", read(latched)[:600])

# the port goes down, its carrier flapped and symbol errors grew since the last run
put(os.path.join(port, "state"), "1: DOWN\n")
put(os.path.join(net, "carrier_changes"), "3\n")
put(os.path.join(port, "counters/symbol_error"), "5\n")
rc, doc, _, err = check()
got = by_key(doc)
for fid in ("port.down", "link.flaps", "counters.errors"):
    f = got.get((fid, SUBJ))
    h.expect(f is not None and f["severity"] == "error" and
             f.get("latched", {}).get("remembered") is False and
             f["latched"]["expires"] is None and f["latched"]["count"] == 1,
             f"{fid} seen now and remembered until cleared", repr(f))
h.expect("grew by 5" in got.get(("counters.errors", SUBJ), {}).get("observed", ""),
         "symbol_error judged as grown since the last run (5), not as a lifetime count",
         repr(got.get(("counters.errors", SUBJ))))
h.expect(rc == 1, "exit 1", f"rc {rc}")

# the port is back: a single look sees nothing, the memory does
put(os.path.join(port, "state"), "4: ACTIVE\n")
rc, doc, _, err = check()
got = by_key(doc)
for fid in ("port.down", "link.flaps", "counters.errors"):
    f = got.get((fid, SUBJ))
    h.expect(f is not None and f["severity"] == "error" and
             f["latched"]["remembered"] is True and
             f["observed"].startswith("remembered, not seen in this reading") and
             f"rdmadoctor clear {fid}" in f["fix"],
             f"{fid} remembered after the port came back", repr(f))
h.expect(rc == 1 and doc["verdict"] == "fail", "a remembered flap keeps the verdict fail",
         f"rc {rc}")
rc, _, out, _ = check("--nhc", json_out=False)
h.expect(rc == 1 and out.startswith("ERROR:"), "--nhc: the remembered error drains",
         f"rc {rc} {out}")
# nothing grew again: no second sighting
h.expect(all(e[5] == "1" for e in events()), "seen once each", repr(events()))

# clear: an id that is none, one with nothing remembered, one on its subject
r = subprocess.run([h.binary, "clear", "--state", state, "port.dwn"], capture_output=True,
                   text=True)
h.expect(r.returncode == 2 and "did you mean 'port.down'" in r.stderr,
         "clear of no check id: usage error with a suggestion", r.stderr)
r = subprocess.run([h.binary, "clear", "--state", state, "kmsg.health"], capture_output=True,
                   text=True)
h.expect(r.returncode == 1 and "nothing remembered under 'kmsg.health'" in r.stderr,
         "clear of an id not remembered: exit 1, said", r.stderr)
r = subprocess.run([h.binary, "clear", "--state", state, "--subject", SUBJ, "port.down"],
                   capture_output=True, text=True)
h.expect(r.returncode == 0 and r.stdout.startswith(f"cleared port.down on {SUBJ} (seen 1 time"),
         "clear port.down says what it cleared", r.stdout + r.stderr)
rc, doc, _, _ = check()
got = by_key(doc)
h.expect(("port.down", SUBJ) not in got and ("link.flaps", SUBJ) in got,
         "cleared port.down is gone, link.flaps stays", repr(sorted(got)))
r = subprocess.run([h.binary, "--json", "clear", "--state", state, "all"], capture_output=True,
                   text=True)
h.expect(r.returncode == 0 and
         sorted(c["id"] for c in __import__("json").loads(r.stdout)["cleared"]) ==
         ["counters.errors", "link.flaps"], "clear all --json lists the two left", r.stdout)
rc, doc, _, _ = check()
h.expect(rc == 0 and doc["verdict"] == "pass", "after clear all: pass", f"rc {rc}")

# two uncorrectable FEC blocks between two readings (the fixture's FEC reply,
# gen_fixtures' ethnl_fec as net/ethtool/fec.c lays it out, from source):
# link.ber an error over the memory's window, kept until cleared
fec = os.path.join(root, ".rdmadoctor/ethtool-nl/enp25s0np0/fec")
with open(fec, "wb") as fh:
    fh.write(ethnl_fec(7, "enp25s0np0", link_params(100000, fec_stats=(812400, 2, 1035000))))
rc, doc, _, _ = check()
f = by_key(doc).get(("link.ber", SUBJ))
h.expect(rc == 1 and f is not None and f["severity"] == "error" and
         "2 uncorrectable blocks" in f["observed"] and f["latched"]["expires"] is None,
         "uncorrectable blocks grew since the last reading: link.ber, kept until cleared",
         repr(f))
rc, doc, _, _ = check()
f = by_key(doc).get(("link.ber", SUBJ))
h.expect(rc == 1 and f is not None and f["latched"]["remembered"] is True,
         "no more growth: link.ber remembered", repr(f))
r = subprocess.run([h.binary, "clear", "--state", state, "link.ber"], capture_output=True,
                   text=True)
# the boot's long baseline began before the blocks: as if it began 20 s
# ago, long enough to judge them (as a slow machine, an ASan build, makes
# it); a clear begins it again, or the same two blocks would be judged
# over it at the next reading
text = read(latched)
put(latched, re.sub(r"(?m)^boot_taken (\d+)$", lambda m: "boot_taken %d" % (int(m.group(1)) - 20),
                    text))
rc, doc, _, _ = check()
h.expect(r.returncode == 0 and ("link.ber", SUBJ) not in by_key(doc),
         "clear link.ber: gone, and not seen again while the blocks do not grow",
         r.stdout + r.stderr + repr(by_key(doc).get(("link.ber", SUBJ))))

# the lock: a clear waits while another rdmadoctor holds the memory
fd = os.open(latched + ".lock", os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
p = subprocess.Popen([h.binary, "clear", "--state", state, "all"], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
time.sleep(1)
waited = p.poll() is None
fcntl.flock(fd, fcntl.LOCK_UN)
os.close(fd)
out, err = p.communicate(timeout=30)
h.expect(waited and p.returncode == 0, "clear waits for the lock, then runs",
         f"waited {waited}, rc {p.returncode} {err}")

# a retry counter grows: a drop, held 600 s after it was last seen
hw = os.path.join(port, "hw_counters/out_of_sequence")
put(hw, str(int(read(hw)) + 7) + "\n")
rc, doc, _, _ = check()
f = by_key(doc).get(("counters.errors", SUBJ))
h.expect(f is not None and f["severity"] == "warn" and
         f["latched"]["expires"] == f["latched"]["last_seen"] + 600,
         "a grown retry counter: a warning held 600 s", repr(f))
# once its hold has passed it is forgotten: set its expiry in the past
text = read(latched)
ev = [l for l in text.splitlines() if l.startswith("event\tcounters.errors\t")][0].split("\t")
put(latched, text.replace("\t".join(ev), "\t".join(ev[:6] + ["1000"] + ev[7:])))
rc, doc, _, _ = check()
h.expect(("counters.errors", SUBJ) not in by_key(doc) and not events(),
         "an expired drop is forgotten", repr(events()))
# --hold drops=0: until cleared
put(hw, str(int(read(hw)) + 1) + "\n")
rc, doc, _, _ = check("--hold", "drops=0")
f = by_key(doc).get(("counters.errors", SUBJ))
h.expect(f is not None and f["latched"]["expires"] is None, "--hold drops=0: until cleared",
         repr(f))
# the site file's hold_drops, where --hold says nothing; --hold wins over it
site = os.path.join(root, "etc/rdmadoctor/rdmadoctor.conf")
os.makedirs(os.path.dirname(site), exist_ok=True)
put(site, "[site]\nhold_drops = 120\n")
put(hw, str(int(read(hw)) + 1) + "\n")
rc, doc, _, _ = check()
f = by_key(doc).get(("counters.errors", SUBJ))
h.expect(f is not None and f["latched"]["expires"] == f["latched"]["last_seen"] + 120,
         "the site file's hold_drops = 120", repr(f))
put(hw, str(int(read(hw)) + 1) + "\n")
rc, doc, _, _ = check("--hold", "drops=30")
f = by_key(doc).get(("counters.errors", SUBJ))
h.expect(f is not None and f["latched"]["expires"] == f["latched"]["last_seen"] + 30,
         "--hold drops=30 wins over the site file", repr(f))
put(site, "[site]\nhold_drops = ten\n")
rc, _, _, err = check()
h.expect(rc == 2 and "hold_drops" in err, "a bad hold_drops: the site file's usage error", err)
os.remove(site)
r = subprocess.run([h.binary, "clear", "--state", state, "counters.errors"], capture_output=True,
                   text=True)
h.expect(r.returncode == 0, "clear counters.errors", r.stderr)
rc, _, _, err = h.run(root, "--hold", "drops=10")
h.expect(rc == 2 and "--state" in err, "--hold without --state: usage error", err)
rc, _, _, err = check("--hold", "spills=10")
h.expect(rc == 2 and "drops=S" in err, "--hold of no class: usage error", err)

# a kernel-log fault, then the log loses it (a full ring buffer)
kd = os.path.join(root, ".rdmadoctor", "kmsg")
os.makedirs(kd)
put(os.path.join(kd, "boot_time"), "1764900000.000000\n")
put(os.path.join(kd, "faults"),
    "3,102,7000000,-;mlx5_core 0000:19:00.0: poll_health:825:(pid 0): device's health "
    "compromised - reached miss count\n SUBSYSTEM=pci\n DEVICE=+pci:0000:19:00.0\n")
rc, doc, _, _ = check()
f = by_key(doc).get(("kmsg.health", "mlx5_0"))
h.expect(f is not None and f["latched"]["remembered"] is False, "kmsg.health seen and kept",
         repr(f))
# cleared while the ring still holds the line: acknowledged, not seen again
r = subprocess.run([h.binary, "clear", "--state", state, "kmsg.health"], capture_output=True,
                   text=True)
rc, doc, _, _ = check()
h.expect(r.returncode == 0 and rc == 0 and ("kmsg.health", "mlx5_0") not in by_key(doc) and
         "kmsg_acked\tkmsg.health\t7000000\n" in read(latched),
         "clear kmsg.health sticks though the log still holds the line",
         r.stdout + r.stderr + repr(by_key(doc).get(("kmsg.health", "mlx5_0"))))
# the same fault logged again after the clear: seen and kept again
put(os.path.join(kd, "faults"),
    "3,102,7000000,-;mlx5_core 0000:19:00.0: poll_health:825:(pid 0): device's health "
    "compromised - reached miss count\n SUBSYSTEM=pci\n DEVICE=+pci:0000:19:00.0\n"
    "3,103,9000000,-;mlx5_core 0000:19:00.0: poll_health:825:(pid 0): device's health "
    "compromised - reached miss count\n SUBSYSTEM=pci\n DEVICE=+pci:0000:19:00.0\n")
rc, doc, _, _ = check()
f = by_key(doc).get(("kmsg.health", "mlx5_0"))
h.expect(rc == 1 and f is not None and f["latched"]["remembered"] is False,
         "a line logged after the clear: kmsg.health seen again", repr(f))
put(os.path.join(kd, "faults"), "")
rc, doc, _, _ = check()
f = by_key(doc).get(("kmsg.health", "mlx5_0"))
h.expect(f is not None and f["latched"]["remembered"] is True and f["severity"] == "error"
         and rc == 1, "kmsg.health remembered when the log lost it", repr(f))

# a reboot: another boot id forgets the events and the baselines of the last
boot(BOOT2)
put(os.path.join(port, "counters/symbol_error"), "0\n")   # counters start again
rc, doc, _, err = check()
h.expect(rc == 0 and doc["verdict"] == "pass" and "of another boot" in err and BOOT1 in err,
         "a new boot: forgotten, said, pass", f"rc {rc} {err}")
h.expect(f"boot {BOOT2}\n" in read(latched) and not events(),
         "the memory is of the new boot", read(latched)[:200])

# a malformed memory: said, moved aside, a fresh one; the verdict is not pass
good = read(latched)
for name, bad in (("garbage", "not a memory\n"), ("cut short", good[:-1])):
    put(latched, bad)
    rc, doc, _, err = check()
    f = by_key(doc).get(("latch.state", latched))
    h.expect(f is not None and f.get("unchecked") is True and f["severity"] == "warn" and
             doc["verdict"] == "warn" and latched in err and "malformed" in err,
             f"{name}: latch.state not checked, named on stderr, verdict warn",
             f"{err} {f!r}")
    h.expect(read(latched + ".bad") == bad and read(latched).startswith("rdmadoctor-latch 1\n"),
             f"{name}: moved to latched.bad, a fresh memory written", read(latched)[:100])
    rc, doc, _, _ = check()
    h.expect(rc == 0 and doc["verdict"] == "pass", f"{name}: the next run passes", f"rc {rc}")

# a full disk (a file size limit of 0): an error, the old memory kept whole
put(os.path.join(net, "carrier_changes"), "9\n")
before = read(latched)


def no_room():
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


r = subprocess.run([h.binary, "--root", root, "--json", "check", "--state", state],
                   capture_output=True, text=True, preexec_fn=no_room)
doc = __import__("json").loads(r.stdout) if r.stdout else None
f = by_key(doc).get(("latch.state", latched))
h.expect("cannot write" in r.stderr and latched in r.stderr and f is not None and
         ("link.flaps", SUBJ) in by_key(doc), "a failed write: said, latch.state, the flap "
         "still judged", r.stderr + repr(f))
h.expect(read(latched) == before and
         not [n for n in os.listdir(state) if n.startswith(".latched")],
         "the old memory is kept, no temporary file left", repr(os.listdir(state)))

# the memory's directory is the agent's own (issue 44): made 0700 with its
# lock 0600; one that others can write, or a link to one, is refused with
# the reason, and nothing is remembered in that reading
h.expect(stat.S_IMODE(os.stat(state).st_mode) == 0o700 and
         stat.S_IMODE(os.stat(latched + ".lock").st_mode) == 0o600,
         "the directory made 0700, its lock 0600",
         f"{oct(os.stat(state).st_mode)} {oct(os.stat(latched + '.lock').st_mode)}")
before = read(latched)
put(os.path.join(net, "carrier_changes"), "12\n")
os.chmod(state, 0o777)
rc, doc, _, err = check()
f = [x for x in (doc or {}).get("findings", []) if x["id"] == "latch.state"]
h.expect(f and f[0].get("unchecked") and "writable by every user" in err and
         "chmod go-w" in f[0]["observed"] + err and doc["verdict"] == "warn" and
         read(latched) == before,
         "a world-writable state directory: refused, said, nothing written",
         f"rc {rc} {err} {f!r}")
os.chmod(state, 0o700)
link = state + "-link"
os.symlink(state, link)
rc, doc, _, err = h.run(root, "--state", link)
h.expect("symbolic link" in err and read(latched) == before,
         "a state directory given as a link: not followed", f"rc {rc} {err}")

h.done()
