/* The floor a bw test holds a rail to (bw/expect.h). */
#include "expect.h"
#include "../profiles/profile.h"

#include <math.h>
#include <stdio.h>

int bw_floor(const struct profile *pr, double min_rate, double *gbps, char *why, size_t whysz)
{
	double floor = pr ? pr->role[ROLE_RAIL].bw_floor_gbps : 0;

	if (floor > 0) {
		*gbps = floor;
		snprintf(why, whysz, "the %s profile's bw_floor_gbps of %g Gb/s, at sizes of 64 KiB "
			 "and up", pr->name, floor);
		return 1;
	}
	if (!isnan(min_rate) && min_rate > 0) {
		*gbps = 0.9 * min_rate;
		snprintf(why, whysz, "90%% of the %g Gb/s port rate, at sizes of 64 KiB and up",
			 min_rate);
		return 1;
	}
	return 0;
}

void bw_expectation(struct bw_report *r, double expect_gbps, const struct profile *pr,
		    double min_rate, char *why, size_t whysz)
{
	r->expect_gbps = expect_gbps;
	r->expect_why = NULL;
	r->expect_min_bytes = 0;
	if (!isnan(expect_gbps)) {
		/* asked for: every size of the sweep is held to it */
		r->expect_why = "--expect-gbps";
		return;
	}
	if (r->p.transport != BW_TRANSPORT_VERBS || r->p.mode != BW_MODE_BW)
		return;	/* tcp has no line rate we can trust; latency no floor */
	/* small messages cannot fill a link (perftest's own line-rate figures
	 * are for 64 KiB and up): smaller sizes are not judged */
	r->expect_min_bytes = BW_EXPECT_MIN_BYTES;
	if (bw_floor(pr, min_rate, &r->expect_gbps, why, whysz))
		r->expect_why = why;
	else
		r->expect_min_bytes = 0;
}
