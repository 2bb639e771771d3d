#!/bin/bash
# rdmadoctor fabric over Soft-RoCE with the verbs transport: boots the test
# VM (tests/vm: the host's root over 9p, so Open MPI and PMIx are the
# host's) and, inside it, runs `mpirun -np 3 rdmadoctor fabric` with every
# rank on rxe0 through 10.0.2.15; verbs is chosen by default (the host has
# an RDMA device).  Checked: one document, transport verbs, three nodes,
# the three planned rounds (one pair each: a node sits out each round),
# every pair measured both ways on rail 0, the plan against the rounds.
# The figures of an emulated NIC under TCG are not judged (--expect-gbps 0
# --tolerance 0.1 keep the verdict about the run, not the emulator; --guard 4:
# setting up QPs under TCG takes seconds, not milliseconds).
#
# usage: test_fabric_vm.sh RDMADOCTOR     (exit 77: the VM cannot start)
# (inside the VM: test_fabric_vm.sh --inside RDMADOCTOR)
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != --inside ]; then
	[ $# -eq 1 ] || { echo "usage: $0 RDMADOCTOR" >&2; exit 2; }
	VM_SMP=${VM_SMP:-2} exec "$here/../vm/vm-run.sh" --timeout 300 -- \
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
