#!/bin/bash
# rdmadoctor fabric --load incast: the wall time of its rounds against each
# round's test window (--warmup + --duration) at 8 and 16 ranks under
# mpirun, and, side by side, iperf3 running the same K-into-1 incast (K
# iperf3 servers on K ports of the receiver, one client each from the
# other ranks' addresses, at once, for the same duration): the ratio of
# our per-receiver goodput to iperf3's aggregate.  The ranks run in one
# network namespace made here (fabn<pid>), each on its own address on its
# loopback; tc htb shapes everything into each address to RATE, one FIFO
# (bfifo) per receiver as a switch port without fair queueing has, so the
# shaper, not this machine's CPUs, sets the goodput both tools should see
# (and the senders' shares are as unequal for iperf3 as for us: both
# fairness figures are printed).  Every round is its fixed slot (--warmup +
# --duration + --guard, 1 s here for the tcp drain of K flows' buffers
# through one shaped port), so wall/window is about (window + guard) /
# window plus the launcher's start.  Printed, never asserted; needs root,
# ip, tc, mpirun and python3 (iperf3 for the peer: Debian's iperf3; without
# it only our side is printed).  About 2 minutes.
#   bench/bench_fabric_load.sh RDMADOCTOR    (RANKS="8 16", RATE_MBIT=1000; KEEP=1 keeps the files)
set -u
bin=$(realpath "${1:?usage: $0 path/to/rdmadoctor}")
here=$(dirname "$(realpath "$0")")
rank=$here/../tests/fabric/rank.sh
# shellcheck source-path=SCRIPTDIR source=../tests/fabric/lib.sh
. "$here/../tests/fabric/lib.sh"

RATE_MBIT=${RATE_MBIT:-1000}	# into each receiver, its senders together
DURATION=2	# whole seconds: iperf3 -t takes no fraction
WARMUP=0.25
GUARD=1	# the tcp drain of K flows' buffers through one shaped port

[ "$(id -u)" = 0 ] || { echo "bench_fabric_load: needs root (a network namespace)"; exit 0; }
for t in ip tc mpirun python3; do
	command -v "$t" >/dev/null || { echo "bench_fabric_load: needs $t"; exit 0; }
done
ns=fabn$$
tmp=$(mktemp -d) || exit 1
cleanup() {
	fab_ranks_kill "$tmp"
	local f
	for f in "$tmp"/*/iperf.pid.*; do
		[ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	ip netns del "$ns" 2>/dev/null
	fab_keep_or_remove "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
n() { ip netns exec "$ns" "$@"; }
addr() { echo "10.213.0.$((10 + $1))"; }
fab_netns "$ns" || { echo "bench_fabric_load: cannot make a network namespace"; exit 1; }
n tc qdisc add dev lo root handle 1: htb default 1
n tc class add dev lo parent 1: classid 1:1 htb rate 20gbit quantum 65536
for ((i = 0; i < 16; i++)); do
	n ip addr add "$(addr $i)/32" dev lo
	n tc class add dev lo parent 1: classid "1:$((10 + i))" htb rate "${RATE_MBIT}mbit" quantum 65536
	n tc qdisc add dev lo parent "1:$((10 + i))" bfifo limit 1048576
	n tc filter add dev lo parent 1: protocol ip prio 3 u32 \
		match ip dst "$(addr $i)/32" flowid "1:$((10 + i))"
done

# stamp FILE STOP: each line of FILE as it appears, after the epoch time it
# was seen, until STOP exists
stamp() {
	python3 - "$1" "$2" <<'PY'
import os, sys, time
path, stop = sys.argv[1], sys.argv[2]
seen, buf = 0, b""
while True:
    done = os.path.exists(stop)
    try:
        with open(path, "rb") as f:
            f.seek(seen)
            chunk = f.read()
    except FileNotFoundError:
        chunk = b""
    seen += len(chunk)
    buf += chunk
    now = time.time()
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        print(f"{now:.3f} {line.decode(errors='replace')}", flush=True)
    if done:
        break
    time.sleep(0.02)
PY
}

# at EPOCH-SECONDS CMD...: CMD, started at that time (the K clients of the
# peer start together, not one process start after another)
at() {
	python3 -c 'import os, sys, time
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
os.execvp(sys.argv[2], sys.argv[2:])' "$@"
}

# iperf3 K-into-1: receiver rank 0, senders ranks 1..K, all at once.  Each
# client omits its first second (-O 1, as our --warmup: the socket buffers
# filling) and counts what it sent in the DURATION after: what the
# receiver's port let through.  (The servers' figure, sum_received, also
# counts the K flows' buffers drained after the end.)
peer() {
	local k=$1 d=$2 i start
	mkdir -p "$d"
	for ((i = 1; i <= k; i++)); do
		n iperf3 -s -1 -B "$(addr 0)" -p $((5200 + i)) >/dev/null 2>&1 &
		echo $! >"$d/iperf.pid.s$i"
	done
	start=$(python3 -c 'import time; print(time.time() + 1.5)')	# servers up, clients ready
	for ((i = 1; i <= k; i++)); do
		n bash -c "$(declare -f at); at \"\$@\"" at "$start" iperf3 -c "$(addr 0)" \
			-B "$(addr "$i")" -p $((5200 + i)) -O 1 -t "$DURATION" -J \
			>"$d/iperf.$i.json" 2>&1 &
		echo $! >"$d/iperf.pid.c$i"
	done
	for ((i = 1; i <= k; i++)); do
		wait "$(cat "$d/iperf.pid.c$i")"
	done
	for ((i = 1; i <= k; i++)); do
		wait "$(cat "$d/iperf.pid.s$i")" 2>/dev/null
	done
}

have_iperf=1
command -v iperf3 >/dev/null || have_iperf=0
[ $have_iperf = 1 ] || echo "bench_fabric_load: no iperf3 (Debian iperf3): our side only"
for ranks in ${RANKS:-8 16}; do
	d=$tmp/r$ranks
	mkdir -p "$d"
	stamp "$d/err.0" "$d/stop" >"$d/stamped" &
	stamper=$!
	t0=$(date +%s.%N)
	n timeout 300 mpirun --allow-run-as-root --oversubscribe --enable-recovery -np "$ranks" \
		"$rank" "$d" "$bin" --json fabric --transport tcp --rails lo --load incast \
		--expect-gbps "$(python3 -c "print($RATE_MBIT / 1000)")" --duration "$DURATION" \
		--warmup "$WARMUP" --guard "$GUARD" >"$d/mpirun.out" 2>&1
	t1=$(date +%s.%N)
	touch "$d/stop"
	wait "$stamper"
	[ $have_iperf = 1 ] && peer $((ranks - 1)) "$d/peer"
	python3 - "$d" "$ranks" "$t0" "$t1" "$have_iperf" <<'PY'
import glob, json, re, statistics, sys
d, ranks, t0, t1, have_iperf = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
    float(sys.argv[4]), sys.argv[5] == "1"
try:
    doc = json.load(open(f"{d}/out.0"))
except (OSError, ValueError) as e:
    print(f"fabric --load incast {ranks} ranks: no report ({e}); "
          f"{open(f'{d}/mpirun.out').read()[-300:]!r}")
    sys.exit(0)
p = doc["params"]
window = p["duration_s"] + p["warmup_s"]
rounds = len(doc["rounds"])
per_round_json = doc["wall_s"] / rounds
# rank 0's "round k/N done" lines, stamped as they appeared: their spacing
done = [float(l.split()[0]) for l in open(f"{d}/stamped") if re.search(r"round \d+/\d+ done", l)]
per_round_lines = (done[-1] - done[0]) / (len(done) - 1) if len(done) > 1 else float("nan")
rows = [v for v in doc["verdicts"] if v["subject"] == "receiver"]
good = [v["goodput_gbps"] for v in rows if v["goodput_gbps"] is not None]
ours = statistics.mean(good) if good else float("nan")
# fairness: the lowest share over the median share, the mean over receivers
fair = [v["min_share_gbps"] / v["median_share_gbps"] for v in rows
        if v["min_share_gbps"] is not None and v["median_share_gbps"]]
ours_fair = statistics.mean(fair) if fair else float("nan")
errors = [q["error"] for q in doc["pairs"] if q.get("error")]
failed = len(errors)
print(f"fabric --load incast {ranks} ranks (fan-in {ranks - 1}): {rounds} rounds, "
      f"window {window:.2f} s (round slot {p['round_s']:.2f} s), "
      f"wall/round {per_round_json:.2f} s by wall_s (x{per_round_json / window:.2f} the window), "
      f"{per_round_lines:.2f} s by progress lines (x{per_round_lines / window:.2f}), "
      f"mpirun wall {t1 - t0:.1f} s (x{(t1 - t0) / (rounds * window):.2f} the windows); "
      f"goodput per receiver {ours:.3f} Gb/s (mean of {len(good)}), "
      f"min/median share {ours_fair:.2f}, "
      f"{failed} flows failed{f' (first: {errors[0]})' if errors else ''}, "
      f"verdict {doc['verdict']}: {doc['reason']}")
if have_iperf:
    shares, bad = [], 0
    for f in sorted(glob.glob(f"{d}/peer/iperf.*.json")):
        try:
            shares.append(json.load(open(f))["end"]["sum_sent"]["bits_per_second"] / 1e9)
        except (ValueError, KeyError, TypeError):
            bad += 1
    agg = sum(shares)
    peer_fair = min(shares) / statistics.median(shares) if shares and statistics.median(shares) \
        else float("nan")
    print(f"  iperf3 {ranks - 1} clients into 1 for {p['duration_s']:.0f} s (after 1 s omitted): aggregate "
          f"{agg:.3f} Gb/s{f' ({bad} clients failed)' if bad else ''}, min/median share "
          f"{peer_fair:.2f}; ours/iperf3 goodput x{ours / agg if agg else float('nan'):.2f}")
PY
done
