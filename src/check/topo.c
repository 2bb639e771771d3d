/* topo.nic_far: a rail NIC farther from every GPU than the profile allows.
 * topo.nic_shared: more GPUs than the profile allows have one rail NIC as
 *   their nearest. */
#include "families.h"
#include "../model/topo_verdict.h"

#include <stdlib.h>

static void nic_far(const struct check_ctx *c, struct findings *out, int placement)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		struct topo_nearest near;
		struct finding *f;

		if (!check_is_rail(c, i) || check_nic_is_software(&inv->nics[i]))
			continue;
		near = topo_nearest_gpu(inv, i);
		if (!near.found || (int)near.path <= placement)
			continue;
		f = check_add(c, out, "topo.nic_far", SEV_ERROR,
			      "A rail NIC away from its GPU's PCIe switch sends GPUDirect traffic "
			      "through the CPU's root complex or across sockets, which can halve "
			      "its bandwidth.");
		if (!f)
			return;
		finding_set(&f->subject, "%s", inv->nics[i].name);
		finding_set(&f->observed, "%s to its nearest GPU (%s)", path_type_name(near.path),
			    inv->gpus[near.gpu].pci.bdf ? inv->gpus[near.gpu].pci.bdf : "?");
		finding_set(&f->expected, "%s or closer to a GPU",
			    path_type_name((enum path_type)placement));
		finding_set(&f->fix,
			    "move the card to a slot under the PCIe switch of its GPU (the "
			    "machine's slot map names the NIC slot of each GPU), and check the "
			    "riser is the one this machine ships with; `rdmadoctor topo` shows "
			    "the matrix");
	}
}

static void nic_shared(const struct check_ctx *c, struct findings *out, int per_nic)
{
	const struct inventory *inv = c->inv;
	const size_t *owner = c->gpu_nic;
	size_t *count;

	if (!inv->n_gpus || !inv->n_nics)
		return;
	count = calloc(inv->n_nics, sizeof(*count));
	if (!count) {
		*c->nomem = true;
		return;
	}
	for (size_t g = 0; g < inv->n_gpus; g++)
		if (owner[g] != (size_t)-1)
			count[owner[g]]++;
	for (size_t i = 0; i < inv->n_nics; i++) {
		struct check_buf obs = { 0 };
		struct finding *f;

		if (count[i] <= (size_t)per_nic)
			continue;
		f = check_add(c, out, "topo.nic_shared", SEV_WARN,
			      "GPUs that share one NIC share its bandwidth: each gets a fraction "
			      "of what the machine model gives it, and multi-node training slows "
			      "by the same factor.");
		if (!f)
			break;
		check_buf_printf(&obs, "%zu GPUs:", count[i]);
		for (size_t g = 0; g < inv->n_gpus; g++)
			if (owner[g] == i)
				check_buf_printf(&obs, " %s",
						 inv->gpus[g].pci.bdf ? inv->gpus[g].pci.bdf : "?");
		finding_set(&f->subject, "%s", inv->nics[i].name);
		check_buf_take(c, &obs, &f->observed);
		finding_set(&f->expected, "at most %d GPU%s per NIC", per_nic, per_nic == 1 ? "" : "s");
		finding_set(&f->fix,
			    "add rail NICs (one per GPU switch) so the GPUs spread over them, or "
			    "move a NIC next to the GPUs that have none; `rdmadoctor topo` shows "
			    "which GPU is nearest to which NIC");
	}
	free(count);
}

void check_topo(const struct check_ctx *c, struct findings *out)
{
	const struct role_spec *rs;

	if (c->generic || !c->p)
		return;
	rs = &c->p->role[ROLE_RAIL];
	if (!c->p->grace && rs->placement >= 0)
		nic_far(c, out, rs->placement);
	if (rs->gpus_per_nic > 0)
		nic_shared(c, out, rs->gpus_per_nic);
}
