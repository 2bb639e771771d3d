#!/bin/bash
# The live ethtool statistics reader (src/nl/ethtool_stats.c) against
# `ethtool -S` on a veth pair between two network namespaces (and on this
# machine's own NIC), through the
# debug command `rdmadoctor ethtool-stats IFNAME --json`.
#
# Needs root, `ip netns` and ethtool; exits 77 (skipped) otherwise.  The
# addresses (10.231.x.x/30) live only inside the two namespaces; everything
# is removed on exit.  usage: test_ethtool_stats.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/veth_pair.sh"
command -v ethtool >/dev/null || veth_skip "no ethtool (package ethtool)"
command -v python3 >/dev/null || veth_skip "no python3"

tmp=$(mktemp -d) || exit 1
cleanup() {
	veth_pair_remove
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
veth_pair rdet 10.231 || exit 1
peer=$a2

# a bounded amount of traffic
if command -v ping >/dev/null; then
	n1 ping -q -c 20 -i 0.05 -W 1 "$peer" >/dev/null 2>&1
else
	n1 bash -c "for i in \$(seq 20); do echo x > /dev/udp/$peer/9; sleep 0.05; done" 2>/dev/null
fi

fail=0
# veth counters move only with traffic: read both sides with none in between
n1 "$bin" --json ethtool-stats "$va" > "$tmp/ours.json" || { echo "FAIL: rdmadoctor ethtool-stats $va"; fail=1; }
n1 ethtool -S "$va" > "$tmp/theirs.txt" || { echo "FAIL: ethtool -S $va"; fail=1; }
[ $fail = 0 ] || exit 1

python3 - "$tmp/ours.json" "$tmp/theirs.txt" <<'PY' || fail=1
import json, sys
ours = json.load(open(sys.argv[1]))
theirs = {}
for line in open(sys.argv[2]).read().splitlines()[1:]:   # "NIC statistics:"
    name, _, value = line.strip().rpartition(":")
    theirs[name.strip()] = int(value)
if not isinstance(ours, dict) or not ours:
    sys.exit("FAIL: no statistics from rdmadoctor: %r" % (ours,))
if set(ours) != set(theirs):
    sys.exit("FAIL: names differ: only ours %s, only ethtool %s"
             % (sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours))))
bad = {k: (ours[k], theirs[k]) for k in ours if ours[k] != theirs[k]}
if bad:
    sys.exit("FAIL: values differ: %s" % bad)
if "peer_ifindex" not in ours or ours["peer_ifindex"] == 0:
    sys.exit("FAIL: veth peer_ifindex missing or 0")
print("ok: %d statistics match ethtool -S" % len(ours))
PY

# text output: the same names, one 'name value' per line
n1 "$bin" ethtool-stats "$va" > "$tmp/ours.txt" || { echo "FAIL: text output"; fail=1; }
grep -q '^peer_ifindex [0-9]' "$tmp/ours.txt" || { echo "FAIL: text lacks peer_ifindex"; fail=1; }

# replay from a tree with the netdev but without .rdmadoctor/ethtool/<if>:
# null and exit 1
mkdir -p "$tmp/root/sys/class/net/$va"
"$bin" --root "$tmp/root" --json ethtool-stats "$va" > "$tmp/none.json"
rc=$?
[ $rc = 1 ] && [ "$(tr -d ' \n' < "$tmp/none.json")" = null ] ||
	{ echo "FAIL: replay without files: rc $rc, $(cat "$tmp/none.json")"; fail=1; }

# no such netdev: a usage error that says so, nothing on stdout
n1 "$bin" --json ethtool-stats "nosuch$$" > "$tmp/nosuch.json" 2> "$tmp/nosuch.err"
rc=$?
[ $rc = 2 ] && ! [ -s "$tmp/nosuch.json" ] &&
	grep -q "no network interface 'nosuch$$'" "$tmp/nosuch.err" ||
	{ echo "FAIL: missing netdev: rc $rc, $(cat "$tmp/nosuch.err")"; fail=1; }
# lo has no ETH_SS_STATS: null, exit 1, and stderr says why
n1 "$bin" --json ethtool-stats lo > "$tmp/lo.json" 2> "$tmp/lo.err"
[ "$(tr -d ' \n' < "$tmp/lo.json")" = null ] || { echo "FAIL: lo: $(cat "$tmp/lo.json")"; fail=1; }
grep -q "ethtool statistics of lo: none" "$tmp/lo.err" || { echo "FAIL: lo: no reason: $(cat "$tmp/lo.err")"; fail=1; }

# this machine's own NIC (the one the default route uses), which carries
# traffic meanwhile: ethtool's reading must lie between two of ours
nic=$(ip route show default 2>/dev/null | awk '{for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit }}')
if [ -n "$nic" ] && ethtool -S "$nic" >/dev/null 2>&1; then
	"$bin" --json ethtool-stats "$nic" > "$tmp/host1.json" &&
		ethtool -S "$nic" > "$tmp/host.txt" &&
		"$bin" --json ethtool-stats "$nic" > "$tmp/host2.json" &&
		python3 "$here/compare_stats.py" "$tmp/host1.json" "$tmp/host.txt" "$tmp/host2.json" "$nic" ||
		{ echo "FAIL: this machine's $nic"; fail=1; }
else
	echo "note: this machine's NIC (${nic:-none}) has no ethtool statistics; veth only"
fi

[ $fail = 0 ] && echo "PASS"
exit $fail
