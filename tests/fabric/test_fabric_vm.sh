#!/bin/bash
# rdmadoctor fabric over Soft-RoCE with the verbs transport, in one boot of
# the test VM (tests/vm: the host's root over 9p, so Open MPI and PMIx are
# the host's).  Two parts:
#
# 1. Pairs: `mpirun -np 3 rdmadoctor fabric` with every rank on rxe0
#    through 10.0.2.15; verbs is chosen by default (the host has an RDMA
#    device).  Checked: one document, transport verbs, three nodes, the
#    three planned rounds (one pair each: a node sits out each round),
#    every pair measured both ways on rail 0, the plan against the rounds.
#    The figures of an emulated NIC under TCG are not judged (--expect-gbps 0
#    --tolerance 0.1 keep the verdict about the run, not the emulator;
#    --guard 4: setting up QPs under TCG takes seconds, not milliseconds).
#
# 2. Load: `mpirun -np 3 rdmadoctor fabric --load incast`, each rank on an
#    rxe device of its own (rank r: rxe<r+1> on macvlan lv<r+1>, bridge mode
#    on eth0, 10.9.0.<r+1>), so the packets between ranks cross a netdev
#    and its qdiscs: with every rank on rxe0, rxe sees its own MAC as the
#    destination and loops the packets back inside the driver, past any
#    qdisc.  Bound to its macvlan (rxe routes with the GID's netdev as the
#    output interface) a packet to another rank's address leaves through
#    the sender's macvlan instead of lo, and the macvlan bridge hands it to
#    the receiver's; accept_local lets the receiver take a packet from one
#    of its own host's addresses, and static neighbours spare ARP.
#    a. Without loss: three receiver rows, each of which ran, none lossy;
#       no drop, no sequence error (hw:out_of_seq_request on a receiver,
#       hw:rcvd_seq_err on a sender: only a missing packet moves them) and
#       no retry (hw:completer_retry_err, hw:duplicate_request) grew on any
#       port in any round.  --qp-timeout 20 (4.3 s, NCCL_IB_TIMEOUT's
#       default, as a job runs): rxe under TCG now and then acknowledges
#       over a second late with no packet lost (seen up to timeout 18), and
#       a retry after the ACK timeout is a loss to the judge, as it should
#       be on real hardware.
#    b. With `tc netem loss 3%` on what reaches fab1's netdev (lv2's
#       ingress, redirected through an ifb whose root qdisc is netem; netem
#       acts on egress only): netem dropped packets, fab1's receiver row is
#       lossy, and its evidence names fab1's hw:out_of_seq_request and a
#       sender's hw:rcvd_seq_err, kind "retrans", delta > 0.
#       This case runs with perftest's --qp-timeout 14 (67 ms), so that a
#       lost last packet is sent again within the round.
#    --size 4096: with 64 KiB messages the clean run sometimes shows a few
#    sequence errors without loss (packets reordered between the two vCPUs'
#    backlogs); --guard leaves room for QP setup under TCG (3 s) and, with
#    loss, RC recovery (6 s).
#
# usage: test_fabric_vm.sh RDMADOCTOR     (exit 77: the VM cannot start)
# (inside the VM: test_fabric_vm.sh --inside RDMADOCTOR; a load rank:
#  test_fabric_vm.sh --rank DIR RDMADOCTOR ARGS..., started by mpirun)
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" = --rank ]; then
	# one load rank: its own address and rxe device, then rank.sh
	r=${OMPI_COMM_WORLD_RANK:?not started by mpirun}
	d=$2 bin=$3
	shift 3
	FAB_ADDR=10.9.0.$((r + 1)) exec "$here/rank.sh" "$d" "$bin" "$@" --rails "rxe$((r + 1))"
fi
if [ "${1:-}" != --inside ]; then
	[ $# -eq 1 ] || { echo "usage: $0 RDMADOCTOR" >&2; exit 2; }
	VM_SMP=${VM_SMP:-2} exec "$here/../vm/vm-run.sh" --timeout 420 -- \
		"$here/test_fabric_vm.sh" --inside "$(realpath "$1")"
fi
bin=$2
ulimit -l unlimited
# the VM has no host name, and Open MPI needs one (this is the VM's own)
[ "$(hostname)" = "(none)" ] && hostname rdfabric-vm
d=$(mktemp -d /tmp/rd-fabric-vm.XXXXXX)
export FAB_ADDR=${VM_IP:-10.0.2.15}
timeout 200 mpirun --allow-run-as-root --oversubscribe --enable-recovery -np 3 \
	"$here/rank.sh" "$d" "$bin" --json fabric --duration 1 --warmup 0.5 --guard 4 --expect-gbps 0 \
	--tolerance 0.1 >"$d/mpirun.out" 2>&1
rc=$?
[ $rc = 0 ] || { echo "FAIL: mpirun exit $rc"; tail -n 20 "$d/mpirun.out" "$d"/err.*; exit 1; }
python3 - "$d/out.0" "$d/err.0" <<'PY' || { tail -n 20 "$d"/err.*; exit 1; }
import json, re, sys
doc = json.load(open(sys.argv[1]))
def fail(m):
    print("FAIL:", m)
    sys.exit(1)
if doc["transport"] != "verbs":
    fail(f"transport {doc['transport']}")
if len(doc["nodes"]) != 3 or any(n["state"] != "ok" for n in doc["nodes"]):
    fail(f"nodes {doc['nodes']}")
main = [r for r in doc["rounds"] if not r["retest"]]
if len(main) != 3 or any(len(r["pairs"]) != 1 for r in main):
    fail(f"rounds {main}")
plan = {}
for line in open(sys.argv[2]):
    m = re.match(r"fabric plan: round (\d+): (.*)$", line)
    if m:
        plan[int(m.group(1))] = m.group(2).split()
if plan != {r["round"]: [f"{a}-{b}" for a, b in r["pairs"]] for r in main}:
    fail(f"plan {plan} against {main}")
first = [p for p in doc["pairs"] if not p["retest"]]
if len(first) != 3:
    fail(f"{len(first)} pair results in the first pass")
for p in first:
    g = p["gbps"]
    if p["verdict"] not in ("pass", "slow") or not (g["a_to_b"] or 0) > 0 or not (g["b_to_a"] or 0) > 0:
        fail(f"pair not measured both ways: {p}")
print(f"ok: fabric over rxe with verbs: {[(p['a'], p['b'], p['gbps']) for p in first]}, "
      f"verdict {doc['verdict']}")
PY

# --- 2. load: a rank per rxe device, on macvlans -------------------------------
step=load-setup
lfail() { echo "FAIL ($step): $*"; exit 1; }
t0=$SECONDS
modprobe -a macvlan sch_netem ifb act_mirred cls_matchall sch_ingress ||
	lfail "modprobe (the host's /lib/modules must be the VM kernel's)"
# the two vCPUs' backlogs must not drop what the macvlan bridge hands over
echo 100000 >/proc/sys/net/core/netdev_max_backlog
net=${VM_NETDEV:-eth0}
for i in 1 2 3; do
	ip link add "lv$i" link "$net" type macvlan mode bridge || lfail "macvlan lv$i"
	echo 0 >"/proc/sys/net/ipv6/conf/lv$i/autoconf"
	{ ip addr add "10.9.0.$i/24" dev "lv$i" && ip link set "lv$i" up; } || lfail "lv$i up"
done
for f in /proc/sys/net/ipv4/conf/*/accept_local; do echo 1 >"$f"; done
for f in /proc/sys/net/ipv4/conf/*/rp_filter; do echo 0 >"$f"; done
for i in 1 2 3; do
	for j in 1 2 3; do
		[ "$i" = "$j" ] || ip neigh replace "10.9.0.$j" lladdr "$(cat "/sys/class/net/lv$j/address")" \
			dev "lv$i" nud permanent || lfail "neighbour $j on lv$i"
	done
done
for i in 1 2 3; do
	rdma link add "rxe$i" type rxe netdev "lv$i" || lfail "rdma link add rxe$i"
done
for i in 1 2 3; do
	ib=/sys/class/infiniband/rxe$i/ports/1
	gid=$(printf '0000:0000:0000:0000:0000:ffff:0a09:%04x' "$i")
	for _ in $(seq 100); do
		grep -q ACTIVE "$ib/state" && grep -qx "$gid" "$ib"/gids/* 2>/dev/null && break
		sleep 0.1
	done
	{ grep -q ACTIVE "$ib/state" && grep -qx "$gid" "$ib"/gids/*; } || lfail "rxe$i not ACTIVE with GID $gid"
done

# load CASE QP_TIMEOUT GUARD: one incast run; its files in $d/CASE
load() {
	local c=$1 qpt=$2 guard=$3 t=$SECONDS
	mkdir -p "$d/$c"
	timeout 150 mpirun --allow-run-as-root --oversubscribe --enable-recovery -np 3 \
		"$here/test_fabric_vm.sh" --rank "$d/$c" "$bin" --json fabric --load incast --size 4096 \
		--duration 1 --warmup 0.5 --guard "$guard" --expect-gbps 0 --qp-timeout "$qpt" \
		>"$d/$c/mpirun.out" 2>&1 ||
		{ tail -n 20 "$d/$c/mpirun.out" "$d/$c"/err.*; lfail "mpirun exit $?"; }
	for r in 0 1 2; do
		# 0: every receiver lossless, 1: any other verdict; both are answers
		case "$(cat "$d/$c/rc.$r" 2>/dev/null)" in
		0 | 1) ;;
		*) tail -n 20 "$d/$c"/err.*; lfail "rank $r exit $(cat "$d/$c/rc.$r" 2>/dev/null)" ;;
		esac
	done
	echo "$c: incast run $((SECONDS - t)) s"
}

# judge CASE: the document of that run against what the case must show
judge() {
	python3 - "$1" "$d/$1/out.0" <<'PY' || { tail -n 20 "$d/$1"/err.*; exit 1; }
import json, sys
case, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
def fail(m):
    print(f"FAIL ({case}):", m)
    sys.exit(1)
SEQ = {"hw:out_of_seq_request", "hw:rcvd_seq_err"}     # moved only by a missing packet
TIMEOUT = {"hw:completer_retry_err", "hw:duplicate_request"}
if (doc.get("load") or {}).get("mode") != "incast":
    fail(f"load {doc.get('load')}")
rows = [v for v in doc["verdicts"] if v["subject"] == "receiver"]
if sorted(v["receiver"] for v in rows) != ["fab0", "fab1", "fab2"]:
    fail(f"receiver rows {[(v['receiver'], v['verdict']) for v in rows]}")
for v in rows:
    if v["verdict"] in ("not-run", "not-checked"):
        fail(f"{v['receiver']}: {v['verdict']}: {v['reason']}")
grew = {}   # counter -> [(round, node, delta)]
for r in doc["rounds"]:
    for p in r.get("counters") or []:
        for name, delta in (p.get("counters") or {}).items():
            if delta:
                grew.setdefault(name, []).append((r["round"], p["node"], delta))
def show(names):
    return {n: grew[n] for n in sorted(names) if n in grew}
if case == "clean":
    drops = [n for n in grew if n.startswith("net:") or n in ("hw:send_err",)]
    if drops or (SEQ | TIMEOUT) & grew.keys():
        fail(f"counters of a lost packet grew without loss: {show(drops + sorted(SEQ | TIMEOUT))}")
    for v in rows:
        if v["verdict"] == "lossy":
            fail(f"{v['receiver']} lossy without loss: {v['reason']}")
    print(f"ok: clean incast: {[(v['receiver'], v['verdict']) for v in rows]}")
else:
    row = next(v for v in rows if v["receiver"] == "fab1")
    if row["verdict"] != "lossy":
        fail(f"fab1 under netem loss: {row['verdict']}: {row['reason']}")
    ev = [e for e in row["evidence"] if e["kind"] == "retrans" and e["delta"] > 0]
    own = [e for e in ev if e["node"] == "fab1" and e["counter"] == "hw:out_of_seq_request"]
    naks = [e for e in ev if e["node"] != "fab1" and e["counter"] == "hw:rcvd_seq_err"]
    if not own or not naks:
        fail(f"fab1's evidence lacks its out_of_seq_request or a sender's rcvd_seq_err: {row['evidence']}")
    if row["totals"]["retransmits"] <= 0:
        fail(f"fab1's totals {row['totals']}")
    print(f"ok: netem loss into fab1: lossy, evidence "
          f"{[(e['node'], e['counter'], e['delta']) for e in ev]}")
PY
}

step=clean
load clean 20 3
judge clean

step=lossy
# netem on fab1's netdev: what arrives on lv2 goes through ifbl's netem
{ ip link add ifbl type ifb && ip link set ifbl up &&
	tc qdisc add dev lv2 handle ffff: ingress &&
	tc filter add dev lv2 parent ffff: matchall action mirred egress redirect dev ifbl &&
	tc qdisc add dev ifbl root netem loss 3%; } || lfail "netem on lv2's ingress"
load lossy 14 6
dropped=$(tc -s qdisc show dev ifbl | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
[ "${dropped:-0}" -gt 0 ] || lfail "netem dropped nothing: $(tc -s qdisc show dev ifbl)"
echo "lossy: netem dropped $dropped packets on their way into fab1"
judge lossy
echo "ok: load part in $((SECONDS - t0)) s"
