/* Which peers a bw/lat server serves (--allow CIDR, repeatable): the
 * parser of a CIDR and the match of a connected peer's address. */
#ifndef RD_BW_ALLOW_H
#define RD_BW_ALLOW_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "engine.h"

#define BW_ALLOW_MAX 32

struct bw_allow {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];	/* network order; the first 4 bytes for IPv4 */
	unsigned prefix;	/* bits that must match */
};

/* "10.0.0.0/8", "fd00::/64", or a bare address (all its bits).  0, or -1
 * with e set. */
int bw_allow_parse(const char *cidr, struct bw_allow *out, struct bw_err *e);
/* Whether sa (a connected peer; an IPv4-mapped IPv6 address counts as the
 * IPv4 it is) is in one of the n entries.  n == 0: every peer is. */
bool bw_allow_match(const struct bw_allow *list, unsigned n, const struct sockaddr *sa);
/* Whether a --bind ADDR reaches only this host: 127.0.0.0/8, ::1, an
 * IPv4-mapped 127 address, or "localhost".  NULL (every address) is not. */
bool bw_addr_loopback(const char *addr);

#endif
