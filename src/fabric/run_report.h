/* What rank 0 of a fabric run reports (fabric/report.h), from the run:
 * the plan before the rounds, and after them the judgement of every
 * result (fabric/judge.h, or under --load fabric/load.h, by receiver). */
#ifndef RD_FABRIC_RUN_REPORT_H
#define RD_FABRIC_RUN_REPORT_H

#include "report.h"
#include "run_state.h"

/* The plan: nodes, main rounds, transport, slot. */
void fab_run_plan(const struct fab_run *r, struct fab_report *plan,
		  struct fab_load_report *lp);

/* The report and its judgement; rep points into the rest (do not copy). */
struct fab_run_verdict {
	struct fab_report rep;
	struct fab_judgement j;
	struct fab_load_report lrep;
	struct fab_load_judgement lj;
};
/* The report of the test p (as run, or as asked when the run stopped
 * before its setup), wall_s long, under floor_gbps (NAN none; floor_why
 * where it came from).  0, or -ENOMEM. */
int fab_run_judge(const struct fab_run *r, const struct bw_params *p, double wall_s,
		  double floor_gbps, const char *floor_why, struct fab_run_verdict *v);
void fab_run_verdict_free(struct fab_run_verdict *v);

#endif
