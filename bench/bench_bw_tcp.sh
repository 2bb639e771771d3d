#!/bin/bash
# rdmadoctor bw --transport tcp against iperf3 between two network
# namespaces joined by veth (created here, removed on exit): one stream and
# four, the same duration, the ratio printed (aim: >= 0.95).  Printed,
# never asserted; needs root, ip netns and iperf3.  Bounded: every run is
# under `timeout`.
# Each pair runs BENCH_ROUNDS times (default 3), alternating, and the
# median of each side is compared: a shared machine is noisy.
#   bench/bench_bw_tcp.sh BINARY [SECONDS]
set -u
bin=$(realpath "${1:?usage: $0 path/to/rdmadoctor [seconds]}")
secs=${2:-${BENCH_SECONDS:-5}}
rounds=${BENCH_ROUNDS:-3}
[ "$(id -u)" = 0 ] || { echo "bench_bw_tcp: needs root (network namespaces)"; exit 0; }
command -v iperf3 >/dev/null || { echo "bench_bw_tcp: needs iperf3"; exit 0; }

ns1=rdbwb1_$$ ns2=rdbwb2_$$ va=rdbba$$ vb=rdbbb$$
tmp=$(mktemp -d) || exit 1
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	ip netns del "$ns1" 2>/dev/null
	ip netns del "$ns2" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$ns1" && ip netns add "$ns2" &&
	ip link add "$va" netns "$ns1" type veth peer name "$vb" netns "$ns2" ||
	{ echo "bench_bw_tcp: cannot create namespaces"; exit 1; }
n1() { ip netns exec "$ns1" "$@"; }
n2() { ip netns exec "$ns2" "$@"; }
net=10.233.$(( $$ / 64 % 256 )) oct=$(( $$ % 64 * 4 ))
a2=$net.$((oct + 2))
n1 ip addr add "$net.$((oct + 1))/30" dev "$va" && n2 ip addr add "$a2/30" dev "$vb" &&
	n1 ip link set "$va" up && n2 ip link set "$vb" up && n1 ip link set lo up &&
	n2 ip link set lo up || exit 1

n2 "$bin" -q bw server --open --port 18516 >/dev/null 2>&1 &
pids+=($!)
n2 iperf3 -s -p 5201 >/dev/null 2>&1 &
pids+=($!)
sleep 0.5
limit=$((secs * 3 + 30))

# both measure after a 1 s warm-up (iperf3 --omit 1) for secs seconds
ours() {	# streams -> Gb/s
	n1 timeout $limit "$bin" --json bw client "$a2" --transport tcp --streams "$1" \
		--duration "$secs" --warmup 1 >"$tmp/ours.json" 2>"$tmp/ours.err" || return 1
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["total"]["gbps"]["avg"])' "$tmp/ours.json"
}
theirs() {	# streams -> Gb/s (receiver side, what arrived)
	n1 timeout $limit iperf3 -c "$a2" -p 5201 -P "$1" -t "$secs" -O 1 -J >"$tmp/iperf.json" 2>&1 || return 1
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"] / 1e9)' "$tmp/iperf.json"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }

echo "rdmadoctor bw --transport tcp vs iperf3, veth between namespaces, ${secs} s + 1 s warm-up, median of $rounds"
for streams in 1 4; do
	: >"$tmp/o" ; : >"$tmp/t"
	for ((r = 0; r < rounds; r++)); do
		ours $streams >>"$tmp/o" || echo "rdmadoctor failed: $(cat "$tmp/ours.err")"
		theirs $streams >>"$tmp/t" || echo "iperf3 failed: $(head -c 300 "$tmp/iperf.json")"
	done
	o=$(median <"$tmp/o") t=$(median <"$tmp/t")
	awk -v s=$streams -v o="$o" -v t="$t" -v all_o="$(tr '\n' ' ' <"$tmp/o")" \
		-v all_t="$(tr '\n' ' ' <"$tmp/t")" 'BEGIN {
		printf "  %d stream%s: rdmadoctor %.2f Gb/s, iperf3 -P %d %.2f Gb/s, ratio %.3f (aim >= 0.95)   [ours: %s| iperf3: %s]\n",
			s, (s == 1 ? " " : "s"), o, s, t, (t > 0 ? o / t : 0), all_o, all_t }'
done
