/* Counters again: re-read what changes over time (watch, check --window). */
#ifndef RD_SYSFS_COUNTERS_H
#define RD_SYSFS_COUNTERS_H

#include "root.h"
#include "../model/inventory.h"

/* Re-fill counters, hw_counters, carrier_changes and the netdev's
 * statistics/ of every port of the inventory, and its ethtool statistics,
 * FEC statistics and DCB pause counters where they were read before, from r (the same
 * machine, or a later snapshot of it), reading each file anew (root_forget_files first).  Nothing else in
 * the inventory changes.  A port or counter that has gone gives an empty set / NA.
 * 0 or -ENOMEM. */
int counters_sample(struct root *r, struct inventory *inv);

#endif
