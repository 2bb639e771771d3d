/* NCCL's device and interface lists, as NCCL_IB_HCA and
 * NCCL_SOCKET_IFNAME take them: an optional "^" (every match is
 * excluded), then an optional "=" (names match exactly, else each is a
 * prefix: "mlx5_1" also selects mlx5_10), then a comma list of
 * "name[:port]".  Parsed from a job's value (outside bytes, fuzzed with
 * the env file by tests/fuzz/fuzz_nccl_env.c) and matched the way NCCL's
 * matchIfList does. */
#ifndef RD_NCCL_IF_LIST_H
#define RD_NCCL_IF_LIST_H

#include <stdbool.h>
#include <stddef.h>

#define IF_LIST_MAX 64		/* entries; more is refused */
#define IF_NAME_MAX 63		/* bytes of a name (NCCL keeps 63 too) */

struct if_entry {
	char name[IF_NAME_MAX + 1];
	int port;		/* -1: any port */
};

struct if_list {
	bool exclude, exact;
	struct if_entry e[IF_LIST_MAX];
	size_t n;
};

/* 0, or -1 with err set (a port that is no number, a name too long, too
 * many entries). */
int if_list_parse(const char *value, struct if_list *l, char *err, size_t errsz);
/* Whether entry e names dev:port (port -1: any). */
bool if_entry_matches(const struct if_entry *e, bool exact, const char *dev, int port);
/* Whether NCCL would use dev:port under l (the "^" applied). */
bool if_list_selects(const struct if_list *l, const char *dev, int port);

#endif
