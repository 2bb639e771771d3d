#!/usr/bin/env python3
"""fw.version on a800-8x100g-roce (ten ConnectX-6 Dx functions, PSID
MT_0000000359, firmware 22.39.1002: eight rail cards and one dual-port
storage card, mlx5_8 and mlx5_9 at 0000:31:00.0/.1), judged under a site
file's [firmware] written into a copy of the fixture:

- an allowed list that holds the running version, and a rule for another
  PSID only: no finding;
- a floor above it: each rail card an error, the storage card a warning,
  one finding per card (mlx5_9 named with mlx5_8, not apart), each fix an
  mlxfwmanager update of that card by its PCI address;
- a version outside an allowed list: the same, for a list;
- fw_ver removed, or not dotted numbers, on one card while a rule names its
  PSID: not checked, an info, the other cards still judged; board_id gone
  while rules exist: not checked;
- `ignore = fw.version` waives; a malformed [firmware] line stops check
  with FILE:LINE and exit 2.

usage: fw_version.py RDMADOCTOR FIXTURES_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("fw_version")
SHAPE = "a800-8x100g-roce"
RAILS = [f"mlx5_{i}" for i in range(8)]


def case(name, firmware, site_extra=""):
    root = h.copy(SHAPE, name)
    os.makedirs(os.path.join(root, "etc/rdmadoctor"), exist_ok=True)
    with open(os.path.join(root, "etc/rdmadoctor/rdmadoctor.conf"), "w") as f:
        f.write("[site]\nprofile = a800-8x100g-roce\n" + site_extra + "[firmware]\n" + firmware)
    return root


def fw(doc):
    return {f["subject"]: f for f in doc["findings"] if f["id"] == "fw.version"}


def nic_file(root, nic, name):
    return os.path.join(os.path.realpath(os.path.join(root, "sys/class/infiniband", nic)), name)


def bdf(root, nic):
    return os.path.basename(os.path.realpath(os.path.join(root, "sys/class/infiniband", nic,
                                                          "device")))


# -- the running version allowed; a rule for another board ------------------
for name, rule in (("allowed", "MT_0000000359 = 22.38.1900, 22.39.1002\n"),
                   ("floor-met", "mt_0000000359 >= 22.39.1002\n"),
                   ("other-psid", "MT_0000000223 >= 28.39.1002\n")):
    rc, doc, _, err = h.run(case(name, rule))
    h.expect(doc is not None and fw(doc) == {}, f"{name}: no fw.version finding",
             f"rc {rc}: {fw(doc) if doc else err}")

# -- below a floor: rails error, the storage card a warning, one per card ----
root = case("floor", "# qualified\nMT_0000000359 >= 22.40.1000\n")
rc, doc, _, err = h.run(root)
got = fw(doc) if doc else {}
h.expect(rc == 1 and doc["verdict"] == "fail", "floor: check fails (exit 1)", f"rc {rc} {err}")
h.expect(sorted(got) == sorted(RAILS + ["mlx5_8"]),
         "floor: one finding per card, mlx5_9 with mlx5_8's card", str(sorted(got)))
for nic in RAILS:
    f = got.get(nic, {})
    pci = bdf(root, nic)
    h.expect(f.get("severity") == "error", f"floor: {nic} (a rail) is an error", str(f))
    h.expect(f.get("observed") == f"PSID MT_0000000359 ({nic}, {pci}) runs 22.39.1002",
             f"floor: {nic} observed names PSID, device and version", f.get("observed", ""))
    h.expect("22.40.1000 or newer for PSID MT_0000000359" in f.get("expected", "")
             and "line 5" in f.get("expected", ""),
             f"floor: {nic} expected names the floor and the site file line",
             f.get("expected", ""))
    h.expect(f"`mlxfwmanager -d {pci} -u -i <image for PSID MT_0000000359>`" in f.get("fix", ""),
             f"floor: {nic}'s fix updates it with mlxfwmanager by its PCI address",
             f.get("fix", ""))
    h.expect(not f.get("unchecked"), f"floor: {nic} was checked", str(f))
f = got.get("mlx5_8", {})
h.expect(f.get("severity") == "warn", "floor: the storage card is a warning", str(f))
h.expect("(mlx5_8 mlx5_9, " in f.get("observed", ""), "floor: the storage card names both "
         "functions", f.get("observed", ""))
# the text for people says the same
rc_t, _, out, _ = h.run(root, json_out=False)
h.expect(rc_t == 1 and "fw.version" in out and "mlxfwmanager -d" in out,
         "floor: the text shows fw.version with its mlxfwmanager fix", out[-2000:])

# -- outside an allowed list -------------------------------------------------
rc, doc, _, _ = h.run(case("list", "MT_0000000359 = 22.41.1000, 22.42.1000\n"))
got = fw(doc) if doc else {}
h.expect(len(got) == 9 and got.get("mlx5_0", {}).get("severity") == "error"
         and "one of 22.41.1000, 22.42.1000" in got.get("mlx5_0", {}).get("expected", ""),
         "list: a version not listed fails, the list named", str(got.get("mlx5_0")))

# -- fw_ver unreadable or not a version, with a rule: not checked ------------
for name, damage, says in (
        ("fw-gone", None, "its firmware version (fw_ver) could not be read"),
        ("fw-garbage", "unknown\n",
         "its firmware version 'unknown' is not dotted numbers like 28.39.1002")):
    root = case(name, "MT_0000000359 = 22.39.1002\n")
    path = nic_file(root, "mlx5_3", "fw_ver")
    if damage is None:
        os.remove(path)
    else:
        with open(path, "w") as fh:
            fh.write(damage)
    rc, doc, _, err = h.run(root)
    got = fw(doc) if doc else {}
    f = got.get("mlx5_3", {})
    h.expect(list(got) == ["mlx5_3"], f"{name}: only mlx5_3 has a fw.version finding",
             f"rc {rc}: {got or err}")
    h.expect(f.get("severity") == "info" and f.get("unchecked") is True
             and f.get("observed") == f"not checked: {says}",
             f"{name}: mlx5_3 is not checked, with the reason", str(f))
    h.expect(doc is not None and doc.get("unchecked", 0) >= 1, f"{name}: counted as unchecked",
             str(doc.get("unchecked") if doc else None))

# -- fw_ver broken on a card whose rule it would fail: still not checked -----
root = case("fw-gone-floor", "MT_0000000359 >= 22.40.1000\n")
os.remove(nic_file(root, "mlx5_2", "fw_ver"))
rc, doc, _, _ = h.run(root)
got = fw(doc) if doc else {}
h.expect(got.get("mlx5_2", {}).get("unchecked") is True
         and got.get("mlx5_1", {}).get("severity") == "error",
         "fw-gone-floor: the unread card not checked, the others still errors", str(got))

# -- board_id gone while rules exist: which rule applies is not known --------
root = case("psid-gone", "MT_0000000359 = 22.39.1002\n")
os.remove(nic_file(root, "mlx5_4", "board_id"))
rc, doc, _, _ = h.run(root)
got = fw(doc) if doc else {}
f = got.get("mlx5_4", {})
h.expect(list(got) == ["mlx5_4"] and f.get("unchecked") is True and "board_id" in f.get("fix", "")
         and "PSID (board_id) could not be read" in f.get("observed", ""),
         "psid-gone: mlx5_4 not checked, naming board_id", str(got))

# -- board_id empty ("\n"), or blanks: no PSID, unreadable as a missing one
# (issue 43: the card was skipped in silence) ---------------------------------
for name, text in (("psid-empty", "\n"), ("psid-blank", "   \n")):
    root = case(name, "MT_0000000359 = 22.39.1002\n")
    p = nic_file(root, "mlx5_4", "board_id")
    os.remove(p)
    with open(p, "w") as fh:
        fh.write(text)
    rc, doc, _, _ = h.run(root)
    got = fw(doc) if doc else {}
    f = got.get("mlx5_4", {})
    h.expect(list(got) == ["mlx5_4"] and f.get("unchecked") is True and
             "PSID (board_id) is empty" in f.get("observed", ""),
             f"{name}: mlx5_4 not checked, its PSID empty", str(got))

# -- waived -----------------------------------------------------------------
rc, doc, _, _ = h.run(case("waived", "MT_0000000359 >= 22.40.1000\n", "ignore = fw.version\n"))
got = fw(doc) if doc else {}
h.expect(len(got) == 9 and all(f.get("waived") for f in got.values()),
         "waived: every fw.version finding kept and waived", str(list(got.values())[:1]))

# -- a malformed [firmware] line ---------------------------------------------
rc, doc, _, err = h.run(case("broken", "MT_0000000359 >= 22.40.1000\nMT_0000000223 <= 1.0\n"))
h.expect(rc == 2 and "rdmadoctor.conf:5:" in err and "'MT_0000000223 <'" in err,
         "broken: a malformed line stops check at its line, exit 2", f"rc {rc}: {err}")

h.done()
