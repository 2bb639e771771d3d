/* serve: the listening socket, opened here rather than by libmicrohttpd
 * so that a failure says why (address in use, not this machine's). */
#ifndef RD_HTTP_LISTEN_H
#define RD_HTTP_LISTEN_H

#include <stddef.h>

/* Whether arg is an address http_listen_open takes: 0, or -EINVAL with
 * why ("--listen 'x': give an IP address ..."), so that a mistyped
 * --listen is refused before the machine is read. */
int http_listen_check(const char *arg, char *why, size_t len);
/* Listen on "127.0.0.1:9879" or "[::1]:9879" (numeric: names are not
 * resolved; port 0 takes a free one).  0 with *fd set; -EINVAL for an
 * address that is not one; another negative errno when the socket could
 * not listen; why says it ("cannot listen on 'x': ..."). */
int http_listen_open(const char *arg, int *fd, char *why, size_t len);
/* "127.0.0.1:9879" or "[::1]:9879" of the bound socket, "?" if unknown;
 * HTTP_LISTEN_NAME_MAX bytes hold any. */
#define HTTP_LISTEN_NAME_MAX 56
void http_listen_name(int fd, char *out, size_t cap);

#endif
