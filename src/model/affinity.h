/* GPU x NIC placement, classified as `nvidia-smi topo -m` does (PIX, PXB,
 * PHB, NODE, SYS), from the sysfs device paths alone
 * (the PCI tree under /sys/devices, as nvidia-smi topo -m reads it). */
#ifndef RD_MODEL_AFFINITY_H
#define RD_MODEL_AFFINITY_H

#include "inventory.h"

enum path_type affinity_classify(const struct pci_func *a, const struct pci_func *b);

/* Fill inv->affinity with every GPU x NIC pair that has a PCI function. */
int affinity_compute(struct inventory *inv);

#endif
