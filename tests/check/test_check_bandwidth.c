/* nic.bandwidth_per_gpu (src/check/bandwidth.c): the rails' total port rate
 * shared by the GPUs against what the profile says each GPU is built for,
 * on the small DGX A100 of check_machine.h (4 GPUs, 4 HDR rails, 200 Gb/s a
 * GPU).  Below the figure a warning, below half an error, a fewer_rails
 * profile only warns; a rail port whose rate is unknown leaves it not
 * checked. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"

#define NONE (-1)

struct bw_case {
	const char *name;
	double gpu_gbps;	/* the profile's figure a GPU */
	bool fewer_rails;
	int down;		/* how many rails' ports are down */
	bool rate_unknown;	/* rail 0's rate unreadable */
	int sev;
	const char *observed;
};

static const struct bw_case cases[] = {
	{ "at the figure", 200, false, 0, false, NONE, NULL },
	{ "just under the figure", 201, false, 0, false, SEV_WARN,
	  "4 GPUs share 800 Gb/s: 200 Gb/s per GPU where the profile is built for 201" },
	/* half of 400 is 200: still a warning; past it an error */
	{ "at half", 400, false, 0, false, SEV_WARN, "200 Gb/s per GPU" },
	{ "just under half", 401, false, 0, false, SEV_ERROR, "200 Gb/s per GPU" },
	{ "fewer rails on purpose", 401, true, 0, false, SEV_WARN, NULL },
	/* one rail down: 600 for 4 GPUs */
	{ "a rail down", 200, false, 1, false, SEV_WARN, "4 GPUs share 600 Gb/s: 150 Gb/s" },
	{ "every rail down", 200, false, 4, false, SEV_ERROR,
	  "4 GPUs and no RDMA rail port up" },
	{ "a rate unknown", 200, false, 0, true, SEV_INFO,
	  "not checked: the rate of 1 rail port is unknown" },
	/* enough without it: the unknown one does not matter */
	{ "a rate unknown, enough without", 150, false, 0, true, NONE, NULL },
};

static void per_gpu(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bw_case *c = &cases[i];
		struct profile p = a100_profile();
		struct machine m;
		struct findings fs;
		const struct finding *f;
		int sev;

		healthy(&m);
		p.role[ROLE_RAIL].gpu_gbps = c->gpu_gbps;
		p.fewer_rails = c->fewer_rails;
		for (int k = 0; k < c->down; k++) {
			struct port *pt = &m.inv.nics[k].ports[0];

			pt->state = 1;
			free(pt->state_name);
			pt->state_name = strdup("DOWN");
		}
		if (c->rate_unknown)
			m.inv.nics[0].ports[0].rate_gbps = NAN;
		run(&m, &p, &fs);
		assert_true(count_id(&fs, "nic.bandwidth_per_gpu") <= 1);
		f = get(&fs, "nic.bandwidth_per_gpu", "4 GPUs");
		sev = f ? (int)f->severity : NONE;
		if (sev != c->sev || (c->observed && !strstr(f->observed, c->observed))) {
			fprintf(stderr, "%s: severity %d, wanted %d; observed '%s'\n", c->name, sev,
				c->sev, f ? f->observed : "(none)");
			dump(&fs);
			fail();
		}
		if (f)
			assert_int_equal(f->unchecked, f->severity == SEV_INFO);
		findings_free(&fs);
		machine_free(&m);
	}
}

/* No GPU, nothing to share. */
static void no_gpus(void **state)
{
	struct profile p = a100_profile();
	struct machine m;
	struct findings fs;

	(void)state;
	healthy(&m);
	p.role[ROLE_RAIL].gpu_gbps = 400;
	m.inv.n_gpus = 0;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "nic.bandwidth_per_gpu"), 0);
	m.inv.n_gpus = 4;
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(per_gpu),
		cmocka_unit_test(no_gpus),
	};

	return cmocka_run_group_tests_name("check_bandwidth", tests, NULL, NULL);
}
