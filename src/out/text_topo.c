#include "text.h"
#include "../model/topo_verdict.h"

#include <string.h>

/* The matrix `nvidia-smi topo -m` prints, restricted to GPU x NIC, plus
 * the nearest GPU of every NIC. */
void text_topo(FILE *out, const struct inventory *inv)
{
	size_t w = 8;

	if (!inv->n_gpus || !inv->n_nics) {
		fprintf(out, "%zu GPUs and %zu RDMA devices: no GPU x NIC pairs to place\n",
			inv->n_gpus, inv->n_nics);
		return;
	}
	for (size_t i = 0; i < inv->n_nics; i++)
		if (strlen(inv->nics[i].name) + 1 > w)
			w = strlen(inv->nics[i].name) + 1;
	fprintf(out, "%-6s %-13s", "", "");
	for (size_t i = 0; i < inv->n_nics; i++)
		fprintf(out, " %-*s", (int)w, inv->nics[i].name);
	fputc('\n', out);
	for (size_t g = 0; g < inv->n_gpus; g++) {
		fprintf(out, "GPU%-3zu %-13s", g, inv->gpus[g].pci.bdf);
		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct affinity *a = topo_pair(inv, g, i);

			fprintf(out, " %-*s", (int)w, a ? path_type_name(a->path) : "-");
		}
		fputc('\n', out);
	}
	fputs("\nnearest GPU per RDMA device (PIX/PXB: GPUDirect RDMA by default; PHB and worse: not)\n",
	      out);
	for (size_t i = 0; i < inv->n_nics; i++) {
		struct topo_nearest near = topo_nearest_gpu(inv, i);

		fprintf(out, "  %-*s ", (int)w, inv->nics[i].name);
		if (!near.found) {
			fputs("no PCI function\n", out);
			continue;
		}
		fprintf(out, "%-4s GPU%zu %s  %s\n", path_type_name(near.path), near.gpu,
			inv->gpus[near.gpu].pci.bdf,
			near.path <= PATH_PXB ? "near" : "far");
	}
	fputs("\nLegend: X self, PIX at most one PCIe bridge, PXB several bridges, "
	      "PHB through a host bridge,\n        NODE across host bridges in one "
	      "NUMA node, SYS across NUMA nodes\n", out);
}
