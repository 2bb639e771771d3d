/* What the checks ask of the model: is a port up, what link layer, which
 * functions share a PCI device, how to write a link or a rate. */
#include "families.h"
#include "../model/pcie_link.h"
#include "../model/topo_verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct role_spec unjudged = {
	.defined = false,
	.count = -1,
	.pfc_priority = -1,
	.ecn = -1,
	.gpudirect = -1,
	.placement = -1,
};

const struct role_spec *check_role_spec(const struct check_ctx *c, size_t nic)
{
	const struct role_spec *r;

	if (c->generic || !c->p)
		return &unjudged;
	r = &c->p->role[c->roles[nic]];
	return r->defined ? r : &unjudged;
}

bool check_is_rail(const struct check_ctx *c, size_t nic)
{
	return c->roles[nic] == ROLE_RAIL;
}

bool check_wrong_link(const struct check_ctx *c, size_t nic)
{
	return c->wrong_link && c->wrong_link[nic];
}

bool check_port_wrong_link(const struct check_ctx *c, size_t nic, const struct port *pt)
{
	const char *want = c->generic || !c->p ? NULL : c->p->role[ROLE_RAIL].link_layer;

	/* only a link layer the kernel names can be the wrong one: garbage or
	 * nothing is not known (unchecked.c says so), never a fault */
	return want && (check_port_is_ib(pt) || check_port_is_eth(pt)) &&
	       strcasecmp(pt->link_layer, want) != 0 &&
	       (check_is_rail(c, nic) || check_wrong_link(c, nic));
}

/* Error on a rail the profile expects; a warning on storage NICs, and on
 * every NIC under a profile that names no rails (generic): there nothing
 * says a port is meant to be used (the spare port of a dual-port card). */
enum severity check_role_sev(const struct check_ctx *c, size_t nic)
{
	if (!c->p || !c->p->role[ROLE_RAIL].defined)
		return SEV_WARN;
	return check_is_rail(c, nic) ? SEV_ERROR : SEV_WARN;
}

bool check_port_is_ib(const struct port *pt)
{
	return pt->link_layer && strcmp(pt->link_layer, "InfiniBand") == 0;
}

bool check_port_is_eth(const struct port *pt)
{
	return pt->link_layer && strcmp(pt->link_layer, "Ethernet") == 0;
}

const char *check_nic_link_layer(const struct nic *n)
{
	for (size_t i = 0; i < n->n_ports; i++)
		if (n->ports[i].link_layer)
			return n->ports[i].link_layer;
	return NULL;
}

bool check_nic_is_software(const struct nic *n)
{
	return n->netdev_parent != NULL;
}

bool check_same_pci_device(const char *a, const char *b)
{
	const char *da, *db;

	if (!a || !b)
		return false;
	/* "0000:1b:00.1": everything before the last '.' */
	da = strrchr(a, '.');
	db = strrchr(b, '.');
	if (!da || !db || da - a != db - b)
		return false;
	return strncmp(a, b, (size_t)(da - a)) == 0;
}

void check_num_str(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.2f", v);
	/* 400.00 -> 400, 15.75 stays, 12.50 -> 12.5 */
	if (strchr(buf, '.')) {
		char *e = buf + strlen(buf) - 1;

		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
}

void check_link_str(char *buf, size_t len, double gts, int64_t width)
{
	char speed[32] = "";
	int gen = isnan(gts) ? 0 : pcie_gen(gts);

	if (gen)
		snprintf(speed, sizeof(speed), "Gen%d", gen);
	else if (!isnan(gts))
		snprintf(speed, sizeof(speed), "%g GT/s", gts);
	if (!IS_NA(width))
		snprintf(buf, len, "%s%sx%lld", speed, speed[0] ? " " : "", (long long)width);
	else
		snprintf(buf, len, "%s", speed[0] ? speed : "unknown");
}

void check_map_gpus(const struct check_ctx *c, size_t *nic, enum path_type *path)
{
	const struct inventory *inv = c->inv;

	for (size_t g = 0; g < inv->n_gpus; g++) {
		size_t best = (size_t)-1, best_load = 0;
		enum path_type bp = PATH_SYS;

		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct affinity *a;
			size_t load = 0;

			if (!check_is_rail(c, i) || check_nic_is_software(&inv->nics[i]))
				continue;
			a = topo_pair(inv, g, i);
			if (!a)
				continue;
			for (size_t h = 0; h < g; h++)
				load += nic[h] == i;
			if (best == (size_t)-1 || a->path < bp ||
			    (a->path == bp && load < best_load)) {
				best = i;
				bp = a->path;
				best_load = load;
			}
		}
		nic[g] = best;
		path[g] = bp;
	}
}
