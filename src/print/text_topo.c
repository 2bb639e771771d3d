#include "text.h"
#include "tint.h"
#include "../model/topo_verdict.h"
#include "text_printf.h"
#include "../model/neighbor.h"
#include "plural.h"

#include <string.h>

/* The NUMA column: the node, or N/A when the firmware gave none. */
static void numa_str(char *buf, size_t len, const struct pci_func *f)
{
	if (IS_NA(f->numa_node))
		snprintf(buf, len, "N/A");
	else
		snprintf(buf, len, "%lld", (long long)f->numa_node);
}

/* A matrix cell: the path, or "?" across host bridges when a NUMA node
 * is unknown (NODE or SYS cannot be told, and a guess would mislead). */
/* "leaf-r0 Ethernet1", a port's number before each when the NIC has
 * several; "not checked" when not known (inventory says why). */
static void switch_ports(FILE *out, const struct nic *n)
{
	for (size_t j = 0; j < n->n_ports; j++) {
		const struct neighbor *nb = n->ports[j].neighbor;

		if (j)
			fputs(", ", out);
		if (n->n_ports > 1)
			text_printf(out, "p%d ", n->ports[j].num);
		if (!nb) {
			fputs("not checked", out);
			continue;
		}
		text_printf(out, "%s %s", nb->system ? nb->system :
			    nb->chassis_id ? nb->chassis_id : "?", nb->port ? nb->port : "?");
	}
	fputc('\n', out);
}

static const char *cell(const struct inventory *inv, size_t g, size_t i,
			const struct affinity *a)
{
	if (!a)
		return "-";
	if (a->path >= PATH_NODE && (IS_NA(inv->nics[i].pci.numa_node) ||
				     IS_NA(inv->gpus[g].pci.numa_node)))
		return "?";
	return path_type_name(a->path);
}

/* A cell padded to w: SYS (across NUMA nodes) in red, NODE and "?" in
 * yellow, the near ones plain. */
static void put_cell(FILE *out, const char *s, int w, const struct text_opts *o)
{
	bool bad = strcmp(s, "SYS") == 0, doubt = strcmp(s, "NODE") == 0 || strcmp(s, "?") == 0;

	fputc(' ', out);
	if (bad || doubt)
		tint_on(out, o, bad ? TINT_BAD : TINT_DOUBT);
	fputs(s, out);
	if (bad || doubt)
		tint_off(out, o);
	fprintf(out, "%*s", w - (int)strlen(s), "");
}

/* The matrix `nvidia-smi topo -m` prints, restricted to GPU x NIC, with
 * its CPU Affinity and NUMA Affinity columns, plus the nearest GPU of
 * every NIC (all of them when several are as near). */
void text_topo(FILE *out, const struct inventory *inv, const struct text_opts *o)
{
	size_t w = 8, cw = strlen("CPU Affinity");
	char numa[24];

	if (text_npu_only(inv)) {
		text_npu_ports(out, inv);
		return;
	}
	if (!inv->n_gpus || !inv->n_nics) {
		text_printf(out, "%zu %s and %zu %s: no GPU x NIC pairs to place\n", inv->n_gpus,
			plural(inv->n_gpus, "GPU", "GPUs"), inv->n_nics,
			plural(inv->n_nics, "RDMA device", "RDMA devices"));
		return;
	}
	for (size_t i = 0; i < inv->n_nics; i++)
		if (strlen(inv->nics[i].name) + 1 > w)
			w = strlen(inv->nics[i].name) + 1;
	for (size_t g = 0; g < inv->n_gpus; g++)
		if (inv->gpus[g].pci.local_cpulist && strlen(inv->gpus[g].pci.local_cpulist) > cw)
			cw = strlen(inv->gpus[g].pci.local_cpulist);
	text_printf(out, "%-6s %-13s", "", "");
	for (size_t i = 0; i < inv->n_nics; i++)
		text_printf(out, " %-*s", (int)w, inv->nics[i].name);
	text_printf(out, " %-*s %s\n", (int)cw, "CPU Affinity", "NUMA Affinity");
	for (size_t g = 0; g < inv->n_gpus; g++) {
		text_printf(out, "GPU%-3zu %-13s", g, inv->gpus[g].pci.bdf);
		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct affinity *a = topo_pair(inv, g, i);

			put_cell(out, cell(inv, g, i, a), (int)w, o);
		}
		numa_str(numa, sizeof(numa), &inv->gpus[g].pci);
		text_printf(out, " %-*s %s\n", (int)cw,
			    inv->gpus[g].pci.local_cpulist ? inv->gpus[g].pci.local_cpulist : "N/A",
			    numa);
	}
	/* and each NIC's own, as nvidia-smi's NIC rows give them, with the
	 * switch port each of its ports is cabled to */
	text_printf(out, "\n%-*s %-13s %-*s %-14s %s\n", (int)w, "", "", (int)cw, "CPU Affinity",
		    "NUMA Affinity", "Switch port");
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		numa_str(numa, sizeof(numa), &n->pci);
		text_printf(out, "%-*s %-13s %-*s %-14s ", (int)w, n->name,
			    n->has_pci && n->pci.bdf ? n->pci.bdf : "-", (int)cw,
			    n->has_pci && n->pci.local_cpulist ? n->pci.local_cpulist : "N/A",
			    n->has_pci ? numa : "N/A");
		switch_ports(out, n);
	}
	fputs("\nnearest GPU per RDMA device (PIX/PXB: GPUDirect RDMA by default; PHB and worse: not)\n",
	      out);
	for (size_t i = 0; i < inv->n_nics; i++) {
		struct topo_nearest near = topo_nearest_gpu(inv, i);

		text_printf(out, "  %-*s ", (int)w, inv->nics[i].name);
		if (!near.found) {
			fputs("no PCI function\n", out);
			continue;
		}
		text_printf(out, "%-4s", path_type_name(near.path));
		for (size_t g = 0; g < inv->n_gpus; g++) {
			const struct affinity *a = topo_pair(inv, g, i);

			if (a && a->path == near.path)
				text_printf(out, " GPU%zu %s", g, inv->gpus[g].pci.bdf);
		}
		/* a storage NIC is not meant to be near; far from every GPU is
		 * only known with the NIC's NUMA node */
		if (inv->nics[i].role && strcmp(inv->nics[i].role, "storage") == 0) {
			fputs("  storage\n", out);
		} else if (near.path <= PATH_PXB) {
			fputs("  near\n", out);
		} else {
			fputs("  ", out);
			tint_on(out, o, TINT_DOUBT);
			fputs(near.path >= PATH_NODE && IS_NA(inv->nics[i].pci.numa_node) ?
			      "far? (NUMA node unknown: NODE or SYS)" : "far", out);
			tint_off(out, o);
			fputc('\n', out);
		}
	}
	fputs("\nLegend: X self, PIX at most one PCIe bridge, PXB several bridges, "
	      "PHB through a host bridge,\n        NODE across host bridges in one "
	      "NUMA node, SYS across NUMA nodes,\n        ? across host bridges with a NUMA "
	      "node unknown\n", out);
}
