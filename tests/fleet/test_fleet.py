#!/usr/bin/env python3
"""Fleet records end to end: `record` into a real SQLite file, `fleet`
reading it back, the sqlite3 CLI as a second reader, two writers at once, a
full disk, damaged and foreign files, and an old schema upgraded in place.

usage: test_fleet.py CASE RDMADOCTOR SOURCE_DIR [sqlite|postgresql]
The cases that are not about one backend's files (diff, concurrent,
record, report, hostdrift, identity, history, fabric, rails, valgrind) run against either: with
postgresql a real server is started for the run (tests/fleet/pgserver.py)
and every database is one of its databases; pgsql, pgerrors and pgkill are
PostgreSQL's own.
CASE: diff | sqlite | concurrent | fulldisk | errors | upgrade | record | report |
      valgrind | hostdrift | identity | history | fabric | rails
Exit 0 pass, 1 fail, 77 skip (only fulldisk, when not root or no tmpfs)."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fleetgen  # noqa: E402
import rdtest  # noqa: E402
import pgserver  # noqa: E402

CASE, BIN, SRC = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
BACKEND = sys.argv[4] if len(sys.argv) > 4 else "sqlite"
PG = None  # the server, with postgresql
EXAMPLES = os.path.join(SRC, "examples")
failures = []


def run(*args, stdin=None, env=None, timeout=120):
    p = rdtest.run(BIN, *args, stdin=stdin, env=env, timeout=timeout, text=False)
    err = p.stderr.decode(errors="replace")
    # under the sanitizers a report can hide behind an expected exit 1
    if "Sanitizer" in err or "runtime error:" in err:
        expect(False, "sanitizer report from %s:\n%s" % (" ".join(args)[:200], err[-3000:]))
    return p.returncode, p.stdout.decode(errors="replace"), err


def expect(cond, what):
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        failures.append(what)


def expect_rc(got, want, what, err=""):
    expect(got == want, "%s: exit %d (want %d)%s" % (what, got, want,
                                                    (" stderr: " + err.strip()) if got != want else ""))


def new_db(tmp, name):
    """A database of the backend under test: a file, or a new PostgreSQL
    database on the test's server."""
    if BACKEND == "sqlite":
        return os.path.join(tmp, name + ".db")
    return PG.new_db(name)


def sql_rows(db, sql):
    """Rows of a query, read by the backend's own client (sqlite3, psql)."""
    if BACKEND == "sqlite":
        con = sqlite3.connect(db)
        try:
            return [[str(c) for c in r] for r in con.execute(sql).fetchall()]
        finally:
            con.close()
    return PG.psql(db.rsplit("/", 1)[1], sql)


def host_files(tmp, doc, names):
    """One check file per host name, copies of doc: their paths."""
    files = []
    for name in names:
        p = os.path.join(tmp, name + ".json")
        fleetgen.write(p, fleetgen.as_host(doc, name))
        files.append(p)
    return files


def sql_do(db, sql):
    """Run a statement that changes the store, committed, by the backend's
    own client."""
    if BACKEND == "sqlite":
        con = sqlite3.connect(db)
        try:
            con.execute(sql)
            con.commit()
        finally:
            con.close()
    else:
        PG.psql(db.rsplit("/", 1)[1], sql)


def store_whole(db, what):
    """No half record: the file's own check, and for every backend no seen
    time or drift fact without its record and no record without its
    derived columns."""
    if BACKEND == "sqlite":
        expect(sql_rows(db, "PRAGMA integrity_check") == [["ok"]], "integrity_check ok " + what)
    orphans = sql_rows(db, "SELECT (SELECT count(*) FROM seen s WHERE NOT EXISTS (SELECT 1 FROM "
                           "records r WHERE r.id = s.record_id)) + (SELECT count(*) FROM "
                           "record_groups g WHERE NOT EXISTS (SELECT 1 FROM records r WHERE "
                           "r.id = g.record_id)) + (SELECT count(*) FROM records WHERE content "
                           "IS NULL OR last_seen IS NULL)")
    expect(orphans == [["0"]], "no half record %s (%s)" % (what, orphans))
    # each host's entry names its latest record (seen last, of two the
    # newer) and counts its checks; no entry without a record
    wrong = sql_rows(db, "SELECT (SELECT count(*) FROM (SELECT host FROM records GROUP BY host) "
                         "x WHERE NOT EXISTS (SELECT 1 FROM hosts h WHERE h.host = x.host AND "
                         "h.record_id = (SELECT id FROM records r WHERE r.host = x.host ORDER BY "
                         "last_seen DESC, id DESC LIMIT 1) AND h.last_seen = (SELECT "
                         "max(last_seen) FROM records r WHERE r.host = x.host) AND h.checks = "
                         "(SELECT count(*) FROM records r WHERE r.host = x.host) + (SELECT "
                         "count(*) FROM seen s WHERE s.host = x.host) AND h.records = (SELECT "
                         "count(*) FROM records r WHERE r.host = x.host))) + (SELECT count(*) FROM "
                         "hosts h WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.id = "
                         "h.record_id))")
    expect(wrong == [["0"]], "every host's entry right %s (%s wrong)" % (what, wrong))


def db_bytes(db):
    """The store's size with its indexes, compacted."""
    if BACKEND == "sqlite":
        con = sqlite3.connect(db)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("VACUUM")
        con.close()
        return os.path.getsize(db)
    name = db.rsplit("/", 1)[1]
    PG.psql(name, "VACUUM FULL")
    return int(PG.psql(name, "SELECT sum(pg_total_relation_size(t::regclass)) FROM (VALUES "
                             "('records'), ('seen'), ('record_groups'), ('schema_version')) "
                             "v(t)")[0][0])


def ls_json(db):
    rc, out, err = run("--json", "fleet", "--db", db, "ls")
    if rc != 0:
        raise RuntimeError("fleet ls: %d %s" % (rc, err))
    return json.loads(out)


# ---------------------------------------------------------------- diff

def case_diff(tmp):
    base = {s: fleetgen.check_doc(BIN, EXAMPLES, s)
            for s in ["dgx-h100", "hgx-roce-lag", "dgx-a100", "dgx-b200"]}
    files, expected = [], set()

    def add(doc, bw=None, t="2026-11-30T07:00:00Z"):
        path = os.path.join(tmp, doc["inventory"]["host"]["hostname"] + ".json")
        fleetgen.write(path, fleetgen.record(doc, t, bw) if bw else doc)
        files.append(path)

    def out(profile, model, host, field, value, baseline, shares):
        expected.add((profile, model, host, field, json.dumps(value), json.dumps(baseline),
                      json.dumps(shares, sort_keys=True)))

    # ten DGX H100: one on old firmware, one at MTU 2048, one NIC at x8,
    # one slow rail; every host has bandwidth results.  The hosts that
    # differ already also differ in what #31 added: h100-05's x8 NIC has a
    # Max Read Request of 512, h100-07's uverbs nodes are 0600 (a udev rule
    # of its own), h100-03's slurmd locks 64 KiB, h100-02 still runs the
    # MLNX_OFED mlx5_core the others upgraded from
    h100 = base["dgx-h100"]
    cx7 = [n["name"] for n in h100["inventory"]["nics"] if n["model"] == "ConnectX-7"]
    for i in range(10):
        name = "h100-%02d" % i
        d = fleetgen.as_host(h100, name)
        rails = [(dev, 391 + (i % 4)) for dev in cx7[:4]]
        fleetgen.set_pcie_settings(d, 256, 4096, True)
        fleetgen.set_module(d, "mlx5_core", "24.10-1.1.4" if i == 2 else "24.10-2.1.8",
                            "out-of-tree")
        if i == 7:
            fleetgen.set_fw(d, "28.37.1014")
            fleetgen.set_node_mode(d, "uverbs", "0600")
        if i == 3:
            fleetgen.set_mtu(d, 2048)
            fleetgen.set_slurmd_memlock(d, 65536)
        if i == 5:
            fleetgen.set_pcie_width(d, 8)
            fleetgen.set_pcie_settings(d, 256, 512, True, nic=0)
        if i == 9:
            rails[2] = (rails[2][0], 250.0)
        add(d, [fleetgen.bw_doc(name, "h100-peer", rails)])
    out("dgx-h100", "ConnectX-7", "h100-07", "fw", "28.37.1014", "28.39.1002",
        {"28.39.1002": 9, "28.37.1014": 1})
    out("dgx-h100", "ConnectX-7", "h100-03", "mtu", 2048, 4096, {"4096": 9, "2048": 1})
    # one NIC at x8 is that NIC's value, a number, not "16, 8"
    out("dgx-h100", "ConnectX-7", "h100-05", "pcie_width", 8, 16, {"16": 9, "8": 1})
    out("dgx-h100", "ConnectX-7", "h100-09", "bw_gbps", 250, 390, {"390": 9, "250": 1})
    out("dgx-h100", "ConnectX-7", "h100-05", "pcie_mrrs", 512, 4096, {"4096": 9, "512": 1})
    out("dgx-h100", "ConnectX-7", "h100-03", "slurmd_memlock", 65536, "unlimited",
        {"unlimited": 9, "65536": 1})
    # the fixture's files say where the rest come from (lib/modules)
    mods = ("mlx5_core %s, mlx5_ib (inbox), ib_core (inbox), ib_uverbs (inbox), "
            "nvidia_peermem 570.86.15 (dkms)")
    out("dgx-h100", "ConnectX-7", "h100-02", "rdma_modules", mods % "24.10-1.1.4 (out-of-tree)",
        mods % "24.10-2.1.8 (out-of-tree)",
        {mods % "24.10-2.1.8 (out-of-tree)": 9, mods % "24.10-1.1.4 (out-of-tree)": 1})
    modes = "uverbs %s, umad 0600, issm 0600, rdma_cm 0666"
    out("dgx-h100", "ConnectX-7", "h100-07", "device_modes", modes % "0600", modes % "0666",
        {modes % "0666": 9, modes % "0600": 1})

    # five RoCE hosts: one at netdev MTU 1500, one trusting pcp where the
    # rest trust dscp
    roce = base["hgx-roce-lag"]
    for i in range(5):
        d = fleetgen.as_host(roce, "roce-%d" % i)
        for n in d["inventory"]["nics"]:
            if n["model"] != "ConnectX-7":
                continue
            for p in n["ports"]:
                if i == 2:
                    p["netdev_mtu"] = 1500
                if i == 4 and isinstance(p["qos"], dict):
                    p["qos"]["trust"] = "pcp"
        add(d)
    out("hgx-8x400g", "ConnectX-7", "roce-2", "netdev_mtu", 1500, 9000, {"9000": 4, "1500": 1})
    out("hgx-8x400g", "ConnectX-7", "roce-4", "trust", "pcp", "dscp", {"dscp": 4, "pcp": 1})

    # a tie, one host each: no baseline, no outlier; it is listed as a tie
    a100 = base["dgx-a100"]
    for i, fw in enumerate(["20.40.1000", "20.39.1000"]):
        d = fleetgen.as_host(a100, "a100-%d" % i)
        fleetgen.set_fw(d, fw)
        add(d)

    # two NIC models in one host: BlueField-3 drift stays in its own group
    b200 = base["dgx-b200"]
    for i in range(3):
        d = fleetgen.as_host(b200, "b200-%d" % i)
        if i == 1:
            for n in d["inventory"]["nics"]:
                if n["model"] == "BlueField-3":
                    n["fw_ver"] = "32.41.1000"
        add(d)
    out("dgx-b200", "BlueField-3", "b200-1", "fw", "32.41.1000", "32.43.1014",
        {"32.43.1014": 2, "32.41.1000": 1})

    db = new_db(tmp, "fleet")
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "record --from %d files" % len(files), err)
    rc, text, err = run("--json", "fleet", "--db", db, "diff")
    expect_rc(rc, 1, "fleet diff --json with outliers", err)
    diff = json.loads(text)
    expect(diff["schema"] == 1 and diff["hosts"] == 20, "diff counts 20 hosts (%s)" % diff["hosts"])
    got = set()
    for g in diff["groups"]:
        for o in g["outliers"]:
            got.add((g["profile"], g["nic_model"], o["host"], o["field"], json.dumps(o["value"]),
                     json.dumps(o["baseline"]), json.dumps(o["shares"], sort_keys=True)))
            expect(o["host"] in g["hosts"], "outlier %s is one of its group's hosts" % o["host"])
    for e in sorted(expected - got):
        print("     missing:", e)
    for e in sorted(got - expected):
        print("     unexpected:", e)
    expect(got == expected, "diff finds exactly the %d edited outliers" % len(expected))
    a100g = [g for g in diff["groups"] if g["profile"] == "dgx-a100"]
    ties = [t for g in a100g for t in g["no_majority"] if t["field"] == "fw"]
    expect(ties and all(t["shares"] == {"20.39.1000": 1, "20.40.1000": 1} for t in ties) and
           all("fw" not in g["baseline"] for g in a100g),
           "the a100 tie has no baseline and is listed as no majority")
    # one outlier per port: h100-03 has every port at 2048, each named
    h100_ports = {o["subject"] for g in diff["groups"] for o in g["outliers"]
                  if o["host"] == "h100-03" and o["field"] == "mtu"}
    want_ports = {"%s port %d" % (n["name"], p["port"]) for n in h100["inventory"]["nics"]
                  if n["model"] == "ConnectX-7" for p in n["ports"]}
    expect(h100_ports == want_ports,
           "h100-03's MTU is one outlier per port (%d)" % len(h100_ports))
    expect(diff["hosts_differ"] == 8 and diff["outliers"] == sum(len(g["outliers"])
                                                                 for g in diff["groups"]),
           "the document counts hosts that differ (%s) apart from outliers" % diff["hosts_differ"])
    groups = {(g["profile"], g["nic_model"]): g for g in diff["groups"]}
    g = groups.get(("dgx-h100", "ConnectX-7"))
    expect(g is not None and g["baseline"].get("fw") == "28.39.1002" and
           g["baseline"].get("mtu") == 4096 and len(g["hosts"]) == 10,
           "the DGX H100 group's baseline is the majority")
    expect(("dgx-b200", "ConnectX-7") in groups and not groups[("dgx-b200", "ConnectX-7")]["outliers"],
           "the host with two NIC models is in both groups, drift only in one")
    order = [(g["profile"], g["nic_model"]) for g in diff["groups"]]
    expect(order == sorted(order), "groups sorted by profile then model")
    # text: the same outliers, for people
    rc, text, _ = run("fleet", "--db", db, "diff")
    expect(rc == 1 and all(e[2] in text for e in expected) and "28.37.1014" in text,
           "text diff names every outlier host and value")
    expect("no majority: fw of " in text and "20.39.1000 on 1 host, 20.40.1000 on 1" in text,
           "text diff says the tie has no majority")
    expect("8 hosts differ" in text and not re.search(r"\b1 hosts\b", text),
           "text counts hosts in words")
    # the report counts the same: hosts apart from values, in HTML and JSON
    html = os.path.join(tmp, "diff.html")
    rc, out, err = run("--json", "fleet", "--db", db, "report", "--html", html)
    rep = json.loads(out or "{}")
    expect(rc == 0 and rep.get("hosts") == 20 and rep.get("hosts_differ") == 8 and
           rep.get("outliers") == diff["outliers"],
           "report --json: 20 hosts, 8 differ, %s values (%s)" % (diff["outliers"], rep))
    with open(html) as f:
        page = f.read()
    m = re.search(r'<p id="drift-count" data-hosts-differ="(\d+)" data-outliers="(\d+)">([^<]*)',
                  page)
    expect(m and m.group(1) == "8" and m.group(2) == str(diff["outliers"]) and
           m.group(3).startswith("8 hosts differ") and
           m.group(3).endswith("in %d values" % diff["outliers"]),
           "HTML: hosts that differ apart from values (%s)" % (m.group(0) if m else None))
    per_group = re.findall(r'data-k="hosts-differ">(\d+)<', page)
    expect(sorted(int(x) for x in per_group) == sorted(g["hosts_differ"] for g in diff["groups"]),
           "HTML: each group's hosts that differ as the diff says (%s)" % per_group)
    # "in 51 values" is fine: only a count of exactly one in the plural is not
    expect(not re.search(r"\b1 (hosts|values)\b", page), "HTML counts in words")
    # the pure function agrees on the same data when given it again: the
    # same result twice (no order from hashing leaks into the document)
    rc2, text2, _ = run("--json", "fleet", "--db", db, "diff")
    _, text3, _ = run("--json", "fleet", "--db", db, "diff")
    expect(text2 == text3, "diff output is deterministic")

    # a fleet without drift: exit 0
    db2 = new_db(tmp, "clean")
    clean = [f for f in files if os.path.basename(f).startswith("roce-") and
             os.path.basename(f) not in ("roce-2.json", "roce-4.json")]
    run("record", "--db", db2, "--from", *clean)
    rc, text, _ = run("fleet", "--db", db2, "diff")
    expect(rc == 0 and "no drift" in text, "a fleet without drift: exit 0, 'no drift'")
    diff_atlas(tmp)


def diff_atlas(tmp):
    """Ascend NPU ports, each its own value: five Atlas 800 9000 records
    from the healthy fixture (one edited) and one from the broken one."""
    fixtures = os.path.join(SRC, "tests", "fixtures")
    healthy, broken = (fleetgen.fixture_check_doc(BIN, fixtures, s) for s in fleetgen.ATLAS_SHAPES)
    files, expected = [], set()
    for i in range(5):
        d = fleetgen.as_host(healthy, "atlas-%d" % i)
        if i == 2:  # npu5 other firmware and 25G, npu6 PFC on priority 3, not 4
            fleetgen.npu(d, 5)["firmware"] = "6.4.10.1.100"
            fleetgen.npu(d, 5)["port"]["speed_mbps"] = 25000
            fleetgen.npu(d, 6)["port"]["pfc_enabled"] = [False] * 3 + [True] + [False] * 4
        files.append(os.path.join(tmp, "atlas-%d.json" % i))
        fleetgen.write(files[-1], d)
    files.append(os.path.join(tmp, "atlas-broken.json"))
    fleetgen.write(files[-1], fleetgen.as_host(broken, "atlas-broken"))
    expected = {
        ("atlas-2", "fw", "npu5", json.dumps("6.4.10.1.100"), json.dumps("6.4.12.1.241")),
        ("atlas-2", "port_rate_gbps", "npu5", "25", "100"),
        ("atlas-2", "pfc_priority", "npu6", json.dumps("3"), json.dumps("4")),
        # the broken fixture: npu1 down (a down port gives no speed), npu3 at 25G
        ("atlas-broken", "port_state", "npu1", json.dumps("DOWN"), json.dumps("UP")),
        ("atlas-broken", "port_rate_gbps", "npu3", "25", "100"),
    }
    db = new_db(tmp, "atlas")
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "record --from the Atlas documents", err)
    rc, text, err = run("--json", "fleet", "--db", db, "diff")
    expect_rc(rc, 1, "fleet diff --json of the Atlas fleet", err)
    diff = json.loads(text)
    groups = [(g["profile"], g["nic_model"], g["link_layer"]) for g in diff["groups"]]
    expect(groups == [("atlas-800-9000", "Ascend 910", "NPU RoCE")],
           "the Atlas hosts are one group: profile, NPU model (%s)" % groups)
    got = {(o["host"], o["field"], o.get("subject"), json.dumps(o["value"]),
            json.dumps(o["baseline"])) for g in diff["groups"] for o in g["outliers"]}
    for e in sorted(expected - got):
        print("     missing:", e)
    for e in sorted(got - expected):
        print("     unexpected:", e)
    expect(got == expected, "the Atlas diff finds exactly the %d NPU outliers" % len(expected))
    g = diff["groups"][0] if diff["groups"] else {"baseline": {}, "hosts": []}
    expect(g["baseline"].get("port_rate_gbps") == 100 and g["baseline"].get("npu_count") == 8 and
           g["baseline"].get("npu_driver") == "23.0.rc2" and len(g["hosts"]) == 6,
           "the Atlas baseline: 100 Gb/s as a number, 8 NPUs, the driver (%s)" % g["baseline"])
    expect(diff["hosts_differ"] == 2, "two Atlas hosts differ (%s)" % diff["hosts_differ"])
    rc, text, _ = run("fleet", "--db", db, "diff")
    expect(rc == 1 and "npu5" in text and "6.4.10.1.100" in text and "atlas-0" not in text,
           "text diff names the NPU and not the healthy hosts")
    # NPU hosts are not compared with NIC hosts: a DGX in the same store
    # leaves the Atlas group as it was
    dgx = os.path.join(tmp, "atlas-dgx.json")
    fleetgen.write(dgx, fleetgen.as_host(fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100"), "dgx-x"))
    run("record", "--db", db, "--from", dgx)
    rc, text, _ = run("--json", "fleet", "--db", db, "diff")
    d2 = json.loads(text)
    atlas2 = [g for g in d2["groups"] if g["link_layer"] == "NPU RoCE"]
    expect(len(atlas2) == 1 and atlas2[0]["hosts"] == g["hosts"] and
           atlas2[0]["outliers"] == g["outliers"],
           "a NIC host in the store does not join or change the NPU group")


# ---------------------------------------------------------------- sqlite3

def case_sqlite(tmp):
    files = []
    for s in fleetgen.SHAPES:
        p = os.path.join(tmp, s + ".json")
        fleetgen.write(p, fleetgen.check_doc(BIN, EXAMPLES, s))
        files.append(p)
    db = os.path.join(tmp, "fleet.db")
    rc, _, err = run("record", "--db", db, "--time", "2026-11-01T00:00:00Z", "--from", *files)
    expect_rc(rc, 0, "record --from the fixtures", err)
    # a second, later round for two hosts, so ls must pick the latest
    rc, _, err = run("record", "--db", db, "--time", "2026-11-02T00:00:00Z", "--from", *files[:2])
    expect_rc(rc, 0, "a later round for two hosts", err)
    ls = ls_json(db)
    # a check equal to the latest record is a seen time of that record
    p = subprocess.run(["sqlite3", "-json", db,
                        "SELECT host, max(last_seen) AS time, count(*) + (SELECT count(*) FROM "
                        "seen s WHERE s.host = r.host) AS n, "
                        "json_extract(doc, '$.verdict') AS verdict, "
                        "json_array_length(doc, '$.check.findings') AS findings, "
                        "json_extract(doc, '$.check.inventory.host.hostname') AS hostname "
                        "FROM records r GROUP BY host ORDER BY host"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    expect(p.returncode == 0, "the sqlite3 CLI opens the database")
    rows = json.loads(p.stdout or b"[]")
    expect(len(rows) == len(fleetgen.SHAPES), "sqlite3 sees %d hosts" % len(rows))
    mine = [(h["host"], h["time"], h["records"], h["verdict"], h["findings"]) for h in ls["hosts"]]
    theirs = [(r["host"], r["time"], r["n"], r["verdict"], r["findings"]) for r in rows]
    expect(mine == theirs, "sqlite3 and fleet ls agree on host, time, records, verdict, findings")
    expect(all(r["host"] == r["hostname"] for r in rows), "each stored document is its host's")
    p = subprocess.run(["sqlite3", db, "PRAGMA journal_mode; SELECT version FROM schema_version"],
                       stdout=subprocess.PIPE, check=False)
    expect(p.stdout.split() == [b"wal", b"4"], "WAL mode, schema version 4 (%r)" % p.stdout)
    # the whole document is kept: it reads back equal to what was given
    with open(files[0]) as f:
        given = json.load(f)
    con = sqlite3.connect(db)
    stored = json.loads(con.execute("SELECT doc FROM records WHERE host = ? AND time = ?",
                                    (given["inventory"]["host"]["hostname"],
                                     "2026-11-01T00:00:00Z")).fetchone()[0])
    con.close()
    expect(stored["check"] == given, "the stored check document equals the file")
    # ingesting the same files again stores nothing twice
    rc, out, _ = run("--json", "record", "--db", db, "--time", "2026-11-01T00:00:00Z",
                     "--from", *files)
    s = json.loads(out)
    expect(rc == 0 and s["stored"] == 0 and s["already"] == len(files),
           "the same files again: all already there")


# ---------------------------------------------------------------- concurrent

def case_concurrent(tmp):
    doc = fleetgen.check_doc(BIN, EXAMPLES, "rtx3090-x16")
    sets = []
    for w in range(2):
        files = []
        for i in range(150):
            p = os.path.join(tmp, "w%d-%03d.json" % (w, i))
            fleetgen.write(p, fleetgen.as_host(doc, "w%d-host-%03d" % (w, i)))
            files.append(p)
        sets.append(files)
    db = new_db(tmp, "fleet")
    for rnd in range(3):
        # three rounds: the first on a file that does not exist yet
        procs = [subprocess.Popen([BIN, "record", "--db", db, "--time",
                                   "2026-11-30T0%d:00:00Z" % rnd, "--from"] + files,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for files in sets]
        results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
        for i, (o, e, rc) in enumerate(results):
            expect_rc(rc, 0, "round %d writer %d" % (rnd, i), e.decode())
    ls = ls_json(db)
    expect(len(ls["hosts"]) == 300, "both writers' hosts landed (%d of 300)" % len(ls["hosts"]))
    expect(all(h["records"] == 3 for h in ls["hosts"]), "every host has its three records")
    store_whole(db, "after the writers")

    # writers of the same hosts at once: two with the same time (kept
    # once), two more with times of their own; every check lands once
    same = new_db(tmp, "same")
    times = ["2026-11-30T01:00:00Z", "2026-11-30T01:00:00Z", "2026-11-30T02:00:00Z",
             "2026-11-30T03:00:00Z"]
    procs = [subprocess.Popen([BIN, "--json", "record", "--db", same, "--time", t, "--from"] +
                              sets[0][:60], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for t in times]
    results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    for i, (o, e, rc) in enumerate(results):
        expect_rc(rc, 0, "same hosts, writer %d" % i, e.decode())
    sums = [json.loads(o) for o, _, _ in results]
    landed = sum(x["stored"] + x["seen"] for x in sums)
    expect(landed == 3 * 60 and sum(x["already"] for x in sums) == 60,
           "same hosts at once: 180 checks stored or seen, 60 already there (%s)" %
           [(x["stored"], x["seen"], x["already"]) for x in sums])
    ls = ls_json(same)
    expect(len(ls["hosts"]) == 60 and all(h["records"] == 3 for h in ls["hosts"]),
           "same hosts at once: each of the 60 has its three checks %s" %
           sorted({h["records"] for h in ls["hosts"]}))
    dup = sql_rows(same, "SELECT count(*) FROM (SELECT host, time FROM records UNION ALL "
                         "SELECT host, time FROM seen) x GROUP BY host, time HAVING count(*) > 1")
    expect(dup == [], "no check kept twice (%d)" % len(dup))
    store_whole(same, "after writers of the same hosts")

    # a writer killed part way (kill -9, as a crash or an OOM kill would):
    # what was stored stays, and its own batch is all there or not at all
    for delay in (0.05, 0.15, 0.3):
        p = subprocess.Popen([BIN, "record", "--db", db, "--time", "2026-12-01T00:00:00Z",
                              "--from"] + sets[0] + sets[1], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        time.sleep(delay)
        p.kill()
        p.communicate(timeout=60)
        ls = ls_json(db)
        counts = sorted({h["records"] for h in ls["hosts"]})
        expect(len(ls["hosts"]) == 300 and counts in ([3], [4]),
               "killed after %.2f s: all 300 hosts, records per host %s (3 or 4, never both)"
               % (delay, counts))
        if counts == [4]:
            break
    store_whole(db, "after the kill")


# ---------------------------------------------------------------- full disk

def fill_until_full(tmp, db, doc, batches):
    """record --from batches of 5 hosts until one fails (at most batches):
    the hosts stored, and (rc, stderr) of the failed batch or None."""
    stored = set()
    for b in range(batches):
        files = []
        for i in range(5):
            p = os.path.join(tmp, "b%02d-%d.json" % (b, i))
            fleetgen.write(p, fleetgen.as_host(doc, "full-%02d-%d" % (b, i)))
            files.append(p)
        rc, _, err = run("record", "--db", db, "--time", "2026-11-30T07:00:00Z", "--from", *files)
        if rc != 0:
            return stored, (rc, err)
        stored.update("full-%02d-%d" % (b, i) for i in range(5))
    return stored, None


def case_fulldisk(tmp):
    if os.geteuid() != 0:
        print("skip: mounting a small tmpfs needs root")
        sys.exit(77)
    if (os.environ.get("RD_FLEET_MOUNT_NS") != "1" and shutil.which("unshare") and
            subprocess.run(["unshare", "--mount", "true"], stderr=subprocess.DEVNULL,
                           check=False).returncode == 0):
        # in a mount namespace of its own, the tmpfs cannot outlive the test
        # even when a timeout kills it
        p = subprocess.run(["unshare", "--mount", "--propagation", "private", "env",
                            "RD_FLEET_MOUNT_NS=1", sys.executable, os.path.abspath(__file__),
                            CASE, BIN, SRC], timeout=300, check=False)
        sys.exit(p.returncode)
    mnt = os.path.join(tmp, "small")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "fleet%d" % os.getpid(), mnt],
                      check=False).returncode != 0:
        print("skip: cannot mount a tmpfs here")
        sys.exit(77)
    try:
        doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
        db = os.path.join(mnt, "fleet.db")
        stored, full = fill_until_full(tmp, db, doc, 40)  # 2 MiB fill in far fewer
        expect(full is not None, "the 2 MiB file system filled up (after %d hosts)" % len(stored))
        if full is None:
            return
        rc, err = full
        expect_rc(rc, 3, "record on a full disk", "")
        expect("full" in err and "nothing of this run was stored" in err,
               "it says the disk is full and nothing of the run was kept: " + err.strip())
        expect(len(stored) > 0, "some batches fitted before")
        hosts = {h["host"] for h in ls_json(db)["hosts"]}
        expect(hosts == stored, "every host stored before the disk filled is there (%d), "
               "none of the failed batch" % len(hosts))
        con = sqlite3.connect(db)
        expect(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity_check ok")
        con.close()
        rc, _, err = run("fleet", "--db", db, "diff")
        expect(rc in (0, 1), "fleet diff still runs on the full disk (%d %s)" % (rc, err.strip()))
    finally:
        subprocess.run(["umount", mnt], check=False)


# ---------------------------------------------------------------- errors

def case_errors(tmp):
    doc = fleetgen.check_doc(BIN, EXAMPLES, "rtx3090-x16")
    good = os.path.join(tmp, "good.json")
    fleetgen.write(good, doc)
    other = os.path.join(tmp, "other.json")
    fleetgen.write(other, fleetgen.as_host(doc, "other-host"))
    notjson = os.path.join(tmp, "notjson.json")
    with open(notjson, "w") as f:
        f.write("this is not json\n")
    truncated = os.path.join(tmp, "truncated.json")
    with open(good) as f:
        text = f.read()
    with open(truncated, "w") as f:
        f.write(text[: len(text) // 2])
    inventory = os.path.join(tmp, "inventory.json")
    fleetgen.write(inventory, doc["inventory"])
    empty = os.path.join(tmp, "empty.json")
    open(empty, "w").close()
    db = os.path.join(tmp, "fleet.db")

    rc, out, err = run("record", "--db", db, "--from", good, notjson, truncated, inventory,
                       empty, os.path.join(tmp, "missing.json"), other)
    expect_rc(rc, 1, "record --from with broken files among good ones")
    for name, words in [("notjson.json", "not valid JSON"), ("truncated.json", "truncated"),
                        ("inventory.json", "inventory document"), ("empty.json", "empty"),
                        ("missing.json", "cannot open")]:
        expect(any(name in l and words in l for l in err.splitlines()),
               "the error names %s and says '%s'" % (name, words))
    hosts = {h["host"] for h in ls_json(db)["hosts"]}
    expect(hosts == {doc["inventory"]["host"]["hostname"], "other-host"},
           "the good files landed anyway: %s" % sorted(hosts))
    # --json: one document, with the failures
    rc, out, _ = run("--json", "record", "--db", db, "--from", notjson, other)
    s = json.loads(out)
    expect(rc == 1 and s["already"] == 1 and len(s["failed"]) == 1 and
           s["failed"][0]["file"] == notjson, "record --json lists the failed file")
    # stdin
    d2 = fleetgen.as_host(doc, "from-stdin")
    rc, _, err = run("record", "--db", db, "--from", "-", stdin=json.dumps(d2).encode())
    expect_rc(rc, 0, "record --from - (standard input)", err)
    expect("from-stdin" in {h["host"] for h in ls_json(db)["hosts"]}, "the stdin host is stored")

    # fleet on what is not a fleet database
    rc, _, err = run("fleet", "--db", os.path.join(tmp, "none.db"), "ls")
    expect(rc == 3 and "no fleet database" in err, "missing database: exit 3, says so")
    expect(not os.path.exists(os.path.join(tmp, "none.db")), "fleet ls creates no database")
    corrupt = os.path.join(tmp, "corrupt.db")
    with open(corrupt, "wb") as f:
        f.write(b"SQLite format 3\0" + os.urandom(4080))
    for sub in (["ls"], ["diff"], ["show", "x"]):
        rc, out, err = run("fleet", "--db", corrupt, *sub)
        expect(rc == 3 and "corrupt" in err + " damaged" and "damaged" in err and out == "",
               "corrupt database, fleet %s: exit 3, clear message: %s" % (sub[0], err.strip()))
    rc, _, err = run("record", "--db", corrupt, "--from", good)
    expect(rc == 3 and "damaged" in err, "corrupt database, record: exit 3")
    # a damaged page inside a real database
    broken = os.path.join(tmp, "broken.db")
    shutil.copy(db, broken)
    for ext in ("-wal", "-shm"):
        if os.path.exists(db + ext):
            shutil.copy(db + ext, broken + ext)
    con = sqlite3.connect(broken)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    with open(broken, "r+b") as f:
        f.seek(4096)	# page 1 (the schema) stays; the tables' roots go
        f.write(b"\xff" * 4096 * 4)
    rc, out, err = run("--json", "fleet", "--db", broken, "show", "other-host")
    expect(rc == 3 and err and (out == "" or json.loads(out)),
           "damaged pages: exit 3, no half document (%d: %s)" % (rc, err.strip()[:200]))
    foreign = os.path.join(tmp, "foreign.db")
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    rc, _, err = run("fleet", "--db", foreign, "ls")
    expect(rc == 3 and "not an rdmadoctor fleet database" in err, "someone else's SQLite file")
    newer = os.path.join(tmp, "newer.db")
    shutil.copy(db, newer)
    for ext in ("-wal", "-shm"):
        if os.path.exists(db + ext):
            shutil.copy(db + ext, newer + ext)
    con = sqlite3.connect(newer)
    con.execute("UPDATE schema_version SET version = 99")
    con.commit()
    con.close()
    rc, _, err = run("fleet", "--db", newer, "ls")
    expect(rc == 3 and "newer rdmadoctor" in err, "a database from a newer rdmadoctor")
    rc, _, err = run("fleet", "--db", tmp, "ls")
    expect(rc == 3 and "directory" in err, "a directory as the database")

    # an empty database, an unknown host
    emptydb = os.path.join(tmp, "empty.db")
    rc, _, _ = run("record", "--db", emptydb, "--from", notjson)
    rc, out, err = run("--json", "fleet", "--db", emptydb, "ls")
    expect(rc == 0 and json.loads(out)["hosts"] == [] and "no records" in err,
           "empty database: ls says so, empty list")
    rc, out, err = run("--json", "fleet", "--db", emptydb, "diff")
    expect(rc == 0 and json.loads(out)["groups"] == [], "empty database: empty diff")
    rc, out, err = run("fleet", "--db", db, "show", "no-such-host")
    expect(rc == 2 and "no record of host 'no-such-host'" in err and out == "",
           "unknown host: exit 2, says which")

    # not writable: as a user without permission (root ignores modes)
    ro_dir = os.path.join(tmp, "ro")
    os.mkdir(ro_dir)
    ro = os.path.join(ro_dir, "fleet.db")
    run("record", "--db", ro, "--from", good)
    os.chmod(ro, 0o444)
    os.chmod(ro_dir, 0o555)
    prefix = []
    if os.geteuid() == 0:
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        os.chmod(tmp, 0o755)
    p = subprocess.run(prefix + [BIN, "record", "--db", ro, "--from", other],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    err = p.stderr.decode()
    expect(p.returncode == 3 and ("read-only" in err or "permission" in err),
           "database not writable: exit 3, clear (%s)" % err.strip())
    # a reader who can write neither the file nor its directory still reads
    p = subprocess.run(prefix + [BIN, "--json", "fleet", "--db", ro, "ls"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    expect(p.returncode == 0 and [h["host"] for h in json.loads(p.stdout or b"{}").get("hosts", [])]
           == [doc["inventory"]["host"]["hostname"]],
           "a read-only database in a read-only directory can be read (%d %s)"
           % (p.returncode, p.stderr.decode().strip()))
    p = subprocess.run(prefix + [BIN, "record", "--db", os.path.join(ro_dir, "new.db"),
                                 "--from", good], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    err = p.stderr.decode()
    expect(p.returncode == 3 and "cannot" in err and "new.db" in err,
           "cannot create a database in a read-only directory: %s" % err.strip())
    os.chmod(ro_dir, 0o755)

    # usage
    for args in (["record", "--from"], ["record", "--bogus"], ["record", "--time", "yesterday",
                 "--from", good], ["fleet"], ["fleet", "nope"], ["fleet", "show"],
                 ["fleet", "ls", "extra"], ["fleet", "--html", "x", "ls"],
                 ["record", "--from", good, "--bw", good]):
        rc, _, err = run(*args)
        expect(rc == 2 and err.strip(), "usage error: %s -> 2" % " ".join(args))
    # an option whose value is missing is named as such, not as unknown
    for args in (["record", "--db"], ["record", "--bw"], ["fleet", "ls", "--db"],
                 ["fleet", "report", "--html", ""]):
        rc, _, err = run(*args)
        expect(rc == 2 and "%s needs a value" % args[-1 if args[-1] else -2] in err,
               "usage error: %s says the value is missing (%s)" % (" ".join(args),
                                                                  err.splitlines()[:1]))
    rc, out, _ = run("record", "--help")
    expect(rc == 0 and "--from" in out and "--db" in out, "record --help")
    rc, out, _ = run("fleet", "--help")
    expect(rc == 0 and "diff" in out and "baseline" in out, "fleet --help")


# ---------------------------------------------------------------- upgrade

V1_SCHEMA = """
CREATE TABLE schema_version(version INTEGER NOT NULL);
INSERT INTO schema_version VALUES(1);
CREATE TABLE records(
  id INTEGER PRIMARY KEY,
  host TEXT NOT NULL,
  time TEXT NOT NULL,
  doc TEXT NOT NULL,
  UNIQUE(host, time));
"""


def case_upgrade(tmp):
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    db = os.path.join(tmp, "v1.db")
    con = sqlite3.connect(db)
    con.executescript(V1_SCHEMA)
    for i in range(4):
        d = fleetgen.as_host(doc, "old-%d" % i)
        d.pop("rails", None)  # a schema 1 store predates the rails
        if i == 2:
            fleetgen.set_fw(d, "28.35.1012")
        rec = fleetgen.record(d, "2025-01-0%dT00:00:00Z" % (i + 1))
        con.execute("INSERT INTO records(host, time, doc) VALUES (?, ?, ?)",
                    (rec["host"], rec["time"], json.dumps(rec)))
    con.commit()
    con.close()
    ls = ls_json(db)
    expect([h["host"] for h in ls["hosts"]] == ["old-%d" % i for i in range(4)],
           "a schema 1 file opens: its four hosts are there")
    expect(all(h["profile"] == "dgx-h100" and h["verdict"] == doc["verdict"] for h in ls["hosts"]),
           "columns added by the upgrade are filled from the stored documents")
    con = sqlite3.connect(db)
    expect(con.execute("SELECT version FROM schema_version").fetchone()[0] == 4, "now schema 4")
    n = con.execute("SELECT count(*) FROM record_groups").fetchone()[0]
    con.close()
    groups = {(nic["model"], nic["ports"][0]["link_layer"] if nic["ports"] else "unknown")
              for nic in doc["inventory"]["nics"]}
    # (and one more each: its boards' PSIDs and firmware, fleet/firmware.h)
    expect(n == 4 * (len(groups) + 1), "drift facts made for the old records (%d)" % n)
    rc, out, _ = run("--json", "fleet", "--db", db, "diff")
    d = json.loads(out)
    outl = [(o["host"], o["field"]) for g in d["groups"] for o in g["outliers"]]
    expect(rc == 1 and set(outl) == {("old-2", "fw")} and
           len(outl) == len(doc["inventory"]["nics"]),
           "diff over the upgraded rows: old-2's fw, once per NIC: %s" % outl)
    # and new records go in beside the old ones
    p = os.path.join(tmp, "new.json")
    fleetgen.write(p, fleetgen.as_host(doc, "new-0"))
    rc, _, err = run("record", "--db", db, "--from", p)
    expect_rc(rc, 0, "record into the upgraded file", err)
    expect(len(ls_json(db)["hosts"]) == 5, "five hosts now")

    # schema 0: an empty file (touch fleet.db) is made a fleet database
    db0 = os.path.join(tmp, "v0.db")
    open(db0, "w").close()
    rc, _, err = run("record", "--db", db0, "--from", p)
    expect_rc(rc, 0, "record into an empty file", err)
    expect([h["host"] for h in ls_json(db0)["hosts"]] == ["new-0"], "the empty file holds it")


def case_upgrade3(tmp):
    """A store of schema 3 (made here from one of 4, by undoing what 4
    added) upgrades in one transaction: the host entries are made from its
    records, and an unchanged check after it is a seen time.  An upgrade
    that fails half way leaves schema 3 as it was."""
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    files = host_files(tmp, doc, ["up-%d" % i for i in range(3)])
    db = new_db(tmp, "three")
    for t in ("2026-11-30T01:00:00Z", "2026-11-30T02:00:00Z"):
        rc, _, err = run("record", "--db", db, "--time", t, "--from", *files)
        expect_rc(rc, 0, "record at %s" % t, err)
    want = ls_json(db)["hosts"]

    def as_schema3():
        # what schema 3 had: no hosts, content a 64-bit hash, the counters
        # of a record's last check beside it as those that differ
        for q in ("DROP TABLE hosts", "UPDATE records SET content = 'stale0123456789'",
                  "UPDATE records SET counters = NULL", "UPDATE schema_version SET version = 3"):
            sql_do(db, q)

    as_schema3()
    # a record that is not an object: the upgrade fails, nothing changes
    sql_do(db, "INSERT INTO records(host, time, last_seen, doc) VALUES ('bad', "
                 "'2026-11-29T00:00:00Z', '2026-11-29T00:00:00Z', '[]')")
    rc, _, err = run("--json", "fleet", "--db", db, "ls")
    expect(rc == 3 and "bad" not in err and "not a JSON object" in err,
           "an upgrade that cannot be done says why (%d %s)" % (rc, err.strip()))
    expect(sql_rows(db, "SELECT version FROM schema_version") == [["3"]] and
           sql_rows(db, "SELECT count(*) FROM records WHERE content = 'stale0123456789'") ==
           [["3"]], "and leaves schema 3 as it was")
    sql_do(db, "DELETE FROM records WHERE host = 'bad'")
    ls = ls_json(db)
    expect(sql_rows(db, "SELECT version FROM schema_version") == [["4"]], "now schema 4")
    expect(ls["hosts"] == want, "the hosts as before the upgrade: %s" % ls["hosts"])
    store_whole(db, "after the upgrade from 3")
    rc, out, err = run("--json", "record", "--db", db, "--time", "2026-11-30T03:00:00Z",
                       "--from", *files)
    s = json.loads(out or "{}")
    expect(rc == 0 and s.get("seen") == 3 and s.get("stored") == 0,
           "an unchanged check after the upgrade is a seen time (%s)" % out.strip())
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "up-1")
    expect(rc == 0 and len(json.loads(out).get("counters", [])) == 2,
           "its counter deltas are there (%s)" % out[:200])
    store_whole(db, "after a check past the upgrade")


# ---------------------------------------------------------------- record

def case_record(tmp):
    xdg = os.path.join(tmp, "xdg")
    env = dict(os.environ, XDG_DATA_HOME=xdg)
    rc, out, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "record", env=env)
    expect_rc(rc, 0, "record --root dgx-h100 into the default database", err)
    db = os.path.join(xdg, "rdmadoctor", "fleet.db")
    expect(os.path.exists(db), "the default database was made with its directory")
    expect("dgx-h100-017" in out, "record says which host it stored")
    env2 = dict(os.environ, HOME=os.path.join(tmp, "home"))
    env2.pop("XDG_DATA_HOME", None)
    rc, _, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "record", env=env2)
    expect(rc == 0 and os.path.exists(os.path.join(tmp, "home", ".local", "share", "rdmadoctor",
                                                   "fleet.db")),
           "without XDG_DATA_HOME: ~/.local/share/rdmadoctor/fleet.db")
    if BACKEND != "sqlite":
        db = new_db(tmp, "rec")  # the default is a file; the rest on the server
    # the stored check is what `check --json` says
    check = fleetgen.check_doc(BIN, EXAMPLES, "roce-broken")
    bw = fleetgen.bw_doc("esc-n8-r12n05", "peer", [("mlx5_0", 380.5), ("mlx5_1", 120.0)])
    bwf = os.path.join(tmp, "bw.json")
    fleetgen.write(bwf, bw)
    rc, out, err = run("--root", os.path.join(EXAMPLES, "roce-broken"), "--json", "record",
                       "--db", db, "--bw", bwf, env=env)
    expect_rc(rc, 1, "record of a failing machine: stored, exit 1 like check", err)
    s = json.loads(out)
    expect(s["stored"] == 1 and s["host"] == "esc-n8-r12n05" and s["verdict"] == "fail",
           "record --json says what it stored")
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "esc-n8-r12n05")
    show = json.loads(out)
    latest = show["latest"]
    expect(latest["check"]["findings"] == check["findings"] and
           latest["check"]["inventory"]["nics"] == check["inventory"]["nics"],
           "the stored check equals `check --json` (findings and NICs)")
    expect(latest["bw"] == [bw], "the bw document is kept with the record")
    expect(latest["profile"] == check["profile"] and latest["verdict"] == "fail",
           "record profile and verdict are the check's")
    rc, _, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "record", "--db", db,
                     "--profile", "dgx-a100", env=env)
    expect(rc == 1, "--profile judges against the profile given (%d)" % rc)
    notbw = os.path.join(tmp, "notbw.json")
    fleetgen.write(notbw, check)
    rc, _, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "record", "--db", db,
                     "--bw", notbw, env=env)
    expect(rc == 2 and "notbw.json" in err and "bw" in err, "--bw with a check document: "
           + err.strip())
    # the same check, stored live and then from the file `check --json`
    # wrote (indented, the record's members around it made anew), is one
    # record seen twice: not a second record with nothing changed
    ddb = new_db(tmp, "dedup")
    ex = os.path.join(EXAMPLES, "dgx-h100")
    rc, _, err = run("--root", ex, "record", "--db", ddb)
    expect_rc(rc, 0, "dedup: the live record", err)
    rc, out, err = run("--root", ex, "--json", "check")
    cf = os.path.join(tmp, "dgx-check.json")
    with open(cf, "w") as f:
        f.write(out)
    rc, out, err = run("--json", "record", "--db", ddb, "--from", cf, "--time",
                       "2099-01-01T00:00:00Z")
    s = json.loads(out or "{}")
    expect(rc == 0 and s.get("stored") == 0 and s.get("seen") == 1,
           "record --from of `check --json`'s file, unchanged since the live record: a seen "
           "time, not a second record (%s %s)" % (s, err.strip()))
    rc, out, _ = run("--json", "fleet", "--db", ddb, "show", "dgx-h100-017")
    show = json.loads(out or "{}")
    expect(len(show.get("records", [])) == 1 and show["records"][0]["checks"] == 2,
           "fleet show: one record, checked twice (%s)" % show.get("records"))
    # history: two records of one host a day apart, the second edited
    d1 = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    d2 = json.loads(json.dumps(d1))
    d2["inventory"]["nics"][3]["fw_ver"] = "28.40.1000"
    d2["inventory"]["nics"][1]["ports"][0]["active_mtu"] = 2048
    f1, f2 = os.path.join(tmp, "d1.json"), os.path.join(tmp, "d2.json")
    fleetgen.write(f1, fleetgen.record(d1, "2026-11-01T00:00:00Z"))
    fleetgen.write(f2, fleetgen.record(d2, "2026-11-02T00:00:00Z"))
    hdb = new_db(tmp, "hist")
    rc, _, err = run("record", "--db", hdb, "--from", f2, f1)
    expect_rc(rc, 0, "two records of one host", err)
    rc, out, _ = run("--json", "fleet", "--db", hdb, "show", "dgx-h100-017")
    show = json.loads(out)
    changes = sorted((c["subject"], c["field"], c["old"], c["new"], c["time"])
                     for c in show["changes"])
    n3 = d1["inventory"]["nics"][3]["name"]
    n1 = d1["inventory"]["nics"][1]["name"]
    want = sorted([(n3, "fw", "28.39.1002", "28.40.1000", "2026-11-02T00:00:00Z"),
                   (n1 + " port 1", "mtu", 4096, 2048, "2026-11-02T00:00:00Z")])
    expect(changes == want, "fleet show lists exactly the two changes: %s" % changes)
    expect([r["time"] for r in show["records"]] == ["2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"],
           "records oldest first")
    rc, out, _ = run("fleet", "--db", hdb, "show", "dgx-h100-017")
    expect(rc == 0 and "28.39.1002 -> 28.40.1000" in out, "text show: old -> new")


# ---------------------------------------------------------------- report

def case_report(tmp):
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    files = host_files(tmp, doc, ["rep-%d" % i for i in range(3)])
    db = new_db(tmp, "fleet")
    run("record", "--db", db, "--from", *files)
    html = os.path.join(tmp, "out", "fleet.html")
    os.mkdir(os.path.dirname(html))
    rc, out, err = run("fleet", "--db", db, "report", "--html", html)
    if rc == 3 and "this build has no HTML report" in err:
        expect(not os.listdir(os.path.dirname(html)), "no page and no temporary file left")
        print("note: the HTML writer (print/fleet_html.c) is not in this build")
    else:
        expect_rc(rc, 0, "fleet report --html", err)
        with open(html) as f:
            page = f.read()
        expect("<html" in page.lower() and all("rep-%d" % i in page for i in range(3)),
               "the page names every host")
        expect(os.listdir(os.path.dirname(html)) == ["fleet.html"], "no temporary file left")
        mask = os.umask(0)
        os.umask(mask)
        expect(os.stat(html).st_mode & 0o777 == 0o666 & ~mask,
               "the page has the mode of any new file (%o)" % (os.stat(html).st_mode & 0o777))
    rc, _, err = run("fleet", "--db", db, "report")
    expect(rc == 2 and "--html" in err, "report without --html: usage")
    rc, _, err = run("fleet", "--db", db, "report", "--html",
                     os.path.join(tmp, "no", "such", "dir", "x.html"))
    # a path that cannot be written is a usage error, said before the database is read
    expect(rc == 2 and "its directory" in err and "No such file or directory" in err,
           "report into a missing directory: exit 2 (%s)" % err.strip())
    report_missing(tmp)
    report_series(tmp)


ERROR_MOVES = {  # per check after the first: what grows on which port
    ("mlx5_0 port 1", "symbol_error"): [3, 0, 5, 2],
    ("mlx5_3 port 1", "hw:out_of_sequence"): [0, 7, 0, 1],
    ("npu2", "roce_rx_err_pkt_num"): [4, 4, 0, 9],
}


def report_series(tmp):
    """The counter series plotted: a NIC host and an Atlas host checked five
    times with error counters (and data counters) moving; the page draws,
    per host, the error counters that moved, each delta as the documents
    give it, and no data counter."""
    fixtures = os.path.join(SRC, "tests", "fixtures")
    base = {"ctr-nic": fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100"),
            "ctr-npu": fleetgen.fixture_check_doc(BIN, fixtures, fleetgen.ATLAS_SHAPES[0])}
    db = new_db(tmp, "series")
    files, docs = [], {h: [] for h in base}

    def ports(d):
        """{subject: its counters as the record keeps them}"""
        out = {}
        for n in d["inventory"].get("nics", []):
            for p in n["ports"]:
                c = dict(p.get("counters") or {})
                c.update({"hw:" + k: v for k, v in (p.get("hw_counters") or {}).items()})
                out["%s port %d" % (n["name"], p["port"])] = (p, c)
        for n in (d["inventory"].get("npus") or {}).get("devices", []):
            out["npu%d" % n["id"]] = (n["port"], dict(n["port"]["stat"]))
        return out

    for host, doc in base.items():
        d = fleetgen.as_host(doc, host)
        for i in range(5):
            d = json.loads(json.dumps(d))
            for subject, (port, _) in ports(d).items():
                if i and "counters" in port:
                    port["counters"]["port_rcv_data"] += 4096 * i  # data: not plotted
                if i and "stat" in port:
                    port["stat"]["nic_rx_all_oct_num"] += 4096 * i
                for (subj, name), grow in ERROR_MOVES.items():
                    if subj != subject or not i:
                        continue
                    if name.startswith("hw:"):
                        port["hw_counters"][name[3:]] += grow[i - 1]
                    elif "stat" in port:
                        port["stat"][name] += grow[i - 1]
                    else:
                        port["counters"][name] += grow[i - 1]
            docs[host].append(d)
            files.append(os.path.join(tmp, "%s-%d.json" % (host, i)))
            fleetgen.write(files[-1], fleetgen.record(d, "2026-11-06T%02d:00:00Z" % i))
    rc, out, err = run("--json", "record", "--db", db, "--from", *files)
    expect(rc == 0 and json.loads(out)["seen"] == 8, "ten checks, eight of them seen (%s)" % err)
    # what the page must draw, from the documents themselves: per port and
    # counter, the growth from one check to the next
    want = {}
    for host, seq in docs.items():
        for a, b in zip(seq, seq[1:]):
            pa, pb = ports(a), ports(b)
            for subject, (_, cb) in pb.items():
                for name, v in cb.items():
                    want.setdefault((host, subject, name), []).append(v - pa[subject][1][name])
    moved = {k: v for k, v in want.items() if any(v)}
    errors = {k: v for k, v in moved.items() if (k[1], k[2]) in ERROR_MOVES}
    expect(len(errors) == 3 and any(k[2] == "port_rcv_data" for k in moved),
           "the documents move three error counters and data counters")
    html = os.path.join(tmp, "series.html")
    rc, _, err = run("fleet", "--db", db, "report", "--html", html)
    expect_rc(rc, 0, "the report of hosts whose counters moved", err)
    with open(html) as f:
        page = f.read()
    got = {}
    for host, body in re.findall(r'<div class="spark-host" data-host="([^"]*)" '
                                 r'data-points="4">(.*?)</div>', page, re.S):
        for subj, name, total, deltas in re.findall(
                r'<tr class="spark-row" data-subject="([^"]*)" data-counter="([^"]*)" '
                r'data-total="(\d+)">.*?<svg class="spark"[^>]*data-deltas="([^"]*)"', body):
            got[(host, subj, name)] = [int(x) for x in deltas.split()]
            expect(int(total) == sum(got[(host, subj, name)]),
                   "%s %s %s: the total is the sum of its bars" % (host, subj, name))
    expect(got == errors, "the page plots exactly the error counters that moved, per host, "
                          "each delta (%s, want %s)" % (sorted(got.items()), sorted(errors.items())))
    expect(page.count('<rect class="spark-bar"') == sum(1 for v in errors.values() for x in v if x),
           "one bar per delta that is not 0")
    expect('id="counters"' in page and "port_rcv_data" not in page.split('id="counters"')[1]
           .split("</section>")[0], "no data counter among the charts")
    # a fleet whose checks were never seen twice: the section says so
    rc, _, _ = run("fleet", "--db", db, "rm", "ctr-nic")
    rc, _, _ = run("fleet", "--db", db, "rm", "ctr-npu")
    one = os.path.join(tmp, "series-one.json")
    fleetgen.write(one, fleetgen.record(docs["ctr-nic"][0], "2026-11-07T00:00:00Z"))
    run("record", "--db", db, "--from", one)
    rc, _, err = run("fleet", "--db", db, "report", "--html", html)
    with open(html) as f:
        page = f.read()
    expect(rc == 0 and 'id="counters-none"' in page and "spark-host" not in page,
           "no counter series: the section says none moved")


def report_missing(tmp):
    """One spelling of a missing value: a host without the trust mode the
    others have reads "-" in text and HTML alike, null in JSON."""
    roce = fleetgen.check_doc(BIN, EXAMPLES, "hgx-roce-lag")
    files = []
    for i in range(4):
        d = fleetgen.as_host(roce, "miss-%d" % i)
        for n in d["inventory"]["nics"]:
            for p in n["ports"]:
                if isinstance(p.get("qos"), dict):
                    p["qos"]["trust"] = "dscp" if i < 3 else None
        files.append(os.path.join(tmp, "miss-%d.json" % i))
        fleetgen.write(files[-1], d)
    db = new_db(tmp, "missing")
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "record the hosts, one without a trust mode", err)
    rc, out, err = run("--json", "fleet", "--db", db, "diff")
    diff = json.loads(out or "{}")
    odd = [o for g in diff.get("groups", []) for o in g["outliers"]
           if o["host"] == "miss-3" and o["field"] == "trust"]
    expect(rc == 1 and odd and all(o["value"] is None and o["baseline"] == "dscp" and
                                   o["shares"].get("null") == 1 for o in odd),
           "JSON: the missing trust is null (%s)" % odd[:1])
    rc, text, _ = run("fleet", "--db", db, "diff")
    rows = [line for line in text.splitlines() if line.strip().startswith("miss-3")]
    # HOST FIELD SUBJECT VALUE BASELINE: the value "-", the baseline dscp
    expect(rc == 1 and rows and all(re.search(r"trust\s+\S+ port \d+\s+-\s+dscp\s", r)
                                    for r in rows)
           and "dscp on 3 hosts, - on 1" in text and "unknown" not in text and "null" not in text,
           "text: the missing trust is '-' (%s)" % (rows[:1],))
    html = os.path.join(tmp, "missing.html")
    rc, _, err = run("fleet", "--db", db, "report", "--html", html)
    expect_rc(rc, 0, "the report of hosts with a missing value", err)
    with open(html) as f:
        page = f.read()
    cells = re.findall(r'<tr class="outlier"[^>]*data-field="trust" data-host="miss-3">(.*?)</tr>',
                       page)
    expect(cells and all('<td data-k="value">-</td>' in c and
                         'data-value="-" data-count="1">- (1)</span>' in c for c in cells) and
           ">unknown<" not in page and "null (" not in page,
           "HTML: the missing trust is '-', in its cell and its share (%d rows)" % len(cells))


# ---------------------------------------------------------------- valgrind

def case_valgrind(tmp):
    if not shutil.which("valgrind"):
        print("skip: no valgrind")
        sys.exit(77)
    doc = fleetgen.check_doc(BIN, EXAMPLES, "roce-broken")
    files = []
    for i in range(3):
        p = os.path.join(tmp, "v%d.json" % i)
        d = fleetgen.as_host(doc, "vg-%d" % i)
        if i == 1:
            fleetgen.set_fw(d, "28.35.1012")
        fleetgen.write(p, fleetgen.record(d, "2026-11-0%dT00:00:00Z" % (i + 1),
                                          [fleetgen.bw_doc("vg-%d" % i, "p", [("mlx5_0", 380.0)])])
                       if i == 2 else d)
        files.append(p)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema":1,"inventory":')
    db = new_db(tmp, "fleet")
    fabric = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                          "fabric-report.json")
    again = os.path.join(tmp, "again.json")  # v0 later: unchanged, a seen time
    later = fleetgen.as_host(doc, "vg-0")
    for p in (p for n in later["inventory"]["nics"] for p in n["ports"]):
        if isinstance(p.get("counters"), dict) and "symbol_error" in p["counters"]:
            p["counters"]["symbol_error"] += 3  # an error counter moved: a chart
    fleetgen.write(again, fleetgen.record(later, "2026-12-01T00:00:00Z"))
    runs = [["record", "--db", db, "--time", "2026-11-30T07:00:00Z", "--from", bad] + files,
            ["--root", os.path.join(EXAMPLES, "hgx-roce-lag"), "record", "--db", db],
            ["--json", "fleet", "--db", db, "ls"], ["fleet", "--db", db, "ls"],
            ["--json", "fleet", "--db", db, "diff"], ["fleet", "--db", db, "diff"],
            ["--json", "fleet", "--db", db, "show", "vg-1"], ["fleet", "--db", db, "show", "vg-2"],
            ["fleet", "--db", db, "report", "--html", os.path.join(tmp, "r.html")],
            ["fleet", "--db", bad, "ls"],
            ["record", "--db", db, "--time", "2026-11-30T07:00:00Z", "--from", files[0]],
            ["record", "--db", db, "--from", again],
            ["--root", os.path.join(EXAMPLES, "dgx-h100"), "record", "--db", db, "--host",
             "gpu-02", "--fabric", fabric],
            ["--json", "fleet", "--db", db, "show", "vg-0"],
            ["fleet", "--db", db, "report", "--html", os.path.join(tmp, "r2.html")],
            ["fleet", "--db", db, "ls", "--verdict", "fail", "--group", "ConnectX-7"],
            ["--json", "fleet", "--db", db, "diff"],
            ["fleet", "--db", db, "rm", "vg-1", "--before", "2027-01-01T00:00:00Z"],
            ["record", "--db", "postgresql://u:pw@127.0.0.1:1/x", "--from", files[0]]]
    for args in runs:
        p = subprocess.run(["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
                            "--show-leak-kinds=definite,indirect",
                            "--errors-for-leak-kinds=definite,indirect", BIN] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300,
                           check=False)
        expect(p.returncode in (0, 1, 3), "valgrind clean: %s (%d)%s" % (
            " ".join(args[:6]), p.returncode,
            "" if p.returncode != 99 else "\n" + p.stderr.decode()[-3000:]))


# ---------------------------------------------------------------- host drift

def case_hostdrift(tmp):
    """A host whose profile changed, and alike machines judged apart."""
    doc = fleetgen.check_doc(BIN, EXAMPLES, "a800-8x100g-roce")
    db = new_db(tmp, "fleet")
    files = []
    for i in range(4):
        d = fleetgen.as_host(doc, "a800-%d" % i)
        p = os.path.join(tmp, "a800-%d.json" % i)
        fleetgen.write(p, fleetgen.record(d, "2026-11-01T00:00:00Z"))
        files.append(p)
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "four alike hosts", err)
    rc, out, _ = run("--json", "fleet", "--db", db, "diff")
    d = json.loads(out)
    expect(rc == 0 and d["profile_changes"] == [] and d["profile_splits"] == [],
           "alike hosts on one profile: no host drift")
    # host 3 is judged against another profile from now on
    d3 = fleetgen.as_host(doc, "a800-3")
    d3["profile"] = "budget-2x100g-roce"
    p = os.path.join(tmp, "a800-3-later.json")
    fleetgen.write(p, fleetgen.record(d3, "2026-11-02T00:00:00Z"))
    rc, _, err = run("record", "--db", db, "--from", p)
    expect_rc(rc, 0, "the host's later record, another profile", err)
    rc, out, _ = run("--json", "fleet", "--db", db, "diff")
    d = json.loads(out)
    expect(rc == 1 and d["profile_changes"] == [{"host": "a800-3", "from": doc["profile"],
                                                 "to": "budget-2x100g-roce"}],
           "the profile change is drift: %s" % d["profile_changes"])
    dmi = doc["inventory"]["host"]["dmi_product"]
    splits = d["profile_splits"]
    expect(len(splits) == 1 and splits[0]["dmi_product"] == dmi and
           {p["profile"]: p["hosts"] for p in splits[0]["profiles"]} ==
           {doc["profile"]: ["a800-0", "a800-1", "a800-2"], "budget-2x100g-roce": ["a800-3"]},
           "the same DMI product and GPUs on two profiles is drift: %s" % splits)
    expect(d["hosts_differ"] == 1, "one host differs (%s)" % d["hosts_differ"])
    rc, text, _ = run("fleet", "--db", db, "diff")
    expect("a800-3: %s -> budget-2x100g-roce" % doc["profile"] in text and
           "different profiles" in text and "1 host differs" in text,
           "text diff names the profile change and the split")
    hostdrift_npus(tmp)
    html = os.path.join(tmp, "hostdrift.html")
    rc, out, err = run("--json", "fleet", "--db", db, "report", "--html", html)
    expect(rc == 0 and json.loads(out)["hosts_differ"] == 1, "report --json: 1 host differs")
    with open(html) as f:
        page = f.read()
    expect(re.search(r'<tr class="profile-change" data-host="a800-3"><td>a800-3</td><td>%s</td>'
                     r'<td>budget-2x100g-roce</td>' % re.escape(doc["profile"]), page) and
           '<td data-hosts="1">1 host: a800-3</td>' in page and
           '<td data-hosts="3">3 hosts: a800-0 a800-1 a800-2</td>' in page and
           re.search(r'id="drift-count" data-hosts-differ="1" data-outliers="0">1 host differs '
                     r'from its group', page) and "1 hosts" not in page,
           "HTML: the profile change, the split, '1 host differs'")


def hostdrift_npus(tmp):
    """Alike Atlas machines (DMI product, the same NPU models and count)
    judged against different profiles are drift; one with an NPU fewer is
    not the same machine."""
    fixtures = os.path.join(SRC, "tests", "fixtures")
    atlas = fleetgen.fixture_check_doc(BIN, fixtures, fleetgen.ATLAS_SHAPES[0])
    dmi = atlas["inventory"]["host"]["dmi_product"]
    npus = atlas["inventory"]["npus"]["devices"]
    models = sorted({n["model"] for n in npus})
    want_acc = ", ".join("%dx %s" % (sum(1 for n in npus if n["model"] == m), m) for m in models)
    db = new_db(tmp, "npusplit")
    files = []
    for i in range(4):
        d = fleetgen.as_host(atlas, "npu-%d" % i)
        if i == 3:
            d["profile"] = "atlas-other"
        files.append(os.path.join(tmp, "npu-%d.json" % i))
        fleetgen.write(files[-1], fleetgen.record(d, "2026-11-01T00:00:00Z"))
    fewer = fleetgen.as_host(atlas, "npu-fewer")
    fewer["inventory"]["npus"]["devices"] = npus[:-1]
    fewer["profile"] = "atlas-7npu"
    files.append(os.path.join(tmp, "npu-fewer.json"))
    fleetgen.write(files[-1], fleetgen.record(fewer, "2026-11-01T00:00:00Z"))
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "Atlas hosts, one on another profile, one with an NPU fewer", err)
    rc, out, _ = run("--json", "fleet", "--db", db, "diff")
    d = json.loads(out or "{}")
    splits = [x for x in d.get("profile_splits", []) if x["dmi_product"] == dmi]
    expect(rc == 1 and len(splits) == 1 and splits[0]["gpus"] == want_acc and
           {p["profile"]: p["hosts"] for p in splits[0]["profiles"]} ==
           {atlas["profile"]: ["npu-0", "npu-1", "npu-2"], "atlas-other": ["npu-3"]},
           "the same DMI product and NPUs (%s) on two profiles is drift, the host with an "
           "NPU fewer is another machine: %s" % (want_acc, splits))
    rc, text, _ = run("fleet", "--db", db, "diff")
    expect("%s with %s:" % (dmi, want_acc) in text and "atlas-other: 1 host: npu-3" in text,
           "text diff names the NPU machines judged apart")


# ---------------------------------------------------------------- identity

def case_identity(tmp):
    """Records are who they say: --host, bw of another host refused,
    fleet rm, fleet ls filters, the help promises what it takes."""
    db = new_db(tmp, "fleet")
    root = os.path.join(EXAMPLES, "dgx-h100")
    me = "dgx-h100-017"
    other = os.path.join(tmp, "bw-vm.json")
    fleetgen.write(other, fleetgen.bw_doc("vm", "peer", [("mlx5_0", 390.0)]))
    rc, out, err = run("--root", root, "record", "--db", db, "--bw", other)
    expect(rc == 2 and "measured on host 'vm'" in err and me in err and "--host" in err,
           "a bw document of another host is refused with the reason: " + err.strip())
    expect(not os.path.exists(db) or ls_json(db)["hosts"] == [], "and nothing was stored")
    rc, out, err = run("--root", root, "--json", "record", "--db", db, "--host", "vm",
                       "--bw", other)
    expect_rc(rc, 0, "--host vm: the record is stored as vm, with its bw", err)
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "vm")
    show = json.loads(out)
    expect(rc == 0 and show["latest"]["host"] == "vm" and len(show["latest"]["bw"]) == 1,
           "fleet show vm: the record and its bw document")
    mine = os.path.join(tmp, "bw-me.json")
    fleetgen.write(mine, fleetgen.bw_doc(me, "peer", [("mlx5_0", 391.0)]))
    rc, _, err = run("--root", root, "record", "--db", db, "--bw", mine)
    expect_rc(rc, 0, "a bw document of this host is kept", err)
    # a collected record carrying another host's bw is refused too
    rec = fleetgen.record(fleetgen.as_host(fleetgen.check_doc(BIN, EXAMPLES, "dgx-a100"), "a"),
                          "2026-11-01T00:00:00Z", [fleetgen.bw_doc("b", "p", [("mlx5_0", 1.0)])])
    bad = os.path.join(tmp, "a-with-b.json")
    fleetgen.write(bad, rec)
    rc, _, err = run("record", "--db", db, "--from", bad)
    expect(rc == 1 and "measured on host 'b', not on 'a'" in err,
           "--from: a record with another host's bw is not stored: " + err.strip())
    rc, _, err = run("--root", root, "record", "--db", db, "--host", "")
    expect(rc == 2, "--host with an empty name: usage")
    # fleet ls filters
    broken = os.path.join(tmp, "broken.json")
    fleetgen.write(broken, fleetgen.as_host(fleetgen.check_doc(BIN, EXAMPLES, "roce-broken"),
                                            "rb-1"))
    rc, _, err = run("record", "--db", db, "--time", "2026-01-01T00:00:00Z", "--from", broken)
    expect_rc(rc, 0, "a failing host from long ago", err)

    def hosts(*args):
        rc, out, err = run("--json", "fleet", "--db", db, "ls", *args)
        expect(rc == 0, "fleet ls %s: exit 0 (%s)" % (" ".join(args), err.strip()))
        return [h["host"] for h in json.loads(out or '{"hosts":[]}')["hosts"]]

    expect(hosts() == [me, "rb-1", "vm"], "ls: every host")
    expect(hosts("--verdict", "fail") == ["rb-1"], "ls --verdict fail")
    expect(hosts("--since", "2026-06-01T00:00:00Z") == [me, "vm"], "ls --since")
    h100 = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    expect(hosts("--profile", h100["profile"]) == [me, "vm"], "ls --profile")
    model = fleetgen.check_doc(BIN, EXAMPLES, "roce-broken")["inventory"]["nics"][0]["model"]
    expect("rb-1" in hosts("--group", model), "ls --group NIC model")
    expect(hosts("--group", "no-such-nic") == [], "ls --group of no host: empty")
    rc, _, err = run("fleet", "--db", db, "ls", "--since", "yesterday")
    expect(rc == 2 and "UTC time" in err, "ls --since with a bad time: usage")
    rc, _, err = run("fleet", "--db", db, "diff", "--verdict", "fail")
    expect(rc == 2, "filters go with ls only")
    # fleet rm
    rc, out, err = run("--json", "fleet", "--db", db, "rm", "rb-1", "--before",
                       "2025-01-01T00:00:00Z")
    expect(rc == 2 and "no record of host 'rb-1' before" in err, "rm --before of nothing")
    rc, out, err = run("--json", "fleet", "--db", db, "rm", "vm")
    expect(rc == 0 and json.loads(out)["removed"] == 1, "fleet rm vm (%s)" % err.strip())
    expect(hosts() == [me, "rb-1"], "vm is gone, the others stay")
    store_whole(db, "after fleet rm")
    rc, _, err = run("fleet", "--db", db, "rm", "vm")
    expect(rc == 2 and "no record of host 'vm'" in err, "rm of an unknown host: exit 2")
    rc, _, err = run("fleet", "--db", db, "rm")
    expect(rc == 2, "rm without a host: usage")
    # the help promises only what record takes
    rc, out, _ = run("record", "--help")
    expect(rc == 0 and "fleet show --json` gives them" not in out and "--host" in out,
           "record --help: no promise that fleet show --json can be recorded")
    rc, out, _ = run("--json", "fleet", "--db", db, "show", me)
    p = os.path.join(tmp, "shown.json")
    with open(p, "w") as f:
        f.write(out)
    rc, _, err = run("record", "--db", new_db(tmp, "other"), "--from", p)
    expect(rc == 1 and "shown.json" in err, "fleet show --json output is refused, named: "
           + err.strip())


# ---------------------------------------------------------------- history

def case_history(tmp):
    """An unchanged check costs a seen time and its counter deltas."""
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    db = new_db(tmp, "fleet")
    n = 50
    files = []
    for i in range(n):
        d = fleetgen.as_host(doc, "h")
        # counters move on, nothing else changes
        for nic in d["inventory"]["nics"]:
            for port in nic["ports"]:
                c = port.get("counters")
                if isinstance(c, dict) and "port_rcv_data" in c:
                    c["port_rcv_data"] += 1000 * i
                # the FEC statistics are counters too (link.fec.stats)
                fec = ((port.get("link") or {}).get("fec") or {})
                bits = (fec.get("stats") or {}).get("corrected_bits") if isinstance(fec, dict) else None
                if bits:
                    bits["total"] += 500 * i
        p = os.path.join(tmp, "c%03d.json" % i)
        fleetgen.write(p, fleetgen.record(d, "2026-11-01T%02d:%02d:00Z" % (i // 60, i % 60)))
        files.append(p)
    rc, _, err = run("record", "--db", db, "--from", files[0])
    expect_rc(rc, 0, "the first check", err)
    size0 = db_bytes(db)
    rc, out, err = run("--json", "record", "--db", db, "--from", *files[1:])
    s = json.loads(out or "{}")
    expect(rc == 0 and s.get("stored") == 0 and s.get("seen") == n - 1,
           "the %d unchanged checks are seen times, not records (%s)" % (n - 1, s))
    per = (db_bytes(db) - size0) / (n - 1)
    recs = int(sql_rows(db, "SELECT count(*) FROM records")[0][0])
    seen = int(sql_rows(db, "SELECT count(*) FROM seen")[0][0])
    expect(recs == 1 and seen == n - 1, "one record, %d seen rows (%d, %d)" % (n - 1, recs, seen))
    expect(per <= 2048, "%.0f bytes per unchanged check, indexes included (at most 2 KB)" % per)
    rc, out, _ = run("--json", "fleet", "--db", db, "ls")
    h = json.loads(out)["hosts"][0]
    expect(h["records"] == n and h["time"] == "2026-11-01T00:%02d:00Z" % (n - 1),
           "ls counts every check and shows the latest (%s %s)" % (h["records"], h["time"]))
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "h")
    show = json.loads(out)
    expect(len(show["records"]) == 1 and show["records"][0]["checks"] == n and
           show["records"][0]["last_seen"] == h["time"], "show: one record, seen %d times" % n)
    series = show["counters"]
    ports = [k for k, v in series[0]["deltas"].items() if v.get("port_rcv_data") == 1000]
    expect(len(series) == n - 1 and ports and
           all(x["deltas"].get(ports[0], {}).get("port_rcv_data") == 1000 for x in series),
           "show --json: the counters as a series of deltas (%d points)" % len(series))
    fec = [k for k, v in series[0]["deltas"].items() if v.get("fec:corrected_bits") == 500]
    expect(len(fec) == 2 and all(x["deltas"][f]["fec:corrected_bits"] == 500 for x in series for f in fec),
           "show --json: the FEC corrected bits of both RoCE ports as deltas (%s)" % fec)
    # a change is a record again, and show lists it with its time
    d = fleetgen.as_host(doc, "h")
    fleetgen.set_fw(d, "28.99.1000")
    p = os.path.join(tmp, "changed.json")
    fleetgen.write(p, fleetgen.record(d, "2026-11-02T00:00:00Z"))
    rc, out, err = run("--json", "record", "--db", db, "--from", p)
    expect(rc == 0 and json.loads(out)["stored"] == 1, "a changed check is a record")
    # and back to the old firmware: a record again (it differs from the latest)
    p2 = os.path.join(tmp, "back.json")
    fleetgen.write(p2, fleetgen.record(fleetgen.as_host(doc, "h"), "2026-11-03T00:00:00Z"))
    rc, out, err = run("--json", "record", "--db", db, "--from", p2)
    expect(rc == 0 and json.loads(out)["stored"] == 1, "back to the old firmware: a record")
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "h")
    show = json.loads(out)
    fw = sorted({(c["time"], c["old"], c["new"]) for c in show["changes"] if c["field"] == "fw"})
    expect(fw == [("2026-11-02T00:00:00Z", doc["inventory"]["nics"][0]["fw_ver"], "28.99.1000"),
                  ("2026-11-03T00:00:00Z", "28.99.1000", doc["inventory"]["nics"][0]["fw_ver"])],
           "show lists every change with its time: %s" % fw)
    history_readings(tmp)


def history_readings(tmp):
    """Readings that move by themselves are not content: an Atlas check
    whose NPU counters, optics and link counts moved, and a NIC check whose
    transceiver readings moved, each add a seen row with the counters'
    deltas; a changed NPU IP or speed is a record."""
    fixtures = os.path.join(SRC, "tests", "fixtures")
    atlas = fleetgen.fixture_check_doc(BIN, fixtures, fleetgen.ATLAS_SHAPES[0])
    db = new_db(tmp, "readings")
    n = 0

    def put(doc, what):
        nonlocal n
        n += 1
        p = os.path.join(tmp, "readings-%d.json" % n)
        fleetgen.write(p, fleetgen.record(doc, "2026-11-05T%02d:00:00Z" % n))
        rc, out, err = run("--json", "record", "--db", db, "--from", p)
        expect_rc(rc, 0, what, err)
        return json.loads(out or "{}")

    first = fleetgen.as_host(atlas, "atlas-h")
    expect(put(first, "the first Atlas check").get("stored") == 1, "the first Atlas check is a record")
    moved = fleetgen.as_host(atlas, "atlas-h")
    for d in moved["inventory"]["npus"]["devices"]:
        port = d["port"]
        port["stat"]["roce_rx_rc_pkt_num"] += 5000
        port["stat"]["roce_rx_err_pkt_num"] += 3 if d["id"] == 2 else 0
        port["link_up_count"] += 1
        port["link_downs_24h"] += 1
        port["link_changes"].append("Tue Dec  1 09:00:00 2026    LINK UP")
        opt = port["optical"]
        opt["temperature_c"] += 2
        opt["vcc_mv"] -= 1.5
        opt["tx_power_mw"] = [v * 0.9 for v in opt["tx_power_mw"]]
        opt["rx_power_mw"] = [v * 1.1 for v in opt["rx_power_mw"]]
        opt["tx_bias_ma"] = [v + 0.2 for v in opt["tx_bias_ma"]]
    s = put(moved, "the Atlas check again, only counters and optics moved")
    expect(s.get("stored") == 0 and s.get("seen") == 1,
           "NPU counters, optics and link counts are not content: a seen row (%s)" % s)
    expect(sql_rows(db, "SELECT count(*) FROM records") == [["1"]], "still one Atlas record")
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "atlas-h")
    series = json.loads(out)["counters"] if rc == 0 else []
    deltas = series[-1]["deltas"] if series else {}
    expect(deltas.get("npu2", {}).get("roce_rx_err_pkt_num") == 3 and
           deltas.get("npu0", {}).get("roce_rx_rc_pkt_num") == 5000 and
           deltas.get("npu0", {}).get("link_up_count") == 1,
           "the NPU counters are kept as deltas like a NIC's (%s)" % deltas.get("npu2"))
    ip = json.loads(json.dumps(moved))
    fleetgen.npu(ip, 3)["port"]["ipaddr"] = "192.168.103.199"
    expect(put(ip, "an NPU's IP changed").get("stored") == 1, "a changed NPU IP is a record")
    speed = json.loads(json.dumps(ip))
    fleetgen.npu(speed, 4)["port"]["speed_mbps"] = 25000
    expect(put(speed, "an NPU's speed changed").get("stored") == 1,
           "a changed NPU speed is a record")
    # a NIC transceiver's readings (roce-broken has modules)
    nic = fleetgen.as_host(fleetgen.check_doc(BIN, EXAMPLES, "roce-broken"), "nic-h")
    put(nic, "the first NIC check")
    mods = [p["module"] for x in nic["inventory"]["nics"] for p in x["ports"]
            if isinstance(p.get("module"), dict)]
    expect(mods, "the NIC fixture has transceivers")
    for m in mods:
        m["temp_c"] += 1.5
        m["vcc_v"] -= 0.01
        m["rx_power_mw"] = [v * 1.05 for v in m["rx_power_mw"]]
    s = put(nic, "the NIC check again, only transceiver readings moved")
    expect(s.get("seen") == 1, "transceiver readings are not content: a seen row (%s)" % s)
    for m in mods:
        m["serial"] = "OTHER-SERIAL"
    s = put(nic, "a transceiver swapped")
    expect(s.get("stored") == 1, "a swapped transceiver (serial) is a record (%s)" % s)
    # a finding quotes the reading: what it observed moves with it
    broken = fleetgen.as_host(fleetgen.fixture_check_doc(BIN, fixtures, fleetgen.ATLAS_SHAPES[1]),
                              "atlas-b")
    put(broken, "the broken Atlas check")
    dom = [f for f in broken["findings"] if f["id"] == "module.dom" and "Rx power" in f["observed"]]
    expect(dom, "the broken Atlas has a finding that quotes an Rx power")
    for f in dom:
        f["observed"] = f["observed"].replace("0.02 mW", "0.01 mW")
    s = put(broken, "the broken Atlas again, the finding's reading moved")
    expect(s.get("seen") == 1, "a finding's observed reading is not content (%s)" % s)
    broken["findings"] = [f for f in broken["findings"] if f["id"] != "npu.ip_missing"]
    s = put(broken, "a finding gone")
    expect(s.get("stored") == 1, "a finding gone is a record (%s)" % s)


# ---------------------------------------------------------------- PostgreSQL

def case_pgsql(tmp):
    """psql as a second reader; the same answers as an SQLite file."""
    files = []
    for i, shape in enumerate(fleetgen.SHAPES):
        d = fleetgen.check_doc(BIN, EXAMPLES, shape)
        if i == 1:
            fleetgen.set_fw(d, "20.30.1000")
        p = os.path.join(tmp, shape + ".json")
        fleetgen.write(p, d)
        files.append(p)
    db = new_db(tmp, "fleet")
    lite = os.path.join(tmp, "same.db")
    for target in (db, lite):
        rc, _, err = run("record", "--db", target, "--time", "2026-11-01T00:00:00Z", "--from",
                         *files)
        expect_rc(rc, 0, "record --from into %s" % target.split(":")[0], err)
        rc, _, err = run("record", "--db", target, "--time", "2026-11-02T00:00:00Z", "--from",
                         *files[:3])
        expect_rc(rc, 0, "a later round (unchanged checks)", err)
    rows = sql_rows(db, "SELECT r.host, max(r.last_seen), count(*) + (SELECT count(*) FROM seen s "
                        "WHERE s.host = r.host), pg_typeof(min(r.doc::text)::jsonb)::text, "
                        "bool_and(r.doc->'check'->'inventory'->'host'->>'hostname' = r.host) "
                        "FROM records r GROUP BY r.host ORDER BY r.host")
    ls = ls_json(db)
    expect([[h["host"], h["time"], str(h["records"])] for h in ls["hosts"]] ==
           [r[:3] for r in rows], "psql and fleet ls agree on host, time, checks")
    expect(all(r[3] == "jsonb" and r[4] == "t" for r in rows),
           "documents are JSONB, each its host's")
    expect(sql_rows(db, "SELECT version FROM schema_version") == [["4"]], "schema version 4")
    expect(sql_rows(db, "SELECT data_type FROM information_schema.columns WHERE table_name = "
                        "'records' AND column_name = 'doc'") == [["jsonb"]], "doc is a JSONB column")
    # the same commands give the same answers on both backends
    for args in (["ls"], ["diff"], ["show", files and fleetgen.check_doc(
            BIN, EXAMPLES, fleetgen.SHAPES[0])["inventory"]["host"]["hostname"]],
                 ["ls", "--verdict", "fail"]):
        a = run("--json", "fleet", "--db", db, *args)
        b = run("--json", "fleet", "--db", lite, *args)
        ja, jb = json.loads(a[1] or "null"), json.loads(b[1] or "null")
        for j in (ja, jb):
            if isinstance(j, dict):
                j.pop("db", None)
        expect(a[0] == b[0] and ja == jb, "fleet %s: the same answer from both backends (%d %d)"
               % (" ".join(args), a[0], b[0]))
    # the queries use the indexes, not a scan of every document
    plan = "\n".join(r[0] for r in sql_rows(db, "EXPLAIN SELECT id FROM records WHERE host = "
                                                "'x' ORDER BY last_seen DESC LIMIT 1"))
    expect("records_by_latest" in plan or "Index" in plan,
           "a host's latest record is found through its index")
    # many writers on a new database at once: the tables are made once
    fresh = new_db(tmp, "fresh")
    procs = [subprocess.Popen([BIN, "record", "--db", fresh, "--from", files[i]],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for i in range(len(files))]
    rcs = [(p.wait(timeout=120), p.stderr.read().decode()) for p in procs]
    expect(all(rc == 0 for rc, _ in rcs), "%d writers on a new database at once: all stored %s"
           % (len(procs), [e.strip() for rc, e in rcs if rc]))
    expect(len(ls_json(fresh)["hosts"]) == len(files), "and every host is there")


def case_pgerrors(tmp):
    """A bad URI, a password on the command line, a refused connection, a
    wrong password, no database, no answer in time: each said clearly."""
    good = os.path.join(tmp, "good.json")
    fleetgen.write(good, fleetgen.check_doc(BIN, EXAMPLES, "rtx3090-x16"))
    uri = new_db(tmp, "fleet")
    base = uri.rsplit("/", 1)[0]

    def fails(args, words, what, env=None):
        rc, out, err = run(*args, env=env)
        ok = rc == 3 and all(w in err for w in words)
        expect(ok, "%s: exit 3, says %s (%d: %s)" % (what, words, rc, err.strip()[:300]))
        return out, err

    fails(["fleet", "--db", "postgresql://127.0.0.1:abc/x", "ls"], ["not a PostgreSQL URI"],
          "a bad port")
    fails(["fleet", "--db", "postgresql://[::1/x", "ls"], ["not a PostgreSQL URI"], "a bad URI")
    _, err = fails(["record", "--db", base.replace("postgres@", "postgres:s3cret@") + "/fleet",
                    "--from", good], ["holds a password", ".pgpass"], "a password in the URI")
    expect("s3cret" not in err, "the password is not repeated")
    free = [p for p in pgserver.PORTS if p != PG.port and pgserver._free(p)][0]
    fails(["fleet", "--db", "postgresql://postgres@127.0.0.1:%d/x" % free, "ls"],
          ["Connection refused", "server running"], "a refused connection")
    wrong = os.path.join(tmp, "wrongpass")
    with open(wrong, "w") as f:
        f.write("127.0.0.1:*:*:postgres:not-the-password\n")
    os.chmod(wrong, 0o600)
    fails(["fleet", "--db", uri, "ls"], ["password authentication failed", "PGPASSFILE"],
          "a wrong password", env=dict(os.environ, PGPASSFILE=wrong))
    fails(["fleet", "--db", uri, "ls"], ["PGPASSFILE"], "no password at all",
          env=dict(os.environ, PGPASSFILE=os.path.join(tmp, "none")))
    fails(["fleet", "--db", base + "/nosuch", "ls"], ["does not exist"], "no such database")
    # a server that takes the connection and never answers: record waits
    # --timeout, says so, exits 3, and the check result is still printed
    import socket
    port = [p for p in pgserver.PORTS if p not in (PG.port, free) and pgserver._free(p)][0]
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    silent.bind(("127.0.0.1", port))
    silent.listen(8)
    try:
        rc, out, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "record", "--db",
                           "postgresql://postgres@127.0.0.1:%d/x" % port, "--timeout", "2",
                           timeout=60)
        expect(rc == 3 and "no answer in 2 s" in err and "nothing was stored" in err,
               "a server that does not answer: --timeout, exit 3 (%d %s)" % (rc, err.strip()))
        expect("dgx-h100-017: verdict pass" in out, "and the check result is printed: " + out)
        rc, out, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "--json", "record",
                           "--db", "postgresql://postgres@127.0.0.1:%d/x" % port, "--timeout",
                           "2", timeout=60)
        doc = json.loads(out or "{}")
        expect(rc == 3 and doc.get("stored") == 0 and doc.get("check", {}).get("verdict") ==
               "pass" and "no answer" in doc.get("error", ""),
               "--json: one document with the check and the error")
    finally:
        silent.close()
    # a lock held past --timeout: the writer gives up, says so
    rc, _, err = run("record", "--db", uri, "--from", good)
    expect_rc(rc, 0, "a record to lock", err)
    locker = subprocess.Popen(["psql", "-X", "-q", "-h", "127.0.0.1", "-p", str(PG.port), "-U",
                               "postgres", "-d", "fleet"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        locker.stdin.write(b"BEGIN; LOCK TABLE records IN ACCESS EXCLUSIVE MODE;\n")
        locker.stdin.flush()
        time.sleep(1)
        rc, out, err = run("--root", os.path.join(EXAMPLES, "dgx-h100"), "record", "--db", uri,
                           "--timeout", "1", timeout=60)
        expect(rc == 3 and ("no answer in 1 s" in err or "locked" in err) and
               "verdict pass" in out, "a table locked past --timeout: exit 3, said (%s)"
               % err.strip()[:300])
    finally:
        locker.stdin.write(b"ROLLBACK;\n\\q\n")
        locker.stdin.close()
        locker.wait(timeout=30)


def case_pgkill(tmp):
    """The server killed mid-write (kill -9): nothing committed is lost,
    no half record is left."""
    doc = fleetgen.check_doc(BIN, EXAMPLES, "rtx3090-x16")
    files = []
    for i in range(300):
        p = os.path.join(tmp, "k%03d.json" % i)
        d = fleetgen.as_host(doc, "k-%03d" % i)
        fleetgen.set_fw(d, "16.%d.1000" % (i % 7))
        fleetgen.write(p, d)
        files.append(p)
    db = new_db(tmp, "fleet")
    rc, _, err = run("record", "--db", db, "--time", "2026-11-30T00:00:00Z", "--from", *files)
    expect_rc(rc, 0, "the committed round", err)
    for n, delay in enumerate((0.1, 0.3, 0.6)):
        # a changed round: every check is a new record, all or none
        for p in files:
            with open(p) as f:
                d = json.load(f)
            fleetgen.set_fw(d, "16.99.%d" % n)
            fleetgen.write(p, d)
        w = subprocess.Popen([BIN, "record", "--db", db, "--time",
                              "2026-12-0%dT00:00:00Z" % (n + 1), "--from"] + files,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(delay)
        PG.kill()
        out, err = w.communicate(timeout=120)
        PG.start()
        hosts = ls_json(db)["hosts"]
        counts = sorted({h["records"] for h in hosts})
        expect(len(hosts) == 300 and len(counts) == 1,
               "killed after %.1f s: all 300 hosts, the same number of checks each %s (writer "
               "exit %d)" % (delay, counts, w.returncode))
        expect(w.returncode == 0 or (w.returncode == 3 and "nothing of this run" in
                                     err.decode()),
               "the writer says what happened: %s" % err.decode().strip()[:300])
        store_whole(db, "after the server was killed")
        first = sql_rows(db, "SELECT count(*) FROM records WHERE time = '2026-11-30T00:00:00Z'")
        expect(first == [["300"]], "the committed round is all there (%s)" % first)


def case_pgfulldisk(tmp):
    """The server's disk full (its tablespace on a 3 MiB tmpfs): a clear
    error, nothing of the batch, everything before kept."""
    mnt = os.path.join(tmp, "small")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "pgfull%d" % os.getpid(), mnt],
                      check=False).returncode != 0:
        print("skip: cannot mount a tmpfs here")
        sys.exit(77)
    try:
        import pwd
        pw = pwd.getpwnam("postgres")
        os.chown(mnt, pw.pw_uid, pw.pw_gid)
        PG.psql("postgres", "CREATE TABLESPACE small LOCATION '%s'" % mnt)
        PG.psql("postgres", "CREATE DATABASE fulldb TABLESPACE small")
        db = PG.uri("fulldb")
        doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
        stored, full = fill_until_full(tmp, db, doc, 60)  # 3 MiB fill in far fewer
        expect(full is not None, "the 3 MiB tablespace filled up (after %d hosts)" % len(stored))
        if full is None:
            return
        rc, err = full
        expect(rc == 3 and "disk is full" in err and "nothing of this run was stored" in err,
               "it says the server's disk is full and nothing of the run was kept: " + err.strip())
        hosts = {h["host"] for h in ls_json(db)["hosts"]}
        expect(stored and hosts == stored, "every host stored before the disk filled is there "
               "(%d), none of the failed batch" % len(hosts))
        store_whole(db, "on the full disk")
        rc, _, err = run("fleet", "--db", db, "diff")
        expect(rc in (0, 1), "fleet diff still runs on the full disk (%d %s)" % (rc, err.strip()))
    finally:
        PG.stop()
        subprocess.run(["umount", mnt], check=False)


# ---------------------------------------------------------------- fabric

def case_fabric(tmp):
    """record --fabric keeps a fabric report with the host it names; fleet
    diff names its suspects; fleet report draws a heatmap per rail."""
    import re
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                           "fabric-report.json")
    with open(fixture) as f:
        report = json.load(f)
    db = new_db(tmp, "fleet")
    root = os.path.join(EXAMPLES, "dgx-h100")
    rc, _, err = run("--root", root, "record", "--db", db, "--fabric", fixture)
    expect(rc == 2 and "does not name host 'dgx-h100-017'" in err and "--host" in err,
           "a fabric report of other nodes is refused: " + err.strip())
    notfab = os.path.join(tmp, "notfabric.json")
    fleetgen.write(notfab, fleetgen.bw_doc("gpu-02", "p", [("mlx5_0", 1.0)]))
    rc, _, err = run("--root", root, "record", "--db", db, "--host", "gpu-02", "--fabric", notfab)
    expect(rc == 2 and "not a fabric report" in err, "a bw document as --fabric: refused")
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    files = []
    for n in ("gpu-00", "gpu-01", "gpu-03"):
        p = os.path.join(tmp, n + ".json")
        fleetgen.write(p, fleetgen.record(fleetgen.as_host(doc, n), "2026-11-30T07:00:00Z"))
        files.append(p)
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "three nodes' records", err)
    rc, out, err = run("--root", root, "--json", "record", "--db", db, "--host", "gpu-02",
                       "--fabric", fixture)
    expect_rc(rc, 0, "--host gpu-02 --fabric: kept with gpu-02's record", err)
    rc, out, _ = run("--json", "fleet", "--db", db, "show", "gpu-02")
    expect(json.loads(out)["latest"].get("fabric") == [report], "the report is in the record whole")
    rc, out, err = run("--json", "fleet", "--db", db, "diff")
    d = json.loads(out)
    sus = sorted((x["host"], x["kind"], x.get("rail")) for x in d["fabric"]["suspects"])
    expect(rc == 1 and sus == [("gpu-00", "pair", "mlx5_0"), ("gpu-01", "pair", "mlx5_0"),
                               ("gpu-02", "rail", "mlx5_1")],
           "fleet diff names the hosts the report suspects: %s" % sus)
    expect(d["fabric"]["verdict"] == "fail" and d["hosts_differ"] >= 3,
           "the suspects are hosts that differ (%d)" % d["hosts_differ"])
    rc, text, _ = run("fleet", "--db", db, "diff")
    expect("fabric report of" in text and "gpu-02: rail gpu-02 rail mlx5_1" in text and
           "gpu-00: pair gpu-00-gpu-01" in text, "text diff lists the suspects")
    html = os.path.join(tmp, "fleet.html")
    rc, _, err = run("fleet", "--db", db, "report", "--html", html)
    expect_rc(rc, 0, "fleet report with a fabric report", err)
    with open(html) as f:
        page = f.read()
    rails = re.findall(r'<div class="fabric-rail" data-rail="([^"]*)">', page)
    expect(rails == ["mlx5_0", "mlx5_1"], "one heatmap per rail: %s" % rails)
    sec = page[page.index('<section id="fabric">'):]
    sec = sec[:sec.index("</section>")]
    cells = re.findall(r'<g class="cell" data-src="([^"]*)" data-dst="([^"]*)" '
                       r'data-gbps="([0-9.]*)"', sec)
    want = set()
    for p in report["pairs"]:
        want.add((p["a"], p["b"], "%.2f" % p["gbps"]["a_to_b"]))
        want.add((p["b"], p["a"], "%.2f" % p["gbps"]["b_to_a"]))
    expect(len(cells) == 2 * len(report["pairs"]) and set(cells) <= want,
           "each cell is one direction of one pair on its rail (%d cells)" % len(cells))
    slow = [c for c in cells if c[:2] == ("gpu-00", "gpu-01") and c[2] == "250.00"]
    expect(len(slow) == 1, "the slow direction is drawn with its figure")
    rows = re.findall(r'<tr class="suspect" data-kind="([^"]*)" data-subject="([^"]*)"', sec)
    expect(rows == [(x["kind"], x["subject"]) for x in report["suspects"]],
           "the page lists the suspects: %s" % rows)
    # the page says what its heatmaps show: no bw pairs, but the fabric's are
    # drawn below (not "No pair results recorded"), and each rail how many
    # of its directions were measured
    expect("No pair results recorded" not in page and 'id="pairs-fabric-only"' in page and
           'data-fabric-directions="%d"' % len(cells) in page,
           "the pairs section points at the fabric's pairs, not 'none'")
    notes = re.findall(r'data-k="fabric-directions" data-measured="(\d+)" data-of="(\d+)">'
                       r'(\d+) of (\d+) directions', sec)
    expect(notes == [("12", "12", "12", "12")] * 2,
           "each rail: 12 of 12 directions (4 nodes) measured: %s" % notes)
    # a report that measured 3 of 12 directions (one way, three pairs of
    # four nodes) and a retest of one of them: the note says 3 of 12, the
    # heatmap draws 3 cells, the first pass's figure where a retest measured
    # the same direction again
    sparse = json.loads(json.dumps(report))
    sparse["pairs"] = [{"a": "gpu-0%d" % i, "b": "gpu-0%d" % (i + 1), "rail": "mlx5_0",
                        "round": i + 1, "retest": False,
                        "gbps": {"a_to_b": 100.0 + i, "b_to_a": None}, "verdict": "pass"}
                       for i in range(3)]
    sparse["pairs"].append({"a": "gpu-00", "b": "gpu-01", "rail": "mlx5_0", "round": 4,
                            "retest": True, "gbps": {"a_to_b": 7.0, "b_to_a": None},
                            "verdict": "slow"})
    sparse["suspects"] = []
    sparse["verdict"] = "pass"
    sparse_file = os.path.join(tmp, "sparse-fabric.json")
    fleetgen.write(sparse_file, sparse)
    db2 = new_db(tmp, "sparse")
    rc, _, err = run("record", "--db", db2, "--from", *files)
    expect_rc(rc, 0, "the sparse fleet's records", err)
    rc, _, err = run("--root", root, "record", "--db", db2, "--host", "gpu-02", "--fabric",
                     sparse_file)
    expect_rc(rc, 0, "a sparse fabric report kept", err)
    html2 = os.path.join(tmp, "sparse.html")
    rc, _, err = run("fleet", "--db", db2, "report", "--html", html2)
    expect_rc(rc, 0, "fleet report of the sparse fabric report", err)
    with open(html2) as f:
        page2 = f.read()
    sec2 = page2[page2.index('<section id="fabric">'):]
    sec2 = sec2[:sec2.index("</section>")]
    notes = re.findall(r'data-measured="(\d+)" data-of="(\d+)">([^<]*)<', sec2)
    expect(len(notes) == 1 and notes[0][:2] == ("3", "12") and
           notes[0][2].startswith("3 of 12 directions between its 4 nodes measured"),
           "the sparse heatmap says 3 of 12 directions: %s" % notes)
    cells2 = re.findall(r'<g class="cell" data-src="([^"]*)" data-dst="([^"]*)" '
                        r'data-gbps="([0-9.]*)"', sec2)
    expect(sorted(cells2) == [("gpu-00", "gpu-01", "100.00"), ("gpu-01", "gpu-02", "101.00"),
                              ("gpu-02", "gpu-03", "102.00")],
           "one cell per measured direction, the first pass's figure: %s" % cells2)
    expect("No pair results recorded" not in page2 and 'data-fabric-directions="3"' in page2,
           "the pairs section says the fabric measured 3 directions")
    # the report `rdmadoctor fabric --json` writes (its documented example,
    # where the build has the fabric command): kept, its suspects named
    example = os.path.join(SRC, "docs", "json", "fabric-example.json")
    if os.path.exists(example):
        with open(example) as f:
            ex = json.load(f)
        node = ex["nodes"][0]["name"]
        rc, _, err = run("--root", root, "record", "--db", db, "--host", node, "--fabric", example)
        expect_rc(rc, 0, "the fabric command's own example is kept", err)
        rc, out, _ = run("--json", "fleet", "--db", db, "diff")
        named = {x["host"] for x in json.loads(out)["fabric"]["suspects"]}
        want = set()
        for x in ex["suspects"]:
            if x["kind"] == "pair":
                want.update(n["name"] for n in ex["nodes"]
                            if x["subject"].startswith(n["name"] + "-") or
                            x["subject"].endswith("-" + n["name"]))
            else:
                want.add(x["subject"])
        expect(named == want, "its suspects are named: %s" % sorted(named))
        # its nodes have no record here but the one it is kept with: they
        # are named, but the counts are of hosts (no "5 hosts, 6 differ")
        unrecorded = want - {node}
        rc, out, err = run("--json", "fleet", "--db", db, "report", "--html", html)
        expect_rc(rc, 0, "fleet report --json with the example kept", err)
        rep = json.loads(out)
        # (every host here is a copy of one machine: no drift, and none of
        # them is a suspect of the newest report)
        expect(rep["hosts_differ"] == 0 and rep["hosts"] == 5 and
               rep.get("fabric_nodes_unrecorded") == len(unrecorded),
               "fleet report counts hosts (%d of %d differ), the fabric's nodes with no "
               "record apart (%d)" % (rep["hosts_differ"], rep["hosts"],
                                      rep["fabric_nodes_unrecorded"]))
        rc, out, err = run("fleet", "--db", db, "report", "--html", html)
        expect(rc == 0 and ("the fabric report also names %d nodes with no record" %
                            len(unrecorded)) in out, "the text says so: " + out.strip())
        rc, out, _ = run("--json", "fleet", "--db", db, "diff")
        d = json.loads(out)
        expect(d["hosts_differ"] <= d["hosts"] and
               {x["host"] for x in d["fabric"]["suspects"] if not x["recorded"]} == unrecorded,
               "fleet diff marks the suspects with no record: %s" % d["fabric"]["suspects"])
        expect(rc == 1, "fleet diff still exits 1 for the fabric's suspects")


# ---------------------------------------------------------------- rails

def case_rails(tmp):
    """Six hosts whose checks list their rails' neighbours: rails-2 has
    rails 2 and 3 swapped, rails-4's rail 5 reaches rail 4's switch, and
    rails-5 does not know rail 6's neighbour; a host recorded before the
    neighbours adds nothing.  fleet diff (text, JSON, exit) and the report
    name exactly the two, from the drift facts the store keeps."""
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    db = new_db(tmp, "rails")
    files = []

    def add(name, switches, t="2026-11-30T07:00:00Z"):
        d = fleetgen.as_host(doc, name)
        if switches is not None:
            fleetgen.set_rails(d, switches)
        else:
            d.pop("rails", None)  # recorded before check listed the rails
        files.append(os.path.join(tmp, "%s-%s.json" % (name, t[:10])))
        fleetgen.write(files[-1], fleetgen.record(d, t))
    for i in range(6):
        sw = ["leaf-r%d" % k for k in range(8)]
        if i == 2:
            sw[2], sw[3] = sw[3], sw[2]
        if i == 4:
            sw[5] = "leaf-r4"
        if i == 5:
            sw[6] = None
        add("rails-%d" % i, sw)
    add("rails-old", None)
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "seven records, six with rails", err)
    rows = sql_rows(db, "SELECT count(*) FROM record_groups WHERE link_layer = 'rails'")
    expect(rows == [["6"]], "the rails ride with the drift facts of the six (%s)" % rows)

    rc, out, err = run("--json", "fleet", "--db", db, "diff")
    expect_rc(rc, 1, "fleet diff exits 1 for crossed rails", err)
    d = json.loads(out)
    r = d["rails"]
    got = [(f["host"], f["kind"], [x["rail"] for x in f["rails"]]) for f in r["findings"]]
    expect(got == [("rails-2", "swapped", [2, 3]), ("rails-4", "other_rail", [5])],
           "JSON names exactly rails-2 (one swapped finding) and rails-4: %s" % got)
    expect(r["findings"][0]["reason"].startswith("rails 2 and 3 swapped") and
           r["findings"][1]["reason"].startswith("rail 5 reaches rail 4's switch leaf-r4"),
           "the reasons say it: %s" % [f["reason"] for f in r["findings"]])
    expect(r["hosts"] == 6 and r["hosts_differ"] == 2 and d["hosts"] == 7 and
           d["hosts_differ"] == 2 and d["outliers"] == 0,
           "six hosts with rails, two differ, no drift value (%d/%d, %d/%d, %d)" %
           (r["hosts"], r["hosts_differ"], d["hosts"], d["hosts_differ"], d["outliers"]))
    expect(all(g["link_layer"] != "rails" for g in d["groups"]), "the rails are no drift group")
    by_rail = {x["rail"]: x for x in r["rails"]}
    expect(sorted(by_rail) == list(range(8)), "eight rails: %s" % sorted(by_rail))
    expect(by_rail[6]["not_checked"] == 1 and by_rail[6]["not_checked_hosts"] == ["rails-5"] and
           by_rail[6]["switches"] == [{"switch": "leaf-r6", "hosts": 5, "owner": 6}],
           "rail 6 of rails-5 is not checked, never fine: %s" % by_rail[6])
    expect(by_rail[2]["switches"] == [{"switch": "leaf-r2", "hosts": 5, "owner": 2},
                                      {"switch": "leaf-r3", "hosts": 1, "owner": 3}],
           "rail 2 reaches leaf-r2 on five hosts, rail 3's leaf-r3 on one")
    expect(r["no_owner"] == [], "no tie")

    rc, text, err = run("fleet", "--db", db, "diff")
    expect_rc(rc, 1, "text diff exits 1 too", err)
    named = re.findall(r"^  (\S+): (rails? \d.*)$", text, re.M)
    expect(named == [("rails-2", "rails 2 and 3 swapped (mlx5_2 port 1 reaches leaf-r3, "
                                 "mlx5_3 port 1 reaches leaf-r2)"),
                     ("rails-4", "rail 5 reaches rail 4's switch leaf-r4 (mlx5_5 port 1)")],
           "text names exactly those hosts: %s" % named)
    expect("  rail 6: leaf-r6 on 5 hosts; not checked on 1 host (neighbour not known): "
           "rails-5\n" in text, "text says rail 6 not checked on rails-5")
    expect("2 hosts differ from their group's baseline, profile or rails" in text,
           "text counts the two")

    html = os.path.join(tmp, "rails.html")
    rc, out, err = run("fleet", "--db", db, "report", "--html", html)
    expect_rc(rc, 0, "fleet report with rails", err)
    with open(html) as f:
        page = f.read()
    rows = re.findall(r'<tr class="rail-finding" data-host="([^"]*)" data-kind="([^"]*)">', page)
    expect(rows == [("rails-2", "swapped"), ("rails-4", "other_rail")],
           "the page names the swapped hosts: %s" % rows)
    tables = re.findall(r'<table class="rail" data-rail="(\d+)">', page)
    expect(tables == [str(k) for k in range(8)], "a table per rail: %s" % tables)

    # rails-2 recabled: its newest record counts, so only rails-4 is left
    add("rails-2", ["leaf-r%d" % k for k in range(8)], "2026-12-01T07:00:00Z")
    rc, _, err = run("record", "--db", db, "--from", files[-1])
    expect_rc(rc, 0, "rails-2 recorded again, recabled", err)
    rc, out, _ = run("--json", "fleet", "--db", db, "diff")
    hosts = [f["host"] for f in json.loads(out)["rails"]["findings"]]
    expect(rc == 1 and hosts == ["rails-4"], "the newest record of each host counts: %s" % hosts)


# ---------------------------------------------------------------- firmware

def case_firmware(tmp):
    """Per PSID, which hosts run which firmware (dgx-h100: eight boards of
    PSID MT_0000000838, four of MT_0000000834): fw-2's 838 boards run an
    older version, fw-4's first 838 board's version was not read, fw-5's
    834 boards run two versions (it is under both), and a record without
    any board_id adds nothing.  Read from the drift facts the store keeps;
    a view, never drift."""
    doc = fleetgen.check_doc(BIN, EXAMPLES, "dgx-h100")
    db = new_db(tmp, "firmware")
    files = []

    def nics(d, psid):
        return [n for n in d["inventory"]["nics"] if n["board_id"] == psid]

    def add(name, edit=None):
        d = fleetgen.as_host(doc, name)
        fleetgen.set_fw(d, "28.39.1002")
        if edit:
            edit(d)
        files.append(os.path.join(tmp, "%s.json" % name))
        fleetgen.write(files[-1], fleetgen.record(d, "2026-11-30T07:00:00Z"))

    def older(d):
        for n in nics(d, "MT_0000000838"):
            n["fw_ver"] = "28.35.1012"

    def unread(d):
        nics(d, "MT_0000000838")[0]["fw_ver"] = None

    def two(d):
        nics(d, "MT_0000000834")[1]["fw_ver"] = "28.40.1000"

    def no_psid(d):
        for n in d["inventory"]["nics"]:
            n["board_id"] = None

    expect(len(nics(doc, "MT_0000000838")) == 8 and len(nics(doc, "MT_0000000834")) == 4,
           "dgx-h100 has eight 838 and four 834 boards")
    for i, edit in enumerate([None, None, older, None, unread, two]):
        add("fw-%d" % i, edit)
    add("fw-nopsid", no_psid)
    rc, _, err = run("record", "--db", db, "--from", *files)
    expect_rc(rc, 0, "seven records", err)
    rows = sql_rows(db, "SELECT count(*) FROM record_groups WHERE link_layer = 'firmware'")
    expect(rows == [["6"]], "the boards ride with the drift facts of the six (%s)" % rows)

    rc, out, err = run("--json", "fleet", "--db", db, "diff")
    expect(rc in (0, 1), "fleet diff runs: %d %s" % (rc, err))
    d = json.loads(out)
    fw = d["firmware"]
    expect(fw["hosts"] == 6 and d["hosts"] == 7, "six hosts with boards of seven: %s" % fw["hosts"])
    expect(all(g["link_layer"] != "firmware" for g in d["groups"]), "the boards are no drift group")
    got = [(p["psid"], p["hosts"], [(v["version"], v["hosts"], v["host_names"])
                                    for v in p["versions"]]) for p in fw["psids"]]
    want = [("MT_0000000834", 6, [("28.39.1002", 6, ["fw-%d" % i for i in range(6)]),
                                  ("28.40.1000", 1, ["fw-5"])]),
            ("MT_0000000838", 6, [("28.39.1002", 5, ["fw-0", "fw-1", "fw-3", "fw-4", "fw-5"]),
                                  ("28.35.1012", 1, ["fw-2"]),
                                  (None, 1, ["fw-4"])])]
    expect(got == want, "per PSID, which hosts run which version:\n  %s\n  wanted %s" %
           (got, want))

    rc, text, err = run("fleet", "--db", db, "diff")
    expect("\nfirmware: which version each board (PSID) runs, over 6 hosts\n"
           "  MT_0000000834: 28.39.1002 on 6 hosts; 28.40.1000 on 1 host: fw-5\n"
           "  MT_0000000838: 28.39.1002 on 5 hosts; 28.35.1012 on 1 host: fw-2; "
           "not read on 1 host: fw-4\n" in text,
           "text: each PSID's versions, the hosts off the leading one named:\n%s" % text)

    # a fleet whose records carry no board_id: no firmware view
    db2 = new_db(tmp, "nopsid")
    run("record", "--db", db2, "--from", files[-1])
    rc, out, _ = run("--json", "fleet", "--db", db2, "diff")
    expect(json.loads(out)["firmware"] is None, "no board_id anywhere: firmware is null")
    rc, text, _ = run("fleet", "--db", db2, "diff")
    expect("firmware:" not in text, "and the text has no firmware part")


CASES = {"diff": case_diff, "sqlite": case_sqlite, "concurrent": case_concurrent,
         "fulldisk": case_fulldisk, "errors": case_errors, "upgrade": case_upgrade,
         "upgrade3": case_upgrade3,
         "record": case_record, "report": case_report, "valgrind": case_valgrind,
         "hostdrift": case_hostdrift, "identity": case_identity, "history": case_history,
         "pgsql": case_pgsql, "pgerrors": case_pgerrors, "pgkill": case_pgkill,
         "pgfulldisk": case_pgfulldisk, "fabric": case_fabric, "rails": case_rails,
         "firmware": case_firmware}


def main():
    global PG
    if CASE == "pgfulldisk":
        if os.geteuid() != 0:
            print("skip: mounting a small tmpfs needs root")
            return 77
        if (os.environ.get("RD_FLEET_MOUNT_NS") != "1" and shutil.which("unshare") and
                subprocess.run(["unshare", "--mount", "true"], stderr=subprocess.DEVNULL,
                               check=False).returncode == 0):
            # the server starts inside the mount namespace, so the tmpfs
            # cannot outlive the test even when a timeout kills it
            p = subprocess.run(["unshare", "--mount", "--propagation", "private", "env",
                                "RD_FLEET_MOUNT_NS=1", sys.executable, os.path.abspath(__file__)]
                               + sys.argv[1:], timeout=600, check=False)
            return p.returncode
    tmp = tempfile.mkdtemp(prefix="rd-fleet-%s-%s-" % (BACKEND, CASE))
    try:
        if BACKEND == "postgresql":
            if not pgserver.bindir():
                print("skip: no PostgreSQL server binaries (apt-get install postgresql)")
                return 77
            PG = pgserver.Server(tmp)
            os.environ.update(PG.env())
        CASES[CASE](tmp)
    finally:
        if PG:
            PG.stop()
        subprocess.run(["umount", os.path.join(tmp, "small")], stderr=subprocess.DEVNULL,
                       check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d failed" % len(failures))
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
