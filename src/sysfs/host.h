/* The host: name, kernel, DMI product, memlock limit, IOMMU, the kernel
 * modules GPUDirect and verbs depend on, and which driver stack is in use. */
#ifndef RD_SYSFS_HOST_H
#define RD_SYSFS_HOST_H

#include "root.h"
#include "../model/inventory.h"

/* nics are read first: the IOMMU domain type is the one of their group. */
int host_read(struct root *r, const struct nic *nics, size_t n_nics, struct host *h);

/* One module's state into m (m->name set): its /sys/module directory, else
 * its line in modules (the text of /proc/modules, NULL when not read). */
void host_module_read(struct root *r, const char *modules, struct module_state *m);

#endif
