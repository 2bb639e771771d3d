#!/bin/bash
# One boot of the Soft-RoCE VM for the VM tests that time nothing (ctest
# fixture vm_shared, test vm_boot): the parts of vm_inventory (the
# inventory against the kernel's tools, check on the live RoCE setup, who
# can use the devices), of vm_lldp_cabling (the node's lldpd, inside) and
# of vm_drv_stack run one after the other in the same VM, each writing
# its output and exit status to OUTDIR/NAME.log and OUTDIR/NAME.rc, and
# its files under OUTDIR/NAME/.  The named tests (tests/vm/shared_result.sh)
# then print those, judge what they judge on the host, and pass or fail
# each on its own.  A boot costs about 5 s idle, 10-20 s on a loaded host
# under TCG, and each test booted one to three times.
#
# The parts share one kernel, so they run in an order where none sees what
# another changed, and what a part changes that a later one could see is
# put back after it:
#   inventory   first: the pristine VM as init set it up
#   access      device modes, owners and the ACL, limits.d, the site file
#               (put back: the nodes' modes, owners and ACL, the files)
#   lldp        veths, four rxe devices, namespaces, lldpd, the site file
#               (put back: all of them)
#   roce        the netdev's MTU and its address (not put back: only the
#               last part comes after, and it reads modules)
#   drv_stack   last: it replaces ib_core.ko in the VM's overlay
#
# usage: shared_boot.sh RDMADOCTOR OUTDIR
# Exit 0 when the VM ran (each part's status is in OUTDIR/NAME.rc), 77 when
# it cannot start here (the reason in OUTDIR/boot.log, and every NAME.rc
# says 77), 1 when the VM failed (each part without a result fails).
set -u
here=$(cd "$(dirname "$0")" && pwd)
PARTS="inventory access lldp roce drv_stack"

# shellcheck source=tests/vm/vm_parts.sh
. "$here/vm_parts.sh"

if [ "${1:-}" != --inside ]; then
	[ $# -eq 2 ] || { echo "usage: $0 RDMADOCTOR OUTDIR" >&2; exit 2; }
	parts_boot "$here/shared_boot.sh" "$2" 1500 "$PARTS" -- "$(realpath "$1")"
	exit
fi

# --- inside the VM ---------------------------------------------------------
bin=$2
dir=$VM_OUT	# part() writes under it (vm_parts.sh)
export dir
# Each part is bounded at twice the limit its own boot had (a loaded host
# slows TCG several times over), the VM at 1500 s, more than the five boots
# had together (1260 s).
part inventory 480 python3 "$here/check_inventory.py" "$bin" "$dir/inventory"

# the site file as the host's root has it (none, on a test machine), put
# back after each part that writes one
site=/etc/rdmadoctor/rdmadoctor.conf
[ -e "$site" ] && cp -a "$site" /tmp/site.saved
put_site_back() {
	if [ -e /tmp/site.saved ]; then cp -a /tmp/site.saved "$site"; else rm -f "$site"; fi
}

# access: the nodes' modes, owners and ACLs, as init left them, put back after
nodes=(/dev/infiniband/*)
saved=$(stat -c '%a %u %g %n' "${nodes[@]}")
part access 480 python3 "$here/device_access.py" "$bin" "$dir/access"
while read -r mode uid gid node; do
	chown "$uid:$gid" "$node" && chmod "$mode" "$node"
	python3 -c 'import os, sys
try:
    os.removexattr(sys.argv[1], "system.posix_acl_access")
except OSError:
    pass' "$node"
done <<<"$saved"
rm -f /etc/security/limits.d/50-rdtest.conf
put_site_back

VM_OUT=$dir/lldp part lldp 540 "$here/lldp_cabling.sh" --inside "$bin"
pkill -x lldpd
for _ in $(seq 1 20); do pgrep -x lldpd >/dev/null || break; sleep 0.2; done
for d in rxe_a rxe_b rxe_c rxe_d; do rdma link delete "$d" 2>/dev/null; done
for i in 0 1 2 3; do ip link delete "hr$i" 2>/dev/null; done
ip netns delete leaf0 2>/dev/null
ip netns delete leaf1 2>/dev/null
rm -rf /run/lldpd /tmp/lldpd-leaf*
put_site_back

part roce 480 "$here/check_roce.sh" "$bin"
part drv_stack 420 "$here/drv_stack_vm.sh" "$bin"
exit 0
