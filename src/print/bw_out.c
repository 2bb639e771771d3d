#include "bw_out.h"
#include "json.h"
#include "text_printf.h"
#include "plural.h"

#include <math.h>
#include <string.h>

static json_t *gbps_json(struct bw_gbps g)
{
	return json_pack("{s:o,s:o,s:o}", "avg", json_number_or_null(g.avg), "min",
			 json_number_or_null(g.min), "max", json_number_or_null(g.max));
}

static json_t *nonneg_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* this side's device: the one named on the command line, else the one the
 * transport used */
static const char *rail_device(const struct bw_report *r, uint32_t i, const struct bw_result *f)
{
	if (r->rails[i].device)
		return r->rails[i].device;
	return f->device[0] ? f->device : NULL;
}

static json_t *rail_json(const struct bw_report *r, const struct bw_outcome *o, uint32_t i)
{
	const struct bw_result *f = bw_rail_figures(r, o, i, NULL);
	const struct bw_result *mine = &o->local[i];
	const struct bw_report_rail *rr = &r->rails[i];
	json_t *iv = json_array();

	for (size_t k = 0; k < f->n_intervals; k++)
		json_array_append_new(iv, json_real(bw_gbps_of(f->intervals[k].bytes,
							       f->intervals[k].seconds)));
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:f,s:f,s:f,s:f,s:I,s:I,s:o}",
			 "device", json_string_or_null(rail_device(r, i, mine)),
			 "port", rr->port > 0 ? json_integer(rr->port) : json_null(),
			 "numa_node", nonneg_or_null(rr->numa_node >= 0 ? rr->numa_node :
						     mine->numa_node),
			 "gid_index", nonneg_or_null(mine->gid_index),
			 "mtu_bytes", mine->mtu ? json_integer(mine->mtu) : json_null(),
			 "gpu", nonneg_or_null(rr->gpu),
			 "gpu_path", json_string_or_null(rr->gpu_path),
			 "gbps", gbps_json(bw_result_gbps(f)),
			 "msg_rate_mpps", bw_mpps_of(f->msgs, f->seconds),
			 "cpu_user_s", mine->cpu_user_s, "cpu_sys_s", mine->cpu_sys_s,
			 "seconds", f->seconds, "bytes", (json_int_t)f->bytes,
			 "msgs", (json_int_t)f->msgs, "intervals_gbps", iv);
}

static json_t *lat_json(const struct bw_result *f)
{
	struct bw_lat_stats st;

	if (bw_lat_stats(f->lat_usec, f->n_lat, &st) < 0)
		return json_null();
	/* samples: the round trips measured; samples_kept: those the figures
	 * come from (an engine's cap, or the RESULT's bound, keeps fewer) */
	return json_pack("{s:f,s:f,s:f,s:f,s:f,s:I,s:I,s:b}", "min", st.min, "p50", st.p50,
			 "p99", st.p99, "p99_9", st.p99_9, "max", st.max, "samples",
			 (json_int_t)(f->n_lat + f->lat_dropped), "samples_kept",
			 (json_int_t)st.samples, "truncated", f->lat_dropped > 0);
}

static json_t *outcome_json(const struct bw_report *r, const struct bw_outcome *o)
{
	struct bw_outcome_totals t;
	json_t *rails = json_array(), *res;

	bw_outcome_totals(r, o, &t);
	for (uint32_t i = 0; i < o->n_rails; i++)
		json_array_append_new(rails, rail_json(r, o, i));
	res = json_pack("{s:I,s:o,s:{s:o,s:f,s:I}}", "size_bytes", (json_int_t)o->p.size,
			"rails", rails, "total", "gbps", gbps_json(t.gbps), "msg_rate_mpps",
			bw_mpps_of(t.msgs, t.secs), "msgs", (json_int_t)t.msgs);
	if (res && o->p.bidir) {
		json_object_set_new(res, "remote_total",
				    json_pack("{s:o,s:f,s:I}", "gbps", gbps_json(t.peer_gbps),
					      "msg_rate_mpps", bw_mpps_of(t.peer_msgs, t.peer_secs),
					      "msgs", (json_int_t)t.peer_msgs));
		/* perftest -b reports both directions summed */
		json_object_set_new(res, "bidir_total",
				    json_pack("{s:o,s:f,s:I}", "gbps", gbps_json(t.bidir_gbps),
					      "msg_rate_mpps",
					      bw_mpps_of(t.msgs + t.peer_msgs,
							 t.secs > t.peer_secs ? t.secs : t.peer_secs),
					      "msgs", (json_int_t)(t.msgs + t.peer_msgs)));
	}
	if (res && o->p.mode == BW_MODE_LAT)
		json_object_set_new(res, "latency_usec", lat_json(bw_lat_figures(r, o)));
	return res;
}

json_t *bw_report_to_json(const struct bw_report *r)
{
	const struct bw_params *p = &r->p;
	json_t *results = json_array(), *sizes = json_array(), *doc;

	for (size_t k = 0; k < r->n_outcomes; k++) {
		json_array_append_new(results, outcome_json(r, &r->outcomes[k]));
		json_array_append_new(sizes, json_integer((json_int_t)r->outcomes[k].p.size));
	}
	doc = json_pack("{s:i,s:s,s:s,s:s,s:s,s:b,"
			"s:{s:I,s:o,s:i,s:i,s:i,s:i,s:i,s:f,s:f,s:f,s:I},"
			"s:{s:o,s:o},s:{s:o,s:o},s:o}",
			"schema", BW_SCHEMA, "test", p->mode == BW_MODE_LAT ? "lat" : "bw",
			"role", r->is_server ? "server" : "client",
			"transport", bw_transport_name(p->transport), "op", bw_op_name(p->op),
			"bidir", p->bidir,
			"params", "size_bytes", (json_int_t)p->size, "sizes_bytes", sizes,
			"qps", (int)p->qps, "tx_depth", (int)p->tx_depth, "post_list",
			(int)p->post_list, "cq_mod", (int)p->cq_mod, "inline_bytes",
			(int)p->inline_size, "duration_s", p->duration_ms / 1e3, "warmup_s",
			p->warmup_ms / 1e3, "interval_s", p->interval_ms / 1e3, "iters",
			(json_int_t)p->iters,
			"local", "host", json_string_or_null(r->local_host), "address",
			json_string_or_null(r->local_addr),
			"remote", "host", json_string_or_null(r->remote_host), "address",
			json_string_or_null(r->remote_addr),
			"results", results);
	if (!doc)
		return NULL;
	if (p->mode == BW_MODE_LAT && r->n_outcomes)
		json_object_set_new(doc, "latency_usec",
				    lat_json(bw_lat_figures(r, &r->outcomes[r->n_outcomes - 1])));
	json_object_set_new(doc, "expect_gbps", json_number_or_null(r->expect_gbps));
	json_object_set_new(doc, "verdict", json_string(bw_verdict_name(r)));
	json_object_set_new(doc, "reason", r->reason[0] ? json_string(r->reason) : json_null());
	return doc;
}

/* ---- text ---- */

static void print_header(FILE *out, const struct bw_report *r)
{
	const struct bw_params *p = &r->p;
	const char *unit = p->transport == BW_TRANSPORT_TCP ? (p->qps == 1 ? "stream" : "streams") :
			   (p->qps == 1 ? "QP" : "QPs");

	text_printf(out, "---------------------------------------------------------------------"
		     "------------------\n");
	text_printf(out, " rdmadoctor %s %s: %s %s%s, %u rail%s, %u %s", p->mode == BW_MODE_LAT ?
		    "lat" : "bw", r->is_server ? "server" : "client", bw_transport_name(p->transport),
		    p->mode == BW_MODE_LAT && p->transport == BW_TRANSPORT_TCP ? "ping-pong" :
		    bw_op_name(p->op), p->bidir ? " bidirectional" : "", r->n_rails,
		    r->n_rails == 1 ? "" : "s", p->qps, unit);
	if (p->iters)
		text_printf(out, ", %llu %s\n", (unsigned long long)p->iters,
			plural(p->iters, "iteration", "iterations"));
	else
		text_printf(out, ", %g s (+%g s warm-up)\n", p->duration_ms / 1e3, p->warmup_ms / 1e3);
	if (p->transport == BW_TRANSPORT_VERBS)
		text_printf(out, " tx depth %u, post list %u, cq moderation %u, inline %u\n",
			    p->tx_depth, p->post_list, p->cq_mod, p->inline_size);
	text_printf(out, " local  %s (%s)\n remote %s (%s)\n", r->local_host ? r->local_host : "-",
		    r->local_addr ? r->local_addr : "-", r->remote_host ? r->remote_host : "-",
		    r->remote_addr ? r->remote_addr : "-");
	for (uint32_t i = 0; i < r->n_rails && r->n_outcomes; i++) {
		const struct bw_report_rail *rr = &r->rails[i];
		const struct bw_result *m = &r->outcomes[0].local[i];
		const char *dev = rail_device(r, i, m);

		text_printf(out, " rail %u: %s", i, dev ? dev : "-");
		if (rr->port > 0)
			text_printf(out, " port %d", rr->port);
		if (m->gid_index >= 0)
			text_printf(out, " gid %d%s%s", m->gid_index, m->gid[0] ? " " : "", m->gid);
		if (m->mtu)
			text_printf(out, " mtu %u", m->mtu);
		if (rr->numa_node >= 0)
			text_printf(out, " numa %d", rr->numa_node);
		if (rr->gpu >= 0)
			text_printf(out, " gpu %d (path %s)", rr->gpu,
				    rr->gpu_path ? rr->gpu_path : "?");
		fputc('\n', out);
	}
	text_printf(out, "---------------------------------------------------------------------"
		     "------------------\n");
}

static void print_bw_row(FILE *out, uint64_t size, const char *what, uint64_t msgs,
			 struct bw_gbps g, double mpps, double cpu)
{
	text_printf(out, " %-10llu %-10s %-12llu %-11.2f %-11.2f %-11.2f %-13.6f",
		    (unsigned long long)size, what, (unsigned long long)msgs, g.avg, g.min, g.max,
		    mpps);
	if (cpu >= 0)
		text_printf(out, " %.2f", cpu);
	fputc('\n', out);
}

void bw_report_print(FILE *out, const struct bw_report *r)
{
	print_header(out, r);
	if (r->p.mode == BW_MODE_LAT) {
		text_printf(out, " %-10s %-10s %-12s %-12s %-12s %-12s %-12s\n", "#bytes", "#samples",
			    "t_min[usec]", "t_p50[usec]", "t_p99[usec]", "t_p99.9[usec]",
			    "t_max[usec]");
		for (size_t k = 0; k < r->n_outcomes; k++) {
			struct bw_lat_stats st;
			const struct bw_result *f = bw_lat_figures(r, &r->outcomes[k]);

			if (bw_lat_stats(f->lat_usec, f->n_lat, &st) < 0) {
				text_printf(out, " %-10llu no samples\n",
					    (unsigned long long)r->outcomes[k].p.size);
				continue;
			}
			text_printf(out, " %-10llu %-10zu %-12.2f %-12.2f %-12.2f %-12.2f %-12.2f\n",
				    (unsigned long long)r->outcomes[k].p.size, st.samples, st.min,
				    st.p50, st.p99, st.p99_9, st.max);
			if (f->lat_dropped)
				text_printf(out, " (%llu more round trips were measured than kept: the "
					    "figures are from the %zu kept)\n",
					    (unsigned long long)f->lat_dropped, st.samples);
		}
	} else {
		text_printf(out, " %-10s %-10s %-12s %-11s %-11s %-11s %-13s %s\n", "#bytes", "rail",
			    "#messages", "avg[Gb/s]", "min[Gb/s]", "max[Gb/s]", "MsgRate[Mpps]",
			    "CPU[s]");
		for (size_t k = 0; k < r->n_outcomes; k++) {
			const struct bw_outcome *o = &r->outcomes[k];
			struct bw_outcome_totals t;

			bw_outcome_totals(r, o, &t);
			for (uint32_t i = 0; i < o->n_rails; i++) {
				const char *dev = rail_device(r, i, &o->local[i]);
				char name[16];

				snprintf(name, sizeof(name), "%s", dev ? dev : "-");
				print_bw_row(out, o->p.size, name, t.mine[i]->msgs,
					     bw_result_gbps(t.mine[i]),
					     bw_mpps_of(t.mine[i]->msgs, t.mine[i]->seconds),
					     o->local[i].cpu_user_s + o->local[i].cpu_sys_s);
			}
			if (o->n_rails > 1)
				print_bw_row(out, o->p.size, "total", t.msgs, t.gbps,
					     bw_mpps_of(t.msgs, t.secs), -1);
			if (o->p.bidir) {
				double secs = t.secs > t.peer_secs ? t.secs : t.peer_secs;

				print_bw_row(out, o->p.size, "peer sent", t.peer_msgs, t.peer_gbps,
					     bw_mpps_of(t.peer_msgs, t.peer_secs), -1);
				print_bw_row(out, o->p.size, "both ways", t.msgs + t.peer_msgs,
					     t.bidir_gbps, bw_mpps_of(t.msgs + t.peer_msgs, secs),
					     -1);
			}
		}
	}
	text_printf(out, "---------------------------------------------------------------------"
		     "------------------\n");
	if (!isnan(r->expect_gbps))
		text_printf(out, " expected: %.2f Gb/s per rail%s%s%s\n", r->expect_gbps,
			    r->expect_why ? " (" : "", r->expect_why ? r->expect_why : "",
			    r->expect_why ? ")" : "");
	text_printf(out, " verdict: %s%s%s\n", bw_verdict_name(r), r->reason[0] ? ": " : "",
		    r->reason);
}

/* ---- bw --loopback ---- */

static json_t *side_json(const struct bw_loopback *L, const struct bw_lb_side *sd)
{
	double rate = L->rs.rail[sd->rail].rate_gbps;

	return json_pack("{s:s,s:i,s:o,s:o}", "device", sd->device, "port", sd->port, "address",
			 sd->addr ? json_string(sd->addr) : json_null(), "rate_gbps",
			 isnan(rate) ? json_null() : json_real(rate));
}

json_t *bw_loopback_pair_json(const struct bw_loopback *L, size_t k, const struct bw_report *r)
{
	const struct bw_lb_pair *p = &L->pairs[k];
	json_t *doc = bw_report_to_json(r);

	if (!doc || json_object_set_new(doc, "role", json_string("loopback")) ||
	    json_object_set_new(doc, "pair", json_pack("{s:o,s:o}", "from", side_json(L, &p->from),
						       "to", side_json(L, &p->to)))) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

void bw_loopback_pair_print(FILE *out, const struct bw_loopback *L, size_t k,
			    const struct bw_report *r)
{
	const struct bw_lb_pair *p = &L->pairs[k];

	text_printf(out, " pair %zu of %zu: %s port %d -> %s port %d\n", k + 1, L->n_pairs,
		    p->from.device, p->from.port, p->to.device, p->to.port);
	bw_report_print(out, r);
}

json_t *bw_loopback_json(json_t *pairs, const char *verdict, const char *reason)
{
	return json_pack("{s:i,s:s,s:s,s:o,s:s,s:o}", "schema", BW_SCHEMA, "test", "bw", "role",
			 "loopback", "pairs", pairs, "verdict", verdict, "reason",
			 reason && reason[0] ? json_string(reason) : json_null());
}
