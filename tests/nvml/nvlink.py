#!/usr/bin/env python3
"""nvlink.fabric and nvlink.link_down from NVML's answers (src/nvml/fabric.c,
src/check/nvlink.c), with a STAND-IN for NVML: tests/nvml/nvml_standin.c, a
small library built by the tests that answers the calls the reader makes
from the recorded values written here.  It is not NVIDIA's NVML.

The GPUs are dgx-b200's (its fixture tree); the stand-in answers for them
as the GPUs of a GB200 NVL72 tray answer: fabric registration COMPLETED,
one clique id and one cluster UUID, 18 NVLink links active.  The fixture
records no NVML answer, so rdmadoctor asks the library RDMADOCTOR_NVML
names (for tests and stand-ins, docs/snapshot.md).

usage: nvlink.py RDMADOCTOR FIXTURES_DIR STANDIN_SO
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

h = rdtest.Harness("nvlink")
standin = h.args[0]
root = os.path.join(h.fixtures, "dgx-b200", "root")
GPUS = ["0000:1b:00.0", "0000:43:00.0", "0000:52:00.0", "0000:61:00.0",
        "0000:9d:00.0", "0000:c3:00.0", "0000:d1:00.0", "0000:df:00.0"]
UUID = "5c1e7a2b9d3f4e6a8b0c1d2e3f405162"
ALL_UP = "1" * 18


def answers(name, rows):
    """The stand-in's recorded values: {bdf: (state, status, clique, uuid, links)}."""
    path = os.path.join(h.tmp, name + ".txt")
    with open(path, "w") as f:
        f.write("# stand-in NVML answers: bus-id state status clique uuid links\n")
        for bdf in GPUS:
            state, status, clique, uuid, links = rows.get(bdf, (3, 0, 32766, UUID, ALL_UP))
            f.write(f"{bdf} {state} {status} {clique} {uuid} {links}\n")
    return path


def check(name, rows=None, lib=None, env_extra=True):
    env = dict(os.environ)
    env.pop("RDMADOCTOR_NVML", None)
    env.pop("RDMADOCTOR_NVML_STANDIN", None)
    if env_extra:
        env["RDMADOCTOR_NVML"] = lib or standin
        env["RDMADOCTOR_NVML_STANDIN"] = answers(name, rows or {})
    res = rdtest.run(h.binary, "--json", "check", root=root, env=env)
    doc = rdtest.json.loads(res.stdout) if res.stdout else {}
    nv = [f for f in doc.get("findings", []) if f["id"].startswith("nvlink.")]
    return res, doc, nv


def show(nv):
    return "; ".join(f"{f['id']} {f['severity']} {f.get('subject')}: {f.get('observed')}"
                     for f in nv) or "none"


# a healthy idle tray: nothing about NVLink, nothing about IMEX
res, doc, nv = check("healthy")
h.expect(res.returncode == 0 and doc.get("verdict") == "pass",
         "healthy tray (stand-in NVML): PASS", f"rc {res.returncode} {res.stderr[:300]}")
h.expect(not nv, "healthy tray: no nvlink finding", show(nv))
h.expect("imex" not in res.stdout.lower(), "healthy tray: nothing about IMEX")

# one GPU COMPLETED with NVML_ERROR_INSUFFICIENT_RESOURCES (23)
res, doc, nv = check("insufficient", {"0000:43:00.0": (3, 23, 32766, UUID, ALL_UP)})
h.expect(len(nv) == 1 and nv[0]["id"] == "nvlink.fabric" and nv[0]["severity"] == "error"
         and nv[0]["subject"] == "GPU 0000:43:00.0"
         and "NVML_ERROR_INSUFFICIENT_RESOURCES" in nv[0]["observed"],
         "status INSUFFICIENT_RESOURCES: nvlink.fabric error on that GPU alone", show(nv))
h.expect(doc.get("verdict") == "fail" and res.returncode != 0,
         "status INSUFFICIENT_RESOURCES: the verdict fails",
         f"{doc.get('verdict')} rc {res.returncode}")

gpu = {g["bdf"]: g for g in doc.get("inventory", {}).get("gpus", [])}
nvj = gpu.get("0000:43:00.0", {}).get("nvlink", {})
h.expect(nvj.get("fabric_state") == "COMPLETED"
         and nvj.get("fabric_status") == "NVML_ERROR_INSUFFICIENT_RESOURCES"
         and nvj.get("clique_id") == 32766 and nvj.get("cluster_uuid") == UUID
         and nvj.get("links") == ALL_UP, "the GPU's nvlink in the JSON inventory", str(nvj))

# clique 0 / an all-zero cluster UUID while COMPLETED
res, doc, nv = check("clique0", {"0000:9d:00.0": (3, 0, 0, UUID, ALL_UP),
                                 "0000:c3:00.0": (3, 0, 32766, "0" * 32, ALL_UP)})
h.expect(sorted((f["id"], f["severity"], f["subject"]) for f in nv)
         == [("nvlink.fabric", "error", "GPU 0000:9d:00.0"),
             ("nvlink.fabric", "error", "GPU 0000:c3:00.0")],
         "clique 0 and a zero cluster UUID: nvlink.fabric error on each", show(nv))

# registration not started / in progress: warnings
res, doc, nv = check("progress", {"0000:1b:00.0": (1, 0, 0, "0" * 32, ALL_UP),
                                  "0000:52:00.0": (2, 0, 0, "0" * 32, ALL_UP)})
h.expect(sorted((f["id"], f["severity"], f["subject"]) for f in nv)
         == [("nvlink.fabric", "warn", "GPU 0000:1b:00.0"),
             ("nvlink.fabric", "warn", "GPU 0000:52:00.0")],
         "NOT_STARTED and IN_PROGRESS: nvlink.fabric warnings", show(nv))

# a fabric state this tool does not know (a newer NVML's): not checked,
# counted, never a pass by silence
res, doc, nv = check("unknown-state", {"0000:1b:00.0": (9, 0, 32766, UUID, ALL_UP)})
h.expect([(f["id"], f["severity"], f["subject"], bool(f.get("unchecked"))) for f in nv]
         == [("nvlink.fabric", "info", "GPU 0000:1b:00.0", True)] and doc["unchecked"] >= 1,
         "an unknown fabric state: nvlink.fabric not checked, counted", show(nv))

# links inactive: two on one GPU; every link on another
res, doc, nv = check("links", {"0000:61:00.0": (3, 0, 32766, UUID, "1" * 5 + "00" + "1" * 11),
                               "0000:df:00.0": (3, 0, 32766, UUID, "0" * 18)})
h.expect(sorted((f["id"], f["severity"], f["subject"]) for f in nv)
         == [("nvlink.link_down", "error", "GPU 0000:61:00.0"),
             ("nvlink.link_down", "error", "GPU 0000:df:00.0")],
         "inactive links: nvlink.link_down on each GPU", show(nv))
h.expect(any("links 5,6" in (f.get("observed") or "") for f in nv),
         "nvlink.link_down names the links", show(nv))

# no NVLink domain (state NOT_SUPPORTED, or the call not supported): quiet,
# whatever the links say (PCIe GPUs, a bridge left off)
rows = {b: (0, 0, 0, "0" * 32, "1100") for b in GPUS}
rows["0000:1b:00.0"] = ("-", 0, 0, "0" * 32, "")
res, doc, nv = check("nodomain", rows)
h.expect(not nv and doc.get("verdict") == "pass", "fabric NOT_SUPPORTED: no nvlink finding",
         show(nv))

# NVML absent: one info, not checked and counted; the verdict stays
res, doc, nv = check("absent", lib=os.path.join(h.tmp, "no-such", "libnvidia-ml.so.1"))
h.expect(len(nv) == 1 and nv[0]["id"] == "nvlink.fabric" and nv[0]["severity"] == "info"
         and nv[0].get("unchecked") and "not checked" in nv[0]["observed"]
         and nv[0]["subject"] == "host",
         "NVML absent: one nvlink.fabric info, not checked", show(nv))
h.expect(doc.get("unchecked", 0) >= 1 and doc.get("verdict") == "pass",
         "NVML absent: counted as unchecked, verdict PASS",
         f"unchecked {doc.get('unchecked')} verdict {doc.get('verdict')}")

# the stand-in with no answers file: nvmlInit_v2 fails, not checked
env = dict(os.environ, RDMADOCTOR_NVML=standin)
env.pop("RDMADOCTOR_NVML_STANDIN", None)
res = rdtest.run(h.binary, "--json", "check", root=root, env=env)
doc = rdtest.json.loads(res.stdout)
nv = [f for f in doc["findings"] if f["id"].startswith("nvlink.")]
h.expect(len(nv) == 1 and nv[0]["severity"] == "info" and "did not start" in nv[0]["observed"],
         "nvmlInit_v2 failing: not checked, said", show(nv))

# a replay that recorded no NVML answer and no library named: nothing said
res, doc, nv = check("replay", env_extra=False)
h.expect(not nv, "replay without NVML answers: no nvlink finding", show(nv))

# a snapshot that recorded NVML's answers (.rdmadoctor/nvml/<bdf>) replays
# them with no library at all: one GPU's status, another's .errno
tape = h.copy("dgx-b200", "tape")
os.makedirs(os.path.join(tape, ".rdmadoctor", "nvml"), exist_ok=True)
for bdf in GPUS:
    with open(os.path.join(tape, ".rdmadoctor", "nvml", bdf), "w") as f:
        f.write(f"state 3\nstatus {23 if bdf == '0000:d1:00.0' else 0}\nclique 7\n"
                f"cluster {UUID}\nlinks {ALL_UP}\n")
env = dict(os.environ)
env.pop("RDMADOCTOR_NVML", None)
res = rdtest.run(h.binary, "--json", "check", root=tape, env=env)
doc = rdtest.json.loads(res.stdout)
nv = [f for f in doc["findings"] if f["id"].startswith("nvlink.")]
h.expect([(f["id"], f["severity"], f["subject"]) for f in nv]
         == [("nvlink.fabric", "error", "GPU 0000:d1:00.0")],
         "replay of recorded NVML answers: nvlink.fabric on that GPU", show(nv))
os.remove(os.path.join(tape, ".rdmadoctor", "nvml", "0000:d1:00.0"))
with open(os.path.join(tape, ".rdmadoctor", "nvml", "0000:d1:00.0.errno"), "w") as f:
    f.write("79\n")
res = rdtest.run(h.binary, "--json", "check", root=tape, env=env)
doc = rdtest.json.loads(res.stdout)
nv = [f for f in doc["findings"] if f["id"].startswith("nvlink.")]
h.expect(len(nv) == 1 and nv[0]["severity"] == "info" and nv[0].get("unchecked")
         and "not installed" in nv[0]["observed"],
         "replay of a recorded NVML failure: not checked, said", show(nv))

h.done()
