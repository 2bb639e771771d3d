/* The planner's machine (plan/plan.h) from what the other commands read:
 * a profile, or an inventory (live, a snapshot, or a recorded check). */
#ifndef RD_PLAN_MACHINE_H
#define RD_PLAN_MACHINE_H

#include "../model/inventory.h"
#include "plan.h"
#include "../profiles/profile.h"

/* gpus > 0 overrides the GPU count.  0, or -1 with why filled (-ENOMEM is
 * said as "out of memory"); m->ports is malloc'd: plan_machine_free. */
int plan_machine_from_profile(const struct profile *p, int gpus, struct plan_machine *m,
			      char *why, size_t len);
struct site;
/* The rail NICs under profile p, with the roles `check` assigns them (the
 * site file's rail/storage names too; site NULL: none). */
int plan_machine_from_inventory(const struct inventory *inv, const struct profile *p,
				const struct site *site,
				int gpus, struct plan_machine *m, char *why, size_t len);
void plan_machine_free(struct plan_machine *m);

#endif
