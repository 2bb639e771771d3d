/* The fabric judgement: a node slow with every partner is a node, one rail
 * slow with every partner is a rail, a pair slow only between themselves
 * is a pair and neither node is; the retest against known-good partners
 * tells a slow node from a slow path in quick mode; a slow pair is re-run
 * alone before it is named (slow again: confirmed; fast: cleared, never
 * named), at most FAB_RERUN_MAX of them; dead ranks are named; nobody else
 * is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "fabric/judge.h"
#include "fabric/schedule.h"
#include "print/fabric_out.h"

#define N_MAX 64

struct fabric {
	struct fab_node nodes[N_MAX];
	char names[N_MAX][16];
	struct fab_result res[4096];
	size_t n;
	uint32_t n_nodes, rails;
	/* the fault: a slow node, a slow rail of a node, a slow pair */
	int slow_node, slow_rail_node, slow_rail, slow_a, slow_b;
	bool slow_once;	/* the slow pair is slow in the first pass only */
	int slow_diff;	/* > 0: every pair a, a + slow_diff is slow too */
};

static void fabric_init(struct fabric *f, uint32_t n, uint32_t rails)
{
	memset(f, 0, sizeof(*f));
	f->n_nodes = n;
	f->rails = rails;
	f->slow_node = f->slow_rail_node = f->slow_a = f->slow_b = -1;
	for (uint32_t i = 0; i < n; i++) {
		snprintf(f->names[i], sizeof(f->names[i]), "n%u", i);
		f->nodes[i] = (struct fab_node){ f->names[i], i, rails, FAB_NODE_OK };
	}
}

/* What the fault makes of a pair on a rail: 100 Gb/s give or take 1, or 40. */
static double speed(const struct fabric *f, uint32_t a, uint32_t b, uint32_t rail, bool retest,
		    int jitter)
{
	bool pair = ((int)a == f->slow_a && (int)b == f->slow_b) ||
		    ((int)a == f->slow_b && (int)b == f->slow_a) ||
		    (f->slow_diff > 0 && abs((int)a - (int)b) == f->slow_diff);
	bool slow = (int)a == f->slow_node || (int)b == f->slow_node ||
		    (((int)a == f->slow_rail_node || (int)b == f->slow_rail_node) &&
		     (int)rail == f->slow_rail) ||
		    (pair && !(retest && f->slow_once));

	return (slow ? 40.0 : 100.0) + (double)(jitter % 3 - 1) * 0.5;
}

static void run_schedule(struct fabric *f, const struct fab_schedule *s, bool retest,
			 uint32_t first_round)
{
	for (size_t r = 0; r < s->n_rounds; r++)
		for (size_t i = 0; i < s->rounds[r].n_pairs; i++)
			for (uint32_t k = 0; k < f->rails; k++) {
				const struct fab_pair *p = &s->rounds[r].pairs[i];
				struct fab_result *x = &f->res[f->n++];

				assert_true(f->n <= sizeof(f->res) / sizeof(f->res[0]));
				*x = (struct fab_result){ .a = p->a, .b = p->b, .rail = k,
							  .round = first_round + (uint32_t)r,
							  .retest = retest, .lat_usec = NAN };
				if (f->nodes[p->a].state != FAB_NODE_OK ||
				    f->nodes[p->b].state != FAB_NODE_OK) {
					x->ab = x->ba = NAN;
					x->error = "connection refused";
					continue;
				}
				x->ab = speed(f, p->a, p->b, k, retest, (int)(f->n * 7));
				x->ba = speed(f, p->b, p->a, k, retest, (int)(f->n * 5));
			}
}

static struct fab_input input(struct fabric *f)
{
	return (struct fab_input){ f->nodes, f->n_nodes, f->res, f->n, NAN, 0.93 };
}

/* The whole run: first pass from the schedule, the retest the judgement
 * plans, then the final judgement. */
static void judge(struct fabric *f, bool quick, struct fab_judgement *j)
{
	struct fab_schedule s, rt;
	struct fab_input in;

	assert_int_equal(quick ? fab_schedule_quick(f->n_nodes, &s)
			       : fab_schedule_full(f->n_nodes, &s), 0);
	run_schedule(f, &s, false, 0);
	in = input(f);
	assert_int_equal(fab_retest_plan(&in, 1, &rt), 0);
	run_schedule(f, &rt, true, (uint32_t)s.n_rounds);
	in = input(f);
	assert_int_equal(fab_judge(&in, j), 0);
	fab_schedule_free(&s);
	fab_schedule_free(&rt);
}

static void all_good(void **state)
{
	struct fabric f;
	struct fab_judgement j;

	(void)state;
	fabric_init(&f, 8, 1);
	judge(&f, false, &j);
	assert_int_equal(j.n_suspects, 0);
	assert_string_equal(j.verdict, "pass");
	assert_int_equal(j.n_rails, 1);
	assert_true(fabs(j.rails[0].median - 100) <= 0.5);
	assert_true(fabs(j.rails[0].threshold - 0.93 * j.rails[0].median) < 1e-9);
	for (size_t i = 0; i < f.n; i++)
		assert_int_equal(f.res[i].verdict, FAB_PV_PASS);
	fab_judgement_free(&j);
}

static void slow_node_is_a_node(void **state)
{
	struct fabric f;
	struct fab_judgement j;

	(void)state;
	fabric_init(&f, 8, 1);
	f.slow_node = 3;
	judge(&f, false, &j);
	assert_int_equal(j.n_suspects, 1);
	assert_int_equal(j.suspects[0].kind, FAB_SUSPECT_NODE);
	assert_int_equal(j.suspects[0].a, 3);
	assert_int_equal(j.suspects[0].n_evidence, 7);
	assert_non_null(strstr(j.suspects[0].reason, "every partner"));
	assert_string_equal(j.verdict, "fail");
	assert_non_null(strstr(j.reason, "node n3"));
	fab_judgement_free(&j);
}

static void slow_pair_is_a_pair(void **state)
{
	struct fabric f;
	struct fab_judgement j;

	(void)state;
	fabric_init(&f, 7, 1);	/* odd: one node sits out each round */
	f.slow_a = 1;
	f.slow_b = 5;
	judge(&f, false, &j);
	assert_int_equal(j.n_suspects, 1);
	assert_int_equal(j.suspects[0].kind, FAB_SUSPECT_PAIR);
	assert_int_equal(j.suspects[0].a, 1);
	assert_int_equal(j.suspects[0].b, 5);
	assert_int_equal(j.suspects[0].rail, -1);
	/* the first pass's slow result and its re-run, slow again */
	assert_int_equal(j.suspects[0].n_evidence, 2);
	assert_false(f.res[j.suspects[0].evidence[0]].retest);
	assert_true(f.res[j.suspects[0].evidence[1]].retest);
	assert_int_equal(f.res[j.suspects[0].evidence[1]].verdict, FAB_PV_SLOW);
	assert_int_equal(j.suspects[0].rerun, FAB_RERUN_CONFIRMED);
	assert_non_null(strstr(j.suspects[0].reason, "only between these two"));
	assert_non_null(strstr(j.suspects[0].reason, "slow again when re-run alone"));
	assert_int_equal(j.n_cleared, 0);
	assert_string_equal(j.verdict, "fail");
	fab_judgement_free(&j);
}

/* Slow once, fast when re-run alone: cleared, not a suspect, and said. */
static void slow_once_pair_is_cleared(void **state)
{
	struct fabric f;
	struct fab_judgement j;

	(void)state;
	fabric_init(&f, 7, 1);
	f.slow_a = 1;
	f.slow_b = 5;
	f.slow_once = true;
	judge(&f, false, &j);
	assert_int_equal(j.n_suspects, 0);
	assert_string_equal(j.verdict, "pass");
	assert_non_null(strstr(j.reason, "1 pair slow once was at or above the threshold "
				      "when re-run alone"));
	assert_int_equal(j.n_cleared, 1);
	assert_int_equal(j.cleared[0].kind, FAB_SUSPECT_PAIR);
	assert_int_equal(j.cleared[0].a, 1);
	assert_int_equal(j.cleared[0].b, 5);
	assert_int_equal(j.cleared[0].rerun, FAB_RERUN_CLEARED);
	assert_non_null(strstr(j.cleared[0].reason, "cleared, not a bad path"));
	assert_int_equal(j.cleared[0].n_evidence, 2);
	assert_int_equal(f.res[j.cleared[0].evidence[0]].verdict, FAB_PV_SLOW);
	assert_true(f.res[j.cleared[0].evidence[1]].retest);
	assert_int_equal(f.res[j.cleared[0].evidence[1]].verdict, FAB_PV_PASS);
	/* neither end is named for it */
	for (size_t i = 0; i < j.n_suspects; i++)
		assert_true(j.suspects[i].a != 1 && j.suspects[i].a != 5);
	fab_judgement_free(&j);

	/* the same in quick mode, where the pair's ends met nobody else: the
	 * ends' retest with known-good partners and the pair's own re-run */
	fabric_init(&f, 8, 1);
	f.slow_a = 1;
	f.slow_b = 5;
	f.slow_once = true;
	judge(&f, true, &j);
	assert_int_equal(j.n_suspects, 0);
	assert_int_equal(j.n_cleared, 1);
	assert_string_equal(j.verdict, "pass");
	fab_judgement_free(&j);
}

/* The report says what the re-run said: a cleared pair in its own list
 * (text and JSON), a confirmed pair suspect with "rerun": "confirmed". */
static void report_says_the_rerun(void **state)
{
	struct fabric f;
	struct fab_judgement j;
	struct fab_schedule s, rt;
	struct fab_input in;
	struct fab_report rep;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	json_t *doc, *x;

	(void)state;
	for (int once = 1; once >= 0; once--) {
		fabric_init(&f, 7, 1);
		f.slow_a = 1;
		f.slow_b = 5;
		f.slow_once = once;
		assert_int_equal(fab_schedule_full(7, &s), 0);
		run_schedule(&f, &s, false, 0);
		in = input(&f);
		assert_int_equal(fab_retest_plan(&in, 1, &rt), 0);
		run_schedule(&f, &rt, true, (uint32_t)s.n_rounds);
		in = input(&f);
		assert_int_equal(fab_judge(&in, &j), 0);
		rep = (struct fab_report){ .nodes = f.nodes, .n_nodes = f.n_nodes, .results = f.res,
					   .n_results = f.n, .main_rounds = &s, .retest_rounds = &rt,
					   .j = &j, .transport = "tcp", .mode = "full", .size = 65536,
					   .duration_s = 1, .slot_s = 2, .wall_s = NAN, .qps = 1,
					   .bidir = true, .tolerance = 0.93, .floor_gbps = NAN };
		out = open_memstream(&text, &len);
		assert_non_null(out);
		fab_report_print(out, &rep);
		fclose(out);
		doc = fab_report_to_json(&rep);
		assert_non_null(doc);
		if (once) {
			assert_non_null(strstr(text, "fabric: PASS: 7 nodes, no suspect: 1 pair slow "
						     "once was at or above the threshold"));
			assert_non_null(strstr(text, "\ncleared (slow once, at or above the threshold "
						     "when re-run alone):\n  pair n1-n5: slow in round"));
			assert_null(strstr(text, "suspects:"));
			assert_int_equal(json_array_size(json_object_get(doc, "suspects")), 0);
			x = json_array_get(json_object_get(doc, "cleared"), 0);
			assert_string_equal(json_string_value(json_object_get(x, "subject")), "n1-n5");
			assert_string_equal(json_string_value(json_object_get(x, "rerun")), "cleared");
			assert_int_equal(json_array_size(json_object_get(x, "evidence")), 2);
			assert_string_equal(json_string_value(json_object_get(doc, "verdict")), "pass");
		} else {
			assert_non_null(strstr(text, "suspects:\n  pair n1-n5: slow only between these "
						     "two"));
			assert_null(strstr(text, "cleared ("));
			x = json_array_get(json_object_get(doc, "suspects"), 0);
			assert_string_equal(json_string_value(json_object_get(x, "rerun")), "confirmed");
			assert_int_equal(json_array_size(json_object_get(doc, "cleared")), 0);
			assert_string_equal(json_string_value(json_object_get(doc, "verdict")), "fail");
		}
		json_decref(doc);
		free(text);
		text = NULL;
		fab_judgement_free(&j);
		fab_schedule_free(&s);
		fab_schedule_free(&rt);
	}
}

/* More slow pairs than FAB_RERUN_MAX: the first are re-run, each alone in a
 * round; the rest are named, said not re-run; no partner passed everything
 * (every node is an end of a slow pair), yet the pairs are re-run. */
static void reruns_are_bounded(void **state)
{
	struct fabric f;
	struct fab_judgement j;
	struct fab_schedule s, rt;
	struct fab_input in;
	size_t confirmed = 0, unconfirmed = 0;

	(void)state;
	fabric_init(&f, 20, 1);
	f.slow_diff = 10;	/* 0-10, 1-11, ... 9-19: ten slow pairs */
	assert_int_equal(fab_schedule_full(20, &s), 0);
	run_schedule(&f, &s, false, 0);
	in = input(&f);
	assert_int_equal(fab_retest_plan(&in, 1, &rt), 0);
	assert_int_equal(rt.n_rounds, FAB_RERUN_MAX);
	for (size_t r = 0; r < rt.n_rounds; r++) {
		assert_int_equal(rt.rounds[r].n_pairs, 1);	/* alone */
		assert_int_equal(abs((int)rt.rounds[r].pairs[0].a - (int)rt.rounds[r].pairs[0].b),
				 10);
	}
	run_schedule(&f, &rt, true, (uint32_t)s.n_rounds);
	in = input(&f);
	assert_int_equal(fab_judge(&in, &j), 0);
	assert_int_equal(j.n_suspects, 10);
	for (size_t i = 0; i < j.n_suspects; i++) {
		assert_int_equal(j.suspects[i].kind, FAB_SUSPECT_PAIR);
		if (j.suspects[i].rerun == FAB_RERUN_CONFIRMED) {
			confirmed++;
		} else {
			assert_int_equal(j.suspects[i].rerun, FAB_RERUN_NONE);
			assert_non_null(strstr(j.suspects[i].reason, "not re-run"));
			unconfirmed++;
		}
	}
	assert_int_equal(confirmed, FAB_RERUN_MAX);
	assert_int_equal(unconfirmed, 10 - FAB_RERUN_MAX);
	fab_judgement_free(&j);
	fab_schedule_free(&s);
	fab_schedule_free(&rt);

	/* --retest 0: no retest at all, the pair named unconfirmed */
	fabric_init(&f, 7, 1);
	f.slow_a = 1;
	f.slow_b = 5;
	assert_int_equal(fab_schedule_full(7, &s), 0);
	run_schedule(&f, &s, false, 0);
	in = input(&f);
	assert_int_equal(fab_retest_plan(&in, 0, &rt), 0);
	assert_int_equal(rt.n_rounds, 0);
	assert_int_equal(fab_judge(&in, &j), 0);
	assert_int_equal(j.n_suspects, 1);
	assert_int_equal(j.suspects[0].rerun, FAB_RERUN_NONE);
	assert_non_null(strstr(j.suspects[0].reason, "not re-run"));
	fab_judgement_free(&j);
	fab_schedule_free(&s);
	fab_schedule_free(&rt);
}

static void quick_pair_told_from_node_by_retest(void **state)
{
	struct fabric f;
	struct fab_judgement j;
	struct fab_schedule s, rt;
	struct fab_input in;

	(void)state;
	/* quick: 1-5 meet once; only the retest can say which is at fault */
	fabric_init(&f, 8, 1);
	f.slow_a = 1;
	f.slow_b = 5;
	assert_int_equal(fab_schedule_quick(8, &s), 0);
	run_schedule(&f, &s, false, 0);
	in = input(&f);
	assert_int_equal(fab_retest_plan(&in, 1, &rt), 0);
	/* each end against a node that passed: 2 pairs, one round; then the
	 * pair itself, alone in a round of its own */
	assert_int_equal(fab_schedule_pairs(&rt), 3);
	assert_int_equal(rt.n_rounds, 2);
	assert_int_equal(rt.rounds[1].n_pairs, 1);
	assert_int_equal(rt.rounds[1].pairs[0].a, 1);
	assert_int_equal(rt.rounds[1].pairs[0].b, 5);
	for (size_t i = 0; i < 2; i++) {
		const struct fab_pair *p = &rt.rounds[0].pairs[i];
		uint32_t end = p->a == 1 || p->a == 5 ? p->a : p->b, other = end == p->a ? p->b : p->a;

		assert_true(end == 1 || end == 5);
		assert_true(other != 1 && other != 5);
	}
	run_schedule(&f, &rt, true, 1);
	in = input(&f);
	assert_int_equal(fab_judge(&in, &j), 0);
	assert_int_equal(j.n_suspects, 1);
	assert_int_equal(j.suspects[0].kind, FAB_SUSPECT_PAIR);
	assert_non_null(strstr(j.suspects[0].reason, "known-good"));
	assert_int_equal(j.suspects[0].rerun, FAB_RERUN_CONFIRMED);
	fab_judgement_free(&j);
	fab_schedule_free(&s);
	fab_schedule_free(&rt);

	/* the same first pass, but node 5 is slow: the retest names it */
	fabric_init(&f, 8, 1);
	f.slow_node = 5;
	judge(&f, true, &j);
	assert_int_equal(j.n_suspects, 1);
	assert_int_equal(j.suspects[0].kind, FAB_SUSPECT_NODE);
	assert_int_equal(j.suspects[0].a, 5);
	assert_non_null(strstr(j.suspects[0].reason, "retest"));
	fab_judgement_free(&j);
}

static void slow_rail_is_a_rail(void **state)
{
	struct fabric f;
	struct fab_judgement j;

	(void)state;
	fabric_init(&f, 6, 4);
	f.slow_rail_node = 2;
	f.slow_rail = 3;
	judge(&f, false, &j);
	assert_int_equal(j.n_suspects, 1);
	assert_int_equal(j.suspects[0].kind, FAB_SUSPECT_RAIL);
	assert_int_equal(j.suspects[0].a, 2);
	assert_int_equal(j.suspects[0].rail, 3);
	assert_int_equal(j.suspects[0].n_evidence, 5);
	assert_int_equal(j.n_rails, 4);
	fab_judgement_free(&j);
}

static void dead_rank_is_named(void **state)
{
	struct fabric f;
	struct fab_judgement j;

	(void)state;
	fabric_init(&f, 6, 1);
	f.nodes[4].state = FAB_NODE_DIED;
	f.nodes[2].state = FAB_NODE_NEVER;
	judge(&f, false, &j);
	assert_int_equal(j.n_suspects, 2);
	assert_int_equal(j.suspects[0].a, 2);
	assert_non_null(strstr(j.suspects[0].reason, "never answered"));
	assert_int_equal(j.suspects[1].a, 4);
	assert_non_null(strstr(j.suspects[1].reason, "died"));
	for (size_t i = 0; i < f.n; i++)
		if (f.res[i].a == 4 || f.res[i].b == 4)
			assert_int_equal(f.res[i].verdict, FAB_PV_NOT_RUN);
	fab_judgement_free(&j);
}

static void floor_and_nothing_to_judge(void **state)
{
	struct fabric f;
	struct fab_judgement j;
	struct fab_input in;
	struct fab_schedule s;

	(void)state;
	/* an absolute floor above what everyone does: every node is slow */
	fabric_init(&f, 4, 1);
	assert_int_equal(fab_schedule_full(4, &s), 0);
	run_schedule(&f, &s, false, 0);
	fab_schedule_free(&s);
	in = input(&f);
	in.floor_gbps = 150;
	assert_int_equal(fab_judge(&in, &j), 0);
	assert_int_equal(j.rails[0].threshold, 150);
	assert_int_equal(j.n_suspects, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(j.suspects[i].kind, FAB_SUSPECT_NODE);
	fab_judgement_free(&j);
	/* one node alone: could not run */
	fabric_init(&f, 1, 1);
	in = input(&f);
	assert_int_equal(fab_judge(&in, &j), 0);
	assert_true(j.could_not_run);
	assert_string_equal(j.verdict, "error");
	fab_judgement_free(&j);
}

static void refusals_are_named(void **state)
{
	struct fabric f;
	struct fab_judgement j;
	struct fab_schedule s;
	struct fab_input in;

	(void)state;
	/* node 2 refuses every test (alive, but no figures with anyone); the
	 * pair 0-5 alone could not connect */
	fabric_init(&f, 6, 1);
	assert_int_equal(fab_schedule_full(6, &s), 0);
	run_schedule(&f, &s, false, 0);
	fab_schedule_free(&s);
	for (size_t i = 0; i < f.n; i++) {
		struct fab_result *x = &f.res[i];

		if (x->a == 2 || x->b == 2 || (x->a == 0 && x->b == 5)) {
			x->ab = x->ba = NAN;
			x->error = x->a == 0 && x->b == 5 ? "connection timed out"
							  : "the peer says: no RDMA device";
		}
	}
	in = input(&f);
	assert_int_equal(fab_judge(&in, &j), 0);
	assert_int_equal(j.n_suspects, 2);
	assert_int_equal(j.suspects[0].kind, FAB_SUSPECT_NODE);
	assert_int_equal(j.suspects[0].a, 2);
	assert_non_null(strstr(j.suspects[0].reason, "could not test with any partner"));
	assert_int_equal(j.suspects[0].n_evidence, 5);
	assert_int_equal(j.suspects[1].kind, FAB_SUSPECT_PAIR);
	assert_int_equal(j.suspects[1].a, 0);
	assert_int_equal(j.suspects[1].b, 5);
	assert_non_null(strstr(j.suspects[1].reason, "connection timed out"));
	fab_judgement_free(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_good),
		cmocka_unit_test(slow_node_is_a_node),
		cmocka_unit_test(slow_pair_is_a_pair),
		cmocka_unit_test(slow_once_pair_is_cleared),
		cmocka_unit_test(reruns_are_bounded),
		cmocka_unit_test(report_says_the_rerun),
		cmocka_unit_test(quick_pair_told_from_node_by_retest),
		cmocka_unit_test(slow_rail_is_a_rail),
		cmocka_unit_test(dead_rank_is_named),
		cmocka_unit_test(floor_and_nothing_to_judge),
		cmocka_unit_test(refusals_are_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
