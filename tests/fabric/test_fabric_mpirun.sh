#!/bin/bash
# rdmadoctor fabric under Open MPI's mpirun: 6 to 8 ranks on this machine,
# each on its own address, over TCP.  Everything runs inside one network
# namespace made here (fabw<pid>): the ranks' addresses 10.213.0.10.. on its
# loopback, shaped with tc htb (each rank sends at a fixed rate, so healthy
# pairs agree), the faults as slower classes:
#
#   1. 8 ranks; fab3 slowed both ways, the pair fab1-fab6 slowed only
#      between themselves: fab3 is named a node, fab1-fab6 a pair (slow
#      again when re-run alone), nobody else; the plan printed first is
#      the rounds that ran, a progress line per round, one JSON document,
#      exit 1;
#   2. 6 ranks, fab4 killed mid-run: it is named (died), nobody else, and
#      the run ends with verdict fail (exit 1);
#   3. a healthy 6-rank quick run passes (exit 0), text report verdict first;
#   3b. 4 ranks, rank 0 killed mid-run: every other rank ends by itself
#      (within --timeout and a little) with an error naming rank 0, exit 3;
#   4. a --pairs file that is not there, or malformed: a usage error on
#      every rank (exit 2, the file named), and rank 0's one JSON document,
#      verdict error;
#   5. outside a launcher: how to start it, exit 2.
#
# usage: test_fabric_mpirun.sh RDMADOCTOR-BINARY
# exit 77 (skip) when not root or mpirun/ip/tc are missing (the script says which).
set -u

BIN=$(realpath "$1")
HERE=$(dirname "$(realpath "$0")")
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (network namespaces and tc need it)"
for tool in mpirun ip tc python3; do
	command -v "$tool" >/dev/null || skip "no '$tool' (Debian openmpi-bin, iproute2, python3)"
done

NS=fabw$$
T=$(mktemp -d /tmp/fabw-mpirun.XXXXXX)
STEP=setup
RATE=600mbit	# every rank's sending
SLOW=150mbit	# a slow node's, or a slow pair's (the tcp drain after a window must fit the round)

fab_harness

fab_netns "$NS" || skip "cannot make a network namespace with a veth pair"
for i in 0 1 2 3 4 5 6 7; do
	ns ip addr add "$(addr $i)/32" dev lo || fail "address $i"
done

# shape [SLOW-NODE [PAIR-A PAIR-B]]: classes on the namespace's loopback
shape() {
	local x=${1:--1} a=${2:--1} b=${3:--1} i rate
	ns tc qdisc del dev lo root 2>/dev/null
	ns tc qdisc add dev lo root handle 1: htb default 1 || fail "htb"
	# PMIx and everything else: unshaped in practice
	ns tc class add dev lo parent 1: classid 1:1 htb rate 20gbit quantum 65536 || fail "class"
	if [ "$a" -ge 0 ]; then
		ns tc class add dev lo parent 1: classid 1:2 htb rate $SLOW quantum 65536
		ns tc class add dev lo parent 1: classid 1:3 htb rate $SLOW quantum 65536
		ns tc filter add dev lo parent 1: protocol ip prio 1 u32 \
			match ip src "$(addr "$a")/32" match ip dst "$(addr "$b")/32" flowid 1:2
		ns tc filter add dev lo parent 1: protocol ip prio 1 u32 \
			match ip src "$(addr "$b")/32" match ip dst "$(addr "$a")/32" flowid 1:3
	fi
	if [ "$x" -ge 0 ]; then
		ns tc class add dev lo parent 1: classid 1:4 htb rate $SLOW quantum 65536
		ns tc filter add dev lo parent 1: protocol ip prio 2 u32 \
			match ip dst "$(addr "$x")/32" flowid 1:4
	fi
	for i in 0 1 2 3 4 5 6 7; do
		rate=$RATE
		[ "$i" = "$x" ] && rate=$SLOW
		ns tc class add dev lo parent 1: classid "1:$((10 + i))" htb rate $rate quantum 65536 ||
			fail "class $i"
		ns tc filter add dev lo parent 1: protocol ip prio 3 u32 \
			match ip src "$(addr $i)/32" flowid "1:$((10 + i))" || fail "filter $i"
	done
}

# fabric RUN-NAME RANKS ARGS...: one mpirun in the namespace, in the background
fabric() {
	local run=$1 n=$2
	shift 2
	mkdir -p "$T/$run"
	ns timeout 180 mpirun --allow-run-as-root --oversubscribe --enable-recovery -np "$n" \
		"$HERE/rank.sh" "$T/$run" "$BIN" "$@" >"$T/$run/mpirun.out" 2>&1 &
	MPIRUN=$!
}

rank0_rc() { cat "$T/$1/rc.0" 2>/dev/null || echo none; }

# kill_rank RUN RANK LINE: once rank 0 printed LINE (or mpirun ended), the
# process mpirun started for RANK dies, as a crashed rank does: the wrapper
# and rdmadoctor under it
kill_rank() {
	local run=$1 rank=$2 line=$3 i
	for ((i = 0; i < 600; i++)); do
		grep -q "$line" "$T/$run/err.0" 2>/dev/null && break
		kill -0 "$MPIRUN" 2>/dev/null || break
		sleep 0.1
	done
	[ -s "$T/$run/pid.$rank" ] || fail "rank $rank never started"
	kill -KILL "$(cat "$T/$run/wrapper.$rank")" "$(cat "$T/$run/pid.$rank")" ||
		fail "cannot kill rank $rank"
}

quiet_ranks() {
	# ranks other than 0 print nothing on stdout
	local run=$1 n=$2 i
	for ((i = 1; i < n; i++)); do
		[ -s "$T/$run/out.$i" ] && fail "rank $i printed on stdout: $(head -c 200 "$T/$run/out.$i")"
	done
	return 0
}

COMMON=(--transport tcp --duration 1.5 --warmup 0.5 --tolerance 0.8 --timeout 60)

# ---- 1. a slow node and a slow pair ------------------------------------
STEP="slow node and slow pair"
shape 3 1 6
fabric run1 8 --json fabric "${COMMON[@]}"
wait "$MPIRUN" || fail "mpirun failed: $(tail -n 5 "$T/run1/mpirun.out")"
[ "$(rank0_rc run1)" = 1 ] || fail "rank 0 exit $(rank0_rc run1), expected 1 (suspects)"
quiet_ranks run1 8
python3 "$HERE/check_report.py" "$T/run1/out.0" "$T/run1/err.0" \
	"node:fab3:every partner" "pair:fab1-fab6:only between:slow again when re-run alone" || fail "report"

# ---- 2. a rank killed mid-run ------------------------------------------
STEP="rank killed mid-run"
shape
fabric run2 6 --json fabric "${COMMON[@]}"
kill_rank run2 4 "round 2/5 done"
wait "$MPIRUN"
[ -f "$T/run2/rc.0" ] || fail "rank 0 did not finish: $(tail -n 5 "$T/run2/mpirun.out")"
# rank 0 fetches each rank's results from the launcher, not through a fence
# (Open MPI 4.1's may never complete once a rank died): the dead rank is
# named and the others' results are judged
[ "$(rank0_rc run2)" = 1 ] || fail "rank 0 exit $(rank0_rc run2), expected 1: $(tail -n 3 "$T/run2/err.0")"
quiet_ranks run2 6
python3 "$HERE/check_report.py" "$T/run2/out.0" "$T/run2/err.0" "node:fab4:died" || fail "report"

# ---- 3. healthy, quick mode, text --------------------------------------
STEP="healthy quick run"
fabric run3 6 fabric "${COMMON[@]}" --mode quick
wait "$MPIRUN" || fail "mpirun failed"
[ "$(rank0_rc run3)" = 0 ] || fail "rank 0 exit $(rank0_rc run3): $(head -n 20 "$T/run3/out.0")"
head -n 1 "$T/run3/out.0" | grep -q "^fabric: PASS" || fail "verdict not first: $(head -n 3 "$T/run3/out.0")"
grep -q "^rails" "$T/run3/out.0" || fail "no per-rail summary"
grep -q "fabric plan: 6 nodes, 1 round (quick)" "$T/run3/err.0" || fail "plan: $(head -n 2 "$T/run3/err.0")"

# ---- 3b. rank 0 killed mid-run ----------------------------------------
STEP="rank 0 killed mid-run"
fabric run3b 4 --json fabric "${COMMON[@]}" --timeout 10
kill_rank run3b 0 "round 1/3 done"
wait "$MPIRUN"
# each rank wrote its exit status: it ended by itself, not by the test's
# timeout around mpirun
for i in 1 2 3; do
	[ "$(cat "$T/run3b/rc.$i" 2>/dev/null)" = 3 ] ||
		fail "rank $i exit $(cat "$T/run3b/rc.$i" 2>/dev/null || echo none), expected 3: $(tail -n 3 "$T/run3b/err.$i")"
	grep -q "rank 0" "$T/run3b/err.$i" || fail "rank $i does not say rank 0 is gone: $(tail -n 3 "$T/run3b/err.$i")"
done
quiet_ranks run3b 4

# ---- 4. a --pairs file that cannot be used: a usage error on every rank ----
STEP="a --pairs file missing or malformed"
printf '1 fab0\n' >"$T/bad-pairs"
for case in "no-such-file:cannot open" "bad-pairs:line 1: expected ROUND"; do
	file=${case%%:*} says=${case#*:}
	fabric "run4-$file" 2 --json fabric "${COMMON[@]}" --pairs "$T/$file"
	wait "$MPIRUN"
	for i in 0 1; do
		[ "$(cat "$T/run4-$file/rc.$i" 2>/dev/null)" = 2 ] ||
			fail "$file: rank $i exit $(cat "$T/run4-$file/rc.$i" 2>/dev/null || echo none), expected 2"
		grep -q "$file.*$says\|$says.*$file" "$T/run4-$file/err.$i" ||
			fail "$file: rank $i does not say what is wrong: $(head -n 2 "$T/run4-$file/err.$i")"
	done
	quiet_ranks "run4-$file" 2
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["test"] == "fabric" and d["verdict"] == "error", d
assert sys.argv[2] in d["reason"] and sys.argv[3] in d["reason"], d["reason"]
' "$T/run4-$file/out.0" "$file" "$says" ||
		fail "$file: not one document with verdict error: $(head -c 300 "$T/run4-$file/out.0")"
done

# ---- 5. outside a launcher ---------------------------------------------
STEP="outside a launcher"
out=$(env -u PMIX_NAMESPACE -u PMIX_RANK "$BIN" fabric 2>&1)
rc=$?
[ $rc = 2 ] || fail "exit $rc outside a launcher"
echo "$out" | grep -q "srun -N" || fail "does not say how to start it: $out"
"$BIN" fabric --mode sideways >/dev/null 2>&1
[ $? = 2 ] || fail "a bad --mode is not a usage error"

echo "ok: fabric under mpirun"
