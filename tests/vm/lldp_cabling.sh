#!/bin/bash
# Rails cabled right, live and replayed, on a real RDMA kernel (the test VM,
# tests/vm: the host's root over 9p, so lldpd and lldpcli are the host's).
#
# Inside the VM, four Soft-RoCE devices sit on four veth ports hr0..hr3 of
# the VM's own network namespace (the "node"); their peers are the ports of
# two "leaf switch" namespaces, each running its own lldpd with a private
# /run and the system name leaf-r0 or leaf-r1 (port IDs sent as interface
# names):
#
#   rxe_a on hr0 -> leaf-r0 Ethernet1      rxe_c on hr2 -> leaf-r1 Ethernet3
#   rxe_b on hr1 -> leaf-r1 Ethernet2      rxe_d on hr3 -> leaf-r0 Ethernet4
#
# The node's own lldpd listens at the default socket, as on a real machine,
# and rdmadoctor asks it with `lldpcli -f json show neighbors`.
#
# 1. inventory --json: every hr port's neighbour is the switch and port the
#    namespace wiring says, and agrees with lldpcli's own keyvalue output
#    (the peer tool's other rendering of the same data); rxe0 on eth0
#    (slirp, no LLDP) is "not checked" with the reason.
# 2. check --json with the site file's rail_switch = 0 leaf-r0, 1 leaf-r1:
#    rails rxe_a, rxe_b (cabled right): no rail.cabling finding; rails
#    rxe_c, rxe_d (the crossed pair): exactly one rail.cabling finding that
#    names both devices; the check's `rails` carry the neighbours.
# 3. snapshot of the crossed node, replayed on the host after the VM is
#    gone: the same neighbours and the same one finding.
# 4. lldpd stopped: the rails' cabling is not checked (counted in
#    `unchecked`), the verdict is not PASS.
#
# The part inside the VM (--inside) runs in the shared boot
# (shared_boot.sh, ctest fixture vm_shared); the test reads its result and
# replays the snapshot here.
# usage: lldp_cabling.sh RDMADOCTOR SHARED_DIR   (exit 77: the VM cannot start)
#        lldp_cabling.sh --inside RDMADOCTOR     (in the VM)
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != --inside ]; then
	[ $# -eq 2 ] || { echo "usage: $0 RDMADOCTOR SHARED_DIR" >&2; exit 2; }
	bin=$(realpath "$1")
	command -v lldpd >/dev/null || { echo "SKIP: lldpd is not installed (apt-get install lldpd)"; exit 77; }
	# 1, 2 and 4 ran inside, in the shared boot (shared_boot.sh, part lldp)
	"$here/shared_result.sh" "$2" lldp
	rc=$?
	[ $rc = 0 ] || exit $rc
	out=$2/lldp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# 3. the snapshot, replayed here on the host, without the VM
	tar -C "$tmp" -xf "$out/snap.tar" || { echo "FAIL: the VM's snapshot did not come out"; exit 1; }
	snap=$tmp/lldp-snap
	[ -f "$snap/.rdmadoctor/lldp/neighbors" ] ||
		{ echo "FAIL: the snapshot has no .rdmadoctor/lldp/neighbors"; ls -R "$snap/.rdmadoctor" | head; exit 1; }
	"$bin" --root "$snap" check --json >"$tmp/replay.json"
	python3 "$here/lldp_cabling_judge.py" crossed "$tmp/replay.json" || exit 1
	cmp -s <(python3 -c 'import json,sys; print(json.dumps([p.get("neighbor") for n in json.load(open(sys.argv[1]))["inventory"]["nics"] for p in n["ports"]]))' "$tmp/replay.json") \
		<(python3 -c 'import json,sys; print(json.dumps([p.get("neighbor") for n in json.load(open(sys.argv[1]))["inventory"]["nics"] for p in n["ports"]]))' "$out/crossed.json") ||
		{ echo "FAIL: the replay's neighbours differ from the live run's"; exit 1; }
	echo "ok: the snapshot replays the same neighbours and the same finding"
	exit 0
fi

bin=$2
fail() { echo "FAIL: $*"; exit 1; }
step() { echo "[$SECONDS s] $*"; }	# where a slow run spends its time
ns_lldpd() { # NAMESPACE SYSTEM-NAME: a switch's lldpd with a private /run,
	# configured at its start (-O), before it sends its first frame
	printf 'configure system hostname %s\nconfigure lldp portidsubtype ifname\nconfigure lldp tx-interval 1\n' \
		"$2" >"/tmp/lldpd-$1.conf"
	ip netns exec "$1" unshare -m sh -c "
		mount -t tmpfs tmpfs /run && mkdir -p /run/lldpd &&
		exec lldpd -d -u /run/lldpd.socket -I 'Ethernet*' -O /tmp/lldpd-$1.conf" >"/tmp/lldpd-$1.log" 2>&1 &
}

for s in 0 1; do ip netns add "leaf$s" || fail "ip netns add leaf$s"; done
# hrN -> (namespace, port) as the table above
wire=("leaf0 Ethernet1" "leaf1 Ethernet2" "leaf1 Ethernet3" "leaf0 Ethernet4")
devs=(rxe_a rxe_b rxe_c rxe_d)
for i in 0 1 2 3; do
	set -- ${wire[$i]}
	ip link add "hr$i" type veth peer name "$2" netns "$1" || fail "veth hr$i"
	ip link set "hr$i" up && ip -n "$1" link set "$2" up || fail "up hr$i"
	rdma link add "${devs[$i]}" type rxe netdev "hr$i" || fail "rdma link add ${devs[$i]}"
done
step "wired: 4 veths, 4 rxe devices"
ns_lldpd leaf0 leaf-r0
ns_lldpd leaf1 leaf-r1
mkdir -p /run/lldpd
lldpd -I 'hr*' || fail "lldpd on the node"
# every hr port has heard its switch (bounded: 20 s)
for t in $(seq 1 40); do
	n=$(lldpcli -f keyvalue show neighbors 2>/dev/null | grep -c '^lldp\.hr[0-3]\.chassis\.name=leaf-r')
	[ "$n" = 4 ] && break
	sleep 0.5
done
[ "$n" = 4 ] || { lldpcli show neighbors; fail "lldpd heard $n of 4 neighbours in 20 s"; }
lldpcli -f keyvalue show neighbors >"$VM_OUT/lldpcli.kv"
step "lldpd heard its 4 neighbours"

# 1. the inventory against lldpcli's keyvalue output
"$bin" inventory --json >"$VM_OUT/inv.json" || fail "inventory exit $?"
step "inventory"
python3 - "$VM_OUT/inv.json" "$VM_OUT/lldpcli.kv" <<'PY' || exit 1
import json, sys
inv = json.load(open(sys.argv[1]))
kv = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[2]) if "=" in l)
want = {"hr0": ("leaf-r0", "Ethernet1"), "hr1": ("leaf-r1", "Ethernet2"),
        "hr2": ("leaf-r1", "Ethernet3"), "hr3": ("leaf-r0", "Ethernet4")}
seen = 0
for nic in inv["nics"]:
    for p in nic["ports"]:
        nb, dev = p.get("neighbor"), p.get("netdev")
        if dev in want:
            if not nb:
                sys.exit(f"FAIL: {nic['name']} on {dev}: no neighbour ({p.get('neighbor_unknown')})")
            got = (nb["system"], nb["port"])
            if got != want[dev]:
                sys.exit(f"FAIL: {dev}: neighbour {got}, wired to {want[dev]}")
            oracle = (kv[f"lldp.{dev}.chassis.name"], kv[f"lldp.{dev}.port.ifname"])
            if got != oracle:
                sys.exit(f"FAIL: {dev}: {got}, lldpcli keyvalue says {oracle}")
            if nb["chassis_id"] != kv[f"lldp.{dev}.chassis.mac"] or nb["source"] != "lldpd":
                sys.exit(f"FAIL: {dev}: chassis {nb['chassis_id']} source {nb['source']}")
            seen += 1
        elif dev == "eth0":
            if nb is not None or not p.get("neighbor_unknown"):
                sys.exit(f"FAIL: eth0 (no LLDP on slirp): neighbour {nb}, reason {p.get('neighbor_unknown')!r}")
if seen != 4:
    sys.exit(f"FAIL: {seen} of the 4 veth ports in the inventory")
print("ok: inventory neighbours agree with the wiring and with lldpcli -f keyvalue")
PY

site() { # RAIL-DEVICES STORAGE-DEVICES
	mkdir -p /etc/rdmadoctor
	printf '[site]\nrail = %s\nstorage = %s\nrail_switch = 0 leaf-r0\nrail_switch = 1 leaf-r1\n' "$1" "$2" \
		>/etc/rdmadoctor/rdmadoctor.conf
}
# 2. cabled right, then the crossed pair
site "rxe_a rxe_b" "rxe0 rxe_c rxe_d"
"$bin" check --json >"$VM_OUT/right.json"
step "check, cabled right"
python3 "$(dirname "$0")/lldp_cabling_judge.py" right "$VM_OUT/right.json" || exit 1
site "rxe_c rxe_d" "rxe0 rxe_a rxe_b"
"$bin" check --json >"$VM_OUT/crossed.json"
step "check, crossed"
python3 "$(dirname "$0")/lldp_cabling_judge.py" crossed "$VM_OUT/crossed.json" || exit 1
# the snapshot is written in the VM's own memory and carried out as one
# file: its 5,000 files created one by one on the 9p share took 220 s
# under TCG
"$bin" snapshot /tmp/lldp-snap >/dev/null || fail "snapshot exit $?"
tar -C /tmp -cf "$VM_OUT/snap.tar" lldp-snap || fail "tar of the snapshot"
step "snapshot"

# 4. no lldpd: not checked, never a pass
pkill -x lldpd
for t in $(seq 1 20); do pgrep -x lldpd >/dev/null || break; sleep 0.2; done
site "rxe_a rxe_b" "rxe0 rxe_c rxe_d"
"$bin" check --json >"$VM_OUT/nolldpd.json"
step "check, no lldpd"
python3 "$(dirname "$0")/lldp_cabling_judge.py" unknown "$VM_OUT/nolldpd.json" || exit 1
exit 0
