#!/bin/bash
# rdmadoctor bw --loopback against ib_write_bw on the same pair of devices
# of one host, in the test VM (2 vCPUs): rxe1 (10.9.0.1) sends to rxe2
# (10.9.0.2) across a veth pair (tests/vm/loopback_pair.sh).  Asserts
# nothing; prints per size the median of the per-round ratios (ours /
# ib_write_bw; aim about 1.0) and each tool's runs.
#
#   bench/bench_bw_loopback.sh [RDMADOCTOR] [REPS]   (default build/rdmadoctor, 3)
#   BENCH_SIZES="4096 65536"   the sizes (default)
#
# The same measurement on both: RC write, one QP, the IPv4 RoCE v2 GIDs of
# the two devices, tx depth 128, perftest's CQ moderation rule (ours too),
# a window in duration mode (ib_write_bw -D 4 counts between 1 s and 3 s;
# ours warms up 1 s and counts 2 s), decimal Gb/s on both (--report_gbits).
# Rounds interleave the tools, the order alternating, so a burst of host
# load falls on both.  Time: the VM boot, then about 12 s per size and round.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != --inside ]; then
	bin=$(realpath "${1:-$src/build/rdmadoctor}") || exit 1
	VM_SMP=${VM_SMP:-2} exec "$src/tests/vm/vm-run.sh" --timeout 900 \
		-e "BENCH_SIZES=${BENCH_SIZES:-}" -- "$0" --inside "$bin" "${2:-3}"
fi
bin=$2 reps=$3
ulimit -l unlimited
. "$src/tests/vm/loopback_pair.sh"
loopback_pair || exit 1

ours() { # SIZE: our Gb/s, or -
	timeout 60 "$bin" --json bw --loopback -q --size "$1" --duration 2 --warmup 1 \
		--expect-gbps 0.0001 rxe1 rxe2 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["pairs"][0]["results"][0]["rails"][0]["gbps"]["avg"])' 2>/dev/null || echo -
}
perf() { # SIZE: ib_write_bw's Gb/s, or -
	local v
	timeout 60 ib_write_bw -d rxe2 -x "$g2" -s "$1" -D 4 -F --report_gbits >/dev/null 2>&1 &
	local spid=$!
	sleep 1
	v=$(timeout 60 ib_write_bw -d rxe1 -x "$g1" -s "$1" -D 4 -F --report_gbits 10.9.0.2 2>&1 |
		awk -v s="$1" '$1 == s && NF >= 4 { print $4; exit }')
	wait $spid
	echo "${v:--}"
}
echo "# bw --loopback rxe1 -> rxe2 / ib_write_bw rxe1 -> rxe2, $reps interleaved rounds"
printf '%-9s %-7s %-15s %s\n' size ratio "ratio spread" "runs (ours | ib_write_bw, Gb/s)"
for s in ${BENCH_SIZES:-4096 65536}; do
	o=() p=() r=()
	for k in $(seq "$reps"); do
		if [ $((k % 2)) = 1 ]; then a=$(ours "$s"); b=$(perf "$s"); else b=$(perf "$s"); a=$(ours "$s"); fi
		o+=("$a") p+=("$b")
		[ "$a" != - ] && [ "$b" != - ] && r+=("$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.3f", a / b }')")
	done
	if [ ${#r[@]} -gt 0 ]; then
		sorted=$(printf '%s\n' "${r[@]}" | sort -g)
		med=$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' <<<"$sorted")
		spread="$(head -n 1 <<<"$sorted") - $(tail -n 1 <<<"$sorted")"
	else
		med=- spread=-
	fi
	printf '%-9s %-7s %-15s %s | %s\n' "$s" "$med" "$spread" "${o[*]}" "${p[*]}"
done
