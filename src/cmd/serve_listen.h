/* serve: the listening socket, opened here rather than by libmicrohttpd
 * so that a failure says why (address in use, not this machine's). */
#ifndef RD_CMD_SERVE_LISTEN_H
#define RD_CMD_SERVE_LISTEN_H

#include <stddef.h>

#include "cmd.h"

/* Whether arg is an address serve_listen_open takes: CMD_GO_ON, or
 * EXIT_USAGE after saying why, so that a mistyped --listen is refused
 * before the machine is read. */
int serve_listen_check(struct ctx *c, const char *arg);
/* Listen on "127.0.0.1:9879" or "[::1]:9879" (numeric: names are not
 * resolved; port 0 takes a free one).  Prints what failed; EXIT_OK with
 * *fd set, EXIT_USAGE for an address that is not one, EXIT_RUNTIME. */
int serve_listen_open(struct ctx *c, const char *arg, int *fd);
/* "127.0.0.1:9879" or "[::1]:9879" of the bound socket, "?" if unknown;
 * SERVE_LISTEN_NAME_MAX bytes hold any. */
#define SERVE_LISTEN_NAME_MAX 56
void serve_listen_name(int fd, char *out, size_t cap);

#endif
