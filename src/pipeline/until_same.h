/* The second reading of a window (check --window --until DIR2, watch
 * --until DIR2) must be of the same machine and the same boot as the
 * first: counters of another host, another card or a reboot subtracted
 * from the first's give rates no link can carry and hide every error
 * that did grow.  Each of the host name, the boot id and every RDMA
 * device's node GUID that both trees hold must match; one that only one
 * of them holds cannot be compared and does not stop the window. */
#ifndef RD_PIPELINE_UNTIL_SAME_H
#define RD_PIPELINE_UNTIL_SAME_H

#include <stddef.h>

#include "../model/inventory.h"
#include "../sysfs/root.h"

/* 0 the same as far as both tell; 1 not (why says what differs, with
 * both values); -ENOMEM. */
int until_same(struct root *first, const struct inventory *inv, struct root *later,
	       char *why, size_t why_len);

#endif
