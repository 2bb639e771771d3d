/* Binding a socket's source address before connect(): for several test
 * endpoints on one host (each with its own address), so that traffic
 * leaves from the address the peer expects rather than the one routing
 * picks (for a local destination, the destination itself). */
#ifndef RD_BW_SOURCE_ADDR_H
#define RD_BW_SOURCE_ADDR_H

#include "engine.h"

/* Bind fd (of address family family) to the numeric address addr, any
 * port.  0, or -1 with e set. */
int bw_bind_source(int fd, int family, const char *addr, struct bw_err *e);

#endif
