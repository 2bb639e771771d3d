#!/bin/bash
# rdmadoctor fabric under a real four-node Slurm on this machine: munged,
# slurmctld and four `slurmd -N nodeN` started here inside one network
# namespace (fabs<pid>, so that their ports and the ranks' addresses are
# this test's alone), all state in a temporary directory.  Then
#
#   1. `srun -N 4 --mpi=pmix rdmadoctor fabric --lat`: 4 nodes named as
#      Slurm names them, 3 rounds as planned, a latency per pair, verdict
#      pass, exit 0;
#   2. the same with one node's rank slowed (tc): that node is named;
#   3. contrib/slurm/rdmadoctor-fabric-drain on that report: without
#      --drain it only says what it would do; with it, the named node is
#      drained with the suspect's reason and no other node is touched;
#      a second run leaves the first reason.
#
# usage: test_fabric_slurm.sh RDMADOCTOR-BINARY REPO-DIR
# exit 77 (skip) only when not root or Slurm/munge/tc are not installed.
set -u

BIN=$(realpath "$1")
REPO=$(realpath "$2")
HERE=$REPO/tests/fabric
DRAIN=$REPO/contrib/slurm/rdmadoctor-fabric-drain
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/munge.sh
. "$REPO/tests/lib/munge.sh"

skip() { echo "skip: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (slurmctld, slurmd and munged run as root/munge here)"
for tool in slurmctld slurmd scontrol srun munged mungekey munge runuser ip tc nsenter python3; do
	command -v "$tool" >/dev/null || skip "'$tool' not found: install Debian slurm-wlm, munge, iproute2"
done
id munge >/dev/null 2>&1 || skip "no 'munge' user: install Debian munge"
[ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] ||
	[ -n "$(find /usr/lib -name mpi_pmix.so 2>/dev/null | head -n 1)" ] ||
	skip "Slurm has no PMIx plugin (mpi_pmix.so)"

H=$(hostname -s)
NS=fabs$$
T=$(mktemp -d /tmp/rd-fabric-slurm.XXXXXX)
chmod 711 "$T"
STEP=setup
PIDS=()

fail() {
	echo "FAIL ($STEP): $*" >&2
	exit 1
}

stop_pid() {
	local pid=$1 i
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
}

cleanup() {
	local rc=$? p left
	trap - EXIT INT TERM
	fab_ranks_kill "$T"
	for p in "${PIDS[@]}"; do stop_pid "$p"; done
	munge_pid "$T" >/dev/null && stop_pid "$(munge_pid "$T")"
	wait 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	left=$(pgrep -af -- "$T/" || true)
	if [ -n "$left" ]; then
		echo "FAIL: processes left behind:" >&2
		echo "$left" >&2
		rc=1
	fi
	[ $rc -ne 0 ] && fab_dump "$T"/log/*.log "$T"/run*/err.0 "$T"/run*/srun.out
	fab_keep_or_remove "$T"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# nsenter, not `ip netns exec`: the latter remounts /sys, and slurmd wants
# the host's cgroup file system there
ns() { nsenter --net="/run/netns/$NS" "$@"; }
fab_netns "$NS" || skip "cannot make a network namespace with a veth pair"
ns tc qdisc add dev lo root handle 1: htb default 1 || fail htb
ns tc class add dev lo parent 1: classid 1:1 htb rate 20gbit quantum 65536
for i in 0 1 2 3; do
	ns ip addr add "10.213.0.$((10 + i))/32" dev lo
done
# shape SLOW-RANK|-1: each rank sends at 600 Mb/s, a slow one at 150 Mb/s both ways
shape() {
	local i rate
	ns tc filter del dev lo parent 1: 2>/dev/null
	for i in 0 1 2 3; do
		rate=600mbit
		[ "$i" = "$1" ] && rate=150mbit
		ns tc class replace dev lo parent 1: classid "1:$((10 + i))" htb rate $rate quantum 65536
		ns tc filter add dev lo parent 1: protocol ip prio 3 u32 \
			match ip src "10.213.0.$((10 + i))/32" flowid "1:$((10 + i))"
	done
	if [ "$1" -ge 0 ]; then
		ns tc class replace dev lo parent 1: classid 1:4 htb rate 150mbit quantum 65536
		ns tc filter add dev lo parent 1: protocol ip prio 2 u32 \
			match ip dst "10.213.0.$((10 + $1))/32" flowid 1:4
	fi
}

# ---- munge, slurmctld, four slurmd --------------------------------------------
mkdir -p "$T/state" "$T/log" "$T"/spool/node{1,2,3,4} "$T"/tmp/node{1,2,3,4}
munge_start "$T" || fail "munged did not start"
export SLURM_CONF=$T/slurm.conf
sed -e "s|@DIR@|$T|g" -e "s|@HOST@|$H|g" "$HERE/slurm.conf.in" >"$SLURM_CONF"

wait_for() {
	local secs=$1 what=$2 i
	shift 2
	for ((i = 0; i < secs * 4; i++)); do
		"$@" && return 0
		sleep 0.25
	done
	fail "$what: not within ${secs}s"
}
# nsenter execs the daemon: $! is the daemon itself
nsenter --net="/run/netns/$NS" slurmctld -D -f "$SLURM_CONF" >"$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
wait_for 20 "slurmctld answers" ns scontrol ping >/dev/null
for n in 1 2 3 4; do
	nsenter --net="/run/netns/$NS" slurmd -D -N "node$n" -f "$SLURM_CONF" \
		>"$T/log/slurmd.node$n.out" 2>&1 &
	PIDS+=($!)
done
all_idle() { [ "$(ns sinfo -h -o '%t %D' | tr -d '\n')" = "idle 4" ]; }
wait_for 40 "four idle nodes" all_idle

# fabric RUN ARGS...: srun on all four nodes, one task each
fabric() {
	local run=$1
	shift
	mkdir -p "$T/$run"
	ns timeout 120 srun -N 4 --ntasks-per-node=1 --mpi=pmix -t 3 \
		"$HERE/rank.sh" "$T/$run" "$BIN" --json fabric --transport tcp --duration 1.5 \
		--warmup 0.5 --tolerance 0.8 "$@" >"$T/$run/srun.out" 2>&1
}
rc0() { cat "$T/$1/rc.0" 2>/dev/null || echo none; }

# ---- 1. a healthy fabric -------------------------------------------------------
STEP="srun, healthy"
shape -1
fabric run1 --lat || fail "srun failed: $(tail -n 5 "$T/run1/srun.out")"
[ "$(rc0 run1)" = 0 ] || fail "rank 0 exit $(rc0 run1)"
python3 "$HERE/check_report.py" "$T/run1/out.0" "$T/run1/err.0" || fail "report"
names=$(python3 -c 'import json,sys; print(" ".join(sorted(n["name"] for n in json.load(open(sys.argv[1]))["nodes"])))' "$T/run1/out.0")
[ "$names" = "node1 node2 node3 node4" ] || fail "the nodes are not Slurm's names: $names"
python3 -c '
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
assert pairs and all((p.get("lat_usec") or 0) > 0 for p in pairs), pairs
' "$T/run1/out.0" || fail "--lat: not every pair has a latency"

# ---- 2. one slow node ------------------------------------------------------------
STEP="srun, a slow node"
shape 2
fabric run2
[ "$(rc0 run2)" = 1 ] || fail "rank 0 exit $(rc0 run2), expected 1"
SLOW=$(python3 -c 'import json,sys; print([n["name"] for n in json.load(open(sys.argv[1]))["nodes"] if n["rank"] == 2][0])' "$T/run2/out.0")
python3 "$HERE/check_report.py" "$T/run2/out.0" "$T/run2/err.0" "node:$SLOW:every partner" || fail "report"

# ---- 3. the drain wrapper --------------------------------------------------------
STEP="drain wrapper"
state() { ns scontrol show node "$1" | sed -n 's/^.*[[:space:]]State=\([^[:space:]]*\).*$/\1/p' | head -n 1; }
reason() { ns scontrol show node "$1" | sed -n 's/^[[:space:]]*Reason=//p' | head -n 1; }
out=$(ns "$DRAIN" "$T/run2/out.0" 2>&1) || fail "dry run exit $?: $out"
echo "$out" | grep -q "would drain $SLOW" || fail "dry run does not say what it would drain: $out"
case $(state "$SLOW") in *DRAIN*) fail "a dry run drained $SLOW" ;; esac
ns "$DRAIN" --drain "$T/run2/out.0" >"$T/drain.out" 2>&1 || fail "drain exit $?: $(cat "$T/drain.out")"
case $(state "$SLOW") in *DRAIN*) ;; *) fail "$SLOW not drained: $(state "$SLOW")" ;; esac
case $(reason "$SLOW") in "rdmadoctor fabric: slow with every partner"*) ;;
	*) fail "reason: $(reason "$SLOW")" ;; esac
for n in node1 node2 node3 node4; do
	[ "$n" = "$SLOW" ] && continue
	case $(state "$n") in *DRAIN*) fail "$n drained too" ;; esac
done
first=$(reason "$SLOW")
ns "$DRAIN" --drain "$T/run1/out.0" >/dev/null 2>&1 || fail "a passing report is not exit 0"
[ "$(reason "$SLOW")" = "$first" ] || fail "the reason changed: $(reason "$SLOW")"

echo "ok: fabric under a four-node Slurm (srun --mpi=pmix), drain wrapper"
