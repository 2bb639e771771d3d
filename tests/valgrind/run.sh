#!/bin/sh
# rdmadoctor under valgrind on the largest fixtures and a snapshot: no
# invalid access, no uninitialised read, no leak.  usage: run.sh BINARY SRCDIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"
vg() {	# the tool's own exit codes (1: check found problems; 3 with ok3=1,
	# nothing to look at; 2 with ok2=1, a refusal) are fine: 99 is valgrind's
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect "$@" >/dev/null 2>"$tmp/vg"
	rc=$?
	if [ $rc -le 1 ] || { [ $rc -eq 3 ] && [ "${ok3:-}" = 1 ]; } ||
		{ [ $rc -eq 2 ] && [ "${ok2:-}" = 1 ]; }; then
		ok
	else
		bad "valgrind $*"; cat "$tmp/vg"
	fi
}
for shape in dgx-h100 broken hgx-roce-lag; do
	root=$src/tests/fixtures/$shape/root
	vg "$bin" --root "$root" -v --json inventory
	vg "$bin" --root "$root" inventory
	vg "$bin" --root "$root" gids
	vg "$bin" --root "$root" --json topo
	vg "$bin" --root "$root" check
	vg "$bin" --root "$root" --json check
done
vg "$bin" --root "$src/tests/fixtures/roce-broken/root" --json check
# neighbours from lldpd: hgx-roce-lag with a real recording at .rdmadoctor/lldp/neighbors,
# its interfaces renamed to a rail and a LAG slave (the parser, the table, the LAG words)
mkdir -p "$tmp/lldp"
cp -a "$src/tests/fixtures/hgx-roce-lag/root" "$tmp/lldp/root"
mkdir -p "$tmp/lldp/root/.rdmadoctor/lldp"
sed -e "s/\"r0\"/\"enp24s0np0\"/" -e "s/\"r1\"/\"ens9f0np0\"/" \
	"$src/tests/fixtures/lldp/lldpd-1.0.16-two-ports.json" >"$tmp/lldp/root/.rdmadoctor/lldp/neighbors"
vg "$bin" --root "$tmp/lldp/root" -v --json inventory
vg "$bin" --root "$tmp/lldp/root" inventory
vg "$bin" --root "$tmp/lldp/root" topo
vg "$bin" --root "$tmp/lldp/root" snapshot "$tmp/lldp/snap"
vg "$bin" profiles
vg "$bin" profiles show dgx-h100
vg "$bin" --root "$src/tests/fixtures/broken/root" snapshot "$tmp/snap"
vg "$bin" --root "$tmp/snap" --json inventory
vg "$bin" inventory
# counters over time: a second reading of the same machine, and one whose
# ports went away (a copy with two cards pulled); another machine's
# reading is refused (exit 2), which must free what it read too
fx=$src/tests/fixtures
vg "$bin" --root "$fx/dgx-h100/root" watch --until "$fx/dgx-h100/root" --duration 60
cp -a "$fx/dgx-h100/root" "$tmp/pulled"
rm -f "$tmp/pulled/sys/class/infiniband/mlx5_1" "$tmp/pulled/sys/class/infiniband/mlx5_2"
vg "$bin" --root "$fx/dgx-h100/root" --json watch --until "$tmp/pulled" --duration 60
vg "$bin" --root "$fx/dgx-h100/root" check --window 60 --until "$tmp/pulled"
ok2=1 vg "$bin" --root "$fx/dgx-h100/root" --json watch --until "$fx/broken/root" --duration 60
ok2=1 vg "$bin" --root "$fx/hgx-roce-lag/root" check --window 60 --until "$fx/dgx-h100/root"
# the agent's memory: a first run, a flap remembered, a malformed memory,
# clear (docs/state.md)
cp -a "$fx/a800-8x100g-roce/root" "$tmp/latch"
mkdir -p "$tmp/latch/proc/sys/kernel/random"
echo 6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70 >"$tmp/latch/proc/sys/kernel/random/boot_id"
vg "$bin" --root "$tmp/latch" check --state "$tmp/latch-state"
echo 9 >"$tmp/latch/sys/class/net/enp25s0np0/carrier_changes"
vg "$bin" --root "$tmp/latch" --json check --state "$tmp/latch-state"
vg "$bin" clear --state "$tmp/latch-state" link.flaps
echo garbage >"$tmp/latch-state/latched"
vg "$bin" --root "$tmp/latch" check --state "$tmp/latch-state"
# live: a machine without RDMA devices has nothing to watch (exit 3), and
# that path must be as clean as the other
ok3=1 vg "$bin" watch --interval 0.2 --duration 0.5 --json
# ethtool statistics, PFC and CNPs over the window; a LAG's slaves; link modes
vg "$bin" --root "$fx/roce-broken/root" watch --until "$fx/roce-broken/root" --duration 60
vg "$bin" --root "$fx/hgx-roce-lag/root" --json watch --until "$fx/hgx-roce-lag/root" --duration 60
vg "$bin" --root "$fx/roce-broken/root" ethtool-stats --link enp91s0np0
vg "$bin" watch --netdev lo --interval 0.2 --duration 0.4 --json
# a job's environment: the advice, and a bad one judged (NCCL's and HCCL's)
vg "$bin" --root "$fx/roce-broken/root" --json nccl
vg "$bin" --root "$fx/roce-broken/root" nccl --check --env "$src/tests/nccl/envs/roce-broken--tc_no_pfc.env"
vg "$bin" --root "$fx/dgx-h100/root" check --env "$src/tests/nccl/envs/dgx-h100--hca_storage.env"
vg "$bin" --root "$fx/atlas-800-9000/root" nccl
vg "$bin" --root "$fx/atlas-800-9000/root" --json nccl --check --env "$src/tests/nccl/envs/atlas-800-9000--hccl_sl_no_pfc.env"
tally_done
