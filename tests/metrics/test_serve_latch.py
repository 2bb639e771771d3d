#!/usr/bin/env python3
"""serve keeps the agent's memory (--state DIR, docs/state.md): on a copy of
a800-8x100g-roce, a rail port that goes DOWN with its carrier flapping,
then comes back, stays in /metrics as remembered findings; the memory
survives a restart of serve (its first reading, made before it listens,
already has them); `rdmadoctor clear` run beside the live server forgets
them at its next reading.  The new series pass `promtool check metrics`.

usage: test_serve_latch.py RDMADOCTOR SOURCE_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import Server, check, one, parse, series  # noqa: E402

binary, src = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="rdmadoctor-serve-latch-")
root = os.path.join(tmp, "root")
state = os.path.join(tmp, "state")
shutil.copytree(os.path.join(src, "tests", "fixtures", "a800-8x100g-roce", "root"), root,
                symlinks=True)
os.makedirs(os.path.join(root, "proc/sys/kernel/random"), exist_ok=True)
port = os.path.join(root, "sys/class/infiniband/mlx5_0/ports/1")
net = os.path.join(root, "sys/class/net/enp25s0np0")
LATCHED = "rdmadoctor_finding_latched_since_seconds"


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def scrape_until(s, want, what):
    """Scrape (each scrape asks for a new reading) until want(metrics)."""
    deadline = time.time() + 20
    while True:
        status, _, body = s.get()
        check(status == 200, "status %d" % status)
        m = parse(body)
        if want(m):
            return m, body
        check(time.time() < deadline, "no reading showed %s:\n%s" % (what, body[-3000:]))
        time.sleep(0.2)


def flap(m, remembered):
    return series(m, LATCHED, id="link.flaps", device="mlx5_0", port="1",
                  remembered="true" if remembered else "false")


def verdict(m, v):
    return series(m, "rdmadoctor_check_verdict", verdict=v) == [1.0]


try:
    put(os.path.join(root, "proc/sys/kernel/random/boot_id"),
        "6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70\n")
    # under a tree root serve keeps no memory unless told: --hold alone is refused
    u = rdtest.run(binary, "serve", "--hold", "drops=5", root=root)
    check(u.returncode == 2 and "--state DIR" in u.stderr, "--hold without a memory: %d %s"
          % (u.returncode, u.stderr))
    s = Server(binary, root, "--state", state, "--cache", "0")
    m, _ = scrape_until(s, lambda m: verdict(m, "pass"), "a pass")
    check(not series(m, LATCHED), "nothing remembered at first")
    check(os.path.exists(os.path.join(state, "latched")), "serve wrote its memory")

    put(os.path.join(port, "state"), "1: DOWN\n")
    put(os.path.join(net, "carrier_changes"), "3\n")
    m, _ = scrape_until(s, lambda m: flap(m, False), "link.flaps seen")
    check(verdict(m, "fail"), "the flap fails the verdict")
    put(os.path.join(port, "state"), "4: ACTIVE\n")
    m, body = scrape_until(s, lambda m: flap(m, True) and series(
        m, LATCHED, id="port.down", remembered="true"), "the port back, the flap remembered")
    check(verdict(m, "fail"), "remembered, the verdict stays fail")
    check(one(m, "rdmadoctor_finding", id="port.down", device="mlx5_0", port="1") == 1,
          "port.down still a finding")
    if shutil.which("promtool"):
        p = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True,
                           text=True, timeout=60)
        check(p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(),
              "promtool check metrics: %s%s" % (p.stdout, p.stderr))
    s.stop()

    # a restart: the first reading (before listening) has the memory
    s = Server(binary, root, "--state", state, "--cache", "0")
    status, _, body = s.get()
    m = parse(body)
    since = flap(m, True)
    check(len(since) == 1 and since[0] > 1.7e9 and verdict(m, "fail"),
          "after a restart the flap is still remembered: %s" % since)

    # clear beside the running server
    c = rdtest.run(binary, "clear", "--state", state, "all")
    check(c.returncode == 0 and "cleared link.flaps on mlx5_0 port 1" in c.stdout and
          "cleared port.down on mlx5_0 port 1" in c.stdout, "clear: %s%s" % (c.stdout, c.stderr))
    m, _ = scrape_until(s, lambda m: verdict(m, "pass") and not series(m, LATCHED),
                        "the memory cleared")
    s.stop()
    print("serve keeps its memory across readings and a restart; clear forgets it")
finally:
    shutil.rmtree(tmp, True)
if not shutil.which("promtool"):
    print("every other check passed; `promtool check metrics` was not run (no promtool)")
    sys.exit(77)
