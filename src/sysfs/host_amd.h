/* What AMD Instinct GPUs need for GPUDirect RDMA: the amdgpu module (its
 * DMA-BUF export) and ROCm's amdkfd memory peer.  Read only when the
 * inventory holds an AMD GPU (collect/collect.c). */
#ifndef RD_SYSFS_HOST_AMD_H
#define RD_SYSFS_HOST_AMD_H

#include "root.h"
#include "../model/inventory.h"

/* Fills h->amd; 0 or -ENOMEM.  What cannot be read stays unknown: the
 * module as host_module_read leaves it (h->modules_known says whether the
 * module list was there at all). */
int host_read_amd(struct root *r, struct host *h);

#endif
