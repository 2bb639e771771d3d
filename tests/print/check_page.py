#!/usr/bin/env python3
"""Check a fleet report page as the browser shows it (the DOM headless
Chromium dumped after loading it) against the documents it was made from.

usage: check_page.py DOM.html RECORDS.json DIFF.json|- [LS.json]
LS.json, a `fleet ls --json` document, is the database's own word on each
host (time, profile, verdict, number of findings): the page must agree.
The expected figures are computed here, independently of the C code, from
the rules of the fleet report (docs/fleet.md): a host's rail = rails[].gbps.avg of the largest-size
result of each client document, averaged over documents; a pair (local,
remote) = total.gbps.avg of the same result, averaged.  A document's host
(for both) is its local.host when a string, else its record's host.  Exit 0 when every
check holds, 1 with one line per mismatch."""
import json
import math
import re
import sys
from collections import Counter
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids = tag, dict(attrs), parent, []

    def text(self):
        return "".join(k if isinstance(k, str) else k.text() for k in self.kids)

    def walk(self):
        for k in self.kids:
            if isinstance(k, Node):
                yield k
                yield from k.walk()

    def find(self, tag=None, cls=None, **attrs):
        out = []
        for n in self.walk():
            if tag and n.tag != tag:
                continue
            if cls and cls not in n.attrs.get("class", "").split():
                continue
            if all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(n)
        return out

    def by_id(self, ident):
        found = [n for n in self.walk() if n.attrs.get("id") == ident]
        return found[0] if found else None


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#doc", [], None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.kids.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.kids.append(data)


problems = []


# the one spelling of a missing value on the page, as in the text tables
# (FLEET_MISSING); JSON says null
MISSING = "-"


def share_text(key):
    """A share's key as people read it: "null" (hosts without the value)
    is the missing spelling."""
    return MISSING if key == "null" else key


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def dig(obj, *keys):
    """obj[k1][k2]..., or None where a level is not an object."""
    for k in keys:
        obj = obj.get(k) if isinstance(obj, dict) else None
    return obj


def host_of(rec):
    h = rec.get("host") if isinstance(rec, dict) else None
    return h if isinstance(h, str) else MISSING


def s(obj, key):
    v = obj.get(key) if isinstance(obj, dict) else None
    return v if isinstance(v, str) else MISSING


def scalar(v):
    if v is None:
        return MISSING
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "%.2f" % v
    if isinstance(v, str):
        return v
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


def findings_of(rec):
    c = rec.get("check") if isinstance(rec, dict) else None
    f = c.get("findings") if isinstance(c, dict) else None
    return f if isinstance(f, list) else None


def num(v):
    """A Gb/s figure from 0 to 1e6 (FLEET_BW_MAX_GBPS), else None: a
    negative rate is a broken document."""
    ok = (isinstance(v, (int, float)) and not isinstance(v, bool) and
          math.isfinite(v) and 0 <= v <= 1e6)
    return float(v) if ok else None


def expected_bw(records):
    rails, pairs = {}, {}
    for rec in records:
        docs = rec.get("bw") if isinstance(rec, dict) else None
        for doc in docs if isinstance(docs, list) else []:
            if not isinstance(doc, dict) or doc.get("role") != "client":
                continue
            # the machine that ran it: its local.host when a string, else
            # the record's host; rails and pair both go to it
            local = dig(doc, "local", "host")
            host = local if isinstance(local, str) else host_of(rec)
            res = doc.get("results")
            res = [r for r in res if isinstance(r, dict)] if isinstance(res, list) else []
            if not res:
                continue
            best = None
            for r in res:  # the largest size; without sizes the last
                size = r.get("size_bytes")
                size = size if isinstance(size, (int, float)) and not isinstance(size, bool) else -1
                if best is None or size >= best[0]:
                    best = (size, r)
            r = best[1]
            rails_in = r.get("rails") if isinstance(r.get("rails"), list) else []
            for rail in rails_in:
                g = num(dig(rail, "gbps", "avg"))
                if g is None:
                    continue
                port = rail.get("port")
                port = str(port) if isinstance(port, int) and port >= 0 else MISSING
                rails.setdefault((host, s(rail, "device") + "/" + port), []).append(g)
            g = num(dig(r, "total", "gbps", "avg"))
            if g is not None:
                dst = s(dig(doc, "remote"), "host")
                pairs.setdefault((host, dst), []).append(g)
    mean = lambda v: sum(v) / len(v)
    return ({k: mean(v) for k, v in rails.items()}, {k: mean(v) for k, v in pairs.items()})


def check_summary(dom, records):
    hc = dom.by_id("host-count")
    if expect(hc is not None, "no #host-count"):
        expect(hc.attrs.get("data-hosts") == str(len(records)) and hc.text() == str(len(records)),
               f"host count {hc.text()!r}, want {len(records)}")
    if not records:
        return
    for table, key, values in (
            ("by-verdict", "data-verdict", [s(r, "verdict") for r in records]),
            ("by-profile", "data-profile", [s(r, "profile") for r in records]),
            ("by-severity", "data-severity",
             [s(f, "severity") for r in records for f in findings_of(r) or []])):
        t = dom.by_id(table)
        if not expect(t is not None, f"no #{table}"):
            continue
        shown = {}
        for tr in t.find("tr"):
            if key in tr.attrs:
                cnt = tr.find("td")[1]
                expect(cnt.text() == cnt.attrs.get("data-count"), f"{table}: text and data differ")
                shown[tr.attrs[key]] = int(cnt.text())
        expect(shown == dict(Counter(values)), f"{table}: shows {shown}, want {dict(Counter(values))}")


def check_hosts(dom, records):
    rows = dom.find("tr", cls="host")
    expect(len(rows) == len(records), f"host table has {len(rows)} rows, want {len(records)}")
    shown = {}
    for tr in rows:
        cells = {td.attrs.get("data-k") or td.attrs.get("data-count"): td.text() for td in tr.find("td")}
        shown.setdefault(tr.attrs.get("data-host"), []).append(cells)
    for rec in records:
        host = host_of(rec)
        got = shown.get(host, [])
        if not expect(got, f"host {host!r} not in the host table"):
            continue
        cells = got.pop(0)
        fs = findings_of(rec)
        nics = dig(rec, "check", "inventory", "nics")
        want = {"host": host, "profile": s(rec, "profile"), "verdict": s(rec, "verdict"),
                # when last checked: the record's last_seen, else its time
                "time": s(rec, "last_seen") if isinstance(dig(rec, "last_seen"), str)
                else s(rec, "time")}
        for key in ("model", "fw_ver"):
            vals = []
            nics = nics if isinstance(nics, list) else []
            for n in nics[:64]:  # NIC_VALUES_SCANNED, then an ellipsis
                v = s(n, key)
                if v not in vals:
                    vals.append(v)
            if len(nics) > 64:
                vals.append("\u2026")
            want[key] = ", ".join(vals) or MISSING
        for sev in ("error", "warn", "info"):
            want[sev] = MISSING if fs is None else str(sum(1 for f in fs if s(f, "severity") == sev))
        for k, v in want.items():
            expect(cells.get(k) == v, f"host {host!r}: {k} shows {cells.get(k)!r}, want {v!r}")


def check_findings(dom, records):
    sections = {}
    for d in dom.find("details", cls="host-findings"):
        sections.setdefault(d.attrs.get("data-host"), []).append(d)
    for rec in records:
        host = host_of(rec)
        if not expect(sections.get(host), f"no findings section for {host!r}"):
            continue
        d = sections[host].pop(0)
        fs = findings_of(rec)
        counter = d.find("span")[0]
        expect(counter.attrs.get("data-findings") == (MISSING if fs is None else str(len(fs))),
               f"{host!r}: findings count {counter.attrs.get('data-findings')}")
        rows = d.find("tr", cls="finding")
        expect(len(rows) == len(fs or []), f"{host!r}: {len(rows)} finding rows, want {len(fs or [])}")
        for tr, f in zip(rows, fs or []):
            got = [td.text() for td in tr.find("td")]
            want = [s(f, k) for k in ("severity", "id", "subject", "observed", "expected", "fix")]
            expect(got == want, f"{host!r}: finding shows {got}, want {want}")


def check_drift(dom, diff):
    groups = diff.get("groups") if isinstance(diff, dict) else None
    if not isinstance(groups, list):
        expect(dom.by_id("drift-none") is not None, "no diff, and no note saying so")
        return
    want_rows, want_groups = [], []
    for g in groups:
        g = g if isinstance(g, dict) else {}
        # a group is a profile, a NIC model and a link layer, as in `fleet diff`
        name = " \u00b7 ".join(s(g, k) for k in ("profile", "nic_model", "link_layer"))
        hosts = g.get("hosts")
        outliers = g.get("outliers") if isinstance(g.get("outliers"), list) else []
        base = g.get("baseline") if isinstance(g.get("baseline"), dict) else {}
        odd = len({x.get("host") if isinstance(x, dict) else None for x in outliers})
        want_groups.append([name, str(len(hosts)) if isinstance(hosts, list) else MISSING,
                            str(odd), str(len(outliers)),
                            " ".join(f"{k} {scalar(v)}" for k, v in base.items()) or MISSING])
        for x in outliers:
            x = x if isinstance(x, dict) else {}
            sh = x.get("shares") if isinstance(x.get("shares"), dict) else {}
            order = sorted(sh.items(), key=lambda kv: (-(kv[1] if isinstance(kv[1], int) else -1), kv[0]))
            field = s(x, "field") + (" (%s)" % x["subject"] if isinstance(x.get("subject"), str)
                                     else "")
            want_rows.append([name, field, s(x, "host"), scalar(x.get("value")),
                              scalar(x.get("baseline")),
                              ", ".join(f"{share_text(k)} ({scalar(v)})" for k, v in order) or MISSING])
    got_groups = [[td.text() for td in tr.find("td")] for tr in dom.find("tr", cls="group")]
    expect(got_groups == want_groups, f"drift groups show {got_groups}, want {want_groups}")
    got_rows = [[td.text() for td in tr.find("td")] for tr in dom.find("tr", cls="outlier")]
    expect(got_rows == want_rows, f"drift rows show {got_rows}, want {want_rows}")
    # the fleet's count: hosts apart from values, as `fleet diff` counts them
    if isinstance(diff.get("hosts_differ"), int):
        dc = dom.by_id("drift-count")
        n = diff["hosts_differ"]
        if n:
            want = "%d %s" % (n, "host differs" if n == 1 else "hosts differ")
            expect(dc is not None and dc.attrs.get("data-hosts-differ") == str(n) and
                   dc.attrs.get("data-outliers") == str(len(want_rows)) and
                   dc.text().startswith(want),
                   f"drift count says {dc.text() if dc else None!r}, want {want!r} and "
                   f"{len(want_rows)} values")
        else:
            expect(dom.by_id("drift-clean") is not None, "no drift, and no note saying so")


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def npu_pfc(bits):
    """The PFC bitmap as the page says it: "4", "3,4", "none", or missing."""
    if not isinstance(bits, list) or not all(isinstance(b, bool) for b in bits):
        return MISSING
    return ",".join(str(i) for i, b in enumerate(bits) if b) or "none"


def check_npus(dom, records, diff):
    """The NPU ports section: a row per host and NPU with the document's
    values, and exactly the values `fleet diff` found off their NPU
    group's baseline marked, with that baseline."""
    odd = {}
    groups = diff.get("groups") if isinstance(diff, dict) else None
    for g in groups if isinstance(groups, list) else []:
        if not isinstance(g, dict) or g.get("link_layer") != "NPU RoCE":
            continue
        for x in g.get("outliers") if isinstance(g.get("outliers"), list) else []:
            if isinstance(x, dict) and all(isinstance(x.get(k), str) for k in ("host", "subject", "field")):
                odd[(x["host"], x["subject"], x["field"])] = x.get("baseline")
    want = []
    for rec in records:
        devs = dig(rec, "check", "inventory", "npus", "devices")
        for n in devs if isinstance(devs, list) else []:
            port = n.get("port") if isinstance(n.get("port"), dict) else {}
            mbps = port.get("speed_mbps")
            subject = "npu%d" % n["id"] if isinstance(n.get("id"), int) else MISSING
            want.append((host_of(rec), subject, {
                "model": s(n, "model"), "fw": s(n, "firmware"), "npu_driver": s(n, "software"),
                "port_state": s(port, "link"),
                "port_rate_gbps": ("%g Gb/s" % (mbps / 1000.0)) if is_number(mbps) else MISSING,
                "pfc_priority": npu_pfc(port.get("pfc_enabled"))}))
    rows = dom.find("tr", cls="npu")
    if not want:
        expect(dom.by_id("npus") is None and not rows, "an NPU section on a fleet without NPUs")
        return
    expect(len(rows) == len(want), f"NPU table has {len(rows)} rows, want {len(want)}")
    marked = 0
    for tr, (host, subject, cells) in zip(rows, want):
        expect((tr.attrs.get("data-host"), tr.attrs.get("data-npu")) == (host, subject),
               f"NPU row {tr.attrs.get('data-host')!r} {tr.attrs.get('data-npu')!r}, want {host!r} {subject!r}")
        got = {td.attrs.get("data-k"): td for td in tr.find("td")}
        for k, v in cells.items():
            td = got.get(k)
            if not expect(td is not None, f"{host!r} {subject}: no {k} cell"):
                continue
            is_odd = "odd" in td.attrs.get("class", "").split()
            if (host, subject, k) in odd:
                base = odd[(host, subject, k)]
                btext = base if isinstance(base, str) else json.dumps(base)
                if k == "port_rate_gbps" and is_number(base):
                    btext += " Gb/s"
                expect(is_odd and td.text() == f"{v} (baseline {btext})",
                       f"{host!r} {subject} {k}: shows {td.text()!r} (odd {is_odd}), "
                       f"want {v!r} marked with baseline {btext!r}")
                marked += 1
            else:
                expect(not is_odd and td.text() == v,
                       f"{host!r} {subject} {k}: shows {td.text()!r} (odd {is_odd}), want {v!r}")
    expect(marked == len(odd), f"{marked} NPU values marked, the diff has {len(odd)}")


def check_bandwidth(dom, records):
    rails, pairs = expected_bw(records)
    bars = dom.find("g", cls="bar")
    got = {}
    scale = []
    for g in bars:
        key = (g.attrs.get("data-host"), g.attrs.get("data-rail"))
        v = float(g.attrs["data-gbps"])
        got[key] = v
        value = g.find("text", cls="value")[0].text()
        expect(value == g.attrs["data-gbps"], f"bar {key}: text {value} != data {g.attrs['data-gbps']}")
        title = g.find("title")[0].text()
        expect(f"{g.attrs['data-gbps']} Gb/s" in title, f"bar {key}: title {title!r}")
        width = float(g.find("rect")[0].attrs["width"])
        if v > 0:
            scale.append((width / v, key))
    cut = dom.by_id("bw-slowest")
    if cut is not None:  # too many rails: the slowest are drawn
        expect(cut.attrs.get("data-of") == str(len(rails)),
               f"page counts {cut.attrs.get('data-of')} rails, input has {len(rails)}")
        expect(len(got) == int(cut.attrs.get("data-shown", -1)) < len(rails),
               f"{len(got)} bars for the slowest {cut.attrs.get('data-shown')}")
        left_out = [v for k, v in rails.items() if k not in got]
        expect(not got or not left_out or max(got.values()) <= min(left_out) + 0.006,
               "a rail left out of the chart is slower than one drawn")
        rails = {k: v for k, v in rails.items() if k in got}
    expect(set(got) == set(rails), f"bars for {sorted(set(got) ^ set(rails))} differ from the input")
    for k, v in rails.items():
        if k in got:
            expect(abs(got[k] - v) <= 0.006, f"bar {k}: shows {got[k]}, input says {v:.4f}")
    if scale:  # one Gb/s is the same length on every bar
        lo, hi = min(scale)[0], max(scale)[0]
        expect(hi - lo <= 0.02 * hi + 0.1 / min(v for v in got.values() if v > 0),
               f"bar lengths not proportional to Gb/s ({lo:.4f}..{hi:.4f} px per Gb/s)")
    if rails:
        ticks = [float(t.attrs["data-tick"]) for t in dom.find("text", cls="tick") if "data-tick" in t.attrs]
        expect(ticks and ticks[0] == 0 and ticks == sorted(ticks) and ticks[-1] >= max(rails.values()),
               f"axis ticks {ticks} do not span 0..{max(rails.values())}")
        steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:])}
        expect(len(steps) == 1, f"axis steps uneven: {steps}")
    else:
        expect(dom.by_id("bw-none") is not None, "no bandwidth, and no note saying so")
    cells = {}
    for g in dom.find("g", cls="cell"):
        key = (g.attrs.get("data-src"), g.attrs.get("data-dst"))
        cells[key] = float(g.attrs["data-gbps"])
        expect(g.find("text")[0].text() == g.attrs["data-gbps"], f"cell {key}: text differs")
        expect(f": {g.attrs['data-gbps']} Gb/s" in g.find("title")[0].text(), f"cell {key}: title")
    expect(set(cells) == set(pairs), f"heatmap cells {sorted(set(cells) ^ set(pairs))} differ")
    for k, v in pairs.items():
        if k in cells:
            expect(abs(cells[k] - v) <= 0.006, f"pair {k}: shows {cells[k]}, input says {v:.4f}")
    if not pairs:
        # "none" only when nothing is drawn: a fabric report's pairs are
        # drawn under Fabric, and the note then points there
        fabric_cells = dom.by_id("fabric") is not None and dom.by_id("fabric").find("g", cls="cell")
        if fabric_cells:
            expect(dom.by_id("pairs-none") is None and dom.by_id("pairs-fabric-only") is not None,
                   "no bw pairs, fabric pairs drawn: the note says so, not 'none'")
        else:
            expect(dom.by_id("pairs-none") is not None or not records, "no pairs, and no note")


def check_ls(dom, ls):
    hosts = ls.get("hosts") if isinstance(ls, dict) else None
    if not expect(isinstance(hosts, list), "fleet ls --json has no hosts array"):
        return
    hc = dom.by_id("host-count")
    expect(hc is not None and hc.text() == str(len(hosts)),
           f"page says {hc.text() if hc else None} hosts, fleet ls {len(hosts)}")
    rows = {tr.attrs.get("data-host"): tr for tr in dom.find("tr", cls="host")}
    for h in hosts:
        tr = rows.get(h.get("host"))
        if not expect(tr is not None, f"fleet ls host {h.get('host')!r} not on the page"):
            continue
        cells = {td.attrs.get("data-k") or td.attrs.get("data-count"): td.text() for td in tr.find("td")}
        for key in ("time", "profile", "verdict"):
            expect(cells.get(key) == h.get(key),
                   f"{h['host']!r}: page {key} {cells.get(key)!r}, fleet ls {h.get(key)!r}")
        shown = sum(int(cells[k]) for k in ("error", "warn", "info") if cells.get(k, "").isdigit())
        expect(shown == h.get("findings"),
               f"{h['host']!r}: page counts {shown} findings, fleet ls {h.get('findings')}")


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        t = Tree()
        t.feed(f.read())
    dom = t.root
    with open(sys.argv[2]) as f:
        records = json.load(f)
    diff = None
    if sys.argv[3] != "-":
        with open(sys.argv[3]) as f:
            diff = json.load(f)
    records = records if isinstance(records, list) else []
    if len(sys.argv) > 4:
        with open(sys.argv[4]) as f:
            check_ls(dom, json.load(f))
    # nothing from the records ran as script or became markup
    expect(not dom.find("script"), "the page has a <script> element")
    expect(not dom.find("img"), "the page has an <img> element (a hostname became markup)")
    title = dom.find("title")
    expect(title and title[0].text() == "rdmadoctor fleet report",
           f"document title is {title[0].text() if title else None!r}")
    check_summary(dom, records)
    if records:
        check_hosts(dom, records)
        check_findings(dom, records)
        check_drift(dom, diff)
        check_npus(dom, records, diff)
        check_bandwidth(dom, records)
    else:
        expect(dom.by_id("empty") is not None, "empty fleet without a note saying so")
    for p in problems:
        print("FAIL:", p)
    n_bars = len(dom.find("g", cls="bar"))
    n_cells = len(dom.find("g", cls="cell"))
    print(f"check_page: {len(records)} hosts, {n_bars} bars, {n_cells} heatmap cells, "
          f"{len(dom.find('tr', cls='outlier'))} drift rows, "
          f"{len(dom.find('td', cls='odd'))} NPU values marked: "
          f"{'ok' if not problems else str(len(problems)) + ' problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
