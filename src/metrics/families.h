/* The families of metrics.h, one file each kind: NICs and PCIe
 * (nic_metrics.c), ports (port_metrics.c), counters (counter_metrics.c),
 * transceivers (module_metrics.c), FEC statistics (fec_metrics.c), device nodes and slurmd's memlock
 * (access_metrics.c), the driver stack (driver_metrics.c), findings and
 * the check (check_metrics.c).  Internal
 * to src/metrics. */
#ifndef RD_METRICS_FAMILIES_H
#define RD_METRICS_FAMILIES_H

#include "expo.h"
#include "../check/finding.h"
#include "../model/inventory.h"

#include <math.h>
#include <stdint.h>

/* A count the model may not know (NA or negative): NAN, which the families
 * leave out, else the count. */
static inline double metrics_known(int64_t v)
{
	return IS_NA(v) || v < 0 ? NAN : (double)v;
}

/* The labels of a port's series: device, port, netdev, pci. */
#define PORT_LABELS 4
struct port_labels {
	struct expo_label l[PORT_LABELS + 2];	/* room for two more */
	char num[24];
};

void port_labels_init(struct port_labels *pl, const struct nic *n, const struct port *p);

void metrics_nics(struct expo *e, const struct inventory *inv);
void metrics_ports(struct expo *e, const struct inventory *inv);
void metrics_modules(struct expo *e, const struct inventory *inv);
/* FEC statistics of Ethernet links (fec_metrics.c) */
void metrics_fec(struct expo *e, const struct inventory *inv);
void metrics_access(struct expo *e, const struct inventory *inv);
void metrics_driver_stack(struct expo *e, const struct inventory *inv);
/* Ascend NPU ports (npu_metrics.c) */
void metrics_npus(struct expo *e, const struct inventory *inv);
/* 0 or -ENOMEM */
int metrics_counters(struct expo *e, const struct inventory *inv);
void metrics_findings(struct expo *e, const struct findings *fs, const char *profile,
		      const struct inventory *inv);

#endif
