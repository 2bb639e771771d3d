/* The verdict of a bw run and which side's figures count. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct bw_result *bw_rail_figures(const struct bw_report *r, const struct bw_outcome *o,
					uint32_t i, const struct bw_result **peer)
{
	const struct bw_result *client = r->is_server ? &o->remote[i] : &o->local[i];
	const struct bw_result *server = r->is_server ? &o->local[i] : &o->remote[i];

	if (o->p.bidir) {
		if (peer)
			*peer = &o->remote[i];
		return &o->local[i];
	}
	if (peer)
		*peer = NULL;
	/* one way: the initiator measures (perftest: both sides print the
	 * client's report); a transport whose client only receives (tcp read)
	 * counts what arrived, which the client still holds */
	return client->bytes || !server->bytes ? client : server;
}

const struct bw_result *bw_lat_figures(const struct bw_report *r, const struct bw_outcome *o)
{
	const struct bw_result *client = r->is_server ? &o->remote[0] : &o->local[0];

	return client->n_lat ? client : &o->local[0];
}

void bw_judge(struct bw_report *r)
{
	r->pass = true;
	r->reason[0] = 0;
	if (r->p.mode == BW_MODE_LAT || isnan(r->expect_gbps))
		return;
	for (size_t k = 0; k < r->n_outcomes; k++) {
		const struct bw_outcome *o = &r->outcomes[k];

		for (uint32_t i = 0; i < o->n_rails; i++) {
			const struct bw_result *f = bw_rail_figures(r, o, i, NULL);
			double g = bw_gbps_of(f->bytes, f->seconds);

			if (g >= r->expect_gbps)
				continue;
			r->pass = false;
			snprintf(r->reason, sizeof(r->reason),
				 "%s%s%.2f Gb/s average at %llu bytes is below the expected %.2f "
				 "Gb/s%s%s%s",
				 r->rails[i].device ? r->rails[i].device :
				 f->device[0] ? f->device : "",
				 r->rails[i].device || f->device[0] ? ": " : "", g,
				 (unsigned long long)o->p.size, r->expect_gbps,
				 r->expect_why ? " (" : "", r->expect_why ? r->expect_why : "",
				 r->expect_why ? ")" : "");
			return;
		}
	}
}
