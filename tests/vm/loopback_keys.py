#!/usr/bin/env python3
"""Every key of a `bw --loopback --json` document (stdin) is listed in
docs/json/bw.md (argv[1]) as `path` (arrays written []); a pair's own keys
are a bw document's, so `pairs[].` is read as the top level, as
tests/docs/test_json_docs.py reads its prefix rules."""
import json, re, sys

listed = set(re.findall(r"`([A-Za-z_*][A-Za-z0-9_.\[\]*]*)`", open(sys.argv[1]).read()))


def paths(v, p="", out=None):
    out = set() if out is None else out
    if isinstance(v, dict):
        for k, x in v.items():
            q = p + "." + k if p else k
            out.add(q)
            paths(x, q, out)
    elif isinstance(v, list):
        for x in v:
            paths(x, p + "[]", out)
    return out


missing = sorted(p for p in paths(json.load(sys.stdin))
                 if p not in listed and p.replace("pairs[].", "", 1) not in listed)
for p in missing:
    print("docs/json/bw.md lacks `%s`" % p)
sys.exit(1 if missing else 0)
