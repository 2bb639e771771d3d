/* The transceiver of a port's netdev (ethtool netlink MODULE_EEPROM_GET): its
 * EEPROM pages over ethtool netlink, decoded by src/eeprom/module.c. */
#ifndef RD_SYSFS_MODULE_H
#define RD_SYSFS_MODULE_H

#include "root.h"
#include "../model/inventory.h"

/* Each page is fetched (fetch.h) as .rdmadoctor/module/<ifname>/<i2c>-
 * <page>-<bank>-<offset> in hex ("50-00-0-000", "50-11-0-080"), the raw
 * bytes: the lower page, then the pages its identifier calls for. */
#define MODULE_FETCH_KIND "module"

/* For a port with a netdev (Ethernet or IPoIB): the pages through
 * root_fetch.  Sets p->module when an identifier was
 * read; no module, no permission (CAP_NET_ADMIN), no support: a note, and
 * p->module stays NULL.  0 or -ENOMEM. */
int module_read_port(struct root *r, struct port *p);

#endif
