/* The link of a port whose driver reports a fixed state and rate
 * (model/driver_link.h: efa): taken from the network interface on the
 * device's PCI function, or unknown with the driver's reason. */
#ifndef RD_SYSFS_FIXED_LINK_H
#define RD_SYSFS_FIXED_LINK_H

#include "root.h"
#include "../model/inventory.h"
#include "../model/driver_link.h"

/* P's state, phys_state and rate as read from its driver's files are
 * replaced: by the interface's operstate (and carrier where operstate is
 * "unknown") when PCI_DIR has an Ethernet netdev for the port (p->netdev
 * set; the caller reads its netdev_* fields as for any port), else NA
 * with p->state_why saying why; the rate is NA (said in a note).
 * 0 or -ENOMEM. */
int fixed_link_read(struct root *r, const struct drv_link *dl, const char *pci_dir,
		    const char *portdir, struct port *p);

#endif
