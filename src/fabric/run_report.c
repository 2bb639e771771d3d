/* What rank 0 of a fabric run reports (run_report.h). */
#include "run_report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void fab_run_plan(const struct fab_run *r, struct fab_report *plan,
		  struct fab_load_report *lp)
{
	*plan = (struct fab_report){
		.nodes = r->nodes, .n_nodes = r->size, .main_rounds = &r->main_rounds,
		.transport = bw_transport_name(r->side.transport), .slot_s = r->slot_s,
		.mode = r->cf->load ? fab_load_name(r->cf->load) : fab_mode_name(r->cf->mode),
	};
	*lp = (struct fab_load_report){ .mode = r->cf->load };
	plan->load = r->cf->load ? lp : NULL;
}

int fab_run_judge(const struct fab_run *r, const struct bw_params *p, double wall_s,
		  double floor_gbps, const char *floor_why, struct fab_run_verdict *v)
{
	const struct fab_conf *cf = r->cf;
	int tc = cf->traffic_class > 0 ? cf->traffic_class : 0;
	struct fab_input in = { r->nodes, r->named ? r->size : 0, r->all, r->n_all, floor_gbps,
				cf->tolerance };
	struct fab_load_input li;

	memset(v, 0, sizeof(*v));
	v->rep = (struct fab_report){
		.nodes = r->nodes, .n_nodes = r->named ? r->size : 0, .results = r->all,
		.n_results = r->n_all,
		.main_rounds = &r->main_rounds, .retest_rounds = &r->retest_rounds,
		.transport = bw_transport_name(p->transport), .mode = fab_mode_name(cf->mode),
		.size = p->size, .duration_s = p->duration_ms / 1e3, .warmup_s = p->warmup_ms / 1e3,
		.slot_s = r->slot_s, .wall_s = wall_s, .qps = p->qps, .bidir = p->bidir,
		.lat = cf->lat, .tolerance = cf->tolerance, .error = r->error,
		.floor_gbps = floor_gbps, .floor_why = floor_why,
	};
	v->lrep = (struct fab_load_report){
		.mode = cf->load, .fan_in = cf->fan_in, .tc_from = cf->tc_from,
		.traffic_class = tc, .priority = fab_sampler_priority(&r->lr.smp, tc),
		.line_gbps = cf->expect_gbps, .ports = r->lr.all, .n_ports = r->lr.n_all,
		.j = &v->lj,
	};
	li = (struct fab_load_input){
		cf->load, r->nodes, r->named ? r->size : 0, r->all, r->n_all, r->lr.all,
		r->lr.n_all, v->lrep.priority, v->lrep.line_gbps, FAB_LOAD_GOODPUT_FRAC,
		FAB_LOAD_UNFAIR_FRAC,
	};
	if (cf->load) {
		/* the flows of a load round share a port by design: they are
		 * judged together, by receiver, not pair by pair */
		if (fab_load_judge(&li, &v->lj) < 0)
			return -ENOMEM;
		v->rep.load = &v->lrep;
		v->rep.mode = fab_load_name(cf->load);
	} else if (fab_judge(&in, &v->j) < 0) {
		return -ENOMEM;
	} else {
		v->rep.j = &v->j;
	}
	return 0;
}

void fab_run_verdict_free(struct fab_run_verdict *v)
{
	fab_judgement_free(&v->j);
	fab_load_judgement_free(&v->lj);
}
