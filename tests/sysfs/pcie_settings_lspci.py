#!/usr/bin/env python3
"""rdmadoctor's decode of PCI config space (MaxPayload, MaxReadReq, RlxdOrd,
ExtTag, ATS) against `lspci -vv` on the same bytes, field by field.

  pcie_settings_lspci.py DUMPER fixtures SRCDIR
      every binary `config` file in the fixture trees and the config_* seeds
      of the fuzz corpus, given to lspci as a `lspci -xxxx` style dump
      (`lspci -F FILE -vv`)
  pcie_settings_lspci.py DUMPER live [SYSFS]
      every device in SYSFS/bus/pci/devices (default /sys): its `config` and
      `lspci -vv -s BDF` (needs root for more than 64 bytes; then only
      "unknown" is compared)

Exit 0 when every device agrees, 1 with the differences, 77 when lspci is
missing."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

dumper, mode = sys.argv[1], sys.argv[2]
if not shutil.which("lspci"):
    print("SKIP: no lspci (pciutils)")
    sys.exit(77)

FIELDS = ("express", "mps", "mps_cap", "mrrs", "rlxdord", "exttag", "exttag_cap",
          "ats", "ats_enable", "ats_stu")


def ours(paths):
    out = subprocess.run([dumper, *paths], capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        path, *kv = line.split(" ")
        got[path] = {k: int(v) for k, v in (x.split("=") for x in kv)}
    return got


def flag(text, name):
    m = re.search(r"(?:^|\s)" + re.escape(name) + r"([+-])", text)
    return -1 if not m else int(m.group(1) == "+")


def theirs(text):
    """The fields as lspci -vv printed them; -1 where it printed nothing."""
    r = dict.fromkeys(FIELDS, -1)
    caps = re.split(r"\n\tCapabilities: ", "\n" + text)
    if "<access denied>" in text:
        return r	# lspci read no more than rdmadoctor: unknown for both
    exp = [c for c in caps if re.match(r"\[[0-9a-f]+\] Express ", c)]
    r["express"] = 1 if exp else 0
    if not exp:
        r["ats"] = 0
        return r
    e = exp[0]
    devcap = re.search(r"DevCap:\s+MaxPayload (\d+) bytes.*\n\s+(.*)", e)
    devctl = re.search(r"DevCtl:.*\n\s+(.*)\n\s+MaxPayload (\d+) bytes, MaxReadReq (\d+) bytes", e)
    if not devcap or not devctl:
        return r
    r["mps_cap"] = int(devcap.group(1))
    r["exttag_cap"] = flag(devcap.group(2), "ExtTag")
    r["rlxdord"] = flag(devctl.group(1), "RlxdOrd")
    r["exttag"] = flag(devctl.group(1), "ExtTag")
    r["mps"], r["mrrs"] = int(devctl.group(2)), int(devctl.group(3))
    ats = [c for c in caps if "Address Translation Service (ATS)" in c.split("\n")[0]]
    r["ats"] = 1 if ats else 0
    if ats:
        m = re.search(r"ATSCtl:\s+Enable([+-]), Smallest Translation Unit: ([0-9a-f]+)", ats[0])
        if m:
            r["ats_enable"], r["ats_stu"] = int(m.group(1) == "+"), int(m.group(2), 16)
        else:
            r["ats"] = -1
    return r


def dump_text(data):
    lines = ["00:00.0 device:"]
    for o in range(0, len(data), 16):
        lines.append("%02x: %s" % (o, " ".join("%02x" % b for b in data[o:o + 16])))
    return "\n".join(lines) + "\n"


fails, n = [], 0


def compare(name, a, b):
    global n
    n += 1
    diff = ["%s: rdmadoctor %d, lspci %d" % (k, a[k], b[k]) for k in FIELDS if a[k] != b[k]]
    if diff:
        fails.append("%s: %s" % (name, "; ".join(diff)))
    else:
        print("ok %s %s" % (name, " ".join("%s=%d" % (k, a[k]) for k in FIELDS)))


if mode == "fixtures":
    src = sys.argv[3]
    paths = []
    for top in sorted(glob.glob(os.path.join(src, "tests/fixtures/*/root/sys/devices"))):
        for d, _, files in os.walk(top):	# not into symlinks: sysfs loops
            if "config" in files and os.path.isfile(os.path.join(d, "config")):
                paths.append(os.path.join(d, "config"))
    # and the hand-made config spaces of the fuzz corpus (an endpoint
    # with ATS, 64 bytes as without root, ...)
    paths += glob.glob(os.path.join(src, "tests/fuzz/corpus/parse/config_*"))
    paths.sort()
    got = ours(paths)
    with tempfile.TemporaryDirectory() as tmp:
        for p in paths:
            d = os.path.join(tmp, "dump")
            with open(p, "rb") as f, open(d, "w") as o:
                o.write(dump_text(f.read()))
            text = subprocess.run(["lspci", "-F", d, "-vv"], capture_output=True, errors="replace",
                                  text=True).stdout
            compare(os.path.relpath(p, src), got[p], theirs(text))
else:
    sysfs = sys.argv[3] if len(sys.argv) > 3 else "/sys"
    devs = sorted(glob.glob(os.path.join(sysfs, "bus/pci/devices/*")))
    got = ours([os.path.join(d, "config") for d in devs])
    for d in devs:
        bdf = os.path.basename(d)
        text = subprocess.run(["lspci", "-vv", "-s", bdf], capture_output=True,
                              text=True).stdout
        a = got[os.path.join(d, "config")]
        b = theirs(text)
        if b["express"] == -1 and a["express"] == -1:
            print("unknown to both %s (not root)" % bdf)
            continue
        compare(bdf, a, b)

for f in fails:
    print("FAIL " + f)
print("%d devices, %d differ" % (n, len(fails)))
sys.exit(1 if fails or not n else 0)
