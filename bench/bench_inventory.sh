#!/bin/bash
# inventory of the largest machine shape against the shell commands it
# replaces, reading the same tree; printed as ratios, never asserted.
#
#   bench/bench_inventory.sh BINARY [RUNS]
#
# The shape: 16 ConnectX-7 RoCE NICs with 256 GID entries per port and 8
# GPUs (tests/fixtures/gen_fixtures.py --shape bench-16nic).  The shell side
# is what an engineer runs by hand today, reading the same files:
#   - show_gids: for every GID index, cat the GID, its type and its netdev;
#   - ibstat: per device fw_ver, node_guid, hca_type, board_id; per port
#     state, phys_state, rate, link_layer, lid, sm_lid;
#   - lspci -vv LnkCap/LnkSta: the link files of the NIC and every bridge;
#   - the counters: cat every file under counters/ and hw_counters/.
set -u
bin=$(realpath "$1")
runs=${2:-${BENCH_RUNS:-10}}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$src/tests/fixtures/gen_fixtures.py" --shape bench-16nic --out "$tmp" >/dev/null ||
	{ echo "cannot generate the benchmark machine"; exit 1; }
root=$tmp/bench-16nic/root

shell_checkup() {
	local r=$1 d p g b
	for d in "$r"/sys/class/infiniband/*; do
		for f in fw_ver node_guid hca_type board_id; do cat "$d/$f" >/dev/null 2>&1; done
		for p in "$d"/ports/*; do
			for f in state phys_state rate link_layer lid sm_lid; do cat "$p/$f" >/dev/null 2>&1; done
			for g in $(ls "$p/gids"); do
				gid=$(cat "$p/gids/$g" 2>/dev/null)
				ver=$(cat "$p/gid_attrs/types/$g" 2>/dev/null)
				dev=$(cat "$p/gid_attrs/ndevs/$g" 2>/dev/null)
				[ "$gid" != 0000:0000:0000:0000:0000:0000:0000:0000 ] && echo "$d $g $gid $ver $dev" >/dev/null
			done
			for f in "$p"/counters/* "$p"/hw_counters/*; do cat "$f" >/dev/null 2>&1; done
		done
		b=$(readlink -f "$d/device")
		while [ "${b##*/}" != "${b##*/pci}" ] || [[ ${b##*/} =~ ^[0-9a-f]{4}: ]]; do
			for f in current_link_speed current_link_width max_link_speed max_link_width; do
				cat "$b/$f" >/dev/null 2>&1
			done
			b=${b%/*}
			[[ ${b##*/} =~ ^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$ ]] || break
		done
	done
}

ms_of() {	# runs command...: average wall ms per run
	local n=$1 t0 t1; shift
	t0=$(date +%s%N)
	for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1; done
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / n / 1000 ))
}

"$bin" --root "$root" --json inventory >"$tmp/inv.json" || { echo "inventory failed"; exit 1; }
nics=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nics"]))' "$tmp/inv.json")
gidfiles=$(ls "$root"/sys/class/infiniband/*/ports/*/gids | grep -c '^[0-9]')
us_tool=$(ms_of "$runs" "$bin" --root "$root" --json inventory)
us_shell=$(ms_of "$(( runs > 3 ? 3 : runs ))" shell_checkup "$root")
echo "machine: $nics RDMA devices, $gidfiles GID entries"
awk -v t="$us_tool" -v s="$us_shell" -v n="$runs" 'BEGIN {
	printf "rdmadoctor inventory --json  %8.1f ms per run (%d runs)\n", t / 1000, n
	printf "shell checkup loop           %8.1f ms per run\n", s / 1000
	printf "ratio shell / rdmadoctor     %8.1f x\n", s / t
}'

# Files opened per inventory against distinct files: no file read twice.
if command -v strace >/dev/null; then
	strace -f -qq -e trace=openat,openat2 -o "$tmp/trace" "$bin" --root "$root" --json inventory >/dev/null 2>&1
	# the readers open relative to the root's directory descriptor
	grep -E 'openat2?\([0-9]+, "' "$tmp/trace" | grep -v ' = -1 ' |
		sed -E 's/.*openat2?\([0-9]+, "([^"]*)".*/\1/' >"$tmp/opened"
	opened=$(wc -l <"$tmp/opened")
	distinct=$(sort -u "$tmp/opened" | wc -l)
	echo "files and directories opened: $opened, distinct: $distinct, opened twice: $((opened - distinct))"
fi
