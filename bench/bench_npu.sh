#!/bin/bash
# Reading 8 NPU ports when every hccn_tool call takes its time (a real one
# takes tens to hundreds of milliseconds): rdmadoctor's parallel reader
# against the way collection scripts do it, one call after another
# (`for i in 0..7: hccn_tool -i $i -<option> -g`).  Stand-in tools
# (tests/ascend/standin.sh) that take STANDIN_DELAY seconds a call.
# Printed, never asserted.
#   bench/bench_npu.sh BINARY [DELAY_SECONDS]
set -u
bin=$(realpath "$1")
delay=${2:-0.05}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export STANDIN_CAPTURE=$src/tests/fixtures/atlas-800-9000/root/.rdmadoctor

mkdir "$tmp/bin"
cp "$src/tests/ascend/standin.sh" "$tmp/bin/hccn_tool"
cp "$src/tests/ascend/standin.sh" "$tmp/bin/npu-smi"
export STANDIN_DELAY=$delay PATH=$tmp/bin:$PATH
ms() { echo $(( ($2 - $1) / 1000000 )); }

t0=$(date +%s%N)
"$bin" --root / --json inventory >"$tmp/inv.json" 2>/dev/null
t1=$(date +%s%N)
read_ms=$(ms "$t0" "$t1")
ports=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for n in d["npus"]["devices"] if n["port_read"]))' "$tmp/inv.json")

t0=$(date +%s%N)
npu-smi info -m >/dev/null
for i in 0 1 2 3 4 5 6 7; do
	npu-smi info -i $i -t board >/dev/null
	for o in link speed ip net_health link_stat optical stat fec pfc lldp mtu; do
		hccn_tool -i $i -$o -g >/dev/null
	done
done
t1=$(date +%s%N)
seq_ms=$(ms "$t0" "$t1")
awk -v r="$read_ms" -v s="$seq_ms" -v p="$ports" -v d="$delay" 'BEGIN {
	printf "8 NPUs x 12 calls at %s s a call: rdmadoctor inventory %d ms (%d ports read), one call after another %d ms: %.1fx\n", d, r, p, s, s / r }'
