#!/bin/bash
# `check` on the largest machine shape: median wall time of repeated runs
# and the files it reads.  Printed, never asserted.
#   bench/bench_check.sh BINARY [RUNS]
set -u
bin=$(realpath "$1")
runs=${2:-${BENCH_RUNS:-21}}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$src/tests/fixtures/gen_fixtures.py" --shape bench-16nic --out "$tmp" >/dev/null ||
	{ echo "cannot generate the benchmark machine"; exit 1; }
root=$tmp/bench-16nic/root
"$bin" --root "$root" --json check >"$tmp/check.json"
[ $? -le 1 ] || { echo "check failed"; exit 1; }
for ((i = 0; i < runs; i++)); do
	t0=$(date +%s%N)
	"$bin" --root "$root" --json check >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000 ))
done | sort -n >"$tmp/times"
median=$(sed -n "$(( (runs + 1) / 2 ))p" "$tmp/times")
findings=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["findings"]), d["verdict"], d["profile"])' "$tmp/check.json")
awk -v m="$median" -v n="$runs" -v f="$findings" 'BEGIN {
	printf "rdmadoctor check --json on 16 NICs / 4096 GIDs: median %.1f ms of %d runs (findings, verdict, profile: %s)\n", m / 1000, n, f }'
if command -v strace >/dev/null; then
	strace -f -qq -e trace=openat,openat2 -o "$tmp/trace" "$bin" --root "$root" --json check >/dev/null 2>&1
	grep -E 'openat2?\([0-9]+, "' "$tmp/trace" | grep -v ' = -1 ' |
		sed -E 's/.*openat2?\([0-9]+, "([^"]*)".*/\1/' >"$tmp/opened"
	echo "files read: $(wc -l <"$tmp/opened"), distinct: $(sort -u "$tmp/opened" | wc -l)"
fi
