#!/bin/bash
# vm-run.sh [OPTIONS] -- COMMAND [ARG...]
#
# Boots a throw-away QEMU VM (TCG) with this host's Debian kernel, a tiny
# initramfs (build-initramfs.sh) and the host's root filesystem shared
# read-only over 9p (with a tmpfs overlay: writes stay inside the VM), brings
# up a virtio NIC behind a PCIe root port with a Soft-RoCE device (rxe0) on it,
# and runs COMMAND in the host root, in the same working directory as here.
#
# Options:
#   --outdir DIR     keep the results in DIR (created; default: a temporary
#                    directory, removed at the end)
#   --timeout SEC    limit for the whole VM run (default 180; the command gets
#                    SEC-30, at least 10)
#   --cache-dir DIR  where the initramfs is cached (default $VM_CACHE_DIR, else
#                    ${TMPDIR:-/tmp}/rdmadoctor-vm-cache)
#   -e NAME=VALUE    export NAME=VALUE to the command (repeatable)
#   -v               print the VM's setup log and timing on stderr
#
# Inside the VM the command sees: VM_OUT (the outdir, mounted writable at the
# same absolute path as on the host: files written there come back),
# VM_RDMA_DEV=rxe0, VM_NETDEV (eth0), VM_IP (10.0.2.15).
#
# Results in the outdir (names starting with vm- are the harness's):
#   vm-stdout vm-stderr vm-exit-code   the command's output and status
#   vm-console.log vm-setup.log vm-dmesg.log vm-timing   diagnostics
# The command's stdout and stderr are also replayed on this script's stdout
# and stderr.
#
# Environment: VM_KERNEL (a /boot/vmlinuz-*), VM_QEMU, VM_MEM (MiB, 1024),
# VM_SMP (vCPUs, 1; 2 lets a busy-polling server and client run side by side),
# VM_CPU (max), VM_TIMEOUT, VM_CACHE_DIR.
#
# Exit status: the command's; 77 (skip) only when this host lacks what the VM
# needs (no qemu, no kernel, no modules, no busybox); 124 when the VM or the
# command ran out of time; 125 when qemu failed, or the VM could not set up
# (e.g. rdma link add failed) or died before the command finished.

set -uo pipefail

me=vm-run
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "$me: $*" >&2; exit 77; }
usage() {
	[ -n "${1:-}" ] && echo "$me: $1" >&2
	echo "usage: $0 [--outdir DIR] [--timeout SEC] [--cache-dir DIR] [-e NAME=VALUE]... [-v] -- COMMAND [ARG...]" >&2
	exit 2
}

outdir=
timeout_s=${VM_TIMEOUT:-180}
cachedir=${VM_CACHE_DIR:-${TMPDIR:-/tmp}/rdmadoctor-vm-cache}
verbose=0
envs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--outdir) [ $# -ge 2 ] || usage "--outdir needs a directory"; outdir=$2; shift 2 ;;
	--outdir=*) outdir=${1#*=}; shift ;;
	--timeout) [ $# -ge 2 ] || usage "--timeout needs seconds"; timeout_s=$2; shift 2 ;;
	--timeout=*) timeout_s=${1#*=}; shift ;;
	--cache-dir) [ $# -ge 2 ] || usage "--cache-dir needs a directory"; cachedir=$2; shift 2 ;;
	--cache-dir=*) cachedir=${1#*=}; shift ;;
	-e | --env) [ $# -ge 2 ] || usage "-e needs NAME=VALUE"; envs+=("$2"); shift 2 ;;
	-v | --verbose) verbose=1; shift ;;
	-h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--) shift; break ;;
	*) usage "unknown option '$1'" ;;
	esac
done
[ $# -gt 0 ] || usage "no command given"
[[ "$timeout_s" =~ ^[0-9]+$ ]] && [ "$timeout_s" -ge 20 ] || usage "--timeout must be a number of seconds >= 20"
for e in ${envs[@]+"${envs[@]}"}; do
	[[ "$e" =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || usage "bad -e '$e' (want NAME=VALUE)"
done

t0=$(date +%s.%N)

# --- what the VM needs from the host ----------------------------------------
qemu=${VM_QEMU:-$(command -v qemu-system-x86_64 || true)}
[ -n "$qemu" ] && [ -x "$qemu" ] || skip "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
command -v timeout >/dev/null || skip "no timeout(1)"
[ -x /bin/bash ] && [ -x /usr/bin/env ] || skip "host root lacks /bin/bash or /usr/bin/env"
PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v rdma >/dev/null ||
	skip "no rdma(8) in the host root (apt-get install iproute2)"

built=$("$here/build-initramfs.sh" "$cachedir") ; brc=$?
case $brc in
0) ;;
77) exit 77 ;; # reason already printed
*) echo "$me: building the initramfs failed (exit $brc)" >&2; exit 125 ;;
esac
kernel=$(sed -n 's/^kernel=//p' <<<"$built")
initrd=$(sed -n 's/^initramfs=//p' <<<"$built")

# --- the out share --------------------------------------------------------------
keep=1
if [ -z "$outdir" ]; then
	outdir=$(mktemp -d "${TMPDIR:-/tmp}/rdmadoctor-vm.XXXXXX") || exit 125
	keep=0
fi
mkdir -p "$outdir" || exit 125
outdir=$(cd "$outdir" && pwd -P)
case "$outdir" in
/proc | /proc/* | /sys | /sys/* | /dev | /dev/* | /run | /run/* | /)
	usage "--outdir cannot be under /proc, /sys, /dev or /run (the VM mounts its own there)" ;;
esac
rm -f "$outdir"/vm-stdout "$outdir"/vm-stderr "$outdir"/vm-exit-code \
	"$outdir"/vm-console.log "$outdir"/vm-setup.log "$outdir"/vm-dmesg.log \
	"$outdir"/vm-timing "$outdir"/vm-setup-failed "$outdir"/vm-config \
	"$outdir"/vm-job.sh "$outdir"/vm-qemu.log
cleanup() { [ "$keep" = 1 ] || rm -rf "$outdir"; }
trap cleanup EXIT

sq() { printf "'%s'" "${1//\'/\'\\\'\'}"; } # single-quote for busybox sh

cmd_timeout=$((timeout_s - 30))
[ $cmd_timeout -lt 10 ] && cmd_timeout=10
{
	echo "OUTPATH=$(sq "$outdir")"
	echo "RDMA_DEV=rxe0"
	echo "VM_IP=10.0.2.15"
	echo "CMD_TIMEOUT=$cmd_timeout"
} >"$outdir/vm-config"

cwd=$(pwd -P)
{
	echo '#!/bin/bash'
	echo '# generated by vm-run.sh: the command to run inside the VM'
	for e in ${envs[@]+"${envs[@]}"}; do
		printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"
	done
	printf 'cd -- %q || { echo "vm-run: cannot cd to %q inside the VM" >&2; exit 126; }\n' "$cwd" "$cwd"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$outdir/vm-job.sh"

# --- boot -------------------------------------------------------------------------
# The kernel is the cached uncompressed vmlinux when there is one (PVH boot).
# q35 with a PCIe root port whose link capability (16 GT/s x16) differs from
# what the virtio NIC below it negotiates, like a badly seated card.
# The NIC uses slirp with restrict=on: the guest reaches only its own
# user-mode network, nothing outside.
# shellcheck disable=SC2054 # commas are QEMU option syntax
qemu_args=(
	-M q35 -accel tcg -cpu "${VM_CPU:-max}" -smp "${VM_SMP:-1}" -m "${VM_MEM:-1024}"
	-nodefaults -no-user-config -display none -monitor none -no-reboot
	-serial "file:${outdir//,/,,}/vm-console.log"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 quiet loglevel=4 rdinit=/init"
	-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1,x-speed=16,x-width=16
	-netdev user,id=n0,restrict=on
	-device virtio-net-pci,netdev=n0,bus=rp1
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=${outdir//,/,,},mount_tag=out,security_model=none"
)
t1=$(date +%s.%N)
timeout -k 10 "$timeout_s" "$qemu" "${qemu_args[@]}" </dev/null >"$outdir/vm-qemu.log" 2>&1
qrc=$?
t2=$(date +%s.%N)

if [ "$verbose" = 1 ]; then
	echo "--- $me: vm-setup.log" >&2
	cat "$outdir/vm-setup.log" >&2 2>/dev/null
	echo "--- $me: vm-timing (seconds since kernel start)" >&2
	cat "$outdir/vm-timing" >&2 2>/dev/null
	cat "$outdir/vm-timing" 2>/dev/null | awk -v a="$t0" -v b="$t1" -v c="$t2" '
		$1 == "command-start" { s = $2 } $1 == "command-end" { e = $2 }
		END {
			printf "host: prepare %.1f s, qemu %.1f s, total %.1f s\n", b - a, c - b, c - a
			if (s != "" && e != "")
				printf "boot to command %.1f s (guest uptime %.1f s), command %.1f s\n", (c - b) - (e - s), s, e - s
		}' >&2
fi

# --- results ------------------------------------------------------------------
[ -f "$outdir/vm-stdout" ] && cat "$outdir/vm-stdout"
[ -f "$outdir/vm-stderr" ] && cat "$outdir/vm-stderr" >&2

console_tail() {
	echo "--- $me: last lines of the VM console ($outdir/vm-console.log):" >&2
	tail -n 20 "$outdir/vm-console.log" >&2 2>/dev/null
	keep=1
}

if [ -s "$outdir/vm-exit-code" ]; then
	rc=$(cat "$outdir/vm-exit-code")
	[[ "$rc" =~ ^[0-9]+$ ]] || rc=125
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "$me: the command ran out of time (${cmd_timeout} s)" >&2
		rc=124
	fi
	exit "$rc"
fi
if [ -s "$outdir/vm-setup-failed" ]; then
	echo "$me: vm setup failed: $(head -n 1 "$outdir/vm-setup-failed")" >&2
	console_tail
	exit 125
fi
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "$me: the VM ran out of time (${timeout_s} s)" >&2
	console_tail
	exit 124
fi
# qemu is there (checked above): one that fails, with or without a word on
# the console, is a failure to see, never a skip
if ! [ -s "$outdir/vm-console.log" ]; then
	echo "$me: qemu failed before the kernel printed anything (exit $qrc): $(head -n 3 "$outdir/vm-qemu.log")" >&2
	exit 125
fi
echo "$me: the VM stopped before the command finished (qemu exit $qrc)" >&2
console_tail
exit 125
