/* Lookups over the affinity list that the topo views share. */
#ifndef RD_MODEL_TOPO_VERDICT_H
#define RD_MODEL_TOPO_VERDICT_H

#include <stdbool.h>

#include "inventory.h"

const struct affinity *topo_pair(const struct inventory *inv, size_t gpu, size_t nic);

struct topo_nearest {
	bool found;
	size_t gpu;
	enum path_type path;
};

/* The GPU closest to a NIC (lowest path type, then lowest GPU index). */
struct topo_nearest topo_nearest_gpu(const struct inventory *inv, size_t nic);

#endif
