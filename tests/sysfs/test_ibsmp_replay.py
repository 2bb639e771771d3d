#!/usr/bin/env python3
"""InfiniBand neighbours through the whole tool, from real SMP replies.

rdmadoctor's sysfs reader does not see ibsim's CA (libumad2sim fakes sysfs
for libibumad's own calls only), so the replies are recorded live from the
simulator with the reader itself (ib_smp_ask, the same ib_smp_ask() the tool
calls) and put where a snapshot keeps them, .rdmadoctor/ibsmp/CA/PORT, in
copies of the dgx-h100 fixture (8 InfiniBand rails).  Fabric: leaf-r0 ..
leaf-r7 and two hosts' HCAs; host "good" has rail k on leaf-rk port k+1,
host "crossed" has rails 2 and 3 swapped (2 on leaf-r3, 3 on leaf-r2).

  - inventory/topo/JSON name each rail's switch, port and GUID (source smp);
  - under rail_switch = k leaf-rk: good has no rail.cabling finding, crossed
    has ONE naming rails 2 and 3;
  - a stored failure (ETIMEDOUT) is not checked, in words, and rail.cabling
    for that rail with it;
  - a snapshot of the copy keeps the bytes and replays the same inventory;
  - the fleet: four hosts' checks recorded, the crossed one named by
    fleet diff, "rails 2 and 3 swapped".

usage: test_ibsmp_replay.py RDMADOCTOR IB_SMP_ASK SRCDIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

BIN, ASK, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
FIX = os.path.join(SRC, "tests", "fixtures")
SIM_SO = os.environ.get("RD_UMAD2SIM", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so")
RAILS = ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"]
SITE = "[site]\n" + "".join(f"rail_switch = {k} leaf-r{k}\n" for k in range(8))
tally = rdtest.Tally()
check = tally.ok


def run(root, *args):
    p = rdtest.run(BIN, *args, root=root)
    check(p.returncode in (0, 1), f"{args}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def crossed(k):
    return {2: 3, 3: 2}.get(k, k)


def topology():
    leaves = []
    for s in range(8):
        lines = [f'Switch\t36 "leaf-r{s}"', f'[{s + 1}]\t"good-r{s}"[1]']
        for k in range(8):
            if crossed(k) == s:
                lines.append(f'[{20 + k}]\t"crossed-r{k}"[1]')
        leaves.append("\n".join(lines))
    hcas = [f'Hca\t1 "good-r{k}"\n[1]\t"leaf-r{k}"[{k + 1}]' for k in range(8)]
    hcas += [f'Hca\t1 "crossed-r{k}"\n[1]\t"leaf-r{crossed(k)}"[{20 + k}]' for k in range(8)]
    return "\n\n".join(leaves + hcas) + "\n"


def record(tmp):
    """host -> rail -> the 512 bytes, asked live of ibsim."""
    with open(os.path.join(tmp, "net"), "w") as f:
        f.write(topology())
    env = dict(os.environ, IBSIM_SOCKNAME=f"rdmadoctor-replay-{os.getpid()}")
    # the sanitizer build: see test_ibsim.sh and umad2sim.asan.supp
    supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "umad2sim.asan.supp")
    env["ASAN_OPTIONS"] = ":".join(filter(None, [f"verify_asan_link_order=0:suppressions={supp}",
                                                 os.environ.get("ASAN_OPTIONS")]))
    log = open(os.path.join(tmp, "sim.log"), "w+")
    sim = subprocess.Popen(["ibsim", "-s", "-n", "net"], cwd=tmp, env=env, stdout=log,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    got = {}
    try:
        for _ in range(100):
            log.seek(0)
            if "Network simulator ready" in log.read():
                break
            time.sleep(0.1)
        for host in ("good", "crossed"):
            for k in range(8):
                raw = os.path.join(tmp, f"{host}-r{k}.raw")
                p = subprocess.run([ASK, "ibsim0", "1", raw], cwd=tmp, capture_output=True,
                                   text=True, timeout=30,
                                   env=dict(env, SIM_HOST=f"{host}-r{k}", LD_PRELOAD=SIM_SO))
                check(p.returncode == 0, f"{host}-r{k}: {p.stdout}{p.stderr}")
                with open(raw, "rb") as f:
                    got.setdefault(host, {})[k] = f.read()
    finally:
        sim.terminate()
        sim.wait(timeout=10)
        log.close()
    return got


def tree(tmp, name, replies, errnos=None):
    root = os.path.join(tmp, name)
    shutil.copytree(os.path.join(FIX, "dgx-h100", "root"), root, symlinks=True)
    shutil.rmtree(os.path.join(root, ".rdmadoctor", "ibsmp"))	# the example's own
    os.makedirs(os.path.join(root, "etc", "rdmadoctor"), exist_ok=True)
    with open(os.path.join(root, "etc", "rdmadoctor", "rdmadoctor.conf"), "w") as f:
        f.write(SITE)
    for k, dev in enumerate(RAILS):
        d = os.path.join(root, ".rdmadoctor", "ibsmp", dev)
        os.makedirs(d, exist_ok=True)
        if errnos and k in errnos:
            with open(os.path.join(d, "1.errno"), "w") as f:
                f.write(f"{errnos[k]}\n")
        else:
            with open(os.path.join(d, "1"), "wb") as f:
                f.write(replies[k])
    return root


def cabling(root):
    doc = json.loads(run(root, "--json", "check"))
    return doc, [f for f in doc["findings"] if f["id"] == "rail.cabling"]


def fleet(tmp, good, bad):
    """Four hosts' checks recorded: three cabled right, one crossed; fleet
    diff names the crossed one, rails 2 and 3 swapped, from the IB
    neighbours alone (the site file plays no part in the fleet)."""
    files = []
    for i, root in enumerate([good, good, bad, good]):
        doc = json.loads(run(root, "--json", "check"))
        doc["inventory"]["host"]["hostname"] = f"ib-{i}"
        rec = {"schema": 1, "host": f"ib-{i}", "time": "2026-12-01T07:00:00Z",
               "profile": doc["profile"], "verdict": doc["verdict"], "check": doc, "bw": []}
        files.append(os.path.join(tmp, f"ib-{i}.json"))
        with open(files[-1], "w") as f:
            json.dump(rec, f)
    db = os.path.join(tmp, "fleet.db")
    p = rdtest.run(BIN, "record", "--db", db, "--from", *files, timeout=120)
    check(p.returncode == 0, f"record: {p.returncode} {p.stderr}")
    p = rdtest.run(BIN, "--json", "fleet", "--db", db, "diff", timeout=120)
    check(p.returncode == 1, f"fleet diff exits 1 for crossed rails: {p.returncode} {p.stderr}")
    try:
        r = json.loads(p.stdout)["rails"]
        got = [(f["host"], f["kind"], [x["rail"] for x in f["rails"]]) for f in r["findings"]]
    except (ValueError, KeyError, TypeError) as e:
        got = f"unreadable: {e}"
    check(got == [("ib-2", "swapped", [2, 3])], f"fleet names ib-2's rails 2 and 3: {got}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        rec = record(tmp)
        if tally.failed:
            sys.exit(1)
        good = tree(tmp, "good", rec["good"])
        inv = json.loads(run(good, "--json", "inventory"))
        ports = {n["name"]: n["ports"][0] for n in inv["nics"]}
        check(ports["mlx5_4"]["neighbor"] == {"system": "leaf-r2", "port": "3",
                                             "chassis_id": "0x0000000000200002",
                                             "source": "smp"},
              f"rail 2's neighbour: {ports['mlx5_4'].get('neighbor')}")
        check("neighbor_unknown" not in ports["mlx5_4"], "no why beside a neighbour")
        text = run(good, "inventory")
        check("neighbor leaf-r2 port 3 chassis 0x0000000000200002 (smp)" in text,
              "inventory's neighbour line")
        topo = run(good, "topo")
        check(any(l.startswith("mlx5_4 ") and l.endswith("leaf-r2 3")
                  for l in topo.splitlines()), "topo's switch port column")
        doc, found = cabling(good)
        check(found == [], f"cabled right: no rail.cabling: {found}")
        check([r["neighbor"]["system"] for r in doc["rails"]] ==
              [f"leaf-r{k}" for k in range(8)], "check's rails name their switches")

        bad = tree(tmp, "crossed", rec["crossed"])
        _, found = cabling(bad)
        check(len(found) == 1, f"crossed: one rail.cabling finding: {found}")
        if found:
            check(found[0]["subject"] == "mlx5_4 port 1 and mlx5_5 port 1" and
                  found[0]["observed"].startswith("rails 2 and 3 swapped: rail 2 (mlx5_4 "
                                                  "port 1) reaches leaf-r3 port 22") and
                  "`rdmadoctor inventory`" in found[0]["fix"],
                  f"the finding names rails 2 and 3 and their switch ports: {found[0]}")

        # stored failure: not checked in words, and so is rail 5's cabling
        t = tree(tmp, "timeout", rec["good"], errnos={5: 110})
        doc, found = cabling(t)
        r5 = doc["rails"][5]
        check(r5["neighbor"] is None and r5["neighbor_unknown"] ==
              "no answer from the other end of the cable (directed-route SMP timed out)",
              f"a timed-out port: {r5}")
        check(any(f.get("unchecked") and "5" in json.dumps(f) for f in found),
              f"rail 5's cabling not checked: {found}")

        # a snapshot keeps the bytes and replays the same
        snap = os.path.join(tmp, "snap")
        run(good, "-q", "snapshot", snap)
        for dev in RAILS:
            with open(os.path.join(snap, ".rdmadoctor", "ibsmp", dev, "1"), "rb") as f, \
                    open(os.path.join(good, ".rdmadoctor", "ibsmp", dev, "1"), "rb") as g:
                check(f.read() == g.read(), f"the snapshot keeps {dev}'s replies")
        check(run(snap, "--json", "inventory") == run(good, "--json", "inventory"),
              "the snapshot replays the same inventory")
        fleet(tmp, good, bad)
    tally.done()


if __name__ == "__main__":
    main()
