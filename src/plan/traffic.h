/* Bytes per GPU per training step, by kind of traffic, and the part that
 * crosses the NIC under the usual placement: tensor-parallel ranks next to
 * each other (inside a node), then pipeline stages, then data-parallel
 * replicas across nodes; expert-parallel groups are carved out of the
 * data-parallel ones. */
#ifndef RD_PLAN_TRAFFIC_H
#define RD_PLAN_TRAFFIC_H

#include "types.h"

/* Micro-batches per step: global batch / (micro-batch x DP). */
long long plan_micro_batches(const struct plan_job *j);

void plan_traffic(const struct plan_job *j, int gpus_per_node, struct plan_traffic *t);

#endif
