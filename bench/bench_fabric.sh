#!/bin/bash
# rdmadoctor fabric: the wall time of a run under mpirun against the sum of
# its rounds' test windows (warm-up and measured seconds) at 8 and 16 ranks
# (aim: overhead under 30%), and the time to analyse a 1,024-node report
# (aim: under 1 s).  The ranks run in one network namespace made here
# (fabb<pid>), each on its own address on its loopback, each sending at a
# fixed rate (tc htb) so that the test, not this machine's CPUs, sets the
# pace.  Printed, never asserted; needs root, ip, tc and mpirun.
#   bench/bench_fabric.sh RDMADOCTOR BENCH_FABRIC_JUDGE
set -u
bin=$(realpath "${1:?usage: $0 path/to/rdmadoctor path/to/bench_fabric_judge}")
judge=$(realpath "${2:?usage: $0 path/to/rdmadoctor path/to/bench_fabric_judge}")
here=$(dirname "$(realpath "$0")")
rank=$here/../tests/fabric/rank.sh
# shellcheck source-path=SCRIPTDIR source=../tests/fabric/lib.sh
. "$here/../tests/fabric/lib.sh"

"$judge" 1024 || echo "bench_fabric: the judgement bench failed"

[ "$(id -u)" = 0 ] || { echo "bench_fabric: needs root (a network namespace)"; exit 0; }
for t in ip tc mpirun python3; do
	command -v "$t" >/dev/null || { echo "bench_fabric: needs $t"; exit 0; }
done
ns=fabb$$
tmp=$(mktemp -d) || exit 1
cleanup() {
	fab_ranks_kill "$tmp"
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
n() { ip netns exec "$ns" "$@"; }
fab_netns "$ns" || { echo "bench_fabric: cannot make a network namespace"; exit 1; }
n tc qdisc add dev lo root handle 1: htb default 1
n tc class add dev lo parent 1: classid 1:1 htb rate 20gbit quantum 65536
for ((i = 0; i < 16; i++)); do
	n ip addr add "10.213.0.$((10 + i))/32" dev lo
	n tc class add dev lo parent 1: classid "1:$((10 + i))" htb rate 500mbit quantum 65536
	n tc filter add dev lo parent 1: protocol ip prio 3 u32 \
		match ip src "10.213.0.$((10 + i))/32" flowid "1:$((10 + i))"
done

for ranks in 8 16; do
	d=$tmp/r$ranks
	mkdir -p "$d"
	t0=$(date +%s.%N)
	n timeout 300 mpirun --allow-run-as-root --oversubscribe --enable-recovery -np "$ranks" \
		"$rank" "$d" "$bin" --json fabric --transport tcp --duration 2 --retest 0 \
		>"$d/mpirun.out" 2>&1
	t1=$(date +%s.%N)
	python3 - "$d/out.0" "$ranks" "$t0" "$t1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ranks, t0, t1 = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
p = doc["params"]
window = p["duration_s"] + p["warmup_s"]   # the test's own length
rounds = len(doc["rounds"])
sum_windows = rounds * window
print(f"fabric {ranks} ranks: {rounds} rounds, windows {sum_windows:.1f} s, "
      f"rank 0 wall {doc['wall_s']:.1f} s (overhead {doc['wall_s'] / sum_windows - 1:+.0%}), "
      f"mpirun wall {t1 - t0:.1f} s (overhead {(t1 - t0) / sum_windows - 1:+.0%}; aim < +30%), "
      f"verdict {doc['verdict']}")
PY
done
