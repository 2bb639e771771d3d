#!/usr/bin/env python3
"""The alert rules in contrib/prometheus/ against promtool and against what
`rdmadoctor serve` really exposes:
- `promtool check rules` and `promtool test rules` (the shipped unit tests:
  each alert fires on a faulty host and stays quiet on a healthy one);
- every metric the rules name is one serve exposes (on some fixture);
- a real scrape of a healthy fixture, held for 40 minutes, fires nothing; a
  real scrape of a broken one fires RdmaPortDown for each port down and
  RdmaCheckErrors for each error finding, with their summaries.
usage: test_rules.py RDMADOCTOR SOURCE_DIR   (exit 77 without promtool)"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

BIN, SRC = sys.argv[1], os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Server  # noqa: E402

RULES_DIR = os.path.join(SRC, "contrib", "prometheus")
RULES = os.path.join(RULES_DIR, "rdmadoctor.rules.yml")
FIX = os.path.join(SRC, "tests", "fixtures")
HEALTHY, BROKEN = "dgx-h100", "roce-broken"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def promtool(*args, cwd=None):
    p = subprocess.run(["promtool", *args], capture_output=True, text=True, cwd=cwd,
                       timeout=120)
    if p.returncode != 0:
        fail(f"promtool {' '.join(args)}: rc {p.returncode}\n{p.stdout}{p.stderr}")
    return p


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def scrape(fixture):
    srv = Server(BIN, os.path.join(FIX, fixture, "root"))
    try:
        status, _, body = srv.get()
    finally:
        srv.stop()
    if status != 200:
        fail(f"{fixture}: GET /metrics {status}")
    samples, types = [], set()
    for line in body.splitlines():
        if line.startswith("# TYPE "):
            types.add(line.split()[2])
            continue
        m = SAMPLE.match(line)
        if m and not line.startswith("#"):
            samples.append((m.group(1), dict(LABEL.findall(m.group(2) or "")),
                            float(m.group(3))))
    return samples, types


def referenced_metrics(rules):
    """Metric names in the expressions; a __name__ regex with one (a|b)
    group counts as each of its names."""
    names = set()
    for g in rules["groups"]:
        for r in g["rules"]:
            expr = r["expr"]
            for rx in re.findall(r'__name__=~"([^"]+)"', expr):
                m = re.fullmatch(r'(.*)\(([^()]*)\)(.*)', rx)
                if not m:
                    fail(f"cannot expand {rx!r}")
                    continue
                names |= {m.group(1) + alt + m.group(3) for alt in m.group(2).split("|")}
            expr = re.sub(r'__name__=~"[^"]+"', "", expr)
            names |= set(re.findall(r'\b(rdmadoctor_[a-zA-Z0-9_]+)', expr))
    return names


def render(template, labels, value):
    """The subset of Go templates the rules use on their annotations:
    {{ $labels.X }}, {{ with $labels.X }}...{{ . }}...{{ end }}, {{ $value }}."""
    out = re.sub(r'\{\{ with \$labels\.([a-zA-Z_]+) \}\}(.*?)\{\{ end \}\}',
                 lambda m: m.group(2).replace("{{ . }}", labels[m.group(1)])
                 if labels.get(m.group(1)) else "", template)
    out = re.sub(r'\{\{ \$labels\.([a-zA-Z_]+) \}\}', lambda m: labels.get(m.group(1), ""), out)
    # Go prints a float in its shortest form, a whole one without ".0"
    v = repr(float(value))
    return out.replace("{{ $value }}", v[:-2] if v.endswith(".0") else v)


def series_text(name, labels):
    body = ",".join('%s="%s"' % (k, v.replace("\\", "\\\\").replace('"', '\\"'))
                    for k, v in sorted(labels.items()))
    return "%s{%s}" % (name, body)


def series_values(v):
    """The same value each minute for forty minutes, in promtool's series
    notation: "Vx40" for a number; the lexer reads "Infx40" as one word, so
    an infinity (slurmd's unlimited memlock) is written out 41 times."""
    if math.isinf(v) or math.isnan(v):
        word = "NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf")
        return " ".join([word] * 41)
    return "%r" % v + "x40"


def replay_test(rules, fixture, samples, expect_alerts):
    """A promtool test whose input is the scrape, the same each minute."""
    alerts = {r["alert"]: r for g in rules["groups"] for r in g["rules"]}
    inst = {"instance": fixture + ":9879", "job": "rdmadoctor"}
    series = [{"series": series_text(n, {**l, **inst}), "values": series_values(v)}
              for n, l, v in samples]
    tests = []
    for name, rule in alerts.items():
        exp = []
        for labels, value in expect_alerts.get(name, []):
            ann = {k: render(t, {**labels, **inst}, value)
                   for k, t in rule.get("annotations", {}).items()}
            # an empty label is no label to Prometheus
            exp.append({"exp_labels": {k: v for k, v in {**labels, **inst, **rule.get("labels", {})}
                                       .items() if v != ""},
                        "exp_annotations": ann})
        tests.append({"eval_time": "40m", "alertname": name, "exp_alerts": exp})
    return {"rule_files": [RULES], "evaluation_interval": "1m",
            "tests": [{"name": fixture + " as scraped", "interval": "1m",
                       "input_series": series, "alert_rule_test": tests}]}


READINGS = (("temperature", "temperature_celsius", "temperature_threshold_celsius"),
            ("supply voltage", "voltage_volts", "voltage_threshold_volts"),
            ("Rx power", "rx_power_watts", "rx_power_threshold_watts"),
            ("Tx power", "tx_power_watts", "tx_power_threshold_watts"),
            ("laser bias", "tx_bias_amperes", "tx_bias_threshold_amperes"))


def out_of_range(samples, host):
    """The transceiver readings past the module's own warning limits, worked
    out here from the scrape, not through the rule."""
    want = []
    for what, reading, limit in READINGS:
        limits = {}
        for n, l, v in samples:
            if n == "rdmadoctor_module_" + limit:
                key = tuple(sorted((k, x) for k, x in l.items() if k != "level"))
                limits.setdefault(key, {})[l["level"]] = v
        for n, l, v in samples:
            if n != "rdmadoctor_module_" + reading:
                continue
            lim = limits.get(tuple(sorted((k, x) for k, x in l.items() if k != "lane")), {})
            for side, level, beyond in (("high", "high_warn", lambda a, b: a > b),
                                        ("low", "low_warn", lambda a, b: a < b)):
                if level in lim and beyond(v, lim[level]):
                    want.append(({**l, "hostname": host, "reading": what + " " + side}, v))
    return want


def main():
    if not shutil.which("promtool"):
        print("promtool not installed (Debian prometheus): skipped")
        sys.exit(77)
    promtool("check", "rules", RULES)
    promtool("test", "rules", "rdmadoctor.rules_test.yml", cwd=RULES_DIR)
    with open(RULES) as f:
        rules = yaml.safe_load(f)

    healthy, types = scrape(HEALTHY)
    broken, more = scrape(BROKEN)
    types |= more
    for fixture in sorted(os.listdir(FIX)):
        if os.path.isdir(os.path.join(FIX, fixture, "root")) and fixture not in (HEALTHY, BROKEN):
            types |= scrape(fixture)[1]
    for name in sorted(referenced_metrics(rules)):
        if name not in types:
            fail(f"the rules name {name}, which serve does not expose")

    host = {l["hostname"] for n, l, v in broken if n == "rdmadoctor_host_info"}.pop()
    want = {
        "RdmaPortDown": [({**{k: l[k] for k in l}, "hostname": host}, v)
                         for n, l, v in broken if n == "rdmadoctor_port_up" and v == 0],
        "RdmaCheckErrors": [({**l, "hostname": host}, v) for n, l, v in broken
                            if n == "rdmadoctor_finding" and l.get("severity") == "error"
                            and v > 0],
        "RdmaTransceiverOutOfRange": out_of_range(broken, host),
    }
    for k, v in want.items():
        if not v:
            fail(f"{BROKEN} should show a fault for {k}")
    # the alert's own severity label replaces the finding's
    for labels, _ in want["RdmaCheckErrors"]:
        labels.pop("severity")
    with tempfile.TemporaryDirectory(prefix="plan-rules-") as tmp:
        for fixture, samples, expect in ((HEALTHY, healthy, {}), (BROKEN, broken, want)):
            doc = replay_test(rules, fixture, samples, expect)
            if fixture == BROKEN:
                # only the alerts whose expectations the scrape gives
                doc["tests"][0]["alert_rule_test"] = [
                    t for t in doc["tests"][0]["alert_rule_test"] if t["alertname"] in want]
            path = os.path.join(tmp, fixture + "_test.yml")
            with open(path, "w") as f:
                yaml.safe_dump(doc, f)
            promtool("test", "rules", path)
    print("%d alerts, %d metrics named, %d + %d series replayed"
          % (sum(len(g["rules"]) for g in rules["groups"]), len(referenced_metrics(rules)),
             len(healthy), len(broken)))
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
