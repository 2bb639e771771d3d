#!/usr/bin/env python3
"""The NPU checks on the Atlas 800 9000 fixtures (docs/ascend.md).

The broken fixture: each fault fires its id on its NPU.  The healthy one:
nothing at warn or error.  Then variants of the healthy tree, copied and
edited in a temp dir the way a different machine would answer: an NPU in
the wrong subnet, PFC off, mixed firmware, RoCE error counters, no npu-smi
at all (fails, not passes), a snapshot without the lldp replies (not
checked, not a fault) against one whose lldp calls failed, and 910B NPUs with no DMI name (the NPU model
picks atlas-800t-a2, whose 200G and one-subnet plan then judge the ports).
npu.health: npu-smi's health by status (Warning warn, Alarm and Critical
error, UNKNOWN not checked), the table's when the health query failed, and
not checked, with the reason, when neither can be read (an old snapshot, a
table header this version does not know).

usage: checks.py RDMADOCTOR FIXTURES_DIR
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

binary, fixtures = sys.argv[1], sys.argv[2]
tally = rdtest.Tally()


def run(root, *args):
    res = rdtest.run(binary, "--json", *args, root=root)
    if res.returncode not in (0, 1):
        raise SystemExit(f"{root}: exited {res.returncode}: {res.stderr}")
    doc = json.loads(res.stdout)
    if args[-1] == "check" and res.returncode != (1 if doc["verdict"] == "fail" else 0):
        raise SystemExit(f"{root}: verdict {doc['verdict']} but exit {res.returncode}")
    return doc


def expect(what, cond, doc=None):
    if tally.ok(cond, what):
        return
    for f in (doc or {}).get("findings", []):
        print(f"    {f['severity']} {f['id']} {f['subject']}: {f['observed']}")


def fires(doc, cid, subject, observed, severity="error"):
    return any(f["id"] == cid and f["subject"] == subject and observed in f["observed"]
               and f["severity"] == severity and f["why"] and f["fix"] and f["expected"]
               for f in doc["findings"])


broken = run(f"{fixtures}/atlas-800-9000-broken/root", "check")
expect("broken: atlas-800-9000 picked", broken["profile"] == "atlas-800-9000", broken)
expect("broken: verdict fail", broken["verdict"] == "fail", broken)
for cid, subject, observed, sev in [
        ("port.down", "npu1", "DOWN", "error"),
        ("npu.net_health", "npu2", "Fault", "error"),
        ("port.rate_low", "npu3", "25000 Mb/s", "error"),
        # lanes from 1, as ethtool -m: hccn_tool's Rx Power2 is lane 3
        ("module.dom", "npu4", "lane 3 Rx power 0.02 mW (hccn_tool Rx Power2)", "error"),
        ("npu.ip_missing", "npu5", "no IP address", "error"),
        ("link.flaps", "npu6", "5 link downs", "error"),
        ("npu.unreadable", "npu7", "hccn_tool -i 7 -lldp -g: timed out", "warn"),
        # the chip's own health, with the health query's error code and text
        ("npu.health", "npu0", "health Alarm; error code 80E18008; node type=HBM, "
         "sensor type=Temperature", "error")]:
    expect(f"broken: {cid} on {subject} ({observed})", fires(broken, cid, subject, observed, sev),
           broken)
# npu0's port is healthy: its health is its one finding
expect("broken: npu0's port clean",
       [f["id"] for f in broken["findings"] if f["subject"] == "npu0"] == ["npu.health"], broken)

healthy = run(f"{fixtures}/atlas-800-9000/root", "check")
bad = [f for f in healthy["findings"] if f["severity"] in ("error", "warn")]
expect("healthy: pass, nothing at warn or error",
       healthy["verdict"] == "pass" and not bad and healthy["profile"] == "atlas-800-9000", healthy)
inv = run(f"{fixtures}/atlas-800-9000/root", "inventory")
dev = {d["id"]: d for d in inv["npus"]["devices"]}
expect("healthy: 8 NPUs mapped to their PCI functions by PCIe Bus Info",
       len(dev) == 8 and dev[0]["pci"]["bdf"] == "0000:61:00.0" and
       dev[3]["pci"]["bdf"] == "0000:01:00.0" and dev[3]["pci"]["numa_node"] == 0 and
       dev[0]["pci"]["numa_node"] == 1 and dev[0]["model"] == "Ascend 910" and
       not inv["npus"]["unmapped"])
expect("healthy: npu-smi's health, temperature and power of every NPU",
       all(d["health"] == {"status": "OK", "error_code": None, "error_information": None} and
           20 < d["temperature_c"] < 60 and 50 < d["power_w"] < 100 for d in dev.values()) and
       inv["npus"]["table_not_read"] is None, inv)
expect("healthy: the plan of hccn.conf read",
       dev[4]["planned"]["address"] == "192.168.100.102" and
       dev[4]["planned"]["netdetect"] == "192.168.100.1")

# Atlas A3: two dies per NPU, one port per die; Huawei's rule: the dies of
# an NPU in different subnets.  No built-in profile names the machine: the
# die rule holds on every machine whose npu-smi lists two-die NPUs.
a3 = run(f"{fixtures}/atlas-a3/root", "check")
bad = [f for f in a3["findings"] if f["severity"] in ("error", "warn")]
expect("a3 healthy: pass, nothing at warn or error", a3["verdict"] == "pass" and not bad, a3)
# what the machine is, its 16 Ascend 910C dies (npu-smi), picks the A3
# profile: its DMI name is not one any built-in matches
expect("a3: atlas-a3 picked by its NPUs",
       a3["profile"] == "atlas-a3" and a3["profile_source"] == "NPUs" and
       a3["profile_reason"] == "16 x Ascend 910C NPUs: atlas-a3", a3)
inv = run(f"{fixtures}/atlas-a3/root", "inventory")
dev = {d["id"]: d for d in inv["npus"]["devices"]}
expect("a3: 16 dies of 8 NPUs, each on its own PCI function",
       len(dev) == 16 and dev[0]["die"] == {"npu": 0, "chip": 0} and
       dev[15]["die"] == {"npu": 7, "chip": 1} and dev[15]["pci"]["bdf"] == "0000:4f:00.0" and
       dev[15]["model"] == "Ascend 910C" and not inv["npus"]["unmapped"], inv)
# the A3 table: each die its row (by NPU ID and Chip ID), power on die 0 only
expect("a3: each die's health and temperature, power on the first die of an NPU",
       all(d["health"]["status"] == "OK" and d["temperature_c"] is not None and
           (d["power_w"] is None) == (d["die"]["chip"] == 1) for d in dev.values()), inv)
a3b = run(f"{fixtures}/atlas-a3-broken/root", "check")
sub = [f for f in a3b["findings"] if f["id"] == "npu.subnets"]
expect("a3 broken: NPU 3's dies in one subnet, and only that",
       a3b["verdict"] == "fail" and len(sub) == 1 and
       fires(a3b, "npu.subnets", "NPUs", "npu6 and npu7 (NPU 3, dies 0 and 1) in one subnet") and
       "npu0 and npu1" not in sub[0]["observed"].split(" (")[0] and
       not [f for f in a3b["findings"] if f["severity"] in ("error", "warn") and f is not sub[0]],
       a3b)

# only the die out of its place is named, with where it belongs: not the
# fifteen ports that are right
expect("a3 broken: names npu7 and the subnet its die 1 belongs in, not the others",
       sub and "npu7 10.20.0.57/255.255.255.0 (die 1 belongs in 10.21.0.0/24)" in
       sub[0]["observed"] and "10.20.0.10" not in sub[0]["observed"] and
       "10.21.0.10" not in sub[0]["observed"] and
       "die 0 in 10.20.0.0/24, die 1 in 10.21.0.0/24" in sub[0]["expected"], a3b)

# gids and topo on a machine whose network is NPU ports alone: not an
# empty table, but where the ports are; exit 0 as check's pass there
for view in ("gids", "topo"):
    res = rdtest.run(binary, view, root=f"{fixtures}/atlas-a3/root")
    lines = res.stdout.splitlines()
    expect(f"a3 {view}: says there are no verbs devices and lists the 16 NPU ports",
           res.returncode == 0 and lines and lines[0].startswith(
               "no RDMA verbs devices; the NPU RoCE ports are managed by hccn_tool") and
           "rdmadoctor inventory" in lines[0] and
           sum(1 for x in lines if x.lstrip().startswith("npu")) == 16 and
           "npu7   Ascend 910C" in res.stdout and "ip 10.21.0.13/255.255.255.0" in res.stdout and
           "DEV" not in res.stdout and "no GPU x NIC pairs" not in res.stdout)
    res = rdtest.run(binary, "--json", view, root=f"{fixtures}/atlas-a3/root")
    expect(f"a3 {view} --json: the document as ever, stderr says where the NPU ports are",
           res.returncode == 0 and json.loads(res.stdout)["schema"] == 1 and
           f"rdmadoctor {view}: no RDMA verbs devices; the NPU RoCE ports are managed by "
           "hccn_tool" in res.stderr)

tmp = tempfile.mkdtemp(prefix="ascend-checks-")


def with_profile(root, text, name):
    """check of root under a profile file written from text"""
    path = os.path.join(tmp, name + ".conf")
    with open(path, "w") as f:
        f.write(text)
    return run(root, "check", "--profile", path)


# the profile's plan decides: dies named, the rule holds; one planned
# instead, the A3's two subnets break that plan and the die rule is not asked
doc = with_profile(f"{fixtures}/atlas-a3-broken/root",
                   "[profile]\nname = a3-site\nnpu_subnets = dies\n", "a3-dies")
expect("a3 broken under npu_subnets = dies: the die rule",
       fires(doc, "npu.subnets", "NPUs", "npu6 and npu7 (NPU 3, dies 0 and 1) in one subnet"), doc)
doc = with_profile(f"{fixtures}/atlas-a3/root",
                   "[profile]\nname = a3-one\nnpu_subnets = one\n", "a3-one")
expect("a3 under npu_subnets = one: more than one subnet, no die finding",
       fires(doc, "npu.subnets", "NPUs", "more than one subnet") and
       not any("dies" in f["observed"] for f in doc["findings"]), doc)


def variant(name, edits, base="atlas-800-9000"):
    root = os.path.join(tmp, name)
    shutil.copytree(f"{fixtures}/{base}/root", root, symlinks=True)
    for path, fn in edits.items():
        full = os.path.join(root, path)
        if fn is None:
            if os.path.isdir(full):
                shutil.rmtree(full)
            else:
                os.remove(full)
            continue
        with open(full) as f:
            text = f.read()
        with open(full, "w") as f:
            f.write(fn(text))
    return root


H = ".rdmadoctor/hccn/"
try:
    doc = run(variant("subnet", {H + "4/ip": lambda t: t.replace("192.168.100.102",
                                                                "192.168.101.102")}), "check")
    expect("subnets: npu4 out of npu0's subnet",
           fires(doc, "npu.subnets", "NPUs", "npu0 and npu4 in different subnets") and
           fires(doc, "npu.ip_missing", "npu4", "192.168.101.102"), doc)

    # two of sixteen dies at fault: those two named, each with its subnet
    two = variant("a3-two", {H + "9/ip": lambda t: t.replace("10.21.0.14", "10.20.0.64"),
                             H + "12/ip": lambda t: t.replace("10.20.0.16", "10.21.0.66")},
                  base="atlas-a3")
    doc = run(two, "check")
    sub = [f for f in doc["findings"] if f["id"] == "npu.subnets"]
    obs = sub[0]["observed"] if sub else ""
    expect("a3, two dies at fault: only npu9 and npu12, with their subnets",
           len(sub) == 1 and
           "npu9 10.20.0.64/255.255.255.0 (die 1 belongs in 10.21.0.0/24)" in obs and
           "npu12 10.21.0.66/255.255.255.0 (die 0 belongs in 10.20.0.0/24)" in obs and
           obs.count("/255.255.255.0") == 2, doc)
    # npu-smi lists 14 of the 16 dies: no built-in is this machine, and
    # generic says which NPUs it found
    fewer = variant("a3-fewer", {".rdmadoctor/npu-smi/info-m":
                                 lambda t: "\n".join(t.split("\n")[:-4]) + "\n"},
                    base="atlas-a3")
    doc = run(fewer, "check")
    expect("NPUs but no matching profile: generic names the NPUs it found",
           doc["profile"] == "generic" and
           "14 x Ascend 910C NPUs): generic" in doc["profile_reason"], doc)

    # one subnet planned: the port outside it named, the others not
    one = {H + f"{i}/ip": (lambda i: lambda t: "ipaddr:192.168.%d.%d\nnetmask:255.255.255.0\n"
                           % (101 if i == 4 else 100, 10 + i))(i) for i in range(8)}
    doc = run(variant("one-odd", one), "check", "--profile", "atlas-800t-a2")
    sub = [f for f in doc["findings"] if f["id"] == "npu.subnets"]
    expect("one subnet: npu4 named outside the subnet of the other seven",
           fires(doc, "npu.subnets", "NPUs", "more than one subnet: npu4 192.168.101.14/") and
           sub and sub[0]["observed"].count("/255.255.255.0") == 1, doc)

    doc = run(variant("pairs", {H + "1/ip": lambda t: t.replace("192.168.101.101",
                                                                "192.168.100.111"),
                                H + "5/ip": lambda t: t.replace("192.168.101.102",
                                                                "192.168.100.112")}), "check")
    expect("subnets: pair 1&5 in pair 0&4's subnet",
           fires(doc, "npu.subnets", "NPUs", "pairs 0&4 and 1&5 share a subnet"), doc)

    doc = run(variant("pfc", {H + "6/pfc": lambda t: t.replace("0 0 0 0 1 0 0 0",
                                                               "0 0 0 1 0 0 0 0")}), "check")
    expect("roce.pfc: priority 4 off on npu6", fires(doc, "roce.pfc", "npu6", "priorities: 3"), doc)

    doc = run(variant("fw", {".rdmadoctor/npu-smi/board-2":
                             lambda t: t.replace("6.4.12.1.241", "6.3.0.1.100")}), "check")
    expect("fw.mixed: npu2 on other firmware",
           fires(doc, "fw.mixed", "NPUs", "npu2 6.3.0.1.100", "warn"), doc)

    doc = run(variant("errors", {H + "0/stat": lambda t: t.replace("roce_rx_err_pkt_num:0",
                                                                   "roce_rx_err_pkt_num:17")}),
              "check")
    expect("counters.errors: npu0 rx errors",
           fires(doc, "counters.errors", "npu0", "roce_rx_err_pkt_num 17", "warn"), doc)

    doc = run(variant("no-tools", {".rdmadoctor/npu-smi": None, ".rdmadoctor/hccn": None}),
              "check")
    expect("no npu-smi answer: fails with npu.unreadable",
           doc["verdict"] == "fail" and fires(doc, "npu.unreadable", "NPUs", "8 Ascend NPU PCI"),
           doc)

    # npu-smi lists 7 of the 8: the eighth function is named
    doc = run(variant("unlisted", {".rdmadoctor/npu-smi/info-m":
                                   lambda t: "\n".join(t.split("\n")[:-2]) + "\n"}), "check")
    expect("an NPU npu-smi does not list: named",
           fires(doc, "npu.unreadable", "NPUs", "0000:81:00.0: Ascend NPU PCI function no npu-smi"),
           doc)

    # npu0 trained x8 of x16: judged as a NIC's link is (both ends' capability)
    doc = run(variant("pcie", {"sys/devices/pci0000:60/0000:60:00.0/0000:61:00.0/"
                               "current_link_width": lambda t: "8\n"}), "check")
    expect("pcie.link_degraded: npu0 at x8",
           fires(doc, "pcie.link_degraded", "npu0", "x8 at 0000:61:00.0", "warn") and
           not any(f["id"] == "pcie.link_degraded" and f["subject"] != "npu0"
                   for f in doc["findings"]), doc)

    # a snapshot taken before the lldp reader existed: no record of the
    # call is "not checked" on each NPU, counted, and no fault of the machine
    nolldp = run(variant("no-lldp", {H + f"{i}/lldp": None for i in range(8)}), "check")
    nr = [f for f in nolldp["findings"] if f["id"] == "npu.not_recorded"]
    expect("no lldp in the snapshot: one npu.not_recorded per NPU, no npu.unreadable",
           len(nr) == 8 and nolldp["unchecked"] == 8 and nolldp["verdict"] == "pass" and
           not any(f["id"] == "npu.unreadable" for f in nolldp["findings"]) and
           all(f["severity"] == "info" and f["unchecked"] for f in nr) and
           {f["subject"] for f in nr} == {f"npu{i}" for i in range(8)} and
           fires(nolldp, "npu.not_recorded", "npu3",
                 "not checked: the snapshot holds no `hccn_tool -i 3 -lldp -g` reply "
                 "(taken before this reader existed)", "info"), nolldp)
    inv = run(os.path.join(tmp, "no-lldp"), "inventory")
    d3 = [d for d in inv["npus"]["devices"] if d["id"] == 3][0]
    expect("no lldp in the snapshot: the inventory says not recorded, no failure",
           d3["not_recorded"] == [{"call": "hccn_tool -i 3 -lldp -g",
                                   "why": "not in the snapshot"}] and not d3["failures"] and
           d3["port_read"])
    # the call made on the machine and failed (timed out, or an exit status
    # with its output) is still a fault
    failed_lldp = variant("failed-lldp", {H + "2/lldp": None})
    with open(os.path.join(failed_lldp, H + "2/lldp.errno"), "w") as f:
        f.write("110\n")
    with open(os.path.join(failed_lldp, H + "5/lldp"), "w") as f:
        f.write("Get lldp failed\n")
    with open(os.path.join(failed_lldp, H + "5/lldp.rc"), "w") as f:
        f.write("1\n")
    doc = run(failed_lldp, "check")
    expect("lldp recorded as failed: npu.unreadable on npu2 and npu5, nothing unchecked",
           fires(doc, "npu.unreadable", "npu2", "hccn_tool -i 2 -lldp -g: timed out", "warn") and
           fires(doc, "npu.unreadable", "npu5",
                 "hccn_tool -i 5 -lldp -g: exit status 1: Get lldp failed", "warn") and
           doc["unchecked"] == 0 and
           not any(f["id"] == "npu.not_recorded" for f in doc["findings"]), doc)

    # issue 30: hccn_tool output as newer drivers and other boards print it.
    # A bonded port's -pfc, one block per member (hccn_tool's source,
    # tool_get_pfc_exec): the member without PFC on 4 is its own finding.
    bond = ("PFC configuration:\n[dev_name:eth0]\npriority   0 1 2 3 4 5 6 7\n"
            "enabled    0 0 0 0 1 0 0 0\n[dev_name:eth1]\npriority   0 1 2 3 4 5 6 7\n"
            "enabled    0 0 0 1 0 0 0 0\n")
    bonded = variant("bond-pfc", {H + "6/pfc": lambda t: bond})
    doc = run(bonded, "check")
    pfcs = [f for f in doc["findings"] if f["id"] == "roce.pfc"]
    expect("bonded -pfc: the member without PFC on 4 named, the other not",
           len(pfcs) == 1 and fires(doc, "roce.pfc", "npu6 eth1", "eth1") and
           "priorities: 3" in pfcs[0]["observed"], doc)
    inv = run(bonded, "inventory")
    d6 = [d for d in inv["npus"]["devices"] if d["id"] == 6][0]["port"]
    expect("bonded -pfc: each member kept in the inventory",
           [m["dev"] for m in d6["pfc_members"]] == ["eth0", "eth1"] and
           d6["pfc_members"][0]["pfc_enabled"][4] is True and
           d6["pfc_members"][1]["pfc_enabled"][4] is False and d6["pfc_enabled"][4] is None, d6)
    text = rdtest.run(binary, "inventory", root=bonded).stdout
    expect("bonded -pfc: the text shows each member, not the port's partial row as off",
           "pfc per member" in text and "member eth0 pfc on 4" in text and
           "member eth1 pfc on 3" in text)

    # a tab after the row's word: the same columns, read and healthy
    doc = run(variant("pfc-tab", {H + "6/pfc": lambda t: t.replace("enabled    ",
                                                                   "enabled\t\t")}), "check")
    expect("-pfc with tabs: read (no unreadable, no roce.pfc)",
           doc["verdict"] == "pass" and
           not any(f["subject"] == "npu6" for f in doc["findings"]), doc)

    # an empty System Name TLV: no name, not the next header
    inv = run(variant("lldp-noname", {H + "3/lldp": lambda t: t.replace("\troce-leaf-04\n", "")}),
              "inventory")
    d3 = [d for d in inv["npus"]["devices"] if d["id"] == 3][0]["port"]
    expect("empty System Name: no name, the port still read",
           d3["lldp_system"] is None and d3["lldp_port"] == "100GE1/0/4", d3)

    # a board without optical commands: not supported, an info
    nooptical = variant("no-optical", {H + "3/optical": lambda t:
                                       "This device does not support optical cmd.\n"})
    with open(os.path.join(nooptical, H + "3/optical.rc"), "w") as f:
        f.write("1\n")
    doc = run(nooptical, "check")
    expect("-optical not supported: an info on npu3, not unreadable, not unchecked",
           doc["verdict"] == "pass" and doc["unchecked"] == 0 and
           fires(doc, "module.dom", "npu3", "not supported", "info") and
           not any(f["id"] == "npu.unreadable" for f in doc["findings"]), doc)

    # an ipaddr that is no address: not checked, no subnet judged on it
    doc = run(variant("ip-bad", {H + "4/ip": lambda t: t.replace("192.168.100.102",
                                                                 "192.168.100")}), "check")
    ipf = [f for f in doc["findings"] if f["id"] == "npu.ip_missing"]
    expect("malformed ipaddr: npu.ip_missing not checked on npu4, nothing else",
           doc["verdict"] == "pass" and doc["unchecked"] == 1 and len(ipf) == 1 and
           ipf[0]["unchecked"] and
           fires(doc, "npu.ip_missing", "npu4", "ipaddr:192.168.100", "info") and
           not any(f["id"] == "npu.subnets" for f in doc["findings"]), doc)

    # the IPv6 lines of -ip
    inv = run(variant("ipv6", {H + "0/ip": lambda t: t + "ipv6_address:fd00:100::101\n"
                               "prefix_length:64\n"}), "inventory")
    d0 = [d for d in inv["npus"]["devices"] if d["id"] == 0][0]["port"]
    expect("-ip with IPv6: both families read",
           d0["ipv6_address"] == "fd00:100::101" and d0["ipv6_prefix"] == 64 and
           d0["ipaddr"] == "192.168.100.101", d0)
    # npu.health by status: the health query's status and codes decide
    S = ".rdmadoctor/npu-smi/"

    def health(status, code="NA", info="NA"):
        return lambda t: (t.replace("Health Status                  : OK",
                                    "Health Status                  : " + status)
                          .replace("Error Code                     : NA",
                                   "Error Code                     : " + code)
                          .replace("Error Information              : NA",
                                   "Error Information              : " + info))

    doc = run(variant("health", {S + "health-3-0": health("Warning", "80E01801",
                                                          "node type=SOC, sensor type=Temperature"),
                                 S + "health-5-0": health("Critical", "81078603"),
                                 S + "health-6-0": health("UNKNOWN")}), "check")
    nh = [f for f in doc["findings"] if f["id"] == "npu.health"]
    expect("npu.health: Warning warns, Critical fails, UNKNOWN not checked, OK nothing",
           fires(doc, "npu.health", "npu3", "health Warning; error code 80E01801; node "
                 "type=SOC, sensor type=Temperature", "warn") and
           fires(doc, "npu.health", "npu5", "health Critical; error code 81078603; no error "
                 "information", "error") and
           fires(doc, "npu.health", "npu6", "not checked: npu-smi says health UNKNOWN", "info") and
           [f["unchecked"] for f in nh if f["subject"] == "npu6"] == [True] and
           {f["subject"] for f in nh} == {"npu3", "npu5", "npu6"} and doc["verdict"] == "fail",
           doc)

    # the health query timed out on the machine: the table's Health column
    # says it (OK here), and the failed call is named
    qfail = variant("health-failed", {S + "health-5-0": None, S + "info":
                                      lambda t: t.replace("| 5     910A                | OK    ",
                                                          "| 5     910A                | Alarm ")})
    with open(os.path.join(qfail, S + "health-5-0.errno"), "w") as f:
        f.write("110\n")
    doc = run(qfail, "check")
    expect("health query timed out: the table's Alarm judged, the call named",
           fires(doc, "npu.health", "npu5", "health Alarm; error code none given") and
           fires(doc, "npu.unreadable", "npu5",
                 "npu-smi info -t health -i 5 -c 0: timed out", "warn"), doc)

    # a snapshot from before the health reader: not checked, never healthy
    old = run(variant("no-health", {S + f"health-{i}-0": None for i in range(8)} |
                      {S + "info": None}), "check")
    nh = [f for f in old["findings"] if f["id"] == "npu.health"]
    expect("no health in the snapshot: npu.health not checked on each NPU, with why",
           len(nh) == 8 and all(f["unchecked"] and f["severity"] == "info" for f in nh) and
           fires(old, "npu.health", "npu2", "npu-smi info -t health -i 2 -c 0", "info") and
           all("not in the snapshot (taken before this reader existed)" in f["observed"]
               for f in nh) and old["verdict"] == "pass", old)

    # a table whose header names a column this version does not know: not
    # read, not guessed, and the reason is the not-checked finding's
    doc = run(variant("table-layout", {S + f"health-{i}-0": None for i in range(8)} |
                      {S + "info": lambda t: t.replace("| Chip                      |",
                                                       "| Chip  Slot ID             |")}),
              "check")
    inv = run(os.path.join(tmp, "table-layout"), "inventory")
    expect("unknown npu-smi info header: npu.health not checked, naming the column",
           fires(doc, "npu.health", "npu4", "a column this reader does not know: \"Slot\"",
                 "info") and
           all(d["temperature_c"] is None and d["health"]["status"] is None
               for d in inv["npus"]["devices"]) and
           "Slot" in inv["npus"]["table_not_read"], doc)

    # A800T A2, the DMI model of an 800T A2, picks atlas-800t-a2 by DMI alone
    # (DMI is asked before the NPUs: this tree's 910 NPUs do not override it)
    doc = run(variant("dmi-a2", {"sys/devices/virtual/dmi/id/product_name":
                                 lambda t: "A800T A2\n"}), "check")
    expect("DMI A800T A2: atlas-800t-a2", doc["profile"] == "atlas-800t-a2", doc)

    a2 = {"sys/devices/virtual/dmi/id/product_name": lambda t: "TaiShan 200\n"}
    for d in os.listdir(f"{fixtures}/atlas-800-9000/root/sys/devices"):
        base = f"sys/devices/{d}"
        for dirpath, dirs, files in os.walk(f"{fixtures}/atlas-800-9000/root/{base}"):
            if "device" in files:
                rel = os.path.relpath(os.path.join(dirpath, "device"),
                                      f"{fixtures}/atlas-800-9000/root")
                with open(os.path.join(dirpath, "device")) as f:
                    if f.read().strip() == "0xd801":
                        a2[rel] = lambda t: "0xd802\n"
    doc = run(variant("a2", a2), "check")
    expect("910B and no DMI name: atlas-800t-a2 by NPU model",
           doc["profile"] == "atlas-800t-a2" and
           fires(doc, "port.rate_low", "npu0", "100000 Mb/s") and
           fires(doc, "npu.subnets", "NPUs", "more than one subnet"), doc)
finally:
    shutil.rmtree(tmp)

tally.done()
