#!/bin/sh
# test_ibsim.sh IB_SMP_ASK: the InfiniBand neighbour reader against ibsim
# (tests.cmake says why), smpquery under the same preload the oracle.
set -u
ASK=$1
SIM_SO=${RD_UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
if [ ! -e "$SIM_SO" ]; then
	echo "SKIP: no $SIM_SO (apt-get install libumad2sim0)"
	exit 77
fi
# under the sanitizer build: the preload comes after ASan's runtime, and
# umad2sim's own overread (umad2sim.asan.supp) is not ours
ASAN_OPTIONS="verify_asan_link_order=0:suppressions=$(cd "$(dirname "$0")" && pwd)/umad2sim.asan.supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
tmp=$(mktemp -d)
sim_pid=
# shellcheck disable=SC2317  # run by the trap
cleanup() {
	[ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# Two rails, two hosts of one HCA per rail: host1 cabled right (rail k to
# leaf-rk), host2's two cables crossed (its rail 0 HCA reaches leaf-r1,
# port 2; its rail 1 HCA leaf-r0, port 2).  Port numbers differ on purpose.
cat > "$tmp/net" <<'NET'
Switch	8 "leaf-r0"
[1]	"host1-r0"[1]
[2]	"host2-r1"[1]

Switch	8 "leaf-r1"
[3]	"host1-r1"[1]
[2]	"host2-r0"[1]

Hca	1 "host1-r0"
[1]	"leaf-r0"[1]

Hca	1 "host1-r1"
[1]	"leaf-r1"[3]

Hca	1 "host2-r0"
[1]	"leaf-r1"[2]

Hca	1 "host2-r1"
[1]	"leaf-r0"[2]

Hca	1 "uncabled"
NET
export IBSIM_SOCKNAME="rdmadoctor-test-$$"
cd "$tmp" || exit 1

# No umad device at all (no preload, and no ib_umad here or a CA of
# that name): the reader says so, sends nothing.
out=$("$ASK" rd_no_such_ca 1)
rc=$?
if [ $rc != 1 ] || [ "$out" != "errno=19" ]; then
	no "no umad device: rc $rc, '$out' (want errno=19, ENODEV)"
fi

ibsim -s -n net >sim.log 2>&1 </dev/null &
sim_pid=$!
i=0
until grep -q "Network simulator ready" sim.log 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 50 ] && { no "ibsim did not start: $(cat sim.log)"; exit 1; }
	sleep 0.1
done

field() { sed -n "s/^$1:\.*//p"; }
for host in host1-r0 host1-r1 host2-r0 host2-r1; do
	got=$(SIM_HOST=$host LD_PRELOAD=$SIM_SO timeout 20 "$ASK" ibsim0 1 "$host.raw" 2>/dev/null)
	rc=$?
	desc=$(SIM_HOST=$host LD_PRELOAD=$SIM_SO timeout 20 smpquery -C ibsim0 -P 1 nodedesc -D 0,1 2>/dev/null |
		field "Node Description")
	ni=$(SIM_HOST=$host LD_PRELOAD=$SIM_SO timeout 20 smpquery -C ibsim0 -P 1 nodeinfo -D 0,1 2>/dev/null)
	guid=$(echo "$ni" | field Guid)
	port=$(echo "$ni" | field LocalPort)
	if [ -z "$desc" ] || [ -z "$guid" ] || [ -z "$port" ]; then
		no "$host: smpquery said nothing"
	fi
	want=$(printf 'system=%s\nport=%s\nchassis_id=%s\nsource=smp' "$desc" "$port" "$guid")
	if [ $rc != 0 ] || [ "$got" != "$want" ]; then
		no "$host: reader rc $rc said
$got
smpquery says
$want"
	fi
	[ "$(wc -c <"$host.raw")" = 512 ] || no "$host: the stored replies are not 512 bytes"
	echo "$host: $(echo "$got" | tr '\n' ' ')"
done
# the topology's facts, so that an oracle gone quiet cannot pass: the
# crossed host reaches the other rail's leaf, at the port the file names
SIM_HOST=host2-r0 LD_PRELOAD=$SIM_SO "$ASK" ibsim0 1 | grep -qx 'system=leaf-r1' ||
	no "host2-r0 should reach leaf-r1 (crossed)"
SIM_HOST=host2-r1 LD_PRELOAD=$SIM_SO "$ASK" ibsim0 1 | grep -qx 'port=2' ||
	no "host2-r1 should reach leaf-r0 port 2"
SIM_HOST=host1-r1 LD_PRELOAD=$SIM_SO "$ASK" ibsim0 1 | grep -qx 'port=3' ||
	no "host1-r1 should reach leaf-r1 port 3"

# An HCA with no cable: the SMP goes unanswered and the reader gives up
# within its bound (3 sends of 300 ms, then the wait): ETIMEDOUT.
start=$(date +%s)
out=$(SIM_HOST=uncabled LD_PRELOAD=$SIM_SO timeout 20 "$ASK" ibsim0 1 2>/dev/null)
rc=$?
if [ $rc != 1 ] || [ "$out" != "errno=110" ]; then
	no "uncabled: rc $rc, '$out' (want errno=110)"
fi
[ $(($(date +%s) - start)) -le 5 ] || no "uncabled: took longer than the bound"
exit $fail
