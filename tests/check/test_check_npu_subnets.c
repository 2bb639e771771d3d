/* npu.subnets (src/check/npu_subnets.c): Ascend NPU ports' addresses
 * against the profile's subnet plan, on NPU inventories built the way
 * model/npu.h holds them.  one: the ports outside the subnet most are in;
 * pairs: NPU i and i+4 together, the four pairs apart; dies: the two dies
 * of an NPU apart, the misplaced die named with where it belongs.  A port
 * whose address is unknown is never counted for or against. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/families.h"

#define MAXNPU 16

struct box {
	struct inventory inv;
	struct npu npus[MAXNPU];
	struct profile p;
};

/* n NPUs (ids 0..n-1, one die each unless dies), addresses from fmt with
 * the id: "10.20.%d.5" */
static void box_init(struct box *b, size_t n, const char *plan, bool dies)
{
	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < n; i++) {
		struct npu *u = &b->npus[i];

		u->id = (int64_t)i;
		u->card = dies ? (int64_t)(i / 2) : NA;
		u->die = dies ? (int64_t)(i % 2) : NA;
		u->port.netmask = (char *)"255.255.255.0";
	}
	b->inv.npu.v = b->npus;
	b->inv.npu.n = n;
	b->p.npu.subnets = (char *)plan;
}

static void addr(struct box *b, size_t i, const char *ip)
{
	b->npus[i].port.ipaddr = (char *)ip;
}

static void judge(struct box *b, struct findings *fs)
{
	struct check_ctx c = { .inv = &b->inv, .p = &b->p };

	memset(fs, 0, sizeof(*fs));
	assert_int_equal(check_npu_subnets(&c, fs), 0);
}

static const char *observed(const struct findings *fs)
{
	assert_int_equal(fs->n, 1);
	assert_string_equal(fs->v[0].id, "npu.subnets");
	assert_string_equal(fs->v[0].subject, "NPUs");
	assert_int_equal(fs->v[0].severity, SEV_ERROR);
	return fs->v[0].observed;
}

/* one: 8 ports in 10.20.0.0/24 but npu5's; then npu5 unknown: silent */
static void one_subnet(void **state)
{
	static const char *const ips[8] = {
		"10.20.0.10", "10.20.0.11", "10.20.0.12", "10.20.0.13",
		"10.20.0.14", "10.20.1.15", "10.20.0.16", "10.20.0.17",
	};
	struct box b;
	struct findings fs;
	(void)state;

	box_init(&b, 8, "one", false);
	for (size_t i = 0; i < 8; i++)
		addr(&b, i, ips[i]);
	judge(&b, &fs);
	assert_string_equal(observed(&fs), "more than one subnet: npu5 10.20.1.15/255.255.255.0 "
			    "outside 10.20.0.0/24 (where 7 NPU ports are)");
	assert_string_equal(fs.v[0].expected, "every NPU port in one subnet (10.20.0.0/24, "
			    "where most are)");
	findings_free(&fs);

	addr(&b, 5, NULL);
	judge(&b, &fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
}

/* pairs: 0&4, 1&5, 2&6, 3&7 each in a /24 of its own; npu6 in pair 1's
 * subnet splits pair 2 */
static void pairs(void **state)
{
	static const char *const ips[8] = {
		"10.0.0.1", "10.0.1.1", "10.0.2.1", "10.0.3.1",
		"10.0.0.2", "10.0.1.2", "10.0.2.2", "10.0.3.2",
	};
	struct box b;
	struct findings fs;
	(void)state;

	box_init(&b, 8, "pairs", false);
	for (size_t i = 0; i < 8; i++)
		addr(&b, i, ips[i]);
	judge(&b, &fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);

	addr(&b, 6, "10.0.1.3");
	judge(&b, &fs);
	assert_string_equal(observed(&fs), "npu2 and npu6 in different subnets (10.0.2.0/24, "
			    "10.0.1.0/24)");
	assert_string_equal(fs.v[0].expected,
			    "four subnets: NPU 0&4, 1&5, 2&6, 3&7 each in its own");
	findings_free(&fs);

	/* two whole pairs in one subnet */
	addr(&b, 6, ips[6]);
	addr(&b, 3, "10.0.0.3");
	addr(&b, 7, "10.0.0.4");
	judge(&b, &fs);
	assert_string_equal(observed(&fs), "pairs 0&4 and 3&7 share a subnet (10.0.0.0/24)");
	findings_free(&fs);
}

/* dies (no plan, two-die NPUs listed): die 0 of every NPU in 10.1.0.0/24,
 * die 1 in 10.1.1.0/24; NPU 2's die 1 moved into die 0's subnet */
static void dies(void **state)
{
	static const char *const ips[8] = {
		"10.1.0.1", "10.1.1.1", "10.1.0.2", "10.1.1.2",
		"10.1.0.3", "10.1.0.9", "10.1.0.4", "10.1.1.4",
	};
	struct box b;
	struct findings fs;
	(void)state;

	box_init(&b, 8, NULL, true);
	for (size_t i = 0; i < 8; i++)
		addr(&b, i, ips[i]);
	judge(&b, &fs);
	assert_string_equal(observed(&fs), "npu4 and npu5 (NPU 2, dies 0 and 1) in one subnet: "
			    "npu5 10.1.0.9/255.255.255.0 (die 1 belongs in 10.1.1.0/24)");
	assert_string_equal(fs.v[0].expected, "the two dies of each NPU in different subnets "
			    "(as most NPUs have them: die 0 in 10.1.0.0/24, die 1 in 10.1.1.0/24)");
	findings_free(&fs);

	/* one die per NPU and no plan: nothing is asked */
	box_init(&b, 8, NULL, false);
	for (size_t i = 0; i < 8; i++)
		addr(&b, i, "10.9.9.9");
	judge(&b, &fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_subnet),
		cmocka_unit_test(pairs),
		cmocka_unit_test(dies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
