/* Which NICs are rails (the GPU fabric NCCL uses) and which are storage /
 * in-band management, under a profile.  Placement decides first: a rail
 * NIC sits next to a GPU.  A card of the rail model that sits far away
 * still counts as a rail when the profile is short of rails (so the
 * mis-slotted card is reported as topo.nic_far, not as a missing NIC),
 * but only a single-function one: dual-port storage cards are two
 * functions of one device. */
#include "check.h"
#include "families.h"
#include "../model/topo_verdict.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool model_ok(const struct role_spec *rs, const struct nic *n)
{
	if (!rs->model_family)
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

void roles_assign(const struct inventory *inv, const struct profile *p, enum nic_role *roles)
{
	const struct role_spec *rs;
	size_t *order, rails = 0;
	bool by_placement;

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
			roles[i] = ROLE_RAIL;
			rails++;
		}
	}
	/* with placement: only to make up a shortfall against the count */
	for (size_t k = 0; k < inv->n_nics && !(by_placement && rs->count < 0); k++) {
		size_t i = order ? order[k] : k;
		const struct nic *n = &inv->nics[i];

		if (rs->count >= 0 && rails >= (size_t)rs->count)
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
	free(order);
}
