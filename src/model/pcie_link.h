/* PCIe links along a device's path.  Both ends of a link report it: a root
 * port or switch downstream port describes the link below it, a switch
 * upstream port the link above it.  A link can only train as fast and as
 * wide as the weaker end allows, so "degraded" compares against the lower
 * capability of the two ends, not against one end alone. */
#ifndef RD_MODEL_PCIE_LINK_H
#define RD_MODEL_PCIE_LINK_H

#include <stdbool.h>

#include "inventory.h"

/* PCIe generation of a transfer rate: 2.5 -> 1 ... 64 -> 6; 0 if none. */
int pcie_gen(double gts);
/* The transfer rate per lane of a generation (the inverse): 1 -> 2.5 ...
 * 6 -> 64 GT/s; NAN for none. */
double pcie_gen_gts(int gen);

/* Bandwidth per direction in GB/s after line coding (8b/10b for Gen1-2,
 * 128b/130b for Gen3-5, FLIT for Gen6), before TLP overhead. */
double pcie_raw_gbytes(double gts, int width);

/* What such a link carries in practice: 90 % of the raw figure (TLP
 * headers at 256-byte payloads, flow-control packets).  Ports that need
 * more are PCIe-bound (pcie.bottleneck); the planner caps them at it. */
double pcie_usable_gbytes(double gts, int width);

/* The far end of the link that upstream bridge i reports (NULL: unknown). */
const struct pci_func *pcie_link_partner(const struct pci_func *dev, size_t i);

/* What the link reported by f (with partner p, may be NULL) can reach. */
struct pci_link pcie_link_reachable(const struct pci_func *f, const struct pci_func *p);

/* The link runs slower or narrower than both ends can do. */
bool pcie_link_degraded(const struct pci_func *f, const struct pci_func *p);

#endif
