#!/bin/bash
# capture-peers.sh [DESTDIR]
#
# Records what the Soft-RoCE VM's kernel and the peer tools (ibv_devinfo, rdma,
# lspci, perftest) show for rxe0, its netdev and its PCIe path, as small text
# files: reference material for readers and fixture trees.
#
# On the host: boots the VM through vm-run.sh, runs itself inside, and copies
# the results into DESTDIR (default: tests/vm/captures next to this script).
# Inside the VM (VM_OUT set by vm-run.sh): writes into $VM_OUT/captures.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [ -z "${VM_OUT:-}" ]; then
	dest=${1:-$here/captures}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmadoctor-capture.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	"$here/vm-run.sh" --outdir "$tmp" -- "$here/capture-peers.sh"
	rc=$?
	[ $rc -eq 0 ] || { echo "capture-peers: vm run failed (exit $rc)" >&2; exit $rc; }
	mkdir -p "$dest"
	rm -f "$dest"/*.txt
	cp "$tmp"/captures/*.txt "$dest"/
	echo "capture-peers: wrote $(ls "$dest"/*.txt | wc -l) files to $dest"
	exit 0
fi

# ---------------------------------------------------------------- in the VM ---
dev=${VM_RDMA_DEV:-rxe0}
nd=${VM_NETDEV:-eth0}
out=$VM_OUT/captures
mkdir -p "$out"
ib=/sys/class/infiniband/$dev

# run FILE CMD...: the command line, its output and its exit status.
run() {
	local f=$out/$1
	shift
	{
		echo "\$ $*"
		"$@" 2>&1
		echo "[exit $?]"
	} >>"$f"
}
# show FILE PATH...: each file's content, or the error reading it gives.
show() {
	local f=$out/$1 p v
	shift
	for p in "$@"; do
		if v=$(cat "$p" 2>&1); then
			printf '%s: %s\n' "$p" "$v"
		else
			printf '%s: <error: %s>\n' "$p" "${v##*: }"
		fi
	done >>"$f"
}

rm -f "$out"/*.txt

# --- the peers' view ------------------------------------------------------------
run ibv_devinfo.txt ibv_devinfo
run ibv_devinfo-v.txt ibv_devinfo -v
run ibv_devices.txt ibv_devices
run rdma.txt rdma link
run rdma.txt rdma dev
run rdma.txt rdma -d link show
run rdma.txt rdma -d dev show
run rdma.txt rdma -j -p link show
run rdma.txt rdma -j -p dev show
run rdma.txt rdma system
run rdma.txt rdma -d statistic show
run rdma.txt rdma resource show
command -v ibstat >/dev/null && run ibstat.txt ibstat
command -v ibstatus >/dev/null && run ibstat.txt ibstatus
run netdev.txt ip -d link show "$nd"
run netdev.txt ip addr show "$nd"
run netdev.txt ip -6 addr show "$nd"

# --- sysfs: listings ----------------------------------------------------------------
run sysfs-ls.txt ls -l --time-style=+ /sys/class/infiniband/
run sysfs-ls.txt ls -l --time-style=+ "$ib/"
run sysfs-ls.txt ls -l --time-style=+ "$ib/ports/"
run sysfs-ls.txt ls -l --time-style=+ "$ib/ports/1/"
run sysfs-ls.txt ls -l --time-style=+ "$ib/ports/1/gid_attrs/"
# gids/, pkeys/ and gid_attrs/{types,ndevs}/ hold one file per table slot:
# record how many and the first few.
for d in gids pkeys gid_attrs/types gid_attrs/ndevs; do
	run sysfs-ls.txt sh -c "ls $ib/ports/1/$d | wc -l; ls -l --time-style=+ $ib/ports/1/$d | sort -k6n | head -n 5"
done
run sysfs-ls.txt ls -l --time-style=+ "$ib/ports/1/counters/" "$ib/ports/1/hw_counters/" "$ib/hw_counters/"
run sysfs-ls.txt ls -l --time-style=+ "$ib/ports/1/cm_rx_msgs/"
run sysfs-ls.txt ls -l --time-style=+ "$ib/power/"
run sysfs-ls.txt ls -l --time-style=+ /sys/class/infiniband_verbs/ /sys/class/infiniband_verbs/uverbs0/
run sysfs-ls.txt ls -l --time-style=+ /sys/class/infiniband_mad/
run sysfs-ls.txt ls -l --time-style=+ /dev/infiniband/
run sysfs-ls.txt ls -l --time-style=+ /sys/class/net/ "/sys/class/net/$nd/"
run sysfs-ls.txt ls -l --time-style=+ /sys/bus/pci/devices/
run sysfs-tree.txt find "$ib/" -maxdepth 4 \( -path "*/gids" -o -path "*/pkeys" -o -path "*/gid_attrs/*" -o -path "*/cm_*" \) -prune -o \( -type l -printf '%y %M %p -> %l\n' -o -printf '%y %M %p\n' \)
run sysfs-tree.txt find /sys/devices/virtual/infiniband/ -maxdepth 1

# --- sysfs: symlinks --------------------------------------------------------------
run readlink.txt readlink -f "/sys/class/infiniband/$dev" "/sys/class/net/$nd/device" \
	"/sys/class/net/$nd" /sys/class/infiniband_verbs/uverbs0
run readlink.txt readlink "/sys/class/infiniband/$dev"
run readlink.txt readlink "$ib/device" "$ib/parent" "$ib/subsystem"
run readlink.txt readlink -f "$ib/device"
run readlink.txt readlink /sys/class/infiniband_verbs/uverbs0/device
run readlink.txt ls "/sys/class/net/$nd/device/infiniband/"

# --- sysfs: attribute values ------------------------------------------------------
p=$ib/ports/1
show sysfs-rxe0.txt "$ib"/node_type "$ib"/node_guid "$ib"/sys_image_guid "$ib"/fw_ver \
	"$ib"/hca_type "$ib"/board_id "$ib"/hw_rev "$ib"/node_desc "$ib"/parent \
	"$ib"/uevent "$ib"/device/vendor "$ib"/device/device "$ib"/device/numa_node
show sysfs-rxe0.txt "$p"/state "$p"/phys_state "$p"/rate "$p"/link_layer "$p"/lid \
	"$p"/lid_mask_count "$p"/sm_lid "$p"/sm_sl "$p"/cap_mask "$p"/has_smi
for i in 0 1 2 3 4 5; do
	show sysfs-rxe0-gids.txt "$p/gids/$i" "$p/gid_attrs/types/$i" "$p/gid_attrs/ndevs/$i"
done
show sysfs-rxe0-gids.txt "$p"/pkeys/0 "$p"/pkeys/1
run sysfs-rxe0-gids.txt sh -c "ls $p/gids | wc -l"
show sysfs-rxe0-counters.txt "$p"/counters/* "$p"/hw_counters/* "$ib"/hw_counters/*
show sysfs-uverbs.txt /sys/class/infiniband_verbs/abi_version \
	/sys/class/infiniband_verbs/uverbs0/ibdev /sys/class/infiniband_verbs/uverbs0/abi_version \
	/sys/class/infiniband_verbs/uverbs0/dev
show sysfs-netdev.txt "/sys/class/net/$nd"/{mtu,operstate,carrier,speed,duplex,address,type,dev_port,dev_id,ifindex} \
	"/sys/class/net/$nd/device"/{vendor,device,subsystem_vendor,subsystem_device,class,numa_node,local_cpulist}
run sysfs-netdev.txt readlink "/sys/class/net/$nd/device/driver"

# --- the PCIe path: the NIC and every bridge above it ---------------------------------
nic=$(readlink -f "/sys/class/net/$nd/device")
bdfs=()
d=$nic
while [ -n "$d" ] && [ "$d" != / ]; do
	b=${d##*/}
	[[ "$b" =~ ^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$ ]] && bdfs+=("$b")
	d=${d%/*}
done
# virtio-net is a virtio bus device under the PCI function: walk up from there.
echo "netdev $nd -> $nic; PCI path (device first): ${bdfs[*]}" >"$out/pci-path.txt"
run pci-path.txt lspci -tv
run pci-path.txt lspci -nn
n=0
for b in "${bdfs[@]}"; do
	if [ $n -eq 0 ]; then role=nic; else role=up$n; fi
	n=$((n + 1))
	f="lspci-vv-$role-${b//:/-}.txt"
	run "$f" lspci -vv -s "$b"
	run "$f" lspci -n -s "$b"
	s=/sys/bus/pci/devices/$b
	show pci-link-attrs.txt "$s"/{vendor,device,class,current_link_speed,current_link_width,max_link_speed,max_link_width,numa_node,local_cpulist}
	run pci-link-attrs.txt readlink "$s/driver"
	run pci-link-attrs.txt ls "$s"
done
for b in "${bdfs[@]}"; do
	lspci -vv -s "$b" | grep -E 'LnkCap:|LnkSta:' | sed "s/^/$b /"
done >"$out/lspci-lnk.txt"

# --- limits ---------------------------------------------------------------------------
run limits.txt cat /proc/self/limits
run limits.txt sh -c 'ulimit -l'
run limits.txt bash -c 'ulimit -l'

# --- a verbs round trip with perftest (loopback over rxe0) ----------------------------
if command -v ib_write_bw >/dev/null; then
	# the RoCE v2 GID with the IPv4 address
	gidx=
	for t in "$p"/gid_attrs/types/*; do
		i=${t##*/}
		if [ "$(cat "$t" 2>/dev/null)" = "RoCE v2" ] && grep -q ':ffff:' "$p/gids/$i"; then
			gidx=$i
			break
		fi
	done
	echo "RoCE v2 IPv4 GID index: ${gidx:-none}" >"$out/perftest.txt"
	if [ -n "$gidx" ]; then
		ulimit -l unlimited
		timeout 60 ib_write_bw -d "$dev" -x "$gidx" -D 2 -F >"$out/perftest-server.log" 2>&1 &
		srv=$!
		sleep 1
		run perftest.txt timeout 60 ib_write_bw -d "$dev" -x "$gidx" -D 2 -F "${VM_IP:-10.0.2.15}"
		wait $srv
		echo "[server exit $?]" >>"$out/perftest-server.log"
		mv "$out/perftest-server.log" "$out/perftest-server.txt"
		echo "hw_counters after the test:" >>"$out/perftest.txt"
		show perftest.txt "$p"/hw_counters/*
	fi
fi
# --- active_mtu follows the netdev MTU ---------------------------------------------------
for m in 9000 4200 4000 1500; do
	{
		echo "\$ ip link set $nd mtu $m"
		ip link set "$nd" mtu "$m" 2>&1
		sleep 0.5
		echo "$nd mtu: $(cat "/sys/class/net/$nd/mtu")"
		ibv_devinfo -d "$dev" | grep -E 'max_mtu|active_mtu'
	} >>"$out/mtu.txt"
done
exit 0
