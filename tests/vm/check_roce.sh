#!/bin/bash
# Inside the Soft-RoCE VM: `check` judges the live RoCE setup and changes
# its verdict as the kernel's state changes.
#   netdev MTU 1500 -> mtu.roce fires on rxe0 port 1
#   netdev MTU 9000 -> it does not
#   IPv4 address removed -> gid.rocev2_missing fires
#   the kernel log (/dev/kmsg, live): the VM's own boot log gives no kmsg.*
#   finding; two mlx5-like lines WRITTEN BY THIS TEST into /dev/kmsg
#   (facility user) are left out by default and counted, 2 lines, with
#   RDMADOCTOR_KMSG_ANY_FACILITY=1
# and, first, its ethtool statistics against `ethtool -S` on the virtio NIC
# usage (inside the VM): check_roce.sh RDMADOCTOR
set -u
bin=$1
pass=0
fail=0
fires() {	# id: is there a finding with this id on rxe0?
	"$bin" --json check >/tmp/check.json 2>/tmp/check.err
	python3 -c 'import json,sys
d = json.load(open("/tmp/check.json"))
sys.exit(0 if any(f["id"] == sys.argv[1] and "rxe0" in (f["subject"] or "") for f in d["findings"]) else 1)' "$1"
}
expect_fires() { if fires "$1"; then pass=$((pass + 1)); else echo "FAIL: $1 did not fire ($2)"; cat /tmp/check.json | head -c 2000; fail=$((fail + 1)); fi; }
expect_silent() { if fires "$1"; then echo "FAIL: $1 fired ($2)"; fail=$((fail + 1)); else pass=$((pass + 1)); fi; }

# the VM's virtio NIC: our ethtool statistics against `ethtool -S`, which
# must lie between two of our readings (the counters move meanwhile)
here=$(cd "$(dirname "$0")" && pwd)
if "$bin" --json ethtool-stats "$VM_NETDEV" >/tmp/es1.json &&
	ethtool -S "$VM_NETDEV" >/tmp/es.txt &&
	"$bin" --json ethtool-stats "$VM_NETDEV" >/tmp/es2.json &&
	python3 "$here/../nl/compare_stats.py" /tmp/es1.json /tmp/es.txt /tmp/es2.json "VM $VM_NETDEV"; then
	pass=$((pass + 1))
else
	echo "FAIL: ethtool statistics of the VM's $VM_NETDEV"; fail=$((fail + 1))
fi

# the kernel log, live
kmsg_ids() {	# the kmsg.* findings of a live check, "id subject|observed" a line
	"$bin" --json check 2>/dev/null | python3 -c 'import json,sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"].startswith("kmsg."):
        print(f["id"], f["subject"] + "|" + f["observed"])'
}
got=$(kmsg_ids)
if [ -z "$got" ]; then pass=$((pass + 1)); else
	echo "FAIL: kmsg findings on the VM's own boot log: $got"; fail=$((fail + 1)); fi
for _ in 1 2; do	# one open each: /dev/kmsg rate-limits each open file
	echo "<11>mlx5_core 0000:5e:1f.3: written by check_roce.sh: wait_func:1160:(pid 1): ACCESS_REG(0x805) timeout. Will cause a leak of a command resource" >/dev/kmsg
done
got=$(kmsg_ids)
if [ -z "$got" ]; then pass=$((pass + 1)); else
	echo "FAIL: lines a program wrote counted as the kernel's: $got"; fail=$((fail + 1)); fi
got=$(RDMADOCTOR_KMSG_ANY_FACILITY=1 kmsg_ids)
case "$got" in
"kmsg.fw_timeout 0000:5e:1f.3|2 lines since boot; last at "*"written by check_roce.sh"*) pass=$((pass + 1)) ;;
*) echo "FAIL: kmsg.fw_timeout on 0000:5e:1f.3, 2 lines, live: got '$got'"; fail=$((fail + 1)) ;;
esac

ip link set "$VM_NETDEV" mtu 1500
expect_fires mtu.roce "netdev MTU 1500"
ip link set "$VM_NETDEV" mtu 9000
expect_silent mtu.roce "netdev MTU 9000"
expect_silent gid.rocev2_missing "IPv4 address present"
ip addr flush dev "$VM_NETDEV"
sleep 1
expect_fires gid.rocev2_missing "IPv4 address removed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
