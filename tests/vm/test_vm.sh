#!/bin/bash
# A real RDMA kernel: boot Debian's kernel with Soft-RoCE in QEMU, compare
# rdmadoctor's inventory with ibv_devinfo, rdma link, the GID files and
# lspci inside it, snapshot there and replay the snapshot here.
# usage: test_vm.sh RDMADOCTOR        (exit 77: the VM cannot start here)
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$here/vm-run.sh" --outdir "$out" --timeout 240 -- python3 "$here/check_inventory.py" "$bin" "$out"
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "in-VM comparison failed (exit $rc)"; exit 1; }

# `check` on the live RoCE setup, as the kernel's state changes
"$here/vm-run.sh" --timeout 240 -- "$here/check_roce.sh" "$bin"
rc=$?
[ $rc -eq 0 ] || { echo "in-VM check test failed (exit $rc)"; exit 1; }

# who can use the devices: real nodes chmod/chown'd and given an ACL, an
# unprivileged user opening them as the oracle, pam_limits (runuser -l)
# against the tool's reading of limits.d, and a snapshot replay
"$here/vm-run.sh" --outdir "$out" --timeout 240 -- python3 "$here/device_access.py" "$bin" "$out/access"
rc=$?
[ $rc -eq 0 ] || { echo "in-VM device access test failed (exit $rc)"; exit 1; }

# the VM's snapshot, replayed on the host, gives the document it gives in
# the VM, byte for byte; and the live inventory, but for the traffic
# counters that moved between the two runs and the kernel log
"$bin" --root "$out/snap" --json inventory >"$out/replay.json"
if cmp -s "$out/replay-vm.json" "$out/replay.json" &&
	python3 - "$out/inventory.json" "$out/replay.json" <<'PY'
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
	diff -u "$out/inventory.json" "$out/replay.json" | head -40
	echo "snapshot replay: 0 passed, 1 failed"
	exit 1
fi
