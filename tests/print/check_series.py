#!/usr/bin/env python3
"""Check the counter charts of a fleet report page as the browser shows it
(the DOM headless Chromium dumped) against `fleet show HOST --json` of each
host: every chart row's bars are that counter's deltas over the host's seen
checks, oldest first; the symbol_error the test made grow is drawn; no data
counter is.

usage: check_series.py RDMADOCTOR DB DOM.html
Exit 0 when every check holds, 1 with one line per mismatch."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_page import Tree  # noqa: E402

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def delta(d):
    return d.get("reset", 0) if isinstance(d, dict) else d


def main():
    tool, db, dom_file = sys.argv[1:4]
    with open(dom_file, encoding="utf-8") as f:
        t = Tree()
        t.feed(f.read())
    dom = t.root
    section = dom.by_id("counters")
    if not expect(section is not None, "no counters section on the page"):
        return report()
    hosts = section.find("div", cls="spark-host")
    expect(hosts, "no host has counter charts")
    grown = False
    for h in hosts:
        name = h.attrs.get("data-host")
        show = json.loads(subprocess.run([tool, "--json", "fleet", "--db", db, "show", name],
                                         capture_output=True, check=True, timeout=60).stdout)
        series = show["counters"]
        expect(h.attrs.get("data-points") == str(len(series)),
               f"{name}: {h.attrs.get('data-points')} points, fleet show has {len(series)}")
        for row in h.find("tr", cls="spark-row"):
            subj, ctr = row.attrs.get("data-subject"), row.attrs.get("data-counter")
            want = [delta(p["deltas"].get(subj, {}).get(ctr, 0)) for p in series]
            svg = row.find("svg", cls="spark")
            got = [int(x) for x in svg[0].attrs.get("data-deltas", "").split()] if svg else None
            expect(got == want, f"{name} {subj} {ctr}: the chart has {got}, fleet show {want}")
            expect(svg and len(svg[0].find("rect", cls="spark-bar")) == sum(1 for x in want if x),
                   f"{name} {subj} {ctr}: not one bar per delta that is not 0")
            expect(not ctr.endswith("_data") and not ctr.endswith("_packets"),
                   f"{name}: a data counter {ctr} is charted")
            grown |= ctr == "symbol_error" and want == [6, 0, 2]
    expect(grown, "the symbol_error that grew by 6, 0, 2 is not charted")
    return report()


def report():
    for p in problems:
        print("FAIL:", p)
    print("check_series: %s" % ("ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
