/* gid.rocev2_missing: a RoCE port that is up without a RoCE v2 IPv4 GID.
 * gid.index_mismatch: that GID sits at different indices on the rails. */
#include "families.h"
#include "../model/gid_choice.h"

#include <stdlib.h>
#include <string.h>

/* The GID table was read: at least one entry with a type. */
static bool gids_known(const struct port *pt)
{
	for (size_t i = 0; i < pt->n_gids; i++)
		if (pt->gids[i].type)
			return true;
	return false;
}

static bool has_v2(const struct port *pt)
{
	for (size_t i = 0; i < pt->n_gids; i++)
		if (pt->gids[i].type && strcmp(pt->gids[i].type, "RoCE v2") == 0)
			return true;
	return false;
}

static int missing(const struct check_ctx *c, struct findings *out, size_t i,
		   const struct port *pt)
{
	struct finding *f = check_add(c, out, "gid.rocev2_missing", check_role_sev(c, i),
				      "Without a RoCE v2 GID on an IPv4 address, NCCL and most "
				      "RDMA applications find no routable address on this port.");
	const char *dev = pt->netdev ? pt->netdev : "<netdev>";

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", c->inv->nics[i].name, pt->num);
	finding_set(&f->observed, "%s", has_v2(pt) ? "RoCE v2 GIDs only on IPv6 addresses"
						   : "no RoCE v2 GID");
	finding_set(&f->expected, "a RoCE v2 GID with %s's IPv4 address (usually index 3)", dev);
	finding_set(&f->fix,
		    "give %s its IPv4 address (`ip addr add ADDR/PREFIX dev %s`, and the same "
		    "in its network configuration): the kernel adds the RoCE v2 GID with it; "
		    "on a bond the address belongs on the bond",
		    dev, dev);
	return 0;
}

static void port_key(struct check_buf *b, const struct nic *n, const struct port *pt, int index)
{
	if (n->n_ports > 1 || pt->num != 1)
		check_buf_printf(b, "%s%s/%d:%d", b->len ? " " : "", n->name, pt->num, index);
	else
		check_buf_printf(b, "%s%s:%d", b->len ? " " : "", n->name, index);
}

/* A global IPv6 GID (not link-local fe80::/10, not IPv4-mapped) below
 * index: an address added before the IPv4 one, which pushed it up. */
static bool ipv6_before(const struct port *pt, int index)
{
	for (size_t i = 0; i < pt->n_gids; i++) {
		const struct gid *g = &pt->gids[i];

		if (g->index < index && g->type && !g->ipv4[0] &&
		    !(g->raw[0] == 0xfe && (g->raw[1] & 0xc0) == 0x80) &&
		    memcmp(g->raw, (const uint8_t[16]){ 0 }, 16) != 0)
			return true;
	}
	return false;
}

/* What moves each rail whose index differs from the most common one
 * there: the addresses added before its IPv4 one go, and the IPv4 one is
 * added again, so that the kernel gives it the first free entries. */
static void index_fix(const struct check_ctx *c, struct check_buf *fix, int common,
		      size_t n_common)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		if (!check_is_rail(c, i))
			continue;
		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			const char *dev = pt->netdev ? pt->netdev : "<netdev>";
			const struct gid *g;

			if (!check_port_is_eth(pt) || !port_is_up(pt) || !gids_known(pt) ||
			    !(g = gid_recommended(pt)) || g->index == common)
				continue;
			check_buf_printf(fix, "on %s the IPv4 GID is at %d where %zu rails have it "
					 "at %d: ", n->name, g->index, n_common, common);
			if (ipv6_before(pt, g->index))
				check_buf_printf(fix, "remove the IPv6 addresses added before it "
						 "(`ip -6 addr flush dev %s scope global`; "
						 "net.ipv6.conf.%s.autoconf=0 where SLAAC adds "
						 "them), then ", dev, dev);
			else
				check_buf_printf(fix, "remove the other addresses added before "
						 "it, then ");
			check_buf_printf(fix, "add its IPv4 address again (`ip addr del %s/PREFIX "
					 "dev %s`, `ip addr add %s/PREFIX dev %s`); ",
					 g->ipv4, dev, g->ipv4, dev);
		}
	}
}

int check_gid(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	struct check_buf map = { 0 }, fix = { 0 };
	int first = -1, best = -1;
	bool differ = false;
	struct finding *f;
	int *idx = calloc(inv->n_nics * 4 + 1, sizeof(*idx));
	size_t n_idx = 0, cap = inv->n_nics * 4 + 1, best_n = 0;

	if (!idx)
		return -ENOMEM;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			const struct gid *g;

			/* a rail port in the wrong link layer needs that set,
			 * not an address: port.link_layer says so */
			if (!check_port_is_eth(pt) || !port_is_up(pt) || !gids_known(pt) ||
			    check_port_wrong_link(c, i, pt))
				continue;
			g = gid_recommended(pt);
			if (!g) {
				if (missing(c, out, i, pt) < 0) {
					check_buf_free(&map);
					free(idx);
					return -ENOMEM;
				}
				continue;
			}
			if (!check_is_rail(c, i))
				continue;
			port_key(&map, n, pt, g->index);
			if (n_idx < cap)
				idx[n_idx++] = g->index;
			if (first < 0)
				first = g->index;
			else if (g->index != first)
				differ = true;
		}
	}
	if (!differ) {
		check_buf_free(&map);
		free(idx);
		return 0;
	}
	f = check_add(c, out, "gid.index_mismatch", SEV_WARN,
		      "NCCL_IB_GID_INDEX is one value for every NIC of a job: where the RoCE v2 "
		      "IPv4 GID sits elsewhere, that rail uses the wrong GID or none.");
	if (!f) {
		check_buf_free(&map);
		free(idx);
		return -ENOMEM;
	}
	finding_set(&f->subject, "rail RoCE ports");
	check_buf_take(&map, &f->observed);
	finding_set(&f->expected, "one index on every rail");
	/* the index most rails share, when more than half do */
	for (size_t i = 0; i < n_idx; i++) {
		size_t same = 0;

		for (size_t j = 0; j < n_idx; j++)
			same += idx[j] == idx[i];
		if (same > best_n) {
			best_n = same;
			best = idx[i];
		}
	}
	if (best_n * 2 > n_idx)
		index_fix(c, &fix, best, best_n);
	check_buf_printf(&fix,
			 "configure the rail netdevs alike (the same address families, added in "
			 "the same order: an extra IPv6 or a second IPv4 address shifts the "
			 "index); or leave NCCL_IB_GID_INDEX unset and let NCCL 2.21 or later "
			 "pick by NCCL_IB_ROCE_VERSION_NUM=2 and NCCL_IB_ADDR_FAMILY=AF_INET");
	check_buf_take(&fix, &f->fix);
	free(idx);
	return 0;
}
