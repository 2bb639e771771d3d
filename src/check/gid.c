/* gid.rocev2_missing: a RoCE port that is up without a RoCE v2 IPv4 GID.
 * gid.index_mismatch: that GID sits at different indices on the rails. */
#include "families.h"
#include "../model/gid_choice.h"

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

static void missing(const struct check_ctx *c, struct findings *out, size_t i,
		    const struct port *pt)
{
	struct finding *f = check_add(c, out, "gid.rocev2_missing", check_role_sev(c, i),
				      "Without a RoCE v2 GID on an IPv4 address, NCCL and most "
				      "RDMA applications find no routable address on this port.");
	const char *dev = pt->netdev ? pt->netdev : "<netdev>";

	if (!f)
		return;
	finding_set(&f->subject, "%s port %d", c->inv->nics[i].name, pt->num);
	finding_set(&f->observed, "%s", has_v2(pt) ? "RoCE v2 GIDs only on IPv6 addresses"
						   : "no RoCE v2 GID");
	finding_set(&f->expected, "a RoCE v2 GID with %s's IPv4 address (usually index 3)", dev);
	finding_set(&f->fix,
		    "give %s its IPv4 address (`ip addr add ADDR/PREFIX dev %s`, and the same "
		    "in its network configuration): the kernel adds the RoCE v2 GID with it; "
		    "on a bond the address belongs on the bond",
		    dev, dev);
}

static void port_key(struct check_buf *b, const struct nic *n, const struct port *pt, int index)
{
	if (n->n_ports > 1 || pt->num != 1)
		check_buf_printf(b, "%s%s/%d:%d", b->len ? " " : "", n->name, pt->num, index);
	else
		check_buf_printf(b, "%s%s:%d", b->len ? " " : "", n->name, index);
}

void check_gid(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	struct check_buf map = { 0 };
	int first = -1;
	bool differ = false;
	struct finding *f;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			const struct gid *g;

			if (!check_port_is_eth(pt) || !port_is_up(pt) || !gids_known(pt))
				continue;
			g = gid_recommended(pt);
			if (!g) {
				missing(c, out, i, pt);
				continue;
			}
			if (!check_is_rail(c, i))
				continue;
			port_key(&map, n, pt, g->index);
			if (first < 0)
				first = g->index;
			else if (g->index != first)
				differ = true;
		}
	}
	if (!differ) {
		check_buf_free(&map);
		return;
	}
	f = check_add(c, out, "gid.index_mismatch", SEV_WARN,
		      "NCCL_IB_GID_INDEX is one value for every NIC of a job: where the RoCE v2 "
		      "IPv4 GID sits elsewhere, that rail uses the wrong GID or none.");
	if (!f) {
		check_buf_free(&map);
		return;
	}
	finding_set(&f->subject, "rail RoCE ports");
	check_buf_take(c, &map, &f->observed);
	finding_set(&f->expected, "one index on every rail");
	finding_set(&f->fix,
		    "configure the rail netdevs alike (the same address families, added in the "
		    "same order: an extra IPv6 or a second IPv4 address shifts the index); or "
		    "leave NCCL_IB_GID_INDEX unset and let NCCL 2.21 or later pick by "
		    "NCCL_IB_ROCE_VERSION_NUM=2 and NCCL_IB_ADDR_FAMILY=AF_INET");
}
