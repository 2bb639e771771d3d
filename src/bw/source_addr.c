/* bw_bind_source (source_addr.h). */
#include "source_addr.h"
#include "proto.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

int bw_bind_source(int fd, int family, const char *addr, struct bw_err *e)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_PASSIVE }, *res;
	int rc = getaddrinfo(addr, NULL, &hints, &res);

	if (rc) {
		bw_errf(e, "cannot leave from '%s' to reach this peer: %s", addr,
			gai_strerror(rc));
		return -1;
	}
	rc = bind(fd, res->ai_addr, res->ai_addrlen);
	if (rc < 0)
		bw_errf(e, "cannot leave from '%s': %s", addr, strerror(errno));
	freeaddrinfo(res);
	return rc;
}
