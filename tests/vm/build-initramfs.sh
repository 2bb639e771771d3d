#!/bin/bash
# build-initramfs.sh CACHEDIR
#
# Builds a tiny initramfs (busybox + the kernel modules the Soft-RoCE VM needs +
# tests/vm/init) for the newest installed Debian kernel /boot/vmlinuz-*, into
# CACHEDIR. Idempotent: nothing is rebuilt when the inputs did not change.
# Never writes outside CACHEDIR.
#
# Also caches the kernel uncompressed (CACHEDIR/vmlinux-VERSION, booted
# through PVH: saves the ~5 s the bzImage decompressor takes under TCG).
#
# On success prints two lines on stdout:
#   kernel=CACHEDIR/vmlinux-VERSION (or /boot/vmlinuz-VERSION)
#   initramfs=CACHEDIR/initramfs-VERSION.cpio.gz
# Exit 77 (one-line reason on stderr) when the host lacks what the VM needs
# (no kernel, no modules, no busybox); exit 1 on other errors, a module that
# is on disk but cannot be resolved among them.
#
# Environment: VM_KERNEL=/boot/vmlinuz-X picks a kernel instead of the newest.

set -euo pipefail

me=build-initramfs
skip() { echo "$me: $*" >&2; exit 77; }
die() { echo "$me: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: $0 CACHEDIR" >&2; exit 2; }
cachedir=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
init_src=$here/init

# Modules to load, in this order (dependencies are added by modprobe).
# crc32_generic: rxe computes its ICRC with the "crc32" shash; without it
# `rdma link add` fails with "No such file or directory".
# rdma_ucm: for librdmacm users (ib_write_bw -R, rping); ib_umad for ibstat.
# veth: the cabling test's switch ports (tests/vm/lldp_cabling.sh); the VM
# cannot load a module on demand.
MODULES="virtio_pci virtio_net 9pnet_virtio 9p overlay crc32_generic
         rdma_rxe ib_uverbs rdma_ucm ib_umad veth"

# --- pick the kernel --------------------------------------------------------
if [ -n "${VM_KERNEL:-}" ]; then
	kernel=$VM_KERNEL
else
	kernel=$(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)
fi
[ -n "$kernel" ] && [ -e "$kernel" ] || skip "no kernel /boot/vmlinuz-* (apt-get install linux-image-amd64)"
[ -r "$kernel" ] || skip "cannot read '$kernel': permission denied (run as root)"
kver=${kernel##*/vmlinuz-}
moddir=/lib/modules/$kver
[ -d "$moddir" ] || skip "no modules for kernel $kver in '$moddir'"

busybox=
for b in /bin/busybox /usr/bin/busybox; do
	if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then busybox=$b; break; fi
done
[ -n "$busybox" ] || skip "no static busybox (apt-get install busybox-static)"
command -v cpio >/dev/null || skip "no cpio"
command -v gzip >/dev/null || skip "no gzip"
command -v modprobe >/dev/null || skip "no modprobe (kmod)"
[ -r "$init_src" ] || die "missing '$init_src'"

# --- resolve the module list (ordered, de-duplicated) -----------------------
kos=()
declare -A seen=()
for m in $MODULES; do
	if ! deps=$(modprobe -S "$kver" --show-depends "$m" 2>/dev/null); then
		# a module on disk that modprobe cannot resolve is a host half set
		# up (modules.dep not yet written: a kernel package mid-install),
		# not a missing part: fail, so that it is seen
		[ -n "$(find "$moddir" -name "$m.ko*" -print -quit 2>/dev/null)" ] &&
			die "kernel $kver has module '$m' on disk, but modprobe cannot resolve it (is modules.dep written? depmod $kver)"
		skip "kernel $kver has no module '$m'"
	fi
	while read -r kind path _; do
		[ "$kind" = insmod ] || continue # "builtin X" lines need nothing
		[ -n "${seen[$path]:-}" ] && continue
		seen[$path]=1
		kos+=("$path")
	done <<<"$deps"
done

mkdir -p "$cachedir"
cachedir=$(cd "$cachedir" && pwd)
stage='' vmlinux=''
trap 'rm -rf ${stage:+"$stage"} "$cachedir"/*.tmp.$$' EXIT

# --- an uncompressed kernel for PVH boot --------------------------------------
# Under TCG the bzImage decompressor alone takes about 5 s per boot. QEMU boots
# an uncompressed ELF vmlinux directly through its PVH entry (CONFIG_PVH=y), so
# decompress the payload once (as the kernel's scripts/extract-vmlinux does)
# and cache it. Falls back to the bzImage when that is not possible.
extract_vmlinux() { # $1 = destination
	local fmt sig cmd off
	for fmt in xz zstd gzip; do
		case $fmt in
		xz) sig='\xfd7zXZ\x00'; cmd='xz -dc --single-stream' ;;
		zstd) sig='\x28\xb5\x2f\xfd'; cmd='zstd -qdc' ;;
		gzip) sig='\x1f\x8b\x08'; cmd='gzip -dc' ;;
		esac
		command -v ${cmd%% *} >/dev/null || continue
		for off in $(LC_ALL=C grep -obUaP "$sig" "$kernel" 2>/dev/null | cut -d: -f1 | head -n 5); do
			tail -c +$((off + 1)) "$kernel" | $cmd >"$1" 2>/dev/null
			if [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
				return 0
			fi
		done
	done
	rm -f "$1"
	return 1
}
boot=$kernel
if grep -qx 'CONFIG_PVH=y' "/boot/config-$kver" 2>/dev/null; then
	vmlinux=$cachedir/vmlinux-$kver
	vkey=$(stat -c '%n %s %Y' "$kernel")
	if [ -s "$vmlinux" ] && [ "$(cat "$vmlinux.key" 2>/dev/null)" = "$vkey" ]; then
		boot=$vmlinux
	elif extract_vmlinux "$vmlinux.tmp.$$"; then
		mv -f "$vmlinux.tmp.$$" "$vmlinux"
		echo "$vkey" >"$vmlinux.key"
		boot=$vmlinux
	else
		rm -f "$vmlinux.tmp.$$"
	fi
fi

# --- cache key: every input that changes the image ---------------------------
key=$(
	{
		echo "kver=$kver"
		sha256sum "$0" "$init_src" "$busybox"
		for ko in "${kos[@]}"; do stat -c '%n %s %Y' "$ko"; done
	} | sha256sum | cut -d' ' -f1
)

img=$cachedir/initramfs-$kver.cpio.gz
stamp=$img.key
if [ -s "$img" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
	printf 'kernel=%s\ninitramfs=%s\n' "$boot" "$img"
	exit 0
fi

# --- build --------------------------------------------------------------------
stage=$(mktemp -d "$cachedir/stage.XXXXXX")

mkdir -p "$stage"/{bin,dev,proc,sys,lower,newroot,rw,out,tmp,lib/modules}
cp "$busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$init_src" "$stage/init"
chmod 755 "$stage/init"

n=0
: >"$stage/lib/modules/order"
for ko in "${kos[@]}"; do
	n=$((n + 1))
	base=$(basename "$ko")
	name=$(printf '%02d-%s' "$n" "${base%%.ko*}.ko")
	case "$ko" in
	*.ko) cp "$ko" "$stage/lib/modules/$name" ;;
	*.ko.xz) xz -dc "$ko" >"$stage/lib/modules/$name" ;;
	*.ko.zst) zstd -qdc "$ko" >"$stage/lib/modules/$name" ;;
	*.ko.gz) gzip -dc "$ko" >"$stage/lib/modules/$name" ;;
	*) die "unknown module format '$ko'" ;;
	esac
	echo "$name" >>"$stage/lib/modules/order"
done
echo "$kver" >"$stage/kver"

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --owner=0:0 --reproducible) |
	gzip -n -1 >"$img.tmp.$$"
mv -f "$img.tmp.$$" "$img"
echo "$key" >"$stamp"
printf 'kernel=%s\ninitramfs=%s\n' "$boot" "$img"
