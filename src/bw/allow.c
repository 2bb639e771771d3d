/* bw_allow_* (allow.h). */
#include "allow.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bw_allow_parse(const char *cidr, struct bw_allow *out, struct bw_err *e)
{
	char host[INET6_ADDRSTRLEN];
	const char *slash = strchr(cidr, '/');
	size_t hl = slash ? (size_t)(slash - cidr) : strlen(cidr);
	unsigned bits;

	memset(out, 0, sizeof(*out));
	if (hl == 0 || hl >= sizeof(host))
		goto bad;
	memcpy(host, cidr, hl);
	host[hl] = 0;
	if (inet_pton(AF_INET, host, out->addr) == 1) {
		out->family = AF_INET;
		bits = 32;
	} else if (inet_pton(AF_INET6, host, out->addr) == 1) {
		out->family = AF_INET6;
		bits = 128;
	} else {
		goto bad;
	}
	out->prefix = bits;
	if (slash) {
		const char *p = slash + 1;
		char *end;
		unsigned long v;

		/* digits only: strtoul would take " 8", "+8" and "-0" */
		if (*p < '0' || *p > '9' || strlen(p) > 3)
			goto bad;
		v = strtoul(p, &end, 10);
		if (*end || v > bits)
			goto bad;
		out->prefix = (unsigned)v;
	}
	/* ::ffff:10.0.0.0/104 is the IPv4 network it names: the peers it
	 * means come as IPv4 (bw_allow_match) */
	if (out->family == AF_INET6 && out->prefix >= 96 &&
	    IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)out->addr)) {
		memmove(out->addr, out->addr + 12, 4);
		memset(out->addr + 4, 0, 12);
		out->family = AF_INET;
		out->prefix -= 96;
	}
	return 0;
bad:
	bw_errf(e, "'%.64s' is not an address or a network (10.0.0.0/8, fd00::/64)", cidr);
	return -1;
}

static bool in_prefix(const uint8_t *net, const uint8_t *addr, unsigned prefix)
{
	unsigned whole = prefix / 8, rest = prefix % 8;

	if (memcmp(net, addr, whole) != 0)
		return false;
	if (!rest)
		return true;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));

	return (net[whole] & mask) == (addr[whole] & mask);
}

bool bw_allow_match(const struct bw_allow *list, unsigned n, const struct sockaddr *sa)
{
	static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	uint8_t addr[16], mapped[16];	/* an IPv4 peer also as ::ffff:a.b.c.d */
	int family;

	if (n == 0)
		return true;
	if (sa->sa_family == AF_INET) {
		family = AF_INET;
		memcpy(addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		const uint8_t *a6 = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;

		family = AF_INET6;
		memcpy(addr, a6, 16);
		if (memcmp(a6, v4mapped, sizeof(v4mapped)) == 0) {
			family = AF_INET;	/* a dual-stack listener's IPv4 peer */
			memcpy(addr, a6 + 12, 4);
		}
	} else {
		return false;	/* no address to judge: not allowed */
	}
	memcpy(mapped, v4mapped, sizeof(v4mapped));
	memcpy(mapped + 12, addr, 4);
	for (unsigned i = 0; i < n; i++) {
		if (list[i].family == family && in_prefix(list[i].addr, addr, list[i].prefix))
			return true;
		/* an IPv6 network wider than the v4-mapped block
		 * (::ffff:10.0.0.1/20) holds IPv4 peers too */
		if (family == AF_INET && list[i].family == AF_INET6 &&
		    in_prefix(list[i].addr, mapped, list[i].prefix))
			return true;
	}
	return false;
}

bool bw_addr_loopback(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (!addr)
		return false;
	if (strcmp(addr, "localhost") == 0)
		return true;
	if (inet_pton(AF_INET, addr, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, addr, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6) ||
		       (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
	return false;
}
