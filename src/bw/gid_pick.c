/* GID selection for the bandwidth test (rule in gid_pick.h). */
#include "gid_pick.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/verbs.h>

static bool empty_gid(const uint8_t *g)
{
	static const uint8_t z[16];

	return memcmp(g, z, 16) == 0;
}

static bool v4_mapped(const uint8_t *g)
{
	static const uint8_t pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(g, pre, 12) == 0;
}

static int score(const struct gid_pick_entry *e)
{
	int s = 0;

	if (v4_mapped(e->gid))
		s += 100;
	if (!(e->gid[0] == 0xfe && (e->gid[1] & 0xc0) == 0x80))
		s += 10;
	if (e->type == GID_PICK_ROCE_V2)
		s += 2;
	else if (e->type == GID_PICK_ROCE_V1)
		s += 1;
	return s;
}

int gid_pick_choose(const struct gid_pick_entry *t, size_t n, const struct in_addr *local, int *exact)
{
	int best = -1, best_score = -1;

	*exact = 0;
	if (local) {
		for (size_t i = 0; i < n; i++) {
			if (t[i].type == GID_PICK_ROCE_V2 && v4_mapped(t[i].gid) &&
			    memcmp(t[i].gid + 12, &local->s_addr, 4) == 0) {
				*exact = 1;
				return (int)i;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		int s;

		if (empty_gid(t[i].gid) || t[i].type == GID_PICK_IB)
			continue;
		s = score(&t[i]);
		if (s > best_score || (s == best_score && t[i].index < t[best].index)) {
			best = (int)i;
			best_score = s;
		}
	}
	return best;
}

static int resolve_v4(const char *peer, struct in_addr *a, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res = NULL;
	int rc;

	if (inet_pton(AF_INET, peer, a) == 1)
		return 0;
	rc = getaddrinfo(peer, NULL, &hints, &res);
	if (rc != 0 || !res) {
		snprintf(err, errlen, "cannot resolve peer '%s' to an ipv4 address: %s", peer,
			 rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	*a = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	return 0;
}

int gid_pick_local_ipv4(const char *peer, struct in_addr *local, char *err, size_t errlen)
{
	struct in_addr pa;
	struct ifaddrs *ifs = NULL;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };
	socklen_t sl = sizeof(sa);
	int fd;

	if (resolve_v4(peer, &pa, err, errlen) != 0)
		return -1;
	/* The interface whose subnet holds the peer (also the peer's own
	 * interface when both ends are on this host). */
	if (getifaddrs(&ifs) == 0) {
		for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
			const struct sockaddr_in *ad = (const void *)i->ifa_addr;
			const struct sockaddr_in *nm = (const void *)i->ifa_netmask;

			if (!ad || !nm || ad->sin_family != AF_INET || nm->sin_family != AF_INET)
				continue;
			if (ntohl(ad->sin_addr.s_addr) >> 24 == 127)
				continue;	/* loopback has no GID */
			if (((ad->sin_addr.s_addr ^ pa.s_addr) & nm->sin_addr.s_addr) == 0) {
				*local = ad->sin_addr;
				freeifaddrs(ifs);
				return 0;
			}
		}
		freeifaddrs(ifs);
	}
	/* Otherwise the kernel's route: a connected UDP socket sends nothing
	 * but learns its source address. */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open a socket to find the route to %s: %s", peer, strerror(errno));
		return -1;
	}
	sa.sin_addr = pa;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
		snprintf(err, errlen, "no route to %s: %s", peer, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	*local = sa.sin_addr;
	return 0;
}

static enum gid_pick_type from_verbs(unsigned t)
{
	if (t == IBV_GID_TYPE_ROCE_V2)
		return GID_PICK_ROCE_V2;
	if (t == IBV_GID_TYPE_ROCE_V1)
		return GID_PICK_ROCE_V1;
	return GID_PICK_IB;
}

static void gid_text(const uint8_t *g, char *buf, size_t len)
{
	snprintf(buf, len, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12],
		 g[13], g[14], g[15]);
}

static void put_entry(struct gid_pick_entry *t, uint32_t index, uint32_t verbs_type, const uint8_t *gid)
{
	t->index = (int)index;
	t->type = from_verbs(verbs_type);
	memcpy(t->gid, gid, 16);
}

static int by_index(const void *a, const void *b)
{
	const struct gid_pick_entry *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* The port's valid entries in one call (ibv_query_gid_table: one ioctl, or
 * rdma-core's own sysfs walk on kernels without it).  The per-index walk
 * below is a system call per entry, 1,024 of them on rxe and nearly all
 * empty (ENODATA): in the test VM that was tens of milliseconds of every
 * connection's set-up, on both sides.  Returns the count, or -1 where the
 * call is missing or the guessed room (every port as long as this one)
 * was short: the walk then runs. */
static int read_table_bulk(struct ibv_context *ctx, int port, int tbl_len, struct gid_pick_entry *t)
{
	struct ibv_device_attr da;
	struct ibv_gid_entry *all;
	ssize_t got;
	int n = 0;

	if (ibv_query_device(ctx, &da) != 0 || da.phys_port_cnt < 1)
		return -1;
	all = calloc((size_t)tbl_len * da.phys_port_cnt, sizeof(*all));
	if (!all)
		return -1;
	got = ibv_query_gid_table(ctx, all, (size_t)tbl_len * da.phys_port_cnt, 0);
	for (ssize_t i = 0; i < got; i++) {
		if (all[i].port_num != (uint32_t)port || empty_gid(all[i].gid.raw) ||
		    all[i].gid_index >= (uint32_t)tbl_len || n == tbl_len)
			continue;
		put_entry(&t[n++], all[i].gid_index, all[i].gid_type, all[i].gid.raw);
	}
	free(all);
	if (got < 0)
		return -1;
	qsort(t, (size_t)n, sizeof(*t), by_index);	/* ties go to the lower index */
	return n;
}

/* The port's GID table, empty entries left out.  Returns the count, or -1. */
static int read_table(struct ibv_context *ctx, int port, int tbl_len, struct gid_pick_entry **out,
		      char *err, size_t errlen)
{
	struct gid_pick_entry *t = calloc((size_t)tbl_len, sizeof(*t));
	int n = 0;

	if (!t) {
		snprintf(err, errlen, "out of memory for a gid table of %d entries", tbl_len);
		return -1;
	}
	n = read_table_bulk(ctx, port, tbl_len, t);
	if (n >= 0) {
		*out = t;
		return n;
	}
	n = 0;
	for (int i = 0; i < tbl_len; i++) {
		struct ibv_gid_entry e;

		if (ibv_query_gid_ex(ctx, (uint32_t)port, (uint32_t)i, &e, 0) != 0)
			continue;	/* empty or unreadable entry */
		if (empty_gid(e.gid.raw))
			continue;
		put_entry(&t[n++], (uint32_t)i, e.gid_type, e.gid.raw);
	}
	*out = t;
	return n;
}

static const char *type_name(enum gid_pick_type t)
{
	return t == GID_PICK_ROCE_V2 ? "roce v2" : t == GID_PICK_ROCE_V1 ? "roce v1" : "ib";
}

int gid_pick(struct ibv_context *ctx, int port, int is_roce, int override, const char *peer,
	     struct gid_pick_result *out, char *err, size_t errlen)
{
	struct ibv_port_attr pa;
	struct gid_pick_entry *t = NULL;
	struct in_addr local;
	bool have_local = false;
	char lerr[160] = "";
	int n, pos = -1, exact = 0;

	memset(out, 0, sizeof(*out));
	out->index = -1;
	if (!is_roce) {
		snprintf(out->why, sizeof(out->why), "infiniband: lid addressing, no grh");
		return 0;
	}
	if (ibv_query_port(ctx, (uint8_t)port, &pa) != 0) {
		snprintf(err, errlen, "cannot query port %d of %s: %s", port,
			 ibv_get_device_name(ctx->device), strerror(errno));
		return -1;
	}
	n = read_table(ctx, port, pa.gid_tbl_len, &t, err, errlen);
	if (n < 0)
		return -1;
	if (override >= 0) {
		for (int i = 0; i < n; i++)
			if (t[i].index == override)
				pos = i;
		if (pos < 0) {
			snprintf(err, errlen, "gid index %d is empty or missing on %s port %d (see `rdmadoctor gids`)",
				 override, ibv_get_device_name(ctx->device), port);
			free(t);
			return -1;
		}
		snprintf(out->why, sizeof(out->why), "--gid-index %d (%s)", override, type_name(t[pos].type));
	} else {
		if (peer && *peer)
			have_local = gid_pick_local_ipv4(peer, &local, lerr, sizeof(lerr)) == 0;
		pos = gid_pick_choose(t, (size_t)n, have_local ? &local : NULL, &exact);
		if (pos < 0) {
			snprintf(err, errlen, "%s port %d has no roce gid (is an ip address set on its netdev?)",
				 ibv_get_device_name(ctx->device), port);
			free(t);
			return -1;
		}
		if (exact) {
			char a[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &local, a, sizeof(a));
			snprintf(out->why, sizeof(out->why), "roce v2 gid of %s, the address that reaches %s", a, peer);
		} else {
			snprintf(out->why, sizeof(out->why), "best-scored gid (ipv4, global, v2)%s%s",
				 have_local ? ": the route to the peer leaves by another netdev" : "",
				 !have_local && lerr[0] ? ": no route to the peer" : "");
		}
	}
	out->index = t[pos].index;
	out->type = t[pos].type;
	memcpy(out->gid, t[pos].gid, 16);
	gid_text(out->gid, out->text, sizeof(out->text));
	free(t);
	return 0;
}
