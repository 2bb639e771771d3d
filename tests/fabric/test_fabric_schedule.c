/* The fabric schedules: the round-robin tournament meets every pair once
 * and no node twice in a round; quick mode is one round of halves; the
 * --pairs file is read line by line and its errors name the line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fabric/schedule.h"

/* every pair at most once, no node twice per round; returns pairs seen */
static size_t check_rounds(const struct fab_schedule *s, uint32_t n)
{
	uint8_t *met = calloc((size_t)n * n, 1), *busy = calloc(n, 1);
	size_t pairs = 0;

	assert_non_null(met);
	assert_non_null(busy);
	for (size_t r = 0; r < s->n_rounds; r++) {
		memset(busy, 0, n);
		for (size_t i = 0; i < s->rounds[r].n_pairs; i++) {
			const struct fab_pair *p = &s->rounds[r].pairs[i];

			assert_true(p->a < p->b);
			assert_true(p->b < n);
			assert_false(busy[p->a]);
			assert_false(busy[p->b]);
			busy[p->a] = busy[p->b] = 1;
			assert_false(met[p->a * n + p->b]);
			met[p->a * n + p->b] = 1;
			pairs++;
		}
	}
	free(met);
	free(busy);
	return pairs;
}

static void full_meets_every_pair_once(void **state)
{
	(void)state;
	for (uint32_t n = 0; n <= 33; n++) {
		struct fab_schedule s;

		assert_int_equal(fab_schedule_full(n, &s), 0);
		assert_int_equal(check_rounds(&s, n), (size_t)n * (n ? n - 1 : 0) / 2);
		if (n >= 2) {
			/* n-1 rounds of n/2 pairs; an odd node out sits out one each */
			assert_int_equal(s.n_rounds, n % 2 ? n : n - 1);
			for (size_t r = 0; r < s.n_rounds; r++)
				assert_int_equal(s.rounds[r].n_pairs, n / 2);
		} else {
			assert_int_equal(s.n_rounds, 0);
		}
		fab_schedule_free(&s);
	}
}

static void quick_is_halves(void **state)
{
	struct fab_schedule s;

	(void)state;
	assert_int_equal(fab_schedule_quick(8, &s), 0);
	assert_int_equal(s.n_rounds, 1);
	assert_int_equal(s.rounds[0].n_pairs, 4);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(s.rounds[0].pairs[i].a, i);
		assert_int_equal(s.rounds[0].pairs[i].b, i + 4);
	}
	assert_int_equal(check_rounds(&s, 8), 4);
	fab_schedule_free(&s);
	/* odd: the node out is tested in a second round */
	assert_int_equal(fab_schedule_quick(7, &s), 0);
	assert_int_equal(s.n_rounds, 2);
	assert_int_equal(s.rounds[1].n_pairs, 1);
	assert_int_equal(s.rounds[1].pairs[0].b, 6);
	assert_int_equal(check_rounds(&s, 7), 4);
	fab_schedule_free(&s);
}

/* incast: a round per receiver, its senders the fan-in nodes after it,
 * each sender connecting to it; every node receives exactly once */
static void incast_is_one_receiver_per_round(void **state)
{
	struct fab_schedule s;

	(void)state;
	for (uint32_t n = 0; n <= 17; n++)
		for (uint32_t k = 0; k <= n + 1; k++) {
			uint32_t want = k == 0 || k > n - 1 ? n - 1 : k;
			uint8_t recv[32] = { 0 };

			assert_int_equal(fab_schedule_incast(n, k, &s), 0);
			assert_int_equal(s.n_rounds, n < 2 ? 0 : n);
			for (size_t r = 0; r < s.n_rounds; r++) {
				uint8_t sent[32] = { 0 };

				assert_int_equal(s.rounds[r].n_pairs, want);
				for (size_t i = 0; i < s.rounds[r].n_pairs; i++) {
					const struct fab_pair *p = &s.rounds[r].pairs[i];

					/* b is this round's receiver, a a sender, once */
					assert_int_equal(p->b, r);
					assert_true(p->a < n && p->a != p->b);
					assert_false(sent[p->a]);
					sent[p->a] = 1;
				}
				recv[r]++;
			}
			for (uint32_t i = 0; n >= 2 && i < n; i++)
				assert_int_equal(recv[i], 1);
			fab_schedule_free(&s);
		}
	/* the senders follow the receiver: round 6 of 8 with fan-in 3 */
	assert_int_equal(fab_schedule_incast(8, 3, &s), 0);
	assert_int_equal(s.rounds[6].pairs[0].a, 7);
	assert_int_equal(s.rounds[6].pairs[1].a, 0);
	assert_int_equal(s.rounds[6].pairs[2].a, 1);
	fab_schedule_free(&s);
}

/* alltoall: one round holding every pair once, the lower node first */
static void alltoall_is_every_pair_at_once(void **state)
{
	struct fab_schedule s;

	(void)state;
	for (uint32_t n = 0; n <= 12; n++) {
		uint8_t met[12][12] = { { 0 } };

		assert_int_equal(fab_schedule_alltoall(n, &s), 0);
		assert_int_equal(s.n_rounds, n < 2 ? 0 : 1);
		assert_int_equal(fab_schedule_pairs(&s), (size_t)n * (n ? n - 1 : 0) / 2);
		for (size_t i = 0; s.n_rounds && i < s.rounds[0].n_pairs; i++) {
			const struct fab_pair *p = &s.rounds[0].pairs[i];

			assert_true(p->a < p->b && p->b < n);
			assert_false(met[p->a][p->b]);
			met[p->a][p->b] = 1;
		}
		fab_schedule_free(&s);
	}
}

static const char *const names[] = { "gpu-01", "gpu-02", "gpu-03", "gpu-04" };

static int parse(const char *text, struct fab_schedule *s, char *err)
{
	return fab_schedule_parse(text, strlen(text), names, 4, s, err, 200);
}

static void pairs_file(void **state)
{
	struct fab_schedule s;
	char err[200];
	const char *good = "# acceptance pairs\n"
			   "1 gpu-01 gpu-02\n"
			   "1\tgpu-04 gpu-03   # same round\r\n"
			   "\n"
			   "5 gpu-02 gpu-01\n";

	(void)state;
	assert_int_equal(parse(good, &s, err), 0);
	/* round 5 follows round 1: the gap is not run */
	assert_int_equal(s.n_rounds, 2);
	assert_int_equal(s.rounds[0].n_pairs, 2);
	assert_int_equal(s.rounds[0].pairs[1].a, 2);
	assert_int_equal(s.rounds[0].pairs[1].b, 3);
	assert_int_equal(s.rounds[1].pairs[0].a, 0);
	fab_schedule_free(&s);
	/* no newline at the end, not NUL-terminated */
	assert_int_equal(fab_schedule_parse("2 gpu-01 gpu-03XYZ", 15, names, 4, &s, err, 200), 0);
	assert_int_equal(s.n_rounds, 1);
	fab_schedule_free(&s);
}

static void pairs_file_errors(void **state)
{
	struct fab_schedule s;
	char err[200];
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "1 gpu-01 gpu-02\n1 gpu-02 gpu-03\n", "line 2: a node is in round 1 twice" },
		{ "1 gpu-01 gpu-09\n", "line 1: no node named 'gpu-09'" },
		{ "1 gpu-01 gpu-01\n", "line 1: a node cannot test itself" },
		{ "0 gpu-01 gpu-02\n", "line 1: the round is not a number" },
		{ "x gpu-01 gpu-02\n", "line 1: the round is not a number" },
		{ "99999999999999999999 gpu-01 gpu-02\n", "line 1: the round is not a number" },
		{ "\n\n1 gpu-01\n", "line 3: expected ROUND NODE_A NODE_B" },
		{ "1 gpu-01 gpu-02 gpu-03\n", "line 1: expected" },
		{ "# nothing\n\n", "no pairs" },
		{ "", "no pairs" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(parse(bad[i].text, &s, err), -1);
		assert_non_null(strstr(err, bad[i].says));
		assert_int_equal(s.n_rounds, 0);
	}
}

/* Before the rendezvous the names are not known: the form is checked, the
 * names are not. */
static void pairs_file_form_only(void **state)
{
	struct fab_schedule s;
	char err[200];
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "1 n1 n1\n", "line 1: a node cannot test itself" },
		{ "0 n1 n2\n", "line 1: the round is not a number" },
		{ "\n1 n1\n", "line 2: expected ROUND NODE_A NODE_B" },
		{ "# nothing\n", "no pairs" },
	};

	(void)state;
	/* any names, even a node twice in a round: that is the job's to say */
	assert_int_equal(fab_schedule_parse("1 x y\n1 x z\n", 12, NULL, 0, &s, err, 200), 0);
	assert_int_equal(s.n_rounds, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(fab_schedule_parse(bad[i].text, strlen(bad[i].text), NULL, 0, &s,
						    err, sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i].says));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_meets_every_pair_once),
		cmocka_unit_test(quick_is_halves),
		cmocka_unit_test(incast_is_one_receiver_per_round),
		cmocka_unit_test(alltoall_is_every_pair_at_once),
		cmocka_unit_test(pairs_file),
		cmocka_unit_test(pairs_file_errors),
		cmocka_unit_test(pairs_file_form_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
