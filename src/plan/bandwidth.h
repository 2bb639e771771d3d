/* The bandwidth one GPU gets through its node's rail ports, one way: the
 * ports' rates shared by the node's GPUs, each card capped by its PCIe
 * link, each port by what was measured on it. */
#ifndef RD_PLAN_BANDWIDTH_H
#define RD_PLAN_BANDWIDTH_H

#include <stdbool.h>

#include "types.h"

/* Fills per_gpu_nominal, per_gpu_line, per_gpu_expected, capped_by,
 * cap_port and measured of r. */
void plan_bandwidth(const struct plan_machine *m, struct plan_result *r);

/* Expected share of line rate for a port (payload after headers at its
 * MTU, and what NCCL reaches per NIC at its rate). */
double plan_port_efficiency(bool ib, int mtu, double rate_gbps);

#endif
