#!/bin/bash
# rdmadoctor's verbs engine against perftest on Soft-RoCE, in the test VM
# (2 vCPUs): ib_write_bw vs the engine with the same parameters (RC write,
# one QP, tx depth 128, perftest's CQ moderation rule, gid 1, duration mode
# with the same measured window: perftest -D 4 drops 1 s at each end, we
# warm up 1 s and measure 2 s), runs interleaved; and ib_write_lat vs the
# write ping-pong (2 B, inline 220).  Every figure is the median of REPS
# interleaved runs of each tool (the VM shares the host's cores: one run
# each says more about the neighbours than about the engines).  Prints
# ratios (aim: bw >= 1.0 at every size of the 2 B - 8 MiB sweep, latency
# p50 <= 1.0); asserts nothing.
#
#   bench/bench_bw_vm.sh [BW_PAIR] [REPS] [BASE_BW_PAIR]
#                                  (default build/tests/bw_pair, 3, none)
#
# BASE_BW_PAIR: another build's bw_pair (e.g. before a change), run in the
# same interleaved rounds, its ratio to perftest printed next to ours.
#
# The engine is driven by tests/vm/bw_pair (both ends in one process, the
# endpoint bytes handed over directly), the same engine `rdmadoctor bw
# --transport verbs` runs.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != --inside ]; then
	pair=$(realpath "${1:-$src/build/tests/bw_pair}") || exit 1
	base=
	[ -n "${3:-}" ] && { base=$(realpath "$3") || exit 1; }
	VM_SMP=${VM_SMP:-2} exec "$src/tests/vm/vm-run.sh" --timeout 1800 -- "$0" --inside "$pair" "${2:-3}" "$base"
fi
pair=$2 reps=$3 base=${4:-}
dev=${VM_RDMA_DEV:-rxe0} ip=${VM_IP:-10.0.2.15}
ulimit -l unlimited

# perftest's server listens on TCP 18515: start the client only then (a
# client that comes too early fails, and its server would wait forever)
pt_listening() {
	local i
	for i in $(seq 50); do
		ss -Hltn 'sport = :18515' 2>/dev/null | grep -q . && return
		sleep 0.1
	done
}
# the server ends with its client; one still there 3 s later is stopped
pt_reap() {
	local i
	for i in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
ours_bw() {	# SIZE [BW_PAIR]
	timeout 60 "${2:-$pair}" --device "$dev" --peer "$ip" --op write --size "$1" --duration-ms 2000 --warmup-ms 1000 \
		--tx-depth 128 2>/dev/null | sed -n 's/^side=client gbps=\([0-9.]*\) .*/\1/p' | head -n 1
}
perf_bw() {
	timeout 60 ib_write_bw -d "$dev" -x 1 -F --report_gbits -s "$1" -D 4 -t 128 >/dev/null 2>&1 &
	local spid=$!
	pt_listening
	timeout 60 ib_write_bw -d "$dev" -x 1 -F --report_gbits -s "$1" -D 4 -t 128 "$ip" 2>&1 |
		awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ { print $4 }'
	pt_reap $spid
}
ours_lat() {	# [BW_PAIR]
	timeout 60 "${1:-$pair}" --device "$dev" --peer "$ip" --mode lat --op write --size 2 --iters 1000 --inline 220 \
		2>/dev/null | sed -n 's/^side=client .*lat_p50=\([0-9.]*\).*/\1/p' | head -n 1
}
perf_lat() {
	timeout 60 ib_write_lat -d "$dev" -x 1 -F -s 2 -n 1000 -I 220 >/dev/null 2>&1 &
	local spid=$!
	pt_listening
	timeout 60 ib_write_lat -d "$dev" -x 1 -F -s 2 -n 1000 -I 220 "$ip" 2>&1 |
		awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+/ { print $5 }'
	pt_reap $spid
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

echo "# Soft-RoCE ($dev) in the test VM under TCG: figures are tiny and noisy; compare ratios"
echo "# medians of $reps interleaved runs per size; clock source: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
med() { printf '%s\n' "$@" | grep . | median; }	# a failed run (empty) is left out
if [ -n "$base" ]; then
	printf '%10s %12s %12s %7s %12s %7s\n' bytes rdmadoctor ib_write_bw ratio baseline ratio
else
	printf '%10s %12s %12s %7s\n' bytes rdmadoctor ib_write_bw ratio
fi
for s in 2 8 64 512 4096 16384 65536 262144 1048576 4194304 8388608; do
	o=() t=() b=()
	for ((i = 0; i < reps; i++)); do
		t+=("$(perf_bw $s)")
		o+=("$(ours_bw $s)")
		[ -n "$base" ] && b+=("$(ours_bw $s "$base")")
	done
	mo=$(med "${o[@]}") mt=$(med "${t[@]}")
	if [ -n "$base" ]; then
		mb=$(med "${b[@]}")
		printf '%10s %12s %12s %7s %12s %7s   (runs: %s | %s | %s)\n' "$s" "${mo:-fail}" "${mt:-fail}" \
			"$(ratio "$mo" "$mt")" "${mb:-fail}" "$(ratio "$mb" "$mt")" "${o[*]}" "${t[*]}" "${b[*]}"
	else
		printf '%10s %12s %12s %7s   (runs: %s | %s)\n' "$s" "${mo:-fail}" "${mt:-fail}" \
			"$(ratio "$mo" "$mt")" "${o[*]}" "${t[*]}"
	fi
done

o=() t=() b=()
for ((i = 0; i < reps; i++)); do
	t+=("$(perf_lat)")
	o+=("$(ours_lat)")
	[ -n "$base" ] && b+=("$(ours_lat "$base")")
done
mo=$(med "${o[@]}") mt=$(med "${t[@]}")
echo "write latency 2 B, p50 one-way: rdmadoctor ${o[*]} us, ib_write_lat ${t[*]} us; median ratio $(ratio "$mo" "$mt") (aim <= 1.0)"
[ -n "$base" ] && echo "  baseline ${b[*]} us; median ratio $(ratio "$(med "${b[@]}")" "$mt")"
exit 0
