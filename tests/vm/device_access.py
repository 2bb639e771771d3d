#!/usr/bin/env python3
"""Inside the VM (tests/vm/vm-run.sh; its root is a throw-away overlay):
real /dev/infiniband nodes with real modes, owners and ACLs against what
rdmadoctor says, with the kernel as the oracle: an unprivileged user
actually opens the node (setpriv).  Then pam_limits itself (runuser -l)
against the tool's reading of a limits.d file, and a snapshot replay.
usage: device_access.py RDMADOCTOR OUTDIR"""
import json, os, re, shutil, struct, subprocess, sys

bin_, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
UV = "/dev/infiniband/uverbs0"
CM = "/dev/infiniband/rdma_cm"
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def sh(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


def opens(user, path):
    """The oracle: can USER open PATH read-write? (the kernel decides)"""
    r = sh("setpriv", "--reuid=" + user, "--regid=users", "--init-groups", "--",
           "/bin/sh", "-c", 'exec 3<>"$1"', "sh", path, cwd="/")
    if r.returncode and "Permission denied" not in r.stderr:
        print("oracle:", r.returncode, r.stderr.strip())
    return r.returncode == 0


def site(text):
    os.makedirs("/etc/rdmadoctor", exist_ok=True)
    with open("/etc/rdmadoctor/rdmadoctor.conf", "w") as f:
        f.write("[site]\n" + text)


def check(root=None):
    args = [bin_] + (["--root", root] if root else []) + ["--json", "check"]
    r = sh(*args)
    doc = json.loads(r.stdout)
    return [f for f in doc["findings"] if f["id"] in ("sys.device_access", "sys.job_memlock")]


def access(findings, subject):
    return [f for f in findings if f["id"] == "sys.device_access" and f["subject"] == subject]


def node(name):
    doc = json.loads(sh(bin_, "--json", "inventory").stdout)
    return next(n for n in doc["host"]["device_nodes"] if n["name"] == name)


for p in (UV, CM, "/dev/infiniband/umad0", "/dev/infiniband/issm0"):
    if not os.path.exists(p):
        print("skip: no", p)
        sys.exit(77)

# a throw-away account and group (the overlay vanishes with the VM)
sh("groupadd", "-g", "4321", "rdtestg")
sh("useradd", "-M", "-u", "4321", "-g", "users", "-s", "/bin/sh", "rdtest")

# 1. as the kernel made them
for name, mode in (("uverbs0", "0666"), ("umad0", "0600"), ("issm0", "0600"), ("rdma_cm", "0666")):
    st = os.stat("/dev/infiniband/" + name)
    n = node(name)
    ok(n["present"] and n["char_device"] and n["mode"] == "%04o" % (st.st_mode & 0o7777)
       and n["uid"] == st.st_uid and n["gid"] == st.st_gid and n["owner"] == "root",
       "%s as stat says: %s" % (name, n))
    print("kernel's", name, n["mode"], "expected", mode)
f = check()
ok(not access(f, "rxe0") and opens("rdtest", UV), "0666 uverbs0: open to any user, and it opens")

# 2. closed to a group: any user, and rdtest, cannot; the tool agrees with open(2)
os.chown(UV, 0, 4321)
os.chmod(UV, 0o660)
f = check()
ok(access(f, "rxe0") and "crw-rw---- root:rdtestg" in access(f, "rxe0")[0]["observed"],
   "0660 root:rdtestg: error for any user %s" % f)
site("job_user = rdtest\n")
f = check()
oracle = opens("rdtest", UV)
ok(bool(access(f, "rxe0")) == (not oracle) and not oracle, "rdtest outside the group: tool %s, open %s"
   % (bool(access(f, "rxe0")), oracle))
sh("usermod", "-a", "-G", "rdtestg", "rdtest")
f = check()
oracle = opens("rdtest", UV)
ok(not access(f, "rxe0") and oracle, "rdtest in the group: tool %s, open %s" % (f, oracle))
sh("gpasswd", "-d", "rdtest", "rdtestg")

# 3. a POSIX ACL naming rdtest (set through the xattr, as setfacl does)
def set_acl(path, entries):
    os.setxattr(path, "system.posix_acl_access",
                struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in entries))

try:
    set_acl(UV, [(1, 6, 0xffffffff), (2, 6, 4321), (4, 6, 0xffffffff), (0x10, 6, 0xffffffff),
                 (0x20, 0, 0xffffffff)])
    acl_ok = True
except OSError as e:
    print("ACL not settable here:", e)
    acl_ok = False
if acl_ok:
    n = node("uverbs0")
    ok("user:4321:rw-" in (n["acl"] or []), "the ACL read back: %s" % n)
    f = check()
    oracle = opens("rdtest", UV)
    ok(not access(f, "rxe0") and oracle, "ACL user:rdtest:rw-: tool %s, open %s" % (f, oracle))
    set_acl(UV, [(1, 6, 0xffffffff), (2, 6, 4321), (4, 6, 0xffffffff), (0x10, 4, 0xffffffff),
                 (0x20, 0, 0xffffffff)])
    f = check()
    oracle = opens("rdtest", UV)
    ok(access(f, "rxe0") and not oracle, "ACL masked to r--: tool %s, open %s" % (f, oracle))

# 4. rdma_cm root-only
os.chmod(CM, 0o600)
f = check()
ok(access(f, "host") and not opens("rdtest", CM), "rdma_cm 0600: %s" % access(f, "host"))

# 5. a snapshot replays the same verdicts
live = sorted((x["subject"], x["observed"]) for x in check() if x["id"] == "sys.device_access")
# (in the VM's own memory: thousands of files created on the 9p share cost
# a minute under TCG, and only this part reads them)
snap = "/tmp/access-snap"
shutil.rmtree(snap, ignore_errors=True)
r = sh(bin_, "snapshot", snap)
replay = sorted((x["subject"], x["observed"]) for x in check(snap)
                if x["id"] == "sys.device_access")
ok(r.returncode == 0 and live == replay and live, "snapshot replay: %s vs %s" % (live, replay))

# 6. pam_limits itself against the tool: rdtest's own soft line, the group's
# "-" line (worse source: pam returns at its soft half), "*"'s hard line
os.makedirs("/etc/security/limits.d", exist_ok=True)
with open("/etc/security/limits.d/50-rdtest.conf", "w") as fh:
    fh.write("rdtest soft memlock 1024\n@rdtestg - memlock 4096\n*  hard  memlock 8192\n")
sh("usermod", "-a", "-G", "rdtestg", "rdtest")
r = sh("runuser", "-l", "rdtest", "-c", "ulimit -Sl; ulimit -Hl")
pam = r.stdout.split()
site("job_user = rdtest\n")
obs = " ".join(x["observed"] for x in check() if x["id"] == "sys.job_memlock")
units = {"KiB": 1, "MiB": 1024, "GiB": 1 << 20}
def kib(kind):
    m = re.search(kind + r" memlock of (\d+) (KiB|MiB|GiB)", obs)
    return str(int(m.group(1)) * units[m.group(2)]) if m else "unlimited"
ok(pam == [kib("soft"), kib("hard")], "pam_limits gives %s, the tool reads %s (%s)"
   % (pam, [kib("soft"), kib("hard")], obs))
print("pam_limits (runuser -l) soft/hard KiB:", pam)

print("device access in the VM: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
