/* GID choice for the bandwidth test: the rule on tables like the ones
 * Soft-RoCE and ConnectX ports show, and the local address towards a peer
 * on this host's real interfaces. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bw/gid_pick.h"

static struct gid_pick_entry v4(int idx, enum gid_pick_type t, const char *addr)
{
	struct gid_pick_entry e = { .index = idx, .type = t };
	struct in_addr a;

	e.gid[10] = e.gid[11] = 0xff;
	inet_pton(AF_INET, addr, &a);
	memcpy(e.gid + 12, &a, 4);
	return e;
}

static struct gid_pick_entry v6(int idx, enum gid_pick_type t, uint8_t first)
{
	struct gid_pick_entry e = { .index = idx, .type = t };

	e.gid[0] = first;
	e.gid[1] = first == 0xfe ? 0x80 : 0x01;
	e.gid[15] = 1;
	return e;
}

static void choose(void **state)
{
	/* a ConnectX port with two addresses: fe80 v1/v2, 10.1.0.5 v1/v2,
	 * 10.2.0.5 v1/v2, a global IPv6 v2 */
	struct gid_pick_entry t[] = {
		v6(0, GID_PICK_ROCE_V1, 0xfe), v6(1, GID_PICK_ROCE_V2, 0xfe),
		v4(2, GID_PICK_ROCE_V1, "10.1.0.5"), v4(3, GID_PICK_ROCE_V2, "10.1.0.5"),
		v4(4, GID_PICK_ROCE_V1, "10.2.0.5"), v4(5, GID_PICK_ROCE_V2, "10.2.0.5"),
		v6(6, GID_PICK_ROCE_V2, 0x20),
	};
	struct in_addr a;
	int exact;
	(void)state;

	/* the address that reaches the peer decides */
	inet_pton(AF_INET, "10.2.0.5", &a);
	assert_int_equal(gid_pick_choose(t, 7, &a, &exact), 5);
	assert_int_equal(exact, 1);
	inet_pton(AF_INET, "10.1.0.5", &a);
	assert_int_equal(gid_pick_choose(t, 7, &a, &exact), 3);
	/* an address not on this port: the best score, IPv4 v2 at the lowest index */
	inet_pton(AF_INET, "192.168.1.1", &a);
	assert_int_equal(gid_pick_choose(t, 7, &a, &exact), 3);
	assert_int_equal(exact, 0);
	assert_int_equal(gid_pick_choose(t, 7, NULL, &exact), 3);
	/* no IPv4 at all: global before link-local, v2 before v1 */
	assert_int_equal(gid_pick_choose(t, 2, NULL, &exact), 1);
	assert_int_equal(gid_pick_choose(&t[6], 1, NULL, &exact), 0);
	struct gid_pick_entry only_v1[] = { v6(0, GID_PICK_ROCE_V1, 0xfe), v4(1, GID_PICK_ROCE_V1, "10.1.0.5") };
	assert_int_equal(gid_pick_choose(only_v1, 2, NULL, &exact), 1);
	/* a v1 entry with the peer's address is not taken as "exact" */
	inet_pton(AF_INET, "10.1.0.5", &a);
	assert_int_equal(gid_pick_choose(only_v1, 2, &a, &exact), 1);
	assert_int_equal(exact, 0);
	/* nothing usable */
	struct gid_pick_entry ib[] = { v6(0, GID_PICK_IB, 0xfe) };
	assert_int_equal(gid_pick_choose(ib, 1, NULL, &exact), -1);
	assert_int_equal(gid_pick_choose(t, 0, NULL, &exact), -1);
}

static void local_address(void **state)
{
	struct ifaddrs *ifs = NULL;
	struct in_addr local, mine = { 0 };
	char err[200] = "", a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	(void)state;

	/* loopback: no interface subnet (loopback is skipped), the route's
	 * source is 127.0.0.1 */
	assert_int_equal(gid_pick_local_ipv4("127.0.0.1", &local, err, sizeof(err)), 0);
	assert_string_equal(inet_ntoa(local), "127.0.0.1");
	/* this host's own non-loopback address, if it has one: found by subnet */
	if (getifaddrs(&ifs) == 0) {
		for (struct ifaddrs *i = ifs; i; i = i->ifa_next)
			if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			    ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr) >> 24 != 127) {
				mine = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
				break;
			}
		freeifaddrs(ifs);
	}
	if (mine.s_addr) {
		inet_ntop(AF_INET, &mine, a, sizeof(a));
		assert_int_equal(gid_pick_local_ipv4(a, &local, err, sizeof(err)), 0);
		inet_ntop(AF_INET, &local, b, sizeof(b));
		assert_string_equal(a, b);
	}
	/* a name that cannot resolve */
	assert_int_equal(gid_pick_local_ipv4("no-such-host.invalid", &local, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot resolve peer 'no-such-host.invalid'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(choose),
		cmocka_unit_test(local_address),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
