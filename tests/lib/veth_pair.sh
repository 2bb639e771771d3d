# Two hosts for a test: two network namespaces joined by a veth pair, made
# by the test itself and removed on exit.  Sourced, not run:
#
#   . "$here/../lib/veth_pair.sh"
#   cleanup() { ...; veth_pair_remove; }
#   trap cleanup EXIT
#   veth_pair rdxy 10.231      # or exit 1
#   n1 CMD...; n2 CMD...       # run in the first / second namespace
#
# veth_pair PREFIX NET sets ns1 ns2 (namespaces PREFIX1_PID, PREFIX2_PID),
# va vb (the veth ends, PREFIXaPID in ns1, PREFIXbPID in ns2) and a1 a2
# (their addresses, a /30 inside NET.x.y chosen from the PID, so tests
# running at once do not meet).  Exits 77 (skipped) when this machine
# cannot do it: not root, no `ip`, no namespaces, no veth.
veth_skip() { echo "SKIP: $*"; exit 77; }
n1() { ip netns exec "$ns1" "$@"; }
n2() { ip netns exec "$ns2" "$@"; }

veth_pair() {	# PREFIX NET
	[ "$(id -u)" = 0 ] || veth_skip "not root (network namespaces need CAP_SYS_ADMIN)"
	command -v ip >/dev/null || veth_skip "no ip (iproute2)"
	ns1=${1}1_$$ ns2=${1}2_$$ va=${1}a$$ vb=${1}b$$
	ip netns add "$ns1" 2>/dev/null || veth_skip "ip netns unavailable (cannot add a namespace)"
	ip netns add "$ns2" || veth_skip "ip netns unavailable"
	ip link add "$va" netns "$ns1" type veth peer name "$vb" netns "$ns2" ||
		veth_skip "cannot create a veth pair"
	local net=$2.$(( $$ / 64 % 256 )) oct=$(( $$ % 64 * 4 ))
	a1=$net.$((oct + 1)) a2=$net.$((oct + 2))
	n1 ip addr add "$a1/30" dev "$va" && n2 ip addr add "$a2/30" dev "$vb" &&
		n1 ip link set "$va" up && n2 ip link set "$vb" up &&
		n1 ip link set lo up && n2 ip link set lo up
}

# Every process still in the two namespaces is stopped first (TERM, then
# KILL after a second): a server started as `n2 CMD &` runs under a subshell
# that `kill $!` does not reach, and deleting a namespace ends nothing in it.
veth_pair_remove() {
	local ns pids
	for ns in ${ns1:-} ${ns2:-}; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		[ -n "$pids" ] || continue
		# shellcheck disable=SC2086 # one pid a word
		kill $pids 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ -n "$(ip netns pids "$ns" 2>/dev/null)" ] || break
			sleep 0.1
		done
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	done
	[ -n "${ns1:-}" ] && ip netns del "$ns1" 2>/dev/null
	[ -n "${ns2:-}" ] && ip netns del "$ns2" 2>/dev/null
	return 0
}
