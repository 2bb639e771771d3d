# Sourced by tests/vm/bw_loopback.sh and bench/bench_bw_loopback.sh, inside
# the test VM: two Soft-RoCE devices of the one host, rxe1 on v0 (10.9.0.1)
# and rxe2 on v1 (10.9.0.2), the two ends of a veth pair.  Two addresses of
# one host are routed through lo by default, and rxe drops what comes in on
# lo (no rxe netdev): as a host with two NICs on one subnet must, each
# address's traffic to the other leaves by its own port (policy rules for
# locally made packets, the local table after them, accept_local on the
# receiving side).  loopback_pair sets it up and sets g1 and g2, the index
# of each device's IPv4 RoCE v2 GID; 0, or 1 after saying what failed.

# gid_of DEV ADDR: the index of DEV's RoCE v2 GID of ADDR
gid_of() {
	local hex f i
	hex=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' $(tr . ' ' <<<"$2"))
	for i in $(seq 0 15); do
		f=/sys/class/infiniband/$1/ports/1/gids/$i
		[ "$(cat "$f" 2>/dev/null)" = "$hex" ] &&
			[ "$(cat "/sys/class/infiniband/$1/ports/1/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "$i"; return 0; }
	done
	return 1
}

loopback_pair() {
	ip link add v0 type veth peer name v1 || { echo "FAIL: veth"; return 1; }
	sysctl -qw net.ipv6.conf.v0.disable_ipv6=1 net.ipv6.conf.v1.disable_ipv6=1
	ip addr add 10.9.0.1/24 dev v0 && ip addr add 10.9.0.2/24 dev v1 &&
		ip link set v0 up && ip link set v1 up || { echo "FAIL: addresses"; return 1; }
	for i in all v0 v1; do sysctl -qw net.ipv4.conf.$i.accept_local=1 net.ipv4.conf.$i.rp_filter=0; done
	ip rule add pref 100 iif lo from 10.9.0.1 to 10.9.0.2 lookup 100 &&
		ip rule add pref 101 iif lo from 10.9.0.2 to 10.9.0.1 lookup 101 &&
		ip route add 10.9.0.2 dev v0 src 10.9.0.1 table 100 &&
		ip route add 10.9.0.1 dev v1 src 10.9.0.2 table 101 &&
		ip rule add pref 1000 lookup local && ip rule del pref 0 || { echo "FAIL: policy routing"; return 1; }
	rdma link add rxe1 type rxe netdev v0 && rdma link add rxe2 type rxe netdev v1 ||
		{ echo "FAIL: rdma link add"; return 1; }
	for t in $(seq 50); do
		g1=$(gid_of rxe1 10.9.0.1) && g2=$(gid_of rxe2 10.9.0.2) && break
		sleep 0.1
	done
	[ -n "${g1:-}" ] && [ -n "${g2:-}" ] || { echo "FAIL: no IPv4 RoCE v2 GID on rxe1/rxe2"; return 1; }
	return 0
}
