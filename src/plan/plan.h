/* The planner: from a training job (model shape, parallelism, dtypes) and
 * a machine (its rail ports, their PCIe links, what was measured) to the
 * bytes each GPU moves per step, the bandwidth it gets, the network time
 * against the compute time, and the ports that would make it fit.
 * Pure arithmetic: no I/O.  The formulas and their sources are in
 * docs/plan.md. */
#ifndef RD_PLAN_PLAN_H
#define RD_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/* The most GPUs a job may have (DP x TP x PP). */
#define PLAN_MAX_GPUS (1 << 30)

/* Why the job cannot be planned (into why), or 0.  gpus: the --gpus total
 * to agree with, 0 when not given. */
int plan_job_check(const struct plan_job *j, long long gpus, char *why, size_t len);

/* Why tensor parallelism of tp cannot be laid out on nodes of gpus_per_node
 * GPUs (into why), or 0: a TP group lies within one node, or spans whole
 * nodes, else some groups straddle two nodes. */
int plan_tp_check_node(int tp, int gpus_per_node, char *why, size_t len);

/* The plan; the job passed plan_job_check and the machine has ports and
 * GPUs.  r->cap_port points into m. */
void plan_compute(const struct plan_job *j, const struct plan_machine *m,
		  struct plan_result *r);

/* Seconds to move bytes at gbytes_per_s GB/s: 0 for no bytes, INFINITY
 * for no bandwidth. */
double plan_seconds(double bytes, double gbytes_per_s);

const char *plan_kind_name(enum plan_kind k);	/* "dp", "tp", "pp", "ep" */
const char *plan_kind_title(enum plan_kind k);	/* words for people */
const char *plan_cap_name(enum plan_cap c);	/* "port_rate", "pcie", "measured" */
const char *plan_verdict_name(enum plan_verdict v);	/* "fits", "tight", "network-bound", "unknown" */

#endif
