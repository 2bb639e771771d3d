/* serve's listening socket (listen.h). */
#include "listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* "127.0.0.1:9879", "[::1]:9879": numeric only, names are not resolved. */
static bool parse_listen(const char *arg, struct sockaddr_storage *ss, socklen_t *len)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon, *port_s;
	char *end;
	size_t hlen;
	long port;

	memset(ss, 0, sizeof(*ss));
	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');

		if (!close || close[1] != ':')
			return false;
		hlen = (size_t)(close - arg - 1);
		if (hlen == 0 || hlen >= sizeof(host))
			return false;
		memcpy(host, arg + 1, hlen);
		port_s = close + 2;
	} else {
		colon = strrchr(arg, ':');
		if (!colon || colon == arg)
			return false;
		hlen = (size_t)(colon - arg);
		if (hlen >= sizeof(host))
			return false;
		memcpy(host, arg, hlen);
		port_s = colon + 1;
	}
	host[hlen] = '\0';
	errno = 0;
	port = strtol(port_s, &end, 10);
	if (!*port_s || *end || errno || port < 0 || port > 65535 || port_s[0] == '-' ||
	    port_s[0] == '+' || port_s[0] == ' ')
		return false;
	if (arg[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		*len = sizeof(*a);
		return inet_pton(AF_INET6, host, &a->sin6_addr) == 1;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		*len = sizeof(*a);
		return inet_pton(AF_INET, host, &a->sin_addr) == 1;
	}
}

static int not_an_address(const char *listen_arg, char *why, size_t len)
{
	snprintf(why, len, "--listen '%s': give an IP address and a port from 0 to 65535, "
		 "e.g. 127.0.0.1:9879 or [::1]:9879 (names are not resolved)", listen_arg);
	return -EINVAL;
}

int http_listen_check(const char *listen_arg, char *why, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl;

	return parse_listen(listen_arg, &ss, &sl) ? 0 : not_an_address(listen_arg, why, len);
}

int http_listen_open(const char *listen_arg, int *fd_out, char *why, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int one = 1, fd;

	if (!parse_listen(listen_arg, &ss, &sl))
		return not_an_address(listen_arg, why, len);
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, 1024) < 0) {
		int err = errno;

		snprintf(why, len, "cannot listen on '%s': %s%s", listen_arg, strerror(err),
			 err == EADDRINUSE ? " (another server has this port: give another "
			 "with --listen)" : err == EADDRNOTAVAIL ?
			 " (not an address of this machine)" : "");
		if (fd >= 0)
			close(fd);
		return err == EINVAL ? -EIO : -err;
	}
	*fd_out = fd;
	return 0;
}

void http_listen_name(int fd, char *out, size_t cap)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[INET6_ADDRSTRLEN];

	snprintf(out, cap, "?");
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return;
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;

		if (inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host)))
			snprintf(out, cap, "[%s]:%u", host, ntohs(a->sin6_port));
	} else {
		const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;

		if (inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host)))
			snprintf(out, cap, "%s:%u", host, ntohs(a->sin_port));
	}
}
