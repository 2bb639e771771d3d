/* Which GID a bandwidth test uses on a RoCE port: the RoCE v2 entry holding
 * the IPv4 address of the netdev that reaches the peer, so both sides pick
 * v2 with v2 without anyone looking up an index by hand.  On InfiniBand no
 * GID is used (LID addressing, no GRH).
 *
 * gid_pick_choose is the rule on a table (unit-tested on plain data);
 * gid_pick_local_ipv4 finds the local address towards the peer; gid_pick
 * joins both on a live device. */
#ifndef RD_BW_GID_PICK_H
#define RD_BW_GID_PICK_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

struct ibv_context;

enum gid_pick_type { GID_PICK_IB = 0, GID_PICK_ROCE_V1 = 1, GID_PICK_ROCE_V2 = 2 };

struct gid_pick_entry {
	int index;
	enum gid_pick_type type;
	uint8_t gid[16];
};

/* The index to use among t[0..n): the RoCE v2 entry whose IPv4-mapped GID is
 * *local (when local is not NULL); otherwise the best entry by perftest's
 * score (IPv4 first, then not link-local, then v2 over v1; lowest index on a
 * tie).  Returns the position in t, or -1 when no usable entry exists.
 * *exact tells whether the local address matched. */
int gid_pick_choose(const struct gid_pick_entry *t, size_t n, const struct in_addr *local, int *exact);

/* The local IPv4 address this host uses towards peer (a numeric address or
 * a name): the address of the interface whose subnet holds the peer, else
 * the source address of the kernel's route to it.  0 or -1 with err set. */
int gid_pick_local_ipv4(const char *peer, struct in_addr *local, char *err, size_t errlen);

struct gid_pick_result {
	int index;		/* -1 on InfiniBand: no GRH */
	enum gid_pick_type type;
	uint8_t gid[16];
	char text[48];		/* printable GID ("" on InfiniBand) */
	char why[160];		/* how it was chosen, for -v and the report */
};

/* Live choice on ctx/port.  is_roce: the port's link layer is Ethernet.
 * override >= 0 is the user's --gid-index (checked to exist); peer may be
 * NULL.  0, or -1 with err set. */
int gid_pick(struct ibv_context *ctx, int port, int is_roce, int override, const char *peer,
	     struct gid_pick_result *out, char *err, size_t errlen);

#endif
