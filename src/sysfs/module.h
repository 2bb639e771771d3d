/* The transceiver of a port's netdev (kernel-interfaces.md 6.3-6.4): its
 * EEPROM pages over ethtool netlink, decoded by src/eeprom/module.c. */
#ifndef RD_SYSFS_MODULE_H
#define RD_SYSFS_MODULE_H

#include "root.h"
#include "../model/inventory.h"

/* Where `snapshot` keeps each page read: <dir>/<ifname>/<i2c>-<page>-
 * <bank>-<offset> in hex ("50-00-0-000", "50-11-0-080"), the raw bytes. */
#define MODULE_SNAPSHOT_DIR ".rdmadoctor/module"

/* For a port with a netdev (Ethernet or IPoIB): live, read the pages over
 * netlink (onto the tape when snapshotting); replay, read the files under
 * .rdmadoctor/module/<netdev>/.  Sets p->module when an identifier was
 * read; no module, no permission (CAP_NET_ADMIN), no support: a note, and
 * p->module stays NULL.  0 or -ENOMEM. */
int module_read_port(struct root *r, struct port *p);

#endif
