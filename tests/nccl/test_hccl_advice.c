/* hccl_advise over NPU ports built by hand: PFC on one priority on every
 * port gives HCCL_RDMA_SL (and HCCL_RDMA_TC for HCCL's default pair),
 * ports that disagree are an error, PFC unknown leaves both out, and the
 * host interface is never guessed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nccl/advice.h"

#define N_NPU 4

static struct npu npus[N_NPU];

/* Every NPU read and up, PFC on priority prio only. */
static void machine(struct inventory *inv, int prio)
{
	memset(inv, 0, sizeof(*inv));
	memset(npus, 0, sizeof(npus));
	for (int i = 0; i < N_NPU; i++) {
		npus[i].id = i;
		npus[i].port_read = true;
		npus[i].port.link_up = 1;
		for (int q = 0; q < 8; q++)
			npus[i].port.pfc_enabled[q] = q == prio;
	}
	inv->npu.v = npus;
	inv->npu.n = N_NPU;
}

static const struct nccl_var *var(const struct nccl_advice *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].name, name))
			return &a->v[i];
	return NULL;
}

static void assert_left_out(const struct nccl_advice *a, const char *name)
{
	const struct nccl_var *v = var(a, name);

	assert_non_null(v);
	assert_null(v->value);
	assert_non_null(v->why);
	assert_true(strlen(v->why) > 0);
}

static void host_left_out(const struct nccl_advice *a)
{
	assert_left_out(a, "HCCL_IF_IP");
	assert_left_out(a, "HCCL_SOCKET_IFNAME");
}

/* Set ones come before left-out ones. */
static void assert_set_first(const struct nccl_advice *a)
{
	bool left = false;

	for (size_t i = 0; i < a->n; i++) {
		if (!a->v[i].value)
			left = true;
		else
			assert_false(left);
	}
}

static void pfc_4_everywhere(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, 4);
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_string_equal(a.library, "hccl");
	assert_string_equal(var(&a, "HCCL_RDMA_TC")->value, "132");
	assert_string_equal(var(&a, "HCCL_RDMA_SL")->value, "4");
	host_left_out(&a);
	assert_set_first(&a);
	assert_int_equal(a.n_warnings, 0);
	assert_int_equal(a.n_errors, 0);
	nccl_advice_free(&a);
}

/* Priority 3: SL from PFC, but the DSCP for 3 is not read: TC left out. */
static void pfc_3_everywhere(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, 3);
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_string_equal(var(&a, "HCCL_RDMA_SL")->value, "3");
	assert_left_out(&a, "HCCL_RDMA_TC");
	assert_non_null(strstr(var(&a, "HCCL_RDMA_TC")->why, "dscp_to_tc"));
	assert_set_first(&a);
	assert_int_equal(a.n_warnings + a.n_errors, 0);
	nccl_advice_free(&a);
}

static void ports_disagree(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, 4);
	npus[2].port.pfc_enabled[4] = 0;
	npus[2].port.pfc_enabled[3] = 1;
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_left_out(&a, "HCCL_RDMA_SL");
	assert_left_out(&a, "HCCL_RDMA_TC");
	assert_int_equal(a.n_errors, 1);
	assert_non_null(strstr(a.errors[0], "npu2 3"));
	nccl_advice_free(&a);
}

static void pfc_unknown(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, 4);
	for (int q = 0; q < 8; q++)
		npus[1].port.pfc_enabled[q] = -1;
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_left_out(&a, "HCCL_RDMA_SL");
	assert_left_out(&a, "HCCL_RDMA_TC");
	assert_non_null(strstr(var(&a, "HCCL_RDMA_SL")->why, "npu1"));
	assert_int_equal(a.n_warnings + a.n_errors, 0);
	nccl_advice_free(&a);
}

/* A port that is down does not vote: its PFC is not what HCCL runs on. */
static void down_port_ignored(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, 4);
	npus[3].port.link_up = 0;
	npus[3].port.pfc_enabled[4] = 0;
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_string_equal(var(&a, "HCCL_RDMA_SL")->value, "4");
	nccl_advice_free(&a);
}

static void nothing_lossless(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, -1);
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_left_out(&a, "HCCL_RDMA_SL");
	assert_int_equal(a.n_warnings, 1);
	assert_non_null(strstr(a.warnings[0], "nothing is lossless"));
	nccl_advice_free(&a);
}

/* Several priorities lossless everywhere: the profile's when among them. */
static void several_priorities(void **state)
{
	struct inventory inv;
	struct nccl_advice a;
	struct profile p;

	(void)state;
	machine(&inv, 3);
	for (int i = 0; i < N_NPU; i++)
		npus[i].port.pfc_enabled[4] = 1;
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_left_out(&a, "HCCL_RDMA_SL");
	assert_int_equal(a.n_warnings, 1);
	nccl_advice_free(&a);

	memset(&p, 0, sizeof(p));
	p.npu.pfc_priority = 4;
	assert_int_equal(hccl_advise(&inv, &p, &a), 0);
	assert_string_equal(var(&a, "HCCL_RDMA_SL")->value, "4");
	assert_string_equal(var(&a, "HCCL_RDMA_TC")->value, "132");
	assert_int_equal(a.n_warnings, 0);
	nccl_advice_free(&a);
}

static void no_npu_up(void **state)
{
	struct inventory inv;
	struct nccl_advice a;

	(void)state;
	machine(&inv, 4);
	inv.npu.n = 0;
	assert_int_equal(hccl_advise(&inv, NULL, &a), 0);
	assert_left_out(&a, "HCCL_RDMA_SL");
	assert_int_equal(a.n_warnings, 1);
	host_left_out(&a);
	nccl_advice_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pfc_4_everywhere),   cmocka_unit_test(pfc_3_everywhere),
		cmocka_unit_test(ports_disagree),     cmocka_unit_test(pfc_unknown),
		cmocka_unit_test(down_port_ignored),  cmocka_unit_test(nothing_lossless),
		cmocka_unit_test(several_priorities), cmocka_unit_test(no_npu_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
