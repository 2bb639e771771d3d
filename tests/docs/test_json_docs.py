#!/usr/bin/env python3
"""Every JSON key the commands print on the fixtures is listed in its
docs/json/<command>.md (as `path`, arrays written [] and maps of the
kernel's own names written .*), so the contract cannot drift from the
output.  Usage: test_json_docs.py BINARY SRCDIR"""
import glob, json, os, re, shutil, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

bin_, src = sys.argv[1], sys.argv[2]
MAPS = {"counters", "hw_counters", "ethtool_stats", "modules", "dscp_map", "netdev_stats", "stat"}
fails = []


def paths(v, p="", parent="", out=None):
    out = set() if out is None else out
    if isinstance(v, dict):
        for k, x in v.items():
            kk = "*" if parent in MAPS else k
            q = p + "." + kk if p else kk
            out.add(q)
            paths(x, q, "" if parent in MAPS else kk, out)
    elif isinstance(v, list):
        for x in v:
            paths(x, p + "[]", "", out)
    return out


def run(*args, ok=(0, 1)):
    r = rdtest.run(bin_, *args)
    if r.returncode not in ok:
        fails.append("%s exited %d: %s" % (" ".join(args), r.returncode, r.stderr[-300:]))
        return None
    return json.loads(r.stdout)


def backticked(page):
    text = open(os.path.join(src, page)).read()
    return set(re.findall(r"`([A-Za-z_*][A-Za-z0-9_.\[\]*]*)`", text))


# subtrees documented on a page of their own, in that page's words: each
# key's last name must appear there
OWN_PAGES = {"npus": "docs/ascend.md"}


def documented(cmd, docs, prefix_rules=()):
    listed = backticked("docs/json/%s.md" % cmd)
    seen = set()
    for d in docs:
        if d is not None:
            paths(d, out=seen)
    for p in sorted(seen):
        q = p
        for a, b in prefix_rules:
            q = q.replace(a, b)
        if cmd == "check" and q.startswith("roles."):	# keyed by device name
            q = "roles.*"
        if q.startswith("npus.devices[].pci."):	# "as a NIC's"
            q = q.replace("npus.devices[].pci.", "nics[].pci.", 1)
        top = q.split(".")[0].split("[")[0]
        if top in OWN_PAGES and q != top and top in listed:
            last = re.sub(r"\[\]$", "", q.split(".")[-1])
            words = set(w for k in backticked(OWN_PAGES[top]) for w in re.split(r"[.\[\]]+", k))
            if last in words or last == "*":
                continue
            fails.append("%s lacks `%s` (of `%s`)" % (OWN_PAGES[top], last, p))
            continue
        if q not in listed:
            fails.append("docs/json/%s.md lacks `%s`" % (cmd, p))
    return seen


roots = sorted(glob.glob(os.path.join(src, "tests/fixtures/*/root"))) + \
    sorted(d for d in glob.glob(os.path.join(src, "examples/*")) if os.path.isdir(d))
inv = [run("--root", r, "--json", "inventory") for r in roots]
bond = [("bond_members[].", "")]
documented("inventory", inv, bond)
chk = [run("--root", r, "--json", "check") for r in roots]
for d in chk:
    if d:
        d.pop("inventory", None)	# documented in inventory.md
# the agent's memory (check --state): a copy of a fixture whose rail port
# went down, then came back, has a finding seen now and one remembered
mem = tempfile.mkdtemp(prefix="json-docs-state.")
try:
    r = os.path.join(mem, "root")
    shutil.copytree(os.path.join(src, "tests/fixtures/a800-8x100g-roce/root"), r, symlinks=True)
    os.makedirs(os.path.join(r, "proc/sys/kernel/random"), exist_ok=True)
    with open(os.path.join(r, "proc/sys/kernel/random/boot_id"), "w") as f:
        f.write("6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70\n")
    st = os.path.join(r, "sys/class/infiniband/mlx5_0/ports/1/state")
    for text in ("1: DOWN\n", "4: ACTIVE\n"):
        with open(st, "w") as f:
            f.write(text)
        d = run("--root", r, "--json", "check", "--state", os.path.join(mem, "state"))
        if d:
            d.pop("inventory", None)
            chk.append(d)
    if not any("latched" in f for f in chk[-1]["findings"] if chk[-1]):
        fails.append("check --state gave no latched finding")
finally:
    shutil.rmtree(mem, ignore_errors=True)
documented("check", chk)
documented("gids", [run("--root", r, "--json", "gids") for r in roots])
documented("topo", [run("--root", r, "--json", "topo") for r in roots])
# a root with no RDMA device (the Ascend ones) has nothing to watch: exit 3
# and the error document, whose keys are documented too
def has_rdma(r):
    ib = os.path.join(r, "sys/class/infiniband")
    return os.path.isdir(ib) and bool(os.listdir(ib))
watch = [run("--root", r, "watch", "--until", r, "--duration", "60", "--json",
             ok=(0, 1) if has_rdma(r) else (3,)) for r in roots]
documented("watch", watch)
documented("profiles", [run("--json", "profiles"), run("--json", "profiles", "show", "dgx-h100")])
tmp = tempfile.mkdtemp(prefix="arch-docs.")
try:
    documented("snapshot", [run("--root", roots[0], "--json", "snapshot", tmp + "/s", ok=(0,))])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
fx = os.path.join(src, "tests/fixtures/roce-broken/root")
stats = run("--root", fx, "--json", "ethtool-stats", "enp24s0np0")
if not stats:
    fails.append("ethtool-stats gave no statistics on roce-broken's enp24s0np0")
documented("ethtool-stats", [{"*": v for v in (stats or {}).values()}])	# the driver's names

# bw and lat over TCP on loopback: a real server and client
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def pair(verb, *client):
    port = str(free_port())
    srv = subprocess.Popen([bin_, "--json", verb, "server", "--port", port, "--bind", "127.0.0.1",
                            "--once"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
    cli = run("--json", verb, "client", "127.0.0.1", "--port", port, "--transport", "tcp", *client)
    try:
        out, _ = srv.communicate(timeout=30)
        s = json.loads(out) if out.strip() else None
    except Exception:
        srv.kill()
        s = None
    return [cli, s]


documented("bw", pair("bw", "--duration", "1", "--warmup", "0.2", "--bidir") +
           pair("lat", "--iters", "2000"))

for f in fails:
    print("FAIL:", f)
print("%d failures" % len(fails))
sys.exit(1 if fails else 0)
