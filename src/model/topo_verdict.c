#include "topo_verdict.h"

const struct affinity *topo_pair(const struct inventory *inv, size_t gpu, size_t nic)
{
	for (size_t i = 0; i < inv->n_affinity; i++)
		if (inv->affinity[i].gpu == gpu && inv->affinity[i].nic == nic)
			return &inv->affinity[i];
	return NULL;
}

struct topo_nearest topo_nearest_gpu(const struct inventory *inv, size_t nic)
{
	struct topo_nearest best = { 0 };

	for (size_t i = 0; i < inv->n_affinity; i++) {
		const struct affinity *a = &inv->affinity[i];

		if (a->nic != nic)
			continue;
		if (!best.found || a->path < best.path) {
			best.found = true;
			best.gpu = a->gpu;
			best.path = a->path;
		}
	}
	return best;
}
