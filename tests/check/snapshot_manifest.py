#!/usr/bin/env python3
"""A snapshot's manifest (docs/snapshot.md, src/sysfs/manifest.h):
`snapshot` lists what it wrote in rdmadoctor-manifest; a replay of a tree
that lacks some of it (a half-extracted tar: a class link left dangling, a
device's files gone) says "incomplete snapshot: N entries missing" on
stderr and as the finding snapshot.incomplete (not checked, in JSON too),
and judges nothing it lacks: no finding on a device with entries missing,
none on the machine as a whole (nic.count's "reseat a card"); a whole
device's findings stay.  A tree without a manifest reads as it always did.

usage: snapshot_manifest.py RDMADOCTOR FIXTURES_DIR
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness, copy_root, run  # noqa: E402

h = Harness("snapshot_manifest")
snap = os.path.join(h.tmp, "snap")
res = run(h.binary, "snapshot", snap, root=os.path.join(h.fixtures, "dgx-h100", "root"))
h.expect(res.returncode == 0, "snapshot of dgx-h100", res.stderr)
man = os.path.join(snap, "rdmadoctor-manifest")
lines = open(man).read().splitlines()
h.expect(lines[0] == "rdmadoctor-manifest 1" and lines[1] == f"entries {len(lines) - 2}" and
         len(lines) > 1000, "the manifest: its magic, its count, one line an entry",
         "\n".join(lines[:3]))
h.expect("l sys/class/infiniband/mlx5_3" in lines and
         any(l.startswith("f sys/devices/") and l.endswith("/infiniband/mlx5_3/node_guid")
             for l in lines), "the manifest lists links and files", "")
for l in lines[2:]:
    kind, path = l[0], l[2:]
    p = os.path.join(snap, path)
    good = {"f": os.path.isfile, "l": os.path.islink, "d": os.path.isdir,
            "e": lambda q: os.path.isfile(os.path.join(q, ".errno"))}[kind](p)
    if not good:
        h.expect(False, "every manifest entry is in the snapshot as its kind", l)
        break

# the whole snapshot: judged as the fixture is
rc0, doc0, _, err0 = h.run(os.path.join(h.fixtures, "dgx-h100", "root"))
rc, doc, _, err = h.run(snap)
h.expect(rc == rc0 and "incomplete" not in err and
         [f["id"] for f in doc["findings"]] == [f["id"] for f in doc0["findings"]],
         "a whole snapshot: the fixture's findings, nothing said", err)


def ids(doc):
    return [f["id"] for f in doc["findings"]]


def cut(name):
    return copy_root(snap, os.path.join(h.tmp, name))


# a half-extracted tar: mlx5_3's class link dangles (its device directory gone)
c1 = cut("cut1")
target = os.path.realpath(os.path.join(c1, "sys/class/infiniband/mlx5_3"))
gone = sum(len(fs) + len(ds) for _, ds, fs in os.walk(target)) + 1
shutil.rmtree(target)
rc, doc, _, err = h.run(c1)
inc = [f for f in doc["findings"] if f["id"] == "snapshot.incomplete"]
h.expect("incomplete snapshot: " in err and " entries missing" in err,
         "stderr: incomplete snapshot: N entries missing", err)
h.expect(len(inc) == 1 and inc[0]["unchecked"] and inc[0]["severity"] == "warn" and
         inc[0]["observed"].startswith("incomplete snapshot: ") and "mlx5_3" in inc[0]["observed"],
         "JSON: snapshot.incomplete, not checked, naming mlx5_3", repr(inc))
h.expect("nic.count" not in ids(doc) and not any("reseat a card" in (f.get("fix") or "")
                                                   for f in doc["findings"]),
         "no nic.count, no 'reseat a card' for a device the copy lacks", repr(ids(doc)))
h.expect(doc["verdict"] != "pass", "an incomplete snapshot does not pass", doc["verdict"])
# the text says the same
r = run(h.binary, "check", root=c1)
h.expect("WARN  snapshot.incomplete" in r.stdout and "ERROR nic.count" not in r.stdout,
         "text: snapshot.incomplete, no nic.count", r.stdout[:600])

# one file of a device gone: that device is not judged, the others are
c2 = cut("cut2")
state = os.path.join(os.path.realpath(os.path.join(c2, "sys/class/infiniband/mlx5_0")),
                     "ports/1/state")
os.remove(state)
rc, doc, _, err = h.run(c2)
inc = [f for f in doc["findings"] if f["id"] == "snapshot.incomplete"]
h.expect("incomplete snapshot: 1 entry missing" in err, "one entry missing, said", err)
h.expect(len(inc) == 1 and "of mlx5_0" in inc[0]["observed"] and
         not [f for f in doc["findings"] if f["subject"].startswith("mlx5_0")],
         "no finding on mlx5_0, which lacks its port state", repr(doc["findings"])[:1500])

# without a manifest (an older snapshot, a fixture): read as it always was
os.remove(os.path.join(c1, "rdmadoctor-manifest"))
rc, doc, _, err = h.run(c1)
h.expect("incomplete" not in err and "nic.count" in ids(doc) and
         "snapshot.incomplete" not in ids(doc), "no manifest: judged as today", err)

# a manifest that is not all right: said, and read as today
c3 = cut("cut3")
with open(os.path.join(c3, "rdmadoctor-manifest"), "a") as f:
    f.write("x ../etc/shadow\n")
rc, doc, _, err = h.run(c3)
h.expect("the snapshot's manifest 'rdmadoctor-manifest' is not all right" in err and
         "snapshot.incomplete" not in ids(doc), "a malformed manifest is said", err)

# a snapshot of a replay writes its own manifest, and the round trip is whole
again = os.path.join(h.tmp, "again")
res = run(h.binary, "snapshot", again, root=snap)
rc, doc, _, err = h.run(again)
h.expect(res.returncode == 0 and os.path.isfile(os.path.join(again, "rdmadoctor-manifest")) and
         "incomplete" not in err, "a snapshot of a snapshot: whole", err + res.stderr)
h.done()
