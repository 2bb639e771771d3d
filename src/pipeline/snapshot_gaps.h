/* A replayed snapshot that does not match its manifest (sysfs/manifest.h)
 * is judged only for what it holds: said on stderr when it is opened
 * ("incomplete snapshot: N entries missing"), and after the checks ran
 * the findings of what it lacks are taken out, since a device whose files
 * are gone looks like a card that fell off the bus ("reseat a card"):
 *   - those on an RDMA device (or its ports) with entries missing;
 *   - those on the machine as a whole (its NIC count, bandwidth, topology,
 *     the GPUs, the host), which need all of it;
 * and one finding, snapshot.incomplete (warn, not checked), says how many
 * entries are missing, of which devices, and which checks were not
 * judged for it.  The findings of a whole device stay. */
#ifndef RD_PIPELINE_SNAPSHOT_GAPS_H
#define RD_PIPELINE_SNAPSHOT_GAPS_H

#include "ctx.h"
#include "../check/finding.h"
#include "../model/inventory.h"
#include "../sysfs/manifest_check.h"

/* After the root is opened: g filled and, when entries are missing or the
 * manifest is malformed, said on stderr.  EXIT_OK or EXIT_RUNTIME (said). */
int snapshot_gaps_open(struct ctx *c, const char *verb, struct root *r,
		       struct snapshot_gaps *g);
/* After the checks: what the tree lacks is not judged.  0 or -ENOMEM. */
int snapshot_gaps_apply(const struct inventory *inv, const struct snapshot_gaps *g,
			struct findings *fs);

#endif
