#!/usr/bin/env python3
"""The verdict engineers can trust: the profile comes from what the
machine is, the site file, "not checked" infos, nothing to check.

Every fixture machine is copied and changed the way a machine changes
(rails pulled from sys/class/infiniband, a site file written under etc/)
and judged again.

usage: verdict.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness, drop_root, take_dcb  # noqa: E402

h = Harness("verdict")
binary, fixtures, tmp, expect = h.binary, h.fixtures, h.tmp, h.expect
run, copy = h.run, h.copy




def site(root, text):
    d = os.path.join(root, "etc", "rdmadoctor")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "rdmadoctor.conf"), "w") as f:
        f.write(text)


shapes = sorted(d for d in os.listdir(fixtures)
                if os.path.isdir(os.path.join(fixtures, d, "root")))

# --- every machine with its rails pulled fails ------------------------------
# GPU classes with a network design (src/profiles/gpu_class.c)
TRAINING = ("A100", "A800", "H100", "H800", "H200", "H20", "B200", "Instinct MI3")
for shape in shapes:
    rc, doc, _, err = run(os.path.join(fixtures, shape, "root"))
    rails = [n for n, r in doc["roles"].items() if r == "rail"]
    root = copy(shape, shape + "-norails")
    for n in rails:
        os.unlink(os.path.join(root, "sys", "class", "infiniband", n))
    # an Ascend machine's rails are its NPUs' own ports (docs/ascend.md):
    # pulled, hccn_tool answers for none of them
    npu = bool(doc["inventory"].get("npus"))
    if npu:
        rails = ["NPU ports"]
        shutil.rmtree(os.path.join(root, ".rdmadoctor", "hccn"))
    rc2, doc2, _, err2 = run(root)
    ids = {f["id"] for f in doc2["findings"] if f["severity"] == "error"} if doc2 else set()
    # the generic profile on GPUs of no training class (L40S: no design
    # pairs them with NICs, src/profiles/gpu_class.c) expects no rail, so
    # nothing can be missing: it says there is no RDMA device, and passes
    gpus = [g.get("model") or "" for g in doc["inventory"].get("gpus", [])]
    if doc["profile"] == "generic" and not any(m.startswith(TRAINING) for m in gpus):
        expect(doc2 and doc2["verdict"] == "pass" and "no RDMA devices" in err2,
               f"{shape} without its rails: generic expects none, and says there are none",
               f"rc {rc2}, {doc2 and doc2['verdict']} {err2}")
        continue
    expect(rc2 == 1 and doc2["verdict"] == "fail" and
           ids & ({"npu.unreadable"} if npu else {"nic.count", "nic.bandwidth_per_gpu"}),
           f"{shape} without its rails {rails} fails",
           f"rc {rc2}, profile {doc2 and doc2['profile']}, errors {sorted(ids)} {err2}")
    expect(doc2 and doc2["profile"] == doc["profile"],
           f"{shape}: pulling the rails does not change the profile",
           f"{doc['profile']} -> {doc2 and doc2['profile']}")

# --- the budget build: fails by itself, passes only when named ---------------
bud = os.path.join(fixtures, "a800-2x100g-roce", "root")
rc, doc, _, _ = run(bud)
expect(rc == 1 and doc["profile"] != "budget-2x100g-roce",
       "a800-2x100g-roce fails under automatic selection", f"rc {rc} {doc['profile']}")
bw = [f for f in doc["findings"] if f["id"] == "nic.bandwidth_per_gpu"]
expect(bw and bw[0]["severity"] == "error" and "8 GPUs share 200 Gb/s" in bw[0]["observed"],
       "8 A800 on 2 x 100G: nic.bandwidth_per_gpu is an error", str(bw))
# its PFC (required) read from its DCB replies
rc, doc, _, _ = run(os.path.join(fixtures, "a800-2x100g-roce", "root"),
                    "--profile", "budget-2x100g-roce")
bw = [f for f in doc["findings"] if f["id"] == "nic.bandwidth_per_gpu"]
others = [f["id"] for f in doc["findings"] if f["severity"] in ("error", "warn")
          and f["id"] != "nic.bandwidth_per_gpu"]
expect(rc == 0 and doc["verdict"] == "warn" and bw and bw[0]["severity"] == "warn"
       and not others and doc["profile_source"] == "--profile",
       "--profile budget-2x100g-roce passes, the per-GPU figure a warning",
       f"rc {rc} {doc['verdict']} {bw} {others}")

# --- what the profile wants but cannot be read is said -----------------------
a8 = copy("a800-8x100g-roce", "no-dcb")
take_dcb(a8)
rc, doc, out, _ = run(a8)
pfc = [f for f in doc["findings"] if f["id"] == "roce.pfc"]
# the profile names PFC and trust: required, so unseen weighs as a warning
# (issue 43; tests/check/required.py)
expect(rc == 0 and pfc and all(f["severity"] == "warn" and f.get("unchecked") and
                               f.get("required") and
                               "not checked" in f["observed"] and "DCB" in f["observed"]
                               for f in pfc),
       "a800-8x100g-roce without DCB replies: roce.pfc 'not checked' warnings", str(pfc[:1]))
expect(doc["unchecked"] == sum(1 for f in doc["findings"] if f.get("unchecked")) > 0,
       "\"unchecked\" counts them", str(doc["unchecked"]))
rc, _, out, _ = run(a8, json_out=False)
expect(f"{doc['unchecked']} unchecked" in out.split("\n\n")[0],
       "the summary line says how many were not checked", out.split("\n\n")[0])

# --- nothing to check: exit 3, never PASS ------------------------------------
empty = os.path.join(tmp, "empty")
os.makedirs(empty)
for args in ([], ["--profile", "dgx-h100"]):
    for js in (True, False):
        rc, doc, out, err = run(empty, *args, json_out=js)
        # --json still writes its document, saying why (issue 29)
        said = (doc == {"schema": 1, "verdict": "error", "error": doc["error"]} and
                "nothing to check" in doc["error"]) if js else out == ""
        expect(rc == 3 and said and "nothing to check" in err,
               f"an empty root {args} {'--json' if js else 'text'} exits 3", f"rc {rc} {out} {err}")

# a datacenter-GPU machine with no RDMA device at all fails, generic too
nonic = copy("hgx-a100-8x200g", "nonic")
shutil.rmtree(os.path.join(nonic, "sys", "class", "infiniband"))
for args in ([], ["--profile", "generic"]):
    rc, doc, _, _ = run(nonic, *args)
    bw = [f for f in doc["findings"] if f["id"] == "nic.bandwidth_per_gpu"]
    expect(rc == 1 and bw and bw[0]["severity"] == "error" and
           "no RDMA rail port" in bw[0]["observed"],
           f"8 A100 and no RDMA NIC fail {args}", str(bw))

# generic judges placement too: no NIC near any datacenter GPU
rc, doc, _, _ = run(bud, "--profile", "generic")
far = [f for f in doc["findings"] if f["id"] == "topo.nic_far"]
expect(len(far) == 2 and all(f["severity"] == "error" for f in far) and
       "nearest GPUs (" in far[0]["observed"],
       "generic: topo.nic_far on both far NICs, every nearest GPU named", str(far))

# --- the site file -----------------------------------------------------------
r = copy("a800-2x100g-roce", "site-profile")
site(r, "# the fleet's own word\n[site]\nprofile = budget-2x100g-roce\n")
rc, doc, _, err = run(r)
expect(rc == 0 and doc["profile"] == "budget-2x100g-roce" and
       doc["profile_source"] == "site file" and "site file" in doc["profile_reason"],
       "the site file names the profile", f"rc {rc} {doc and doc['profile_reason']} {err}")
# record and watch judge through the same pipeline: they read it too
db = os.path.join(tmp, "fleet.db")
res = subprocess.run([binary, "--root", r, "record", "--db", db], capture_output=True, text=True,
                     timeout=60)
ls = subprocess.run([binary, "--json", "fleet", "--db", db, "ls"], capture_output=True,
                    text=True, timeout=60)
hosts = json.loads(ls.stdout)["hosts"] if ls.returncode == 0 else []
expect(res.returncode == 0 and hosts and hosts[0]["profile"] == "budget-2x100g-roce",
       "record judges under the site file's profile", res.stderr + ls.stderr)
rc, doc, _, _ = run(r, "--profile", "a800-8x100g-roce")
expect(rc == 1 and doc["profile"] == "a800-8x100g-roce" and doc["profile_source"] == "--profile",
       "--profile wins over the site file")

# a profile file named by its path on the machine, read through --root
os.makedirs(os.path.join(r, "etc", "rdmadoctor", "profiles"))
with open(os.path.join(r, "etc", "rdmadoctor", "profiles", "mine.ini"), "w") as f:
    f.write("[profile]\nname = mine\nbased_on = budget-2x100g-roce\n[rail]\nrate_gbps = 200\n")
site(r, "[site]\nprofile = /etc/rdmadoctor/profiles/mine.ini\n")
rc, doc, _, err = run(r)
expect(rc == 1 and doc["profile"] == "mine" and
       any(f["id"] == "port.rate_low" for f in doc["findings"]),
       "the site file's profile file is read through the root", f"rc {rc} {err}")

# a snapshot keeps the site file and the profile file it names: the replay
# judges as the machine was judged
snap = os.path.join(tmp, "site-snapshot")
res = subprocess.run([binary, "--root", r, "snapshot", snap], capture_output=True, text=True,
                     timeout=120)
rc2, doc2, _, err2 = run(snap) if res.returncode == 0 else (None, None, "", res.stderr)
expect(doc2 and doc2["profile"] == "mine" and doc2["profile_source"] == "site file" and
       doc2["verdict"] == doc["verdict"],
       "snapshot keeps the site file and its profile file", f"{res.stderr} {err2}")

# waived ids: kept in JSON, not counted
rtx = os.path.join(fixtures, "rtx4090-cx6dx-x8", "root")
rc, doc, _, _ = run(rtx)
warned = sorted({f["id"] for f in doc["findings"] if f["severity"] == "warn"})
expect(doc["verdict"] == "warn" and "sys.job_memlock" in warned, "rtx4090 warns of memlock",
       str(warned))
r = copy("rtx4090-cx6dx-x8", "site-ignore")
# the id it had before it judged the jobs' limits still waives it
site(r, "[site]\nignore = sys.memlock\n" + "".join(f"ignore = {i}\n" for i in warned
                                                   if i != "sys.job_memlock"))
rc, doc2, out, _ = run(r)
w = [f for f in doc2["findings"] if f.get("waived")]
expect(rc == 0 and doc2["verdict"] == "pass" and len(doc2["findings"]) == len(doc["findings"])
       and {f["id"] for f in w} == set(warned),
       "waived findings stay in JSON with waived: true and leave the verdict", str(w))
rc, _, out, _ = run(r, json_out=False)
expect(out.startswith("PASS") and "waived" in out, "text says what was waived", out[:200])
site(r, "[site]\nignore = port.fec\n")
rc, doc3, _, _ = run(r)
expect(doc3["verdict"] == "warn" and not any(f.get("waived") for f in doc3["findings"]),
       "only the ids named are waived")

# rail / storage names where the PCI tree cannot tell
r = copy("a800-8x100g-roce", "site-roles")
site(r, "[site]\nstorage = mlx5_0\nrail = mlx5_8, mlx5_9\n")
rc, doc, out, _ = run(r)
expect(doc["roles"]["mlx5_0"] == "storage" and doc["roles"]["mlx5_8"] == "rail",
       "the site file's roles are used", str(doc["roles"]))
rc, _, out, _ = run(r, json_out=False)
expect(any(l.startswith("  storage:") and "mlx5_0" in l for l in out.splitlines()),
       "check text labels storage NICs", out[:400])

# roles in the views: storage NICs labelled, never called far
res = subprocess.run([binary, "--root", r, "topo"], capture_output=True, text=True, timeout=60)
line = [l for l in res.stdout.splitlines() if l.startswith("  mlx5_0 ")]
expect(res.returncode == 0 and line and line[0].endswith("storage") and "far" not in line[0],
       "topo labels the storage NIC and does not call it far", str(line))
res = subprocess.run([binary, "--root", r, "inventory"], capture_output=True, text=True,
                     timeout=60)
expect(any(l.startswith("  mlx5_0 ") and l.endswith("  storage") for l in res.stdout.splitlines())
       and any(l.startswith("  mlx5_8 ") and l.endswith("  rail") for l in res.stdout.splitlines()),
       "inventory labels each NIC's role")
res = subprocess.run([binary, "--root", os.path.join(fixtures, "dgx-h100", "root"), "topo"],
                     capture_output=True, text=True, timeout=60)
expect("CPU Affinity" in res.stdout and "NUMA Affinity" in res.stdout and
       any(l.startswith("GPU0 ") and l.split()[-1] == "0" for l in res.stdout.splitlines()),
       "topo has the CPU and NUMA affinity columns of nvidia-smi topo -m", res.stdout[:300])

# the commented site file the package ships reads as it is, and with every
# example key uncommented
dist = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dist",
                    "rdmadoctor.conf")
if os.path.exists(dist):
    text = open(dist).read()
    for variant in (text, "\n".join(l[1:] if re.match(r"#[a-z_]+ = ", l) else l
                                     for l in text.splitlines()) + "\n"):
        # a machine with the devices its examples name (mlx5_0..9): a
        # device the machine lacks is refused (issue 43)
        r = copy("a800-8x100g-roce", "site-dist")
        site(r, variant)
        rc, doc, _, err = run(r)
        expect(rc in (0, 1) and doc, "the shipped site file parses", f"rc {rc} {err}")
        drop_root(r)



def view(root, verb, *args):
    res = subprocess.run([binary, "--root", root, *args, verb], capture_output=True,
                         text=True, timeout=60)
    return res.returncode, res.stdout, res.stderr


# what the views show of the machine without any site file
plain = {(verb, args): view(os.path.join(fixtures, "dgx-h100", "root"), verb, *args)[1]
         for verb in ("inventory", "topo") for args in ((), ("--json",))}


def view_warns(r, conf, where, want, label):
    """inventory and topo show the machine as if there were no site file,
    and warn on stderr that it is broken and was not applied, naming it."""
    for verb in ("inventory", "topo"):
        for args in ((), ("--json",), ("-q",)):
            rc, out, err = view(r, verb, *args)
            expect(rc == 0 and out == plain[(verb, args if args != ("-q",) else ())] and
                   "warning: the site file is broken and was not applied" in err and
                   where in err and want in err and len(err.strip().splitlines()) == 1,
                   f"{verb} {' '.join(args)} on {label}: shown, warned: {where} ... {want}",
                   f"rc {rc} {err.strip()}")


# a broken site file stops the run with FILE:LINE, like a broken profile
for text, line, want, code in [
        ("[site]\nprofile = a800-8x100g-roce\nfrobnicate = 1\n", 3, "unknown key 'frobnicate'", 2),
        ("[site]\nignore = memlock\n", 2, "not a check id", 2),
        ("[elsewhere]\nprofile = generic\n", 1, "only [site]", 2),
        ("profile = generic\n", 1, "before any section", 2),
        ("[site]\nprofile = generic\nprofile = dgx-h100\n", 3, "given twice", 2),
        ("[site]\nrail = mlx5_0\nstorage = mlx5_0\n", 3, "already", 2),
        ("[site]\nthis is no ini line\n", 2, "expected 'key = value'", 2),
        ("[site]\nprofile = no-such-profile\n", 2, "no built-in profile", 2),
        ("[site]\nprofile = /etc/rdmadoctor/nope.ini\n", 2, "cannot read", 2)]:
    r = copy("dgx-h100", "site-broken")
    site(r, text)
    conf = os.path.join(r, "etc", "rdmadoctor", "rdmadoctor.conf")
    rc, _, out, err = run(r)
    expect(rc == code and out == "" and f"{conf}:{line}: " in err and want in err,
           f"broken site file {text!r}: {conf}:{line}: ... {want}, exit {code}",
           f"rc {rc} {err.strip()}")
    view_warns(r, conf, f"{conf}:{line}: ", want, f"broken site file {text!r}")
    if line == 3 and "frobnicate" in text:
        res = subprocess.run([binary, "--root", r, "watch", "--until", r, "--duration", "60"],
                             capture_output=True, text=True, timeout=60)
        expect(res.returncode == 2 and f"{conf}:3: " in res.stderr,
               "watch stops on a broken site file too", res.stderr)
    drop_root(r)
# a broken profile file named there: its own FILE:LINE
r = copy("dgx-h100", "site-badprofile")
site(r, "[site]\nprofile = /etc/rdmadoctor/bad.ini\n")
with open(os.path.join(r, "etc", "rdmadoctor", "bad.ini"), "w") as f:
    f.write("[profile]\nname = bad\n[rail]\nrate_gbps = fast\n")
rc, _, out, err = run(r)
expect(rc == 2 and out == "" and "bad.ini:4: rate_gbps" in err,
       "a broken profile file named in the site file: FILE:LINE, exit 2", err)
conf = os.path.join(r, "etc", "rdmadoctor", "rdmadoctor.conf")
view_warns(r, conf, f"{conf}:2: profile: ", "bad.ini:4: rate_gbps",
           "a broken profile file named in the site file")
# a site file that cannot be read: could not run
r = copy("dgx-h100", "site-dir")
os.makedirs(os.path.join(r, "etc", "rdmadoctor", "rdmadoctor.conf"))
rc, doc, out, err = run(r)
expect(rc == 3 and doc and doc["verdict"] == "error" and "cannot read the site file" in doc["error"]
       and "cannot read the site file" in err,
       "an unreadable site file exits 3, the --json document says why", f"rc {rc} {out} {err}")
conf = os.path.join(r, "etc", "rdmadoctor", "rdmadoctor.conf")
view_warns(r, conf, f"{conf}: cannot read it", "", "an unreadable site file")

h.done()
