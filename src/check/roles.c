/* Which NICs are rails (the GPU fabric NCCL uses) and which are storage /
 * in-band management, under a profile.  Placement decides first: a rail
 * NIC sits next to a GPU.  A card of the rail model that sits far away
 * still counts as a rail when the profile is short of rails (so the
 * mis-slotted card is reported as topo.nic_far, not as a missing NIC),
 * but only a single-function one: dual-port storage cards are two
 * functions of one device.
 *
 * A card known to run the other link layer than the profile's rails (a VPI
 * card left in Ethernet on an InfiniBand fabric) is never a rail: NCCL
 * cannot use it on that fabric.  Where it takes a rail's place (next to a
 * GPU, or making up a shortfall) it is marked, so that port.link_layer
 * names it as the cause of the missing rail. */
#include "run.h"
#include "families.h"
#include "../model/topo_verdict.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A device the site file excludes was not read (model/exclude.h): its
 * model unknown is no proof it is not the rails', so it keeps the rail
 * place placement gives it (nic.excluded says it was not checked). */
static bool model_ok(const struct role_spec *rs, const struct nic *n)
{
	if (!rs->model_family || (n->excluded && !n->model))
		return true;
	return n->model && strncmp(n->model, rs->model_family, strlen(rs->model_family)) == 0;
}

static bool link_layer_ok(const struct role_spec *rs, const struct nic *n)
{
	const char *ll = check_nic_link_layer(n);

	if (!rs->link_layer)
		return true;
	return ll && strcasecmp(ll, rs->link_layer) == 0;
}

/* Known, and not the profile's: an unknown link layer, unread or one the
 * kernel never writes (garbage, "Unknown"), is no proof of a fault (the card
 * keeps the rail place placement gives it; unchecked.c says it could not
 * be read). */
static bool link_layer_wrong(const struct role_spec *rs, const struct nic *n)
{
	const char *ll = check_nic_link_layer(n);

	if (!ll || (strcasecmp(ll, "InfiniBand") != 0 && strcasecmp(ll, "Ethernet") != 0))
		return false;
	return rs->link_layer && strcasecmp(ll, rs->link_layer) != 0;
}

/* No other RDMA device on another function of the same PCI device. */
static bool single_function(const struct inventory *inv, size_t i)
{
	const struct nic *n = &inv->nics[i];

	if (!n->has_pci)
		return true;
	for (size_t j = 0; j < inv->n_nics; j++) {
		const struct nic *o = &inv->nics[j];

		if (j == i || !o->has_pci || check_nic_is_software(o))
			continue;
		if (check_same_pci_device(n->pci.bdf, o->pci.bdf) &&
		    strcmp(n->pci.bdf, o->pci.bdf) != 0)
			return false;
	}
	return true;
}

static const char *nic_name(const struct inventory *inv, size_t i)
{
	return inv->nics[i].name ? inv->nics[i].name : "";
}

/* NIC indices in name order (mlx5_2 before mlx5_10); NULL without memory,
 * then callers walk index order.  An insertion sort: a machine has tens of
 * RDMA devices, not thousands. */
static size_t *name_order(const struct inventory *inv)
{
	size_t *v = malloc((inv->n_nics ? inv->n_nics : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < inv->n_nics; i++) {
		size_t k = i;

		while (k > 0 && strverscmp(nic_name(inv, v[k - 1]), nic_name(inv, i)) > 0) {
			v[k] = v[k - 1];
			k--;
		}
		v[k] = i;
	}
	return v;
}

void roles_assign_links(const struct inventory *inv, const struct profile *p,
			enum nic_role *roles, bool *wrong_link)
{
	const struct role_spec *rs;
	size_t *order, rails = 0, wrong = 0;
	bool by_placement;

	for (size_t i = 0; wrong_link && i < inv->n_nics; i++)
		wrong_link[i] = false;
	if (!p || !p->role[ROLE_RAIL].defined) {
		/* generic: judge every NIC as a rail */
		for (size_t i = 0; i < inv->n_nics; i++)
			roles[i] = ROLE_RAIL;
		return;
	}
	rs = &p->role[ROLE_RAIL];
	for (size_t i = 0; i < inv->n_nics; i++)
		roles[i] = ROLE_STORAGE;
	order = name_order(inv);
	by_placement = rs->placement >= 0 || p->grace;

	if (by_placement) {
		enum path_type limit = rs->placement >= 0 ? (enum path_type)rs->placement : PATH_PXB;

		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct nic *n = &inv->nics[i];
			struct topo_nearest near = topo_nearest_gpu(inv, i);

			if (check_nic_is_software(n) || !near.found || near.path > limit ||
			    !model_ok(rs, n))
				continue;
			if (link_layer_wrong(rs, n)) {
				/* in a rail's place, but no rail */
				if (wrong_link)
					wrong_link[i] = true;
				wrong++;
				continue;
			}
			roles[i] = ROLE_RAIL;
			rails++;
		}
	}
	/* with placement: only to make up a shortfall against the count; a card
	 * in the wrong link layer next to a GPU keeps its place (a far card
	 * taking it would hide the missing rail) */
	for (size_t k = 0; k < inv->n_nics && !(by_placement && rs->count < 0); k++) {
		size_t i = order ? order[k] : k;
		const struct nic *n = &inv->nics[i];

		if (rs->count >= 0 && rails + wrong >= (size_t)rs->count)
			break;
		if (roles[i] == ROLE_RAIL || check_nic_is_software(n) || !model_ok(rs, n) ||
		    !link_layer_ok(rs, n))
			continue;
		/* a far card joins the rails only when it is a card of its own */
		if (by_placement && !single_function(inv, i))
			continue;
		roles[i] = ROLE_RAIL;
		rails++;
	}
	/* what is still short, cards of the other link layer would have made up:
	 * those are the missing rails.  Without a count, only where no card of
	 * the profile's link layer is there at all: then the link layer tells
	 * rails from storage, and every card is in the wrong one. */
	for (size_t k = 0; wrong_link && k < inv->n_nics && !(by_placement && rs->count < 0);
	     k++) {
		size_t i = order ? order[k] : k;
		const struct nic *n = &inv->nics[i];

		if (rs->count >= 0 ? rails + wrong >= (size_t)rs->count : rails > 0)
			break;
		if (roles[i] == ROLE_RAIL || wrong_link[i] || check_nic_is_software(n) ||
		    !model_ok(rs, n) || !link_layer_wrong(rs, n))
			continue;
		if (by_placement && !single_function(inv, i))
			continue;
		wrong_link[i] = true;
		wrong++;
	}
	free(order);
}

void roles_assign(const struct inventory *inv, const struct profile *p, enum nic_role *roles)
{
	roles_assign_links(inv, p, roles, NULL);
}
