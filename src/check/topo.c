/* topo.nic_far: a rail NIC farther from every GPU than the profile allows
 *   (on generic: an x86 machine with datacenter GPUs and no NIC near any).
 * topo.nic_shared: more GPUs than the profile allows have one rail NIC as
 *   their nearest: about the NIC when its nearest GPUs alone are too many,
 *   about each GPU that reaches it from farther (it has no NIC under its
 *   own switch), never about whichever of several equally far NICs the
 *   mapping gave such a GPU. */
#include "families.h"
#include "../model/topo_verdict.h"

#include <stdlib.h>
#include <string.h>

/* Every GPU at the nearest path from NIC i: "0000:19:00.0 0000:1a:00.0"
 * (a tie lists them all). */
static void nearest_gpus(const struct check_ctx *c, size_t nic, enum path_type path,
			 struct check_buf *b)
{
	const struct inventory *inv = c->inv;
	size_t n = 0;

	for (size_t g = 0; g < inv->n_gpus; g++) {
		const struct affinity *a = topo_pair(inv, g, nic);

		if (a && a->path == path) {
			check_buf_printf(b, "%s%s", n ? " " : "",
					 inv->gpus[g].pci.bdf ? inv->gpus[g].pci.bdf : "?");
			n++;
		}
	}
}

/* Across host bridges with the NIC's NUMA node unknown, SYS is a guess:
 * it may as well be NODE. */
static bool path_is_guess(const struct check_ctx *c, size_t nic, enum path_type path)
{
	return path >= PATH_NODE && IS_NA(c->inv->nics[nic].pci.numa_node);
}

static int far_unknown(const struct check_ctx *c, struct findings *out, size_t i)
{
	struct finding *f = check_add(c, out, "topo.nic_far", SEV_INFO,
				      "A rail NIC away from its GPU's PCIe switch sends GPUDirect "
				      "traffic through the CPU's root complex or across sockets.");

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s", c->inv->nics[i].name);
	finding_set(&f->observed, "not checked: no GPU shares a PCIe switch with it and its "
		    "NUMA node is unknown (numa_node reads -1), so NODE or SYS cannot be told");
	finding_set(&f->expected, "PXB or closer to a GPU");
	finding_set(&f->fix, "`cat /sys/class/infiniband/%s/device/numa_node`; -1 means the "
		    "firmware gave no proximity domain: check the BIOS NUMA settings (SRAT); "
		    "`rdmadoctor topo` shows the matrix", c->inv->nics[i].name);
	return 0;
}

static int nic_far(const struct check_ctx *c, struct findings *out, int placement)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		struct check_buf gpus = { 0 };
		struct topo_nearest near;
		struct finding *f;

		if (!check_is_rail(c, i) || check_nic_is_software(&inv->nics[i]))
			continue;
		near = topo_nearest_gpu(inv, i);
		if (!near.found || (int)near.path <= placement)
			continue;
		if (path_is_guess(c, i, near.path)) {
			CHECK_TRY(far_unknown(c, out, i));
			continue;
		}
		f = check_add(c, out, "topo.nic_far", SEV_ERROR,
			      "A rail NIC away from its GPU's PCIe switch sends GPUDirect traffic "
			      "through the CPU's root complex or across sockets, which can halve "
			      "its bandwidth.");
		if (!f)
			return -ENOMEM;
		nearest_gpus(c, i, near.path, &gpus);
		finding_set(&f->subject, "%s", inv->nics[i].name);
		finding_set(&f->observed, "%s to its nearest GPU%s (%s)", path_type_name(near.path),
			    strchr(check_buf_str(&gpus), ' ') ? "s" : "", check_buf_str(&gpus));
		check_buf_free(&gpus);
		finding_set(&f->expected, "%s or closer to a GPU",
			    path_type_name((enum path_type)placement));
		finding_set(&f->fix,
			    "move the card to a slot under the PCIe switch of its GPU (the "
			    "machine's slot map names the NIC slot of each GPU), and check the "
			    "riser is the one this machine ships with; `rdmadoctor topo` shows "
			    "the matrix");
	}
	return 0;
}

/* Generic: an x86 machine with datacenter GPUs is built with its rails
 * under the GPUs' PCIe switches.  When no RDMA NIC at all is PIX/PXB to
 * a GPU, every far one is a finding; one near NIC says the design is
 * another (a storage card far away is then no rail).  Grace trays reach
 * their NICs over C2C, and their GPUs are no PCIe devices of this table. */
static int generic_far(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	bool datacenter = false;

	for (size_t g = 0; g < inv->n_gpus; g++)
		datacenter |= inv->gpus[g].kind == GPU_DATACENTER;
	if (!datacenter || (c->p && c->p->grace))
		return 0;
	for (size_t i = 0; i < inv->n_nics; i++) {
		struct topo_nearest near;

		if (!check_is_rail(c, i) || check_nic_is_software(&inv->nics[i]))
			continue;
		near = topo_nearest_gpu(inv, i);
		if (near.found && near.path <= PATH_PXB)
			return 0;
	}
	CHECK_TRY(nic_far(c, out, PATH_PXB));
	return 0;
}

/* Every NIC at this GPU's path to its own: "ibp24s0 ibp57s0 ibp74s0";
 * how many. */
static size_t equally_near(const struct check_ctx *c, size_t gpu, struct check_buf *b)
{
	const struct inventory *inv = c->inv;
	size_t n = 0;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct affinity *a = topo_pair(inv, gpu, i);

		if (a && a->path == c->gpu_path[gpu] && check_is_rail(c, i) &&
		    !check_nic_is_software(&inv->nics[i]))
			check_buf_printf(b, "%s%s", n++ ? " " : "", inv->nics[i].name);
	}
	return n;
}

static const char why_shared[] =
	"GPUs that share one NIC share its bandwidth: each gets a fraction of what the "
	"machine model gives it, and multi-node training slows by the same factor.";

/* A GPU farther from the NIC it shares than that NIC's own GPUs: it has no
 * NIC under its switch, and it is the subject, not whichever of its
 * equally far NICs the mapping gave it. */
static int gpu_without_nic(const struct check_ctx *c, struct findings *out, size_t g,
			   int per_nic)
{
	const struct inventory *inv = c->inv;
	struct check_buf obs = { 0 }, nics = { 0 };
	struct finding *f = check_add(c, out, "topo.nic_shared", SEV_WARN, why_shared);
	size_t n;

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "GPU %s", inv->gpus[g].pci.bdf ? inv->gpus[g].pci.bdf : "?");
	n = equally_near(c, g, &nics);
	check_buf_printf(&obs, "no rail NIC of its own: its nearest rail NIC%s (%s, %s) %s a "
			 "GPU nearer to %s", n == 1 ? "" : "s", check_buf_str(&nics),
			 path_type_name(c->gpu_path[g]), n == 1 ? "serves" : "each serve",
			 n == 1 ? "it" : "them");
	check_buf_free(&nics);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "a rail NIC under its own PCIe switch, at most %d GPU%s per NIC",
		    per_nic, per_nic == 1 ? "" : "s");
	finding_set(&f->fix,
		    "check that the rail card of this GPU's switch is there and enumerates "
		    "(`lspci -d 15b3: -k`); else put a rail NIC in a slot under this GPU's PCIe "
		    "switch (the machine's slot map names it); `rdmadoctor topo` shows which GPU "
		    "is nearest to which NIC");
	return 0;
}

/* GPUs alike near to one NIC, more than the profile allows: the NIC is
 * the subject (it is where they meet). */
static int nic_crowded(const struct check_ctx *c, struct findings *out, size_t nic,
		       enum path_type near, size_t count, int per_nic)
{
	const struct inventory *inv = c->inv;
	struct check_buf obs = { 0 };
	struct finding *f = check_add(c, out, "topo.nic_shared", SEV_WARN, why_shared);

	if (!f)
		return -ENOMEM;
	check_buf_printf(&obs, "%zu GPUs:", count);
	for (size_t g = 0; g < inv->n_gpus; g++)
		if (c->gpu_nic[g] == nic && c->gpu_path[g] == near)
			check_buf_printf(&obs, " %s", inv->gpus[g].pci.bdf ? inv->gpus[g].pci.bdf : "?");
	finding_set(&f->subject, "%s", inv->nics[nic].name);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "at most %d GPU%s per NIC", per_nic, per_nic == 1 ? "" : "s");
	finding_set(&f->fix,
		    "add rail NICs (one per GPU switch) so the GPUs spread over them, or "
		    "move a NIC next to the GPUs that have none; `rdmadoctor topo` shows "
		    "which GPU is nearest to which NIC");
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return (int)*(const enum path_type *)a - (int)*(const enum path_type *)b;
}

/* The GPU's own NIC is there, but no rail for its link layer: it is
 * port.link_layer's finding, not a GPU without a NIC. */
static bool wrong_link_nearer(const struct check_ctx *c, size_t g)
{
	for (size_t i = 0; i < c->inv->n_nics; i++) {
		const struct affinity *a = topo_pair(c->inv, g, i);

		if (check_wrong_link(c, i) && a && a->path < c->gpu_path[g])
			return true;
	}
	return false;
}

/* For each NIC with more GPUs than allowed: the per_nic nearest may share
 * it.  When its nearest GPUs alone are too many, the NIC is the subject
 * (they meet there by the board's design).  Each GPU beyond the allowance
 * and farther than the nearest lacks a NIC of its own; where GPUs at one
 * path straddle the allowance, all of them are named, none picked. */
static int nic_shared(const struct check_ctx *c, struct findings *out, int per_nic)
{
	const struct inventory *inv = c->inv;
	enum path_type *paths = calloc(inv->n_gpus ? inv->n_gpus : 1, sizeof(*paths));

	if (!paths)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n_nics; i++) {
		size_t count = 0, at_near = 0, within = 0;
		enum path_type near, bound;
		int rc = 0;

		for (size_t g = 0; g < inv->n_gpus; g++)
			if (c->gpu_nic[g] == i)
				paths[count++] = c->gpu_path[g];
		if (count <= (size_t)per_nic)
			continue;
		qsort(paths, count, sizeof(*paths), by_path);
		near = paths[0];
		bound = paths[per_nic - 1];
		for (size_t k = 0; k < count; k++) {
			at_near += paths[k] == near;
			within += paths[k] <= bound;
		}
		if (at_near > (size_t)per_nic)
			rc = nic_crowded(c, out, i, near, at_near, per_nic);
		for (size_t g = 0; !rc && g < inv->n_gpus; g++) {
			enum path_type pg = c->gpu_path[g];

			if (c->gpu_nic[g] == i && pg > near &&
			    (pg > bound || within > (size_t)per_nic) &&
			    !wrong_link_nearer(c, g))
				rc = gpu_without_nic(c, out, g, per_nic);
		}
		if (rc) {
			free(paths);
			return rc;
		}
	}
	free(paths);
	return 0;
}

int check_topo(const struct check_ctx *c, struct findings *out)
{
	const struct role_spec *rs;

	if (c->generic || !c->p) {
		CHECK_TRY(generic_far(c, out));
		return 0;
	}
	rs = &c->p->role[ROLE_RAIL];
	if (!c->p->grace && rs->placement >= 0)
		CHECK_TRY(nic_far(c, out, rs->placement));
	if (rs->gpus_per_nic > 0)
		CHECK_TRY(nic_shared(c, out, rs->gpus_per_nic));
	return 0;
}
