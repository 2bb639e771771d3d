/* Read everything `inventory` shows, through one root. */
#ifndef RD_COLLECT_COLLECT_H
#define RD_COLLECT_COLLECT_H

#include "../sysfs/root.h"
#include "../model/inventory.h"

/* 0 or a negative errno for what stops the whole inventory (no memory, the
 * root unreadable); values that cannot be read are left not available. */
int inventory_collect(struct root *r, struct inventory *inv);

#endif
