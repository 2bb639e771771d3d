/* What a GPU class is built for on the network: the rail bandwidth per
 * GPU of the reference machines of its generation (docs/profiles.md,
 * "Network per GPU"). */
#ifndef RD_PROFILES_GPU_CLASS_H
#define RD_PROFILES_GPU_CLASS_H

#include "../model/inventory.h"

/* Gb/s per GPU for a GPU of this model and kind; 0: no expectation
 * (GeForce, workstation cards, datacenter models of no HGX generation,
 * unknown models). */
double gpu_class_gbps(const struct gpu *g);

/* The largest figure over the machine's GPUs; 0 when none has one. */
double gpu_class_gbps_max(const struct inventory *inv);

#endif
