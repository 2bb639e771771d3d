#!/usr/bin/env python3
"""rail.cabling on real LLDP: real lldpd daemons in network namespaces.

A "node" namespace holds veths named exactly like the rail netdevs of the
a800-8x100g-roce fixture (enp25s0np0 ... : rails 0-7); each veth's peer is
port EthernetN of a "switch" namespace leaf-rK whose own lldpd announces
that system name.  What the node's lldpd heard (`lldpcli -f json show
neighbors`, real bytes) goes into a scratch copy of the fixture at
.rdmadoctor/lldp/neighbors, where a snapshot keeps it, and `rdmadoctor
check --json --root COPY` judges it under a site file's rail_switch lines:

  - cabled right: no rail.cabling finding, the rails list the switches;
  - two veths swapped between leaf-r2 and leaf-r3: ONE finding naming
    rails 2 and 3, both devices and the switch ports seen;
  - rail 3 on leaf-r2 with distinct_switches = yes (no rail_switch):
    one finding naming both rails on leaf-r2;
  - leaf-r5's lldpd stopped: rail 5 not checked (a warning, counted), so
    the node cannot pass; the node's lldpd stopped: lldpcli fails, which
    the reader records as ECONNREFUSED, and every rail is not checked.

Root, ip, unshare, nsenter and lldpd are needed (exit 77 otherwise).
Every namespace and daemon this starts is removed on the way out, and
every wait is bounded.

usage: rail_cabling_ns.py RDMADOCTOR FIXTURES_DIR
"""
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

RAILS = ["enp25s0np0", "enp27s0np0", "enp77s0np0", "enp79s0np0",
         "enp154s0np0", "enp156s0np0", "enp204s0np0", "enp206s0np0"]
TAG = f"rdrc{os.getpid()}"          # our namespaces' prefix: rdrc<pid>-...
WAIT_S = 40                         # longest wait for lldpd to hear a change

SITE = "[site]\n" + "".join(f"rail_switch = {k} leaf-r{k}\n" for k in range(8))
PROFILE = ("[profile]\nname = a800-rails\nbased_on = a800-8x100g-roce\n"
           "[rail]\ndistinct_switches = yes\n")


def sh(*argv, check=True, timeout=20):
    return subprocess.run(argv, capture_output=True, text=True, check=check, timeout=timeout)


def can_run():
    if os.geteuid() != 0:
        return "not root"
    for tool in ("ip", "unshare", "nsenter", "lldpd", "lldpcli"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            return f"no {tool}"
    try:
        sh("ip", "netns", "add", f"{TAG}-probe")
        sh("ip", "netns", "del", f"{TAG}-probe")
    except (subprocess.SubprocessError, OSError) as e:
        return f"cannot make a network namespace: {e}"
    return None


def stale_cleanup():
    """Namespaces an earlier run of this test left (killed by a timeout):
    only ours, and only those whose process is gone."""
    out = sh("ip", "netns", "list", check=False).stdout
    for line in out.splitlines():
        name = line.split()[0] if line.split() else ""
        if not name.startswith("rdrc") or "-" not in name:
            continue
        pid = name[4:name.index("-")]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            sh("ip", "netns", "del", name, check=False)


class Lab:
    """One node namespace, leaf namespaces leaf-r0..leaf-r7, a veth per
    rail to the leaf the wiring names, lldpd in each."""

    def __init__(self, tmp, wiring):
        self.tmp, self.daemons, self.ns = tmp, {}, []
        self.node = f"{TAG}-node"
        self.add_ns(self.node)
        leaves = sorted({leaf for leaf, _ in wiring})
        for leaf in leaves:
            self.add_ns(self.leaf_ns(leaf))
        for k, (leaf, port) in enumerate(wiring):
            sh("ip", "link", "add", RAILS[k], "netns", self.node, "type", "veth",
               "peer", "name", port, "netns", self.leaf_ns(leaf))
            sh("ip", "-n", self.node, "link", "set", RAILS[k], "up")
            sh("ip", "-n", self.leaf_ns(leaf), "link", "set", port, "up")
        for leaf in leaves:
            self.start(self.leaf_ns(leaf), f"leaf-r{leaf}")
        self.start(self.node, "gpu-node-1")
        for ns in self.daemons:
            self.fast(ns)

    @staticmethod
    def leaf_ns(leaf):
        return f"{TAG}-leaf{leaf}"

    def add_ns(self, name):
        sh("ip", "netns", "add", name)
        self.ns.append(name)
        sh("ip", "-n", name, "link", "set", "lo", "up")

    def start(self, ns, hostname):
        """lldpd in ns with its own /run and hostname (the system name it
        sends).  Its configuration files are the host's: -O names an empty one,
        so nothing of the machine's own lldpd setup comes in."""
        conf = os.path.join(self.tmp, f"{ns}.conf")
        open(conf, "w").close()
        log = open(os.path.join(self.tmp, f"{ns}.log"), "w")
        script = ("mount -t tmpfs tmpfs /run && mkdir -p /run/lldpd && "
                  f"exec lldpd -d -O {conf}")
        p = subprocess.Popen(["ip", "netns", "exec", ns, "unshare", "-m", "-u", "sh", "-c",
                              f"hostname {hostname} && {script}"],
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.daemons[ns] = p

    def fast(self, ns):
        """Send every second (the default 30 s would outlast the waits):
        through the daemon's socket once it is up, 10 s at most."""
        p = self.daemons[ns]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # and resume: lldpd starts paused until lldpcli has run its
            # configuration, and now and then stays so when that races
            r = subprocess.run(["nsenter", "-t", str(p.pid), "-m", "-n", "lldpcli",
                                "configure", "lldp", "tx-interval", "1"],
                               capture_output=True, timeout=10)
            if r.returncode == 0:
                r = subprocess.run(["nsenter", "-t", str(p.pid), "-m", "-n", "lldpcli",
                                    "resume"], capture_output=True, timeout=10)
            if r.returncode == 0:
                return
            time.sleep(0.2)
        raise RuntimeError(f"lldpd in {ns} did not take tx-interval 1 in 10 s")

    def stop(self, ns):
        p = self.daemons.pop(ns, None)
        if not p:
            return
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=5)

    def lldpcli(self):
        """The node's `lldpcli -f json show neighbors`: (rc, stdout bytes, stderr)."""
        p = self.daemons.get(self.node)
        if not p:
            # no daemon: lldpcli in a fresh /run finds no socket, as on a
            # machine where lldpd is not running
            r = subprocess.run(["ip", "netns", "exec", self.node, "unshare", "-m", "sh", "-c",
                                "mount -t tmpfs tmpfs /run && lldpcli -f json show neighbors"],
                               capture_output=True, timeout=20)
        else:
            r = subprocess.run(["nsenter", "-t", str(p.pid), "-m", "-n", "lldpcli", "-f",
                                "json", "show", "neighbors"], capture_output=True, timeout=20)
        return r.returncode, r.stdout, r.stderr.decode(errors="replace")

    def heard(self):
        """{ifname: system name} of what the node's lldpd heard now."""
        rc, out, _ = self.lldpcli()
        if rc != 0:
            return {}
        try:
            ifs = json.loads(out).get("lldp", {}).get("interface", [])
        except ValueError:
            return {}
        if isinstance(ifs, dict):
            ifs = [{k: v} for k, v in ifs.items()]
        seen = {}
        for entry in ifs:
            for ifname, body in entry.items():
                chassis = body.get("chassis", {})
                names = [k for k in chassis if k != "id"]
                seen[ifname] = names[0] if names else None
        return seen

    def daemon_cli(self, ns, *argv):
        """lldpcli ARGV against the lldpd running in ns: (rc, stdout text)."""
        p = self.daemons[ns]
        r = subprocess.run(["nsenter", "-t", str(p.pid), "-m", "-n", "lldpcli", *argv],
                           capture_output=True, timeout=10)
        return r.returncode, r.stdout.decode(errors="replace")

    def kick(self):
        """Halfway through a wait that has not settled: say what each daemon
        has sent and received, then make every one send at once and resume.
        Once in a few hundred labs (seen only on a loaded CI machine) one
        leaf's ports stayed silent for the whole wait; the lab is this test's
        fixture, not its subject, so it is nudged, and the nudge is printed."""
        print("lldpd has not settled halfway: counters, then `lldpcli update` everywhere")
        for ns in list(self.daemons):
            rc, out = self.daemon_cli(ns, "-f", "keyvalue", "show", "statistics")
            # lldp.IFNAME.tx.tx=N and lldp.IFNAME.rx.rx=N
            sums = [line[5:] for line in out.splitlines()
                    if line.startswith("lldp.") and (".tx.tx=" in line or ".rx.rx=" in line)]
            print(f"  {ns}: statistics exit {rc}: {' '.join(sums) or '(no interface)'}")
            self.daemon_cli(ns, "update")
            self.daemon_cli(ns, "resume")

    def wait_for(self, want):
        """Until the node hears exactly want ({ifname: system}), WAIT_S at most."""
        start = time.monotonic()
        kicked = False
        seen = {}
        while time.monotonic() < start + WAIT_S:
            seen = self.heard()
            if seen == want:
                return True
            if not kicked and time.monotonic() > start + WAIT_S / 2:
                self.kick()
                kicked = True
            time.sleep(0.5)
        print(f"lldpd did not settle in {WAIT_S} s: wanted {want}, heard {seen}")
        rc, _, err = self.lldpcli()
        print(f"  node lldpcli: exit {rc} {err.strip()}")
        for ns, p in self.daemons.items():
            with open(os.path.join(self.tmp, f"{ns}.log")) as f:
                tail = f.read().splitlines()[-3:]
            print(f"  {ns}: lldpd {'running' if p.poll() is None else 'exited'}: {tail}")
        return False

    def close(self):
        for ns in list(self.daemons):
            self.stop(ns)
        for ns in reversed(self.ns):
            sh("ip", "netns", "del", ns, check=False)
        self.ns = []


def capture(h, lab, root):
    """The node's lldpcli bytes into the tree, as a snapshot keeps them."""
    d = os.path.join(root, ".rdmadoctor", "lldp")
    os.makedirs(d, exist_ok=True)
    rc, out, err = lab.lldpcli()
    if rc == 0:
        with open(os.path.join(d, "neighbors"), "wb") as f:
            f.write(out)
    else:
        # what the reader's live path records when lldpcli exits non-zero
        h.expect("unable to connect" in err, "lldpcli without lldpd says it cannot connect", err)
        with open(os.path.join(d, "neighbors.errno"), "w") as f:
            f.write(f"{errno.ECONNREFUSED}\n")
    return root


def tree(h, name, site=SITE):
    root = h.copy("a800-8x100g-roce", name)
    # the example's own lldpcli answer goes: this node's lldpd answers here
    shutil.rmtree(os.path.join(root, ".rdmadoctor", "lldp"), ignore_errors=True)
    if site is not None:
        os.makedirs(os.path.join(root, "etc", "rdmadoctor"), exist_ok=True)
        with open(os.path.join(root, "etc", "rdmadoctor", "rdmadoctor.conf"), "w") as f:
            f.write(site)
    return root


def cabling(doc):
    return [f for f in doc["findings"] if f["id"] == "rail.cabling"]


def right_wiring():
    return [(k, f"Ethernet{k + 1}") for k in range(8)]


def main():
    h = Harness("rail-cabling-ns")
    why = can_run()
    if why:
        print(f"SKIP: {why}")
        sys.exit(77)
    stale_cleanup()
    lab = None

    def on_signal(signum, _frame):
        if lab:
            lab.close()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        # 1. cabled right
        wiring = right_wiring()
        lab = Lab(h.tmp, wiring)
        want = {RAILS[k]: f"leaf-r{leaf}" for k, (leaf, _) in enumerate(wiring)}
        h.expect(lab.wait_for(want), "the node hears leaf-r0..7")
        root = capture(h, lab, tree(h, "right"))
        rc, doc, _, err = h.run(root)
        h.expect(doc is not None and cabling(doc) == [], "cabled right: no rail.cabling",
                 doc and cabling(doc) or err)
        if doc:
            got = [(r["rail"], r["device"], (r["neighbor"] or {}).get("system"),
                    (r["neighbor"] or {}).get("port")) for r in doc["rails"]]
            h.expect(got == [(k, f"mlx5_{k}", f"leaf-r{k}", f"Ethernet{k + 1}")
                             for k in range(8)], "rails[] name each rail's switch and port", got)
            h.expect(doc["verdict"] == "pass", "cabled right passes", doc["verdict"])

        # 2. the cables of rails 2 and 3 swapped at the switches
        lab.close()
        wiring = right_wiring()
        wiring[2], wiring[3] = (3, "Ethernet4"), (2, "Ethernet3")
        lab = Lab(h.tmp, wiring)
        want = {RAILS[k]: f"leaf-r{leaf}" for k, (leaf, _) in enumerate(wiring)}
        h.expect(lab.wait_for(want), "the node hears the crossed pair")
        root = capture(h, lab, tree(h, "crossed"))
        rc, doc, _, err = h.run(root)
        found = cabling(doc) if doc else []
        h.expect(len(found) == 1, "a crossed pair is ONE finding", found or err)
        if found:
            f = found[0]
            h.expect(f["severity"] == "error" and rc == 1, "an error, exit 1", (f, rc))
            h.expect(f["subject"] == "mlx5_2 port 1 and mlx5_3 port 1", "both devices",
                     f["subject"])
            h.expect(f["observed"].startswith("rails 2 and 3 swapped: rail 2 (mlx5_2 port 1) "
                                              "reaches leaf-r3 port Ethernet4"),
                     "names both rails and the switch port seen", f["observed"])
            h.expect("rail 3 (mlx5_3 port 1) reaches leaf-r2 port Ethernet3" in f["observed"],
                     "and the other rail's", f["observed"])
            h.expect(f["fix"].startswith("swap the cables of mlx5_2 port 1 and mlx5_3 port 1"),
                     "the fix is the one swap", f["fix"])

        # 3. rail 3 on leaf-r2 too, under distinct_switches (no rail_switch)
        lab.close()
        wiring = right_wiring()
        wiring[3] = (2, "Ethernet9")
        lab = Lab(h.tmp, wiring)
        want = {RAILS[k]: f"leaf-r{leaf}" for k, (leaf, _) in enumerate(wiring)}
        h.expect(lab.wait_for(want), "the node hears rail 3 on leaf-r2")
        root = capture(h, lab, tree(h, "shared", site=None))
        prof = os.path.join(h.tmp, "a800-rails.ini")
        with open(prof, "w") as f:
            f.write(PROFILE)
        rc, doc, _, err = h.run(root, "--profile", prof)
        found = cabling(doc) if doc else []
        h.expect(len(found) == 1 and found[0]["subject"] == "mlx5_2 port 1 and mlx5_3 port 1"
                 and found[0]["observed"].startswith("rails 2 and 3 reach one switch, leaf-r2"),
                 "two rails on one switch: one finding naming both", found or err)
        rc, doc, _, err = h.run(root)
        h.expect(doc is not None and cabling(doc) == [],
                 "the same without distinct_switches or rail_switch: nothing judged",
                 doc and cabling(doc) or err)

        # 4. leaf-r5's lldpd stopped (it says goodbye: TTL 0), then the node's
        wiring = right_wiring()
        lab.close()
        lab = Lab(h.tmp, wiring)
        want = {RAILS[k]: f"leaf-r{k}" for k in range(8)}
        h.expect(lab.wait_for(want), "the node hears leaf-r0..7 again")
        lab.stop(Lab.leaf_ns(5))
        del want[RAILS[5]]
        h.expect(lab.wait_for(want), "leaf-r5 gone from what the node hears")
        root = capture(h, lab, tree(h, "leaf-stopped"))
        rc, doc, _, err = h.run(root)
        found = cabling(doc) if doc else []
        h.expect(len(found) == 1 and found[0]["subject"] == "mlx5_5 port 1" and
                 found[0].get("unchecked") and found[0]["severity"] == "warn" and
                 "lldpd heard no LLDP neighbour on enp156s0np0" in found[0]["observed"],
                 "a rail whose switch said nothing: not checked, a warning", found or err)
        h.expect(doc is not None and doc["verdict"] == "warn" and doc["unchecked"] >= 1,
                 "and the node does not pass", doc and (doc["verdict"], doc["unchecked"]))

        lab.stop(lab.node)
        root = capture(h, lab, tree(h, "node-stopped"))
        rc, doc, _, err = h.run(root)
        found = cabling(doc) if doc else []
        h.expect(len(found) == 8 and all(f.get("unchecked") and "lldpd is not running"
                                         in f["observed"] for f in found),
                 "lldpd not running: every rail not checked", found or err)
        h.expect(doc is not None and doc["verdict"] == "warn", "and no pass",
                 doc and doc["verdict"])
    finally:
        if lab:
            lab.close()
    h.done()


if __name__ == "__main__":
    main()
