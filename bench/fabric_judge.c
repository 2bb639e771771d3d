/* The time to analyse a large fabric report: a full tournament of N nodes
 * (default 1024: 523,776 pairs) with one slow node and one slow pair,
 * judged (fab_retest_plan, then fab_judge) and rendered as the JSON
 * document.  Prints seconds; bench/bench_fabric.sh runs it.  Nothing
 * asserts a time.
 *   bench_fabric_judge [NODES] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric/judge.h"
#include "fabric/report.h"
#include "fabric/schedule.h"
#include "print/fabric_out.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1024;
	struct fab_schedule s, rt;
	struct fab_node *nodes = calloc(n, sizeof(*nodes));
	char (*names)[16] = calloc(n, sizeof(*names));
	struct fab_result *res;
	struct fab_judgement j;
	size_t k = 0;
	double t0, t1, t2, t3;
	json_t *doc;

	if (n < 4 || !nodes || !names || fab_schedule_full(n, &s) < 0)
		return 1;
	res = calloc(fab_schedule_pairs(&s), sizeof(*res));
	if (!res)
		return 1;
	for (uint32_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "gpu-%04u", i);
		nodes[i] = (struct fab_node){ names[i], i, 1, FAB_NODE_OK };
	}
	for (size_t r = 0; r < s.n_rounds; r++)
		for (size_t i = 0; i < s.rounds[r].n_pairs; i++) {
			const struct fab_pair *p = &s.rounds[r].pairs[i];
			bool slow = p->a == 17 || p->b == 17 || (p->a == 3 && p->b == 900);
			double v = (slow ? 150 : 390) + (double)(k % 7);

			res[k++] = (struct fab_result){ .a = p->a, .b = p->b, .round = (uint32_t)r,
							.ab = v, .ba = v - 1, .lat_usec = NAN };
		}
	{
		struct fab_input in = { nodes, n, res, k, 360, 0.93 };
		struct fab_report rep = { .nodes = nodes, .n_nodes = n, .results = res,
					  .n_results = k, .main_rounds = &s, .transport = "verbs",
					  .mode = "full", .size = 65536, .duration_s = 2, .qps = 1,
					  .bidir = true, .tolerance = 0.93, .floor_gbps = 360,
					  .wall_s = NAN };

		t0 = now();
		if (fab_retest_plan(&in, 1, &rt) < 0)
			return 1;
		t1 = now();
		if (fab_judge(&in, &j) < 0)
			return 1;
		t2 = now();
		rep.retest_rounds = &rt;
		rep.j = &j;
		doc = fab_report_to_json(&rep);
		t3 = now();
		if (!doc)
			return 1;
		printf("fabric_judge: %u nodes, %zu pairs, %zu suspects: retest plan %.3f s, "
		       "judgement %.3f s, JSON %.3f s, analysis %.3f s in all (aim < 1 s)\n",
		       n, k, j.n_suspects, t1 - t0, t2 - t1, t3 - t2, t2 - t0);
		json_decref(doc);
	}
	fab_judgement_free(&j);
	fab_schedule_free(&rt);
	fab_schedule_free(&s);
	free(res);
	free(names);
	free(nodes);
	return 0;
}
