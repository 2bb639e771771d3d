#!/bin/bash
# One boot of the Soft-RoCE VM, with 2 vCPUs, for the VM tests that time
# something (ctest fixture vm_timed, test vm_timed_boot, RUN_SERIAL: no
# neighbour on the host to slow what they compare): the parts of
# vm_bw_verbs (bw_verbs.sh: bw_pair against perftest on rxe0),
# vm_bw_loopback (bw_loopback.sh: `bw --loopback` on a veth pair of rxe
# devices) and fabric_vm (tests/fabric/test_fabric_vm.sh: mpirun ranks on
# rxe devices over macvlans) run one after the other, each writing its
# output and exit status to OUTDIR/NAME.log and OUTDIR/NAME.rc
# (vm_parts.sh); the named tests (shared_result.sh) print them and pass or
# fail each on its own.  Before, each booted its own VM, one at a time.
#
# They run in an order where none sees what another changed, and what a
# part makes that a later one could see is removed after it:
#   fabric       first, on the VM as init set it up (its transport choice
#                and ranks' addresses assume it); it makes macvlans lv1..3
#                with rxe1..rxe3 and an ifb (removed: bw_loopback names
#                its own rxe1, rxe2)
#   bw_verbs     rxe0 only, nothing made
#   bw_loopback  last: a veth pair, rxe1, rxe2, policy routing rules
#
# usage: timed_boot.sh RDMADOCTOR BW_PAIR OUTDIR
# Exit 0 when the VM ran (each part's status in OUTDIR/NAME.rc), 77 when it
# cannot start here, 1 when the VM failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
PARTS="fabric bw_verbs bw_loopback"

# shellcheck source=tests/vm/vm_parts.sh
. "$here/vm_parts.sh"

if [ "${1:-}" != --inside ]; then
	[ $# -eq 3 ] || { echo "usage: $0 RDMADOCTOR BW_PAIR OUTDIR" >&2; exit 2; }
	VM_SMP=${VM_SMP:-2} parts_boot "$here/timed_boot.sh" "$3" 1200 "$PARTS" -- \
		"$(realpath "$1")" "$(realpath "$2")" "$(cd "$here/../.." && pwd)"
	exit
fi

# --- inside the VM ---------------------------------------------------------
bin=$2 pair=$3 src=$4
dir=$VM_OUT	# part() writes under it (vm_parts.sh)
export dir
# each part bounded as its own boot was (the VM's limit less its boot)
part fabric 390 "$src/tests/fabric/test_fabric_vm.sh" --inside "$bin"
for i in 1 2 3; do rdma link delete "rxe$i" 2>/dev/null; done
for i in 1 2 3; do ip link delete "lv$i" 2>/dev/null; done
ip link delete ifbl 2>/dev/null
part bw_verbs 330 "$here/bw_verbs.sh" --inside "$bin" "$pair"
part bw_loopback 390 "$here/bw_loopback.sh" --inside "$bin" "$src"
exit 0
