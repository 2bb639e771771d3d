#!/usr/bin/env python3
"""docs/profiles.md and the tool say the same: every key `profiles show`
prints (per section) is documented in the matching table and no other;
every built-in profile is in the table of built-ins; the site file's keys
are the ones its parser names when it refuses an unknown key.

usage: test_profiles_doc.py RDMADOCTOR DOC
"""
import json
import os
import re
import sys
import tempfile

binary, doc_path = sys.argv[1], sys.argv[2]
doc = open(doc_path).read()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import done  # noqa: E402
from rdtest import ok as expect  # noqa: E402


def table_keys(heading):
    """The `key` column of the first table after a '### heading' line."""
    m = re.search(r"^### " + re.escape(heading) + r"\n(.*?)(?=^#|\Z)", doc, re.M | re.S)
    if not m:
        return None
    return [k for k in re.findall(r"^\| `([a-z_]+)` \|", m.group(1), re.M)]


def shown_keys(name):
    res = rdtest.run(binary, "profiles", "show", name, timeout=None)
    res.check_returncode()
    out = res.stdout
    sections, cur = {}, None
    for line in out.splitlines():
        if line.startswith("["):
            cur = line.strip("[]")
            sections[cur] = []
        elif cur and re.match(r"^#? ?[a-z_]+ = ", line):
            sections[cur].append(line.lstrip("# ").split(" = ")[0])
    return sections


shown = shown_keys("dgx-h100")	# has [profile], [rail] and [storage]
doc_profile = table_keys("[profile]")
doc_role = table_keys("[rail] and [storage]")
expect(doc_profile == shown["profile"],
       f"[profile] keys: doc {doc_profile} vs profiles show {shown['profile']}")
# distinct_switches is a [rail] key that [storage] does not take
rail_only = ["distinct_switches"]
expect(doc_role == shown["rail"],
       f"[rail] keys: doc {doc_role} vs profiles show {shown['rail']}")
expect([k for k in (doc_role or []) if k not in rail_only] == shown["storage"],
       f"[storage] keys: doc {doc_role} less {rail_only} vs profiles show {shown['storage']}")

res = rdtest.run(binary, "--json", "profiles", timeout=None)
res.check_returncode()
names = [p["name"] for p in json.loads(res.stdout)["profiles"]]
m = re.search(r"^## Built-in profiles\n(.*?)(?=^## )", doc, re.M | re.S)
listed = re.findall(r"^\| `([a-z0-9.-]+)` \|", m.group(1), re.M) if m else []
expect(listed == names, f"built-in profiles: doc {listed} vs profiles {names}")

with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "etc", "rdmadoctor"))
    with open(os.path.join(root, "etc", "rdmadoctor", "rdmadoctor.conf"), "w") as f:
        f.write("[site]\nno_such_key = 1\n")
    err = rdtest.run(binary, "check", root=root, timeout=None).stderr
    m = re.search(r"expected (.*)$", err, re.M)
    said = re.split(r", | or ", m.group(1)) if m else []
    expect(table_keys("[site]") == said, f"[site] keys: doc {table_keys('[site]')} vs {said}")

done()
