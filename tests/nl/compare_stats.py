#!/usr/bin/env python3
"""rdmadoctor's ethtool statistics against `ethtool -S` on a NIC that carries
traffic while the test runs: read ours, then ethtool's, then ours again;
the names must be the same and each of ethtool's values must lie between
our two readings (the counters only grow).

usage: compare_stats.py OURS_BEFORE.json ETHTOOL_S.txt OURS_AFTER.json LABEL"""
import json
import sys


def ethtool_s(path):
    stats = {}
    for line in open(path).read().splitlines()[1:]:  # "NIC statistics:"
        name, _, value = line.strip().rpartition(":")
        stats[name.strip()] = int(value)
    return stats


def main():
    before, after = (json.load(open(p)) for p in (sys.argv[1], sys.argv[3]))
    theirs = ethtool_s(sys.argv[2])
    label = sys.argv[4]
    if not isinstance(before, dict) or not before or not isinstance(after, dict):
        sys.exit("FAIL: %s: no statistics from rdmadoctor: %r" % (label, before))
    if set(before) != set(theirs) or set(after) != set(theirs):
        sys.exit("FAIL: %s: names differ: only ours %s, only ethtool %s"
                 % (label, sorted(set(before) - set(theirs)), sorted(set(theirs) - set(before))))
    bad = {k: (before[k], theirs[k], after[k]) for k in theirs
           if not before[k] <= theirs[k] <= after[k]}
    if bad:
        sys.exit("FAIL: %s: ethtool -S outside our two readings: %s" % (label, bad))
    print("ok: %s: %d statistics match ethtool -S" % (label, len(theirs)))


main()
