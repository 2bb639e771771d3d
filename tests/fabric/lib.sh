# shellcheck shell=bash
# What the fabric tests and bench/bench_fabric.sh share.  Sourced, not run.
#
#   fab_netns NS          one network namespace for every rank of a run: its
#                         loopback up, and a veth pair (10.213.0.250), since
#                         mpirun and slurmd want an interface besides
#                         loopback; 1 when it cannot be made
#   fab_ranks_kill DIR    kill -KILL the ranks that wrote DIR/*/pid.* (only
#                         what the test started, by id)
#   fab_dump FILE...      the tail of each file that exists, on stderr
#   fab_keep_or_remove T  KEEP=1: say where T is; else remove it
#   fail MSG, ns CMD, addr I   for a test of ranks in namespace $NS writing
#                         under $T: fail names $STEP, ns runs CMD in $NS, addr
#                         is rank I's 10.213.0.<10+I>
#   fab_harness           the EXIT trap of such a test (fab_cleanup): the ranks
#                         killed, $NS deleted, rank 0's stderr on failure

fab_netns() {
	local ns=$1
	ip netns add "$ns" || return 1
	ip netns exec "$ns" ip link set lo up &&
		ip netns exec "$ns" ip link add fabv0 type veth peer name fabv1 &&
		ip netns exec "$ns" ip addr add 10.213.0.250/32 dev fabv0 &&
		ip netns exec "$ns" ip link set fabv0 up &&
		ip netns exec "$ns" ip link set fabv1 up
}

fab_ranks_kill() {
	local f
	for f in "$1"/*/pid.*; do
		[ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}

fab_dump() {
	local f
	for f in "$@"; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 25 "$f" >&2; }
	done
	return 0
}

fab_keep_or_remove() {
	if [ -n "${KEEP:-}" ]; then
		echo "kept $1"
	else
		rm -rf "$1"
	fi
}

# The harness of a test of ranks in namespace $NS writing under $T (a
# script that needs another defines its own after sourcing this).
fail() {
	echo "FAIL ($STEP): $*" >&2
	exit 1
}
ns() { ip netns exec "$NS" "$@"; }
addr() { echo "10.213.0.$((10 + $1))"; }
fab_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	fab_ranks_kill "$T"
	ip netns del "$NS" 2>/dev/null
	[ "$rc" -ne 0 ] && fab_dump "$T"/*/err.0
	fab_keep_or_remove "$T"
	exit "$rc"
}
fab_harness() {
	trap fab_cleanup EXIT
	trap 'exit 130' INT TERM
}
