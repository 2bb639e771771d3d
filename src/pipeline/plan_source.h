/* The machine `plan` plans for, from the one source asked for: a
 * profile (--profile), a host's latest record in the fleet database (--db
 * and --host, with the bandwidth measured there), or the machine under
 * the root, judged under the profile check would pick. */
#ifndef RD_PIPELINE_PLAN_SOURCE_H
#define RD_PIPELINE_PLAN_SOURCE_H

#include <jansson.h>
#include <stdbool.h>

#include "ctx.h"
#include "../model/inventory.h"
#include "../plan/machine.h"
#include "../print/fleet_bw.h"
#include "../profiles/profile.h"

/* What the command line asked for (NULL: not given). */
struct plan_ask {
	const char *profile, *db, *host;
	int gpn;		/* --gpus-per-node, 0: the machine's */
};

struct plan_source {
	struct plan_machine m;
	struct profile loaded;
	struct inventory inv;
	json_t *record;
	struct fleet_bw bw;
	char source[512], measured[512];
	bool have_measured;
};

/* Fill ms (zeroed by the caller) from the source a names; the source in
 * words goes to ms->source.  CMD_GO_ON, or the exit code after saying
 * why.  Free ms with plan_source_free whatever it returned. */
int plan_source_pick(struct ctx *c, const struct plan_ask *a, struct plan_source *ms);
void plan_source_free(struct plan_source *ms);

#endif
