#!/bin/bash
# Live: `watch --netdev` over a veth pair between two network namespaces
# made here, with a fixed amount of UDP traffic pushed through it during
# the window: the netdev byte counters grow by at least what was sent and
# not absurdly more; the veth's ethtool statistics are sampled too.  Then
# the link-mode and FEC reader (`ethtool-stats --link`) against `ethtool IF`
# and `ethtool -I --show-fec IF` (FEC and its statistics) on the same veth.
#
# Needs root, `ip netns`, ethtool and python3; exits 77 (skipped) otherwise.
# usage: test_watch_veth.sh path/to/rdmadoctor
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
veth_pair rdqw 10.233 || exit 1
peer=$a2
fail=0

# a static neighbour entry: no ARP in the window, only our datagrams
mac=$(n2 cat "/sys/class/net/$vb/address")
n1 ip neigh replace "$peer" lladdr "$mac" dev "$va" nud permanent || exit 1

# watch for 3 s; 200 datagrams of 1000 bytes sent 1 s into it (bounded:
# a fixed count, and the sender gives up after 5 s)
count=200 size=1000
n1 "$bin" --json watch --netdev "$va" --interval 0.5 --duration 3 >"$tmp/w.json" 2>"$tmp/w.err" &
wpid=$!
sleep 1
n1 timeout 5 python3 - "$peer" "$count" "$size" <<'PY' || { echo "FAIL: sender"; fail=1; }
import socket, sys
peer, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(count):
    s.sendto(b"x" * size, (peer, 9))
PY
wait "$wpid"
rc=$?
[ $rc = 0 ] || { echo "FAIL: watch exited $rc"; cat "$tmp/w.err"; fail=1; }

python3 - "$tmp/w.json" "$va" "$count" "$size" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
va, count, size = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ports = [p for p in d["ports"] if p["netdev"] == va]
if len(ports) != 1 or ports[0]["nic"] != va or ports[0]["port"] != 1:
    sys.exit("FAIL: --netdev %s not reported as nic %s port 1: %r" % (va, va, d["ports"]))
p = ports[0]
ns = p["netdev_stats"]
if not ns or "tx_bytes" not in ns or "tx_packets" not in ns:
    sys.exit("FAIL: no netdev statistics: %r" % (ns,))
# each datagram: the payload + 8 UDP + 20 IPv4 + 14 Ethernet bytes
wire = count * (size + 8 + 20 + 14)
tx, pk = ns["tx_bytes"]["delta"], ns["tx_packets"]["delta"]
# at least what was sent; not more than that and a little IPv6 chatter
if not (wire <= tx <= wire + 4096):
    sys.exit("FAIL: tx_bytes grew by %s, sent %d on the wire" % (tx, wire))
if not (count <= pk <= count + 20):
    sys.exit("FAIL: tx_packets grew by %s, sent %d" % (pk, count))
if ns["tx_bytes"]["per_s"] <= 0 or d["samples"] < 3 or not 2.5 < d["duration_s"] < 10:
    sys.exit("FAIL: rate / samples / duration: %r" % (d,))
es = p["ethtool_stats"]
if not es or "peer_ifindex" not in es or es["peer_ifindex"]["delta"] != 0:
    sys.exit("FAIL: veth ethtool statistics not sampled: %r" % (es,))
if p["carrier_changes"] is None or p["carrier_changes"]["delta"] != 0:
    sys.exit("FAIL: carrier_changes: %r" % (p["carrier_changes"],))
if d["findings"] or d["verdict"] != "pass":
    sys.exit("FAIL: findings on a clean veth: %r" % (d["findings"],))
print("ok: tx_bytes +%d for %d bytes on the wire, tx_packets +%d" % (tx, wire, pk))
PY

# the receiving side saw them too, in its own namespace
n2 "$bin" watch --netdev "$vb" --interval 0.2 --duration 0.4 >"$tmp/t.txt" 2>&1 ||
	{ echo "FAIL: text watch of $vb"; cat "$tmp/t.txt"; fail=1; }
grep -q "^  $vb port 1 ($vb)" "$tmp/t.txt" || { echo "FAIL: text lacks $vb"; cat "$tmp/t.txt"; fail=1; }

# link modes and FEC against ethtool: the veth, then this machine's own
# NICs (those with a device: a virtio NIC here; not the virtual netdevs
# other tests may be creating and deleting meanwhile)
compare_link() {	# IFNAME [command prefix]
	local ifn=$1
	shift
	"$@" "$bin" --json ethtool-stats --link "$ifn" >"$tmp/l.json" ||
		{ echo "FAIL: --link $ifn"; return 1; }
	"$@" ethtool "$ifn" >"$tmp/e.txt" 2>&1
	"$@" ethtool -I --show-fec "$ifn" >"$tmp/f.txt" 2>&1
	python3 - "$ifn" "$tmp/l.json" "$tmp/e.txt" "$tmp/f.txt" "$?" <<'PY'
import json, re, sys
ifn, l = sys.argv[1], json.load(open(sys.argv[2]))
e = open(sys.argv[3]).read()
f, fecrc = open(sys.argv[4]).read(), int(sys.argv[5])
def fail(msg):
    sys.exit("FAIL: %s: %s" % (ifn, msg))
if "Speed:" not in e:
    # ethtool got no link settings either ("No data available")
    if l["linkmodes"] != "not supported":
        fail("linkmodes %r, ethtool: %s" % (l["linkmodes"], e.strip()))
else:
    speed = re.search(r"Speed: (\d+)Mb/s", e)
    want = int(speed.group(1)) if speed else None
    if l["linkmodes"] != "supported" or l["speed_mbps"] != want:
        fail("speed %r, ethtool says %r" % (l["speed_mbps"], want))
    duplex = re.search(r"Duplex: (\w+)", e).group(1).lower()
    if l["duplex"] != (duplex if duplex in ("full", "half") else None):
        fail("duplex %r, ethtool says %r" % (l["duplex"], duplex))
    an = re.search(r"Auto-negotiation: (\w+)", e).group(1)
    if l["autoneg"] != (an == "on"):
        fail("autoneg %r, ethtool says %r" % (l["autoneg"], an))
    sup = re.search(r"Supported link modes:(.*)", e)
    if sup and "Not reported" in sup.group(1) and any("base" in m for m in l["supported"]):
        fail("supported %r, ethtool reports none" % l["supported"])
if fecrc != 0 and "not supported" in f.lower():
    if l["fec"] != "not supported":
        fail("fec %r, ethtool --show-fec: %s" % (l["fec"], f.strip()))
elif fecrc == 0:
    active = re.search(r"Active FEC encoding: (\w+)", f)
    if not isinstance(l["fec"], dict) or (active and l["fec"]["active"] != active.group(1)):
        fail("fec %r, ethtool --show-fec: %s" % (l["fec"], f.strip()))
    # -I: the statistics, asked with ETHTOOL_FLAG_STATS as rdmadoctor asks
    # (read a moment apart: a counter may have moved, never gone down)
    stats = l["fec"].get("stats") or {}
    for key in ("corrected_blocks", "uncorrectable_blocks", "corrected_bits"):
        m = re.search(r"^\s*%s: (\d+)" % key, f, re.M)
        ours = (stats.get(key) or {}).get("total")
        if (m is None) != (ours is None) or (m and int(m.group(1)) < ours):
            fail("fec stats %s %r, ethtool -I --show-fec: %s" % (key, ours, f.strip()))
print("ok: %s link %s Mb/s fec %r as ethtool" % (ifn, l["speed_mbps"], l["fec"]))
PY
}
compare_link "$va" n1 || fail=1
for d in /sys/class/net/*; do
	ifn=${d##*/}
	[ -e "$d/device" ] || continue
	compare_link "$ifn" || fail=1
done

[ $fail = 0 ] && echo "PASS"
exit $fail
