#!/usr/bin/env python3
"""check --npd, contrib/kubernetes/rdmadoctor-npd.json and `labels`, held to
the rules of the programs that read them.  There is no Kubernetes, NPD or
NFD on these machines: their rules are read from their source and written
down here, labelled so.

  - Node Problem Detector's custom plugin protocol
    (kubernetes/node-problem-detector, pkg/custompluginmonitor/plugin/
    plugin.go): stdout trimmed and cut at max_output_length (80), exit 0
    OK, 1 NonOK, anything else Unknown.  On fixtures: a healthy machine OK,
    a broken one NonOK naming the error --nhc names, a rail not checked
    Unknown, a root that cannot be read Unknown with a message.
  - NPD's monitor config checks (pkg/custompluginmonitor/types/config.go:
    Validate and ApplyConfiguration): plugin "custom", Go durations, a
    rule's timeout no longer than the global one, a permanent rule's
    condition among the default conditions.
  - Node Feature Discovery's local feature files (kubernetes-sigs/
    node-feature-discovery, source/local/local.go: parseFeatureFile):
    '#' comments, "# +expiry-time=" RFC 3339, name=value; and Kubernetes'
    label syntax (apimachinery validation: IsQualifiedName,
    IsValidLabelValue) for the label NFD makes of each line.  The labels
    agree with check --json on the same root.

usage: test_k8s.py RDMADOCTOR SOURCE_DIR
"""
import datetime
import json
import os
import re
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import done, expect, npd_read  # noqa: E402

binary, src = sys.argv[1], sys.argv[2]
fixtures = os.path.join(src, "tests", "fixtures")
tmp = tempfile.mkdtemp(prefix="rdmadoctor-k8s-")


def run(*argv):
    r = rdtest.run(binary, *argv, text=False)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


# --- NPD: plugin.go's reading of a plugin's run (rdtest.npd_read) --------


def npd(root, *extra):
    rc, out, err = run("--root", root, "check", "--npd", *extra)
    lines = out.decode(errors="replace").splitlines()
    expect(len(lines) == 1, f"--npd on {os.path.basename(root)}: one line", (lines, err))
    expect(len(out.strip()) <= 80, "at most 80 bytes, so NPD's cut never bites", out)
    try:
        out.decode("utf-8")
    except UnicodeDecodeError:
        expect(False, "valid UTF-8", out)
    return (rc,) + npd_read(rc, out)


def fixture(shape):
    return os.path.join(fixtures, shape, "root")


rc, status, msg = npd(fixture("dgx-h100"))
expect((rc, status) == (0, "OK") and msg.startswith("OK"), "a healthy DGX H100: OK", (rc, msg))

rc, status, msg = npd(fixture("broken"))
nrc, nout, _ = run("--root", fixture("broken"), "check", "--nhc")
m = re.match(r"ERROR: rdmadoctor: Health check failed: (\S+) (.*?): ", nout.decode())
expect((rc, status) == (1, "NonOK"), "a broken machine: NonOK", (rc, msg))
expect(m is not None and msg.startswith(f"{m.group(1)} {m.group(2)}: "),
       "the error --nhc would name, with its subject", (msg, nout))
expect(re.search(r"\(\+\d+ more\)$", msg) is not None, "and how many more", msg)

# a rail whose port state cannot be read: not checked, so Unknown
case = os.path.join(tmp, "unseen")
shutil.copytree(fixture("a800-8x100g-roce"), case, symlinks=True)
state = os.path.join(case, "sys/class/infiniband/mlx5_3/ports/1/state")
os.unlink(os.path.realpath(state)) if os.path.islink(state) else os.unlink(state)
rc, status, msg = npd(case)
expect((rc, status) == (3, "Unknown") and msg.startswith("not checked: "),
       "a rail not seen: Unknown, saying what was not checked", (rc, msg))
expect("mlx5_3" in msg, "naming the rail", msg)

rc, status, msg = npd(os.path.join(tmp, "no-such-root"))
expect((rc, status) == (3, "Unknown") and msg.startswith("rdmadoctor could not check: "),
       "a root that cannot be read: Unknown, and why on stdout (NPD shows no stderr)", (rc, msg))

rc, out, err = run("check", "--npd", "--nhc")
expect(rc == 2 and "give one" in err, "--npd with --nhc: a usage error", (rc, err))
rc, out, err = run("--json", "check", "--npd")
expect(rc == 2 and "--npd and --json" in err, "--npd with --json: a usage error", (rc, err))

# --- NPD: config.go's checks of the monitor ------------------------------
GO_DURATION = re.compile(r"^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$")
UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600}


def seconds(d):
    assert GO_DURATION.match(d), d
    return sum(float(v) * UNIT[u] for v, _, u in re.findall(r"(\d+(\.\d+)?)(ns|us|µs|ms|s|m|h)", d))


with open(os.path.join(src, "contrib/kubernetes/rdmadoctor-npd.json")) as f:
    conf = json.load(f)
pc = conf.get("pluginConfig", {})
expect(conf.get("plugin") == "custom", "plugin is \"custom\" (the only one NPD runs)")
for key in ("invoke_interval", "timeout"):
    expect(GO_DURATION.match(pc.get(key, "")) is not None, f"pluginConfig.{key} a Go duration",
           pc.get(key))
expect(pc.get("max_output_length") == 80, "max_output_length 80: what --npd fits")
defaults = {c["type"] for c in conf.get("conditions", [])}
for rule in conf.get("rules", []):
    if "timeout" in rule:
        expect(seconds(rule["timeout"]) <= seconds(pc["timeout"]),
               "a rule's timeout within the global one", rule)
    if rule.get("type") == "permanent":
        expect(rule.get("condition") in defaults, "a permanent rule's condition has a default",
               rule)
    # NPD's pod cannot run rdmadoctor (its libraries are not there): the
    # rule runs the static plugin the DaemonSet installs, on the verdict
    # its agent writes with the memory (test_npd_plugin.py runs both)
    expect(rule.get("path") == "/var/lib/rdmadoctor/rdmadoctor-npd" and
           rule.get("args") == ["--max-age", "900", "/var/lib/rdmadoctor/npd"],
           "the rule runs rdmadoctor-npd on /var/lib/rdmadoctor/npd", rule)
    if "timeout" in rule:
        expect(seconds(rule["timeout"]) < seconds(pc["invoke_interval"]),
               "one run ends before the next starts", rule)

# --- NFD: local.go's feature files and Kubernetes' label syntax ----------
NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
DNS1123_SUB = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
NFD_NS = "feature.node.kubernetes.io"


def nfd_parse(text, now):
    """{label: value} as NFD's parseFeatureFile gives labels, the name
    given the namespace NFD puts on one without (feature.node...)."""
    labels, expiry = {}, now
    for line in (ln.strip() for ln in text.split("\n")):
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("# +"):
                key, _, value = line[3:].partition("=")
                if key == "expiry-time":
                    expiry = datetime.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
                elif key not in ("no-label", "no-feature"):
                    raise ValueError(f"unknown directive {key}")
            continue
        if expiry < now:
            continue
        key, eq, value = line.partition("=")
        labels[key if "/" in key else f"{NFD_NS}/{key}"] = value if eq else "true"
    return labels


def label_ok(name, value):
    prefix, _, base = name.rpartition("/")
    return (len(base) <= 63 and NAME.match(base) is not None and len(prefix) <= 253 and
            DNS1123_SUB.match(prefix) is not None and len(value) <= 63 and
            (value == "" or NAME.match(value) is not None))


def labels_of(root, *extra):
    out = os.path.join(tmp, "features.d", "rdmadoctor")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    rc, _, err = run("--root", root, "labels", "-o", out, *extra)
    expect(rc == 0, f"labels on {root}", err)
    with open(out) as f:
        return out, f.read()


def rails_up(doc):
    ports = {}
    for nic in doc["inventory"]["nics"]:
        for p in nic["ports"]:
            ports[(nic["name"], p["port"])] = p
    up = [ports[(r["device"], r["port"])] for r in doc["rails"]
          if ports[(r["device"], r["port"])]["state"]["name"] == "ACTIVE" and
          ports[(r["device"], r["port"])]["phys_state"]["name"] == "LinkUp"]
    return up


now = datetime.datetime.now(datetime.timezone.utc)
for shape, gdr in (("dgx-h100", "true"), ("a800-8x100g-roce", "true"), ("broken", "false")):
    path, text = labels_of(fixture(shape), "--ttl", "600")
    labels = nfd_parse(text, now)
    bad = {k: v for k, v in labels.items() if not label_ok(k, v)}
    expect(labels and not bad, f"{shape}: every label valid for Kubernetes", bad or text)
    _, out, _ = run("--root", fixture(shape), "--json", "check")
    doc = json.loads(out)
    up = rails_up(doc)
    get = lambda k: labels.get(f"{NFD_NS}/rdmadoctor.{k}")  # noqa: E731
    expect(get("verdict") == doc["verdict"], f"{shape}: the verdict check gives",
           (get("verdict"), doc["verdict"]))
    expect(get("unchecked") == str(doc["unchecked"]), f"{shape}: check's unchecked count")
    expect(get("rails") == str(len(up)), f"{shape}: the rails that are up",
           (get("rails"), len(up)))
    rates = [p.get("rate_gbps") for p in up]
    want = f"{min(rates):g}" if rates and None not in rates else None
    expect(get("rail-gbps") == want, f"{shape}: the slowest rail's rate, none when one "
           "rail's could not be read", (get("rail-gbps"), rates))
    expect(get("gpudirect") == gdr, f"{shape}: GPUDirect {gdr}", get("gpudirect"))
    m = re.search(r"^# \+expiry-time=(\S+)$", text, re.M)
    when = m and datetime.datetime.fromisoformat(m.group(1).replace("Z", "+00:00"))
    expect(when is not None and now < when <= now + datetime.timedelta(seconds=660),
           f"{shape}: expires --ttl after now", m and m.group(1))
    later = nfd_parse(text, now + datetime.timedelta(seconds=700))
    expect(later == {}, f"{shape}: NFD drops every label once expired", later)
    st = os.stat(path)
    expect(stat.S_IMODE(st.st_mode) == 0o666 & ~0o022, "the mode a new file gets",
           oct(st.st_mode))
    left = [n for n in os.listdir(os.path.dirname(path)) if n != "rdmadoctor"]
    expect(left == [], "no temporary file left beside it", left)

# an Ascend machine: its rails are its NPUs' ports (docs/ascend.md), counted
# as check reads them, not 0 beside verdict=pass
for shape in ("atlas-800-9000", "atlas-a3"):
    path, text = labels_of(fixture(shape), "--ttl", "0")
    labels = nfd_parse(text, now)
    _, out, _ = run("--root", fixture(shape), "--json", "check")
    up = [d for d in json.loads(out)["inventory"]["npus"]["devices"]
          if (d.get("port") or {}).get("link") == "UP"]
    get = lambda k: labels.get(f"{NFD_NS}/rdmadoctor.{k}")  # noqa: E731
    expect(up and get("rails") == str(len(up)), f"{shape}: the NPU ports that are up are its rails",
           (get("rails"), len(up)))
    rates = [d["port"].get("speed_mbps") for d in up]
    want = f"{min(rates) / 1000:g}" if rates and None not in rates else None
    expect(get("rail-gbps") == want and get("link-layer") == "ethernet",
           f"{shape}: the slowest NPU port's rate, Ethernet",
           (get("rail-gbps"), get("link-layer"), rates))

# a rail whose rate cannot be read: the slowest rate is not known, so it is
# left out (never the others' minimum); the other rails keep theirs
case = os.path.join(tmp, "no-rate")
shutil.copytree(fixture("dgx-h100"), case, symlinks=True)
_, out, _ = run("--root", case, "--json", "check")
first = json.loads(out)["rails"][0]
rate = os.path.join(case, f"sys/class/infiniband/{first['device']}/ports/{first['port']}/rate")
os.unlink(os.path.realpath(rate))
path, text = labels_of(case, "--ttl", "0")
labels = nfd_parse(text, now)
expect(f"{NFD_NS}/rdmadoctor.rail-gbps" not in labels and
       f"{NFD_NS}/rdmadoctor.rail0-gbps" not in labels and
       labels.get(f"{NFD_NS}/rdmadoctor.rail1-gbps") == "400",
       "a rail's rate not read: no rail-gbps, the others' own rates kept", text)

path, text = labels_of(fixture("a800-8x100g-roce"), "--ttl", "0")
expect("expiry-time" not in text, "--ttl 0: no expiry", text)
expect(nfd_parse(text, now).get(f"{NFD_NS}/rdmadoctor.roce-gid-index") == "3",
       "RoCE rails: the GID index every rail shares")
rc, _, err = run("--root", fixture("dgx-h100"), "labels", "-o", os.path.join(tmp, "no", "f"))
expect(rc == 2 and "its directory" in err, "no directory for the file: a usage error", err)
rc, out, err = run("--root", fixture("dgx-h100"), "labels", "-o", "-")
expect(rc == 0 and out.startswith(b"# written by rdmadoctor"), "-o -: standard output", err)

shutil.rmtree(tmp, ignore_errors=True)
done()
