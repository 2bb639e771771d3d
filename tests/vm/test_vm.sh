#!/bin/bash
# A real RDMA kernel: boot Debian's kernel with Soft-RoCE in QEMU, compare
# rdmadoctor's inventory with ibv_devinfo, rdma link, the GID files and
# lspci inside it, snapshot there and replay the snapshot here.
# The VM parts ran in the shared boot (shared_boot.sh, ctest fixture
# vm_shared): the inventory against the kernel's tools (check_inventory.py),
# `check` on the live RoCE setup as the kernel's state changes
# (check_roce.sh), and who can use the devices: real nodes chmod/chown'd
# and given an ACL, an unprivileged user opening them as the oracle,
# pam_limits (runuser -l) against the tool's reading of limits.d, and a
# snapshot replay (device_access.py).
# usage: test_vm.sh RDMADOCTOR SHARED_DIR     (exit 77: the VM cannot start here)
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
dir=${2:?usage: $0 RDMADOCTOR SHARED_DIR}
"$here/shared_result.sh" "$dir" inventory roce access
rc=$?
[ $rc -eq 0 ] || exit $rc
out=$dir/inventory
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the VM's snapshot, replayed on the host, gives the document it gives in
# the VM, byte for byte; and the live inventory, but for the traffic
# counters that moved between the two runs and the kernel log
tar -C "$tmp" -xf "$out/snap.tar" || { echo "FAIL: the VM's snapshot did not come out"; exit 1; }
"$bin" --root "$tmp/inventory-snap" --json inventory >"$tmp/replay.json"
if cmp -s "$out/replay-vm.json" "$tmp/replay.json" &&
	python3 - "$out/inventory.json" "$tmp/replay.json" <<'PY'
import json, sys
VOLATILE = {"counters", "hw_counters", "ethtool_stats", "carrier_changes",
            "kernel_log"}  # the kernel log grows, its zero is read anew
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in VOLATILE}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
then
	echo "snapshot taken in the VM replays to the same inventory: 1 passed, 0 failed"
else
	diff -u "$out/inventory.json" "$tmp/replay.json" | head -40
	echo "snapshot replay: 0 passed, 1 failed"
	exit 1
fi
