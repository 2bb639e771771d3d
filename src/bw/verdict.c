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

void bw_outcome_totals(const struct bw_report *r, const struct bw_outcome *o,
		       struct bw_outcome_totals *t)
{
	const struct bw_result *both[2 * BW_RAILS_MAX];

	memset(t, 0, sizeof(*t));
	for (uint32_t i = 0; i < o->n_rails; i++) {
		t->mine[i] = bw_rail_figures(r, o, i, &t->peer[i]);
		t->msgs += t->mine[i]->msgs;
		if (t->mine[i]->seconds > t->secs)
			t->secs = t->mine[i]->seconds;
		both[i] = t->mine[i];
		if (t->peer[i]) {
			t->peer_msgs += t->peer[i]->msgs;
			if (t->peer[i]->seconds > t->peer_secs)
				t->peer_secs = t->peer[i]->seconds;
			both[o->n_rails + i] = t->peer[i];
		}
	}
	t->gbps = bw_total_gbps(t->mine, o->n_rails);
	t->peer_gbps = t->bidir_gbps = (struct bw_gbps){ NAN, NAN, NAN };
	if (o->p.bidir && o->n_rails) {
		t->peer_gbps = bw_total_gbps(t->peer, o->n_rails);
		/* perftest -b: both directions summed, interval by interval */
		t->bidir_gbps = bw_total_gbps(both, 2 * (size_t)o->n_rails);
	}
}

void bw_judge(struct bw_report *r)
{
	r->pass = true;
	r->could_not_run = false;
	r->no_floor = false;
	r->reason[0] = 0;
	if (r->error) {
		r->pass = false;
		r->could_not_run = true;
		snprintf(r->reason, sizeof(r->reason), "%s", r->error);
		return;
	}
	if (r->p.mode == BW_MODE_LAT) {
		for (size_t k = 0; k < r->n_outcomes; k++) {
			if (bw_lat_figures(r, &r->outcomes[k])->n_lat)
				continue;
			r->pass = false;
			r->could_not_run = true;
			snprintf(r->reason, sizeof(r->reason),
				 "no latency samples at %llu bytes: no round trip ended inside "
				 "the measured window (a warm-up longer than the test?)",
				 (unsigned long long)r->outcomes[k].p.size);
			return;
		}
		return;
	}
	if (isnan(r->expect_gbps)) {
		r->no_floor = true;
		snprintf(r->reason, sizeof(r->reason), "%s",
			 r->p.transport == BW_TRANSPORT_TCP ?
			 "nothing judged: tcp has no line rate to hold it to; give "
			 "--expect-gbps GBPS for a verdict" :
			 "nothing judged: neither a profile's bw_floor_gbps nor the port's rate "
			 "is known; give --expect-gbps GBPS for a verdict");
		return;
	}
	for (size_t k = 0; k < r->n_outcomes; k++) {
		const struct bw_outcome *o = &r->outcomes[k];

		if (o->p.size < r->expect_min_bytes)
			continue;

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

const char *bw_verdict_name(const struct bw_report *r)
{
	if (!r->pass)
		return r->could_not_run ? "error" : "fail";
	return r->no_floor ? "no floor" : "pass";
}
