/* nccl_advise (src/nccl/advice*.c) on facts built by hand: every rule of
 * docs/nccl.md, one machine shape at a time, so that a rule is pinned by
 * the facts it reads and not by what a fixture happens to hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nccl/advice.h"

#define MAXP 8

struct machine {
	struct nccl_facts f;
	struct nccl_port ports[MAXP];
	char names[MAXP][32];	/* room for any size_t, as -Wformat-truncation asks */
	struct profile p;
	struct nccl_advice a;
};

/* n up RoCE rails mlx5_0.., trust dscp, PFC on 3, DSCP d -> d / 8, GID
 * index 3, PXB to GPU k, GPUDirect ready: NVIDIA's lossless setup. */
static void roce(struct machine *m, size_t n)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < n; i++) {
		struct nccl_port *p = &m->ports[i];

		snprintf(m->names[i], sizeof(m->names[i]), "mlx5_%zu", i);
		p->dev = m->names[i];
		p->port = 1;
		p->nic = i;
		p->role = ROLE_RAIL;
		p->up = 1;
		p->netdev_up = 1;
		p->gid_index = 3;
		p->trust = "dscp";
		p->pfc_mask = 1 << 3;
		for (int d = 0; d < 64; d++)
			p->dscp_to_prio[d] = d / 8;
		p->nearest_gpu = (int)i;
		p->path = PATH_PXB;
	}
	m->f.ports = m->ports;
	m->f.n_ports = n;
	m->f.n_gpus = 8;
	m->f.gdr_ready = 1;
	m->p.role[ROLE_RAIL].pfc_priority = -1;
}

static void ib(struct machine *m, size_t n)
{
	roce(m, n);
	for (size_t i = 0; i < n; i++) {
		m->ports[i].infiniband = true;
		m->ports[i].gid_index = -1;
		m->ports[i].trust = NULL;
		m->ports[i].pfc_mask = -1;
	}
}

static void advise(struct machine *m)
{
	assert_int_equal(nccl_advise(&m->f, &m->p, &m->a), 0);
	assert_string_equal(m->a.library, "nccl");
}

static const struct nccl_var *var(const struct machine *m, const char *name)
{
	for (size_t i = 0; i < m->a.n; i++)
		if (strcmp(m->a.v[i].name, name) == 0)
			return &m->a.v[i];
	fail_msg("%s is neither set nor left out", name);
	return NULL;
}

static void is_set(const struct machine *m, const char *name, const char *value)
{
	const struct nccl_var *v = var(m, name);

	assert_non_null(v->value);
	assert_string_equal(v->value, value);
}

/* Left out, its why saying the words given. */
static void is_left(const struct machine *m, const char *name, const char *words)
{
	const struct nccl_var *v = var(m, name);

	assert_null(v->value);
	if (!strstr(v->why, words))
		fail_msg("%s's why '%s' lacks '%s'", name, v->why, words);
}

static bool said(char *const *v, size_t n, const char *words)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(v[i], words))
			return true;
	return false;
}

static void done(struct machine *m)
{
	nccl_advice_free(&m->a);
}

static void test_roce_rails(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	advise(&m);
	is_set(&m, "NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1");
	is_set(&m, "NCCL_IB_GID_INDEX", "3");
	is_set(&m, "NCCL_IB_TC", "106");
	is_left(&m, "NCCL_IB_SL", "trust dscp");
	is_left(&m, "NCCL_SOCKET_IFNAME", "NCCL's default");
	is_set(&m, "NCCL_NET_GDR_LEVEL", "PXB");
	is_set(&m, "NCCL_NET_GDR_READ", "1");
	assert_int_equal(m.a.n_warnings, 0);
	assert_int_equal(m.a.n_errors, 0);
	/* the fixed order: set ones first, each part in the rules' order */
	assert_int_equal(m.a.n, 7);
	assert_string_equal(m.a.v[0].name, "NCCL_IB_HCA");
	assert_string_equal(m.a.v[1].name, "NCCL_IB_GID_INDEX");
	assert_string_equal(m.a.v[2].name, "NCCL_IB_TC");
	assert_string_equal(m.a.v[5].name, "NCCL_IB_SL");
	assert_string_equal(m.a.v[6].name, "NCCL_SOCKET_IFNAME");
	done(&m);
}

static void test_ib_rails(void **state)
{
	struct machine m;

	(void)state;
	ib(&m, 4);
	m.ports[2].path = PATH_PIX;
	advise(&m);
	is_set(&m, "NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1");
	is_left(&m, "NCCL_IB_GID_INDEX", "InfiniBand: no GID index");
	is_left(&m, "NCCL_IB_TC", "InfiniBand");
	is_left(&m, "NCCL_IB_SL", "credit-based flow control");
	is_set(&m, "NCCL_NET_GDR_LEVEL", "PXB");
	assert_int_equal(m.a.n_warnings + m.a.n_errors, 0);
	done(&m);
}

static void test_gid_disagree(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 3);
	m.ports[2].gid_index = 5;
	advise(&m);
	is_left(&m, "NCCL_IB_GID_INDEX", "differ");
	assert_int_equal(m.a.n_errors, 1);
	assert_true(said(m.a.errors, 1, "mlx5_0:1 3, mlx5_1:1 3, mlx5_2:1 5"));
	assert_string_equal(m.a.v[0].name, "NCCL_IB_HCA");
	done(&m);
}

static void test_gid_none(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.ports[1].gid_index = -1;
	advise(&m);
	is_left(&m, "NCCL_IB_GID_INDEX", "mlx5_1:1");
	assert_int_equal(m.a.n_errors, 0);
	assert_true(said(m.a.warnings, m.a.n_warnings, "no RoCE v2 IPv4 GID on mlx5_1:1"));
	done(&m);
}

static void test_pfc_none(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.ports[0].pfc_mask = m.ports[1].pfc_mask = 0;
	advise(&m);
	is_left(&m, "NCCL_IB_TC", "nothing is lossless");
	is_left(&m, "NCCL_IB_SL", "nothing is lossless");
	assert_true(said(m.a.warnings, m.a.n_warnings, "nothing is lossless"));
	done(&m);
}

static void test_pfc_several(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.ports[0].pfc_mask = m.ports[1].pfc_mask = (1 << 3) | (1 << 4);
	advise(&m);
	is_left(&m, "NCCL_IB_TC", "several");
	assert_true(said(m.a.warnings, m.a.n_warnings, "several"));
	done(&m);
	/* the profile names one of them: that one */
	roce(&m, 2);
	m.ports[0].pfc_mask = m.ports[1].pfc_mask = (1 << 3) | (1 << 4);
	m.p.role[ROLE_RAIL].pfc_priority = 4;
	advise(&m);
	is_set(&m, "NCCL_IB_TC", "138");	/* DSCP 34 << 2 | 2 */
	assert_int_equal(m.a.n_warnings, 0);
	done(&m);
	/* ... and one that is not among them does not choose */
	roce(&m, 2);
	m.ports[0].pfc_mask = m.ports[1].pfc_mask = (1 << 3) | (1 << 4);
	m.p.role[ROLE_RAIL].pfc_priority = 5;
	advise(&m);
	is_left(&m, "NCCL_IB_TC", "several");
	done(&m);
}

static void test_pfc_one_rail(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.ports[1].pfc_mask = 1 << 4;
	advise(&m);
	is_left(&m, "NCCL_IB_TC", "every up rail");
	assert_int_equal(m.a.n_warnings, 1);
	done(&m);
}

static void test_dscp_map(void **state)
{
	struct machine m;

	(void)state;
	/* DSCP 26 sent elsewhere: the lowest DSCP the maps send to 3 */
	roce(&m, 2);
	m.ports[0].dscp_to_prio[26] = m.ports[1].dscp_to_prio[26] = 0;
	advise(&m);
	is_set(&m, "NCCL_IB_TC", "98");		/* DSCP 24 */
	done(&m);
	/* no DSCP reaches 3 */
	roce(&m, 1);
	for (int d = 24; d < 32; d++)
		m.ports[0].dscp_to_prio[d] = 0;
	advise(&m);
	is_left(&m, "NCCL_IB_TC", "no DSCP");
	assert_int_equal(m.a.n_warnings, 1);
	done(&m);
}

static void test_trust_pcp_and_unknown(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.ports[0].trust = m.ports[1].trust = "pcp";
	advise(&m);
	is_set(&m, "NCCL_IB_SL", "3");
	is_left(&m, "NCCL_IB_TC", "trust pcp");
	done(&m);
	roce(&m, 2);
	m.ports[1].pfc_mask = -1;
	advise(&m);
	is_left(&m, "NCCL_IB_TC", "unknown");
	is_left(&m, "NCCL_IB_SL", "unknown");
	assert_int_equal(m.a.n_warnings + m.a.n_errors, 0);
	done(&m);
}

static void test_storage_and_down(void **state)
{
	const struct nccl_var *v;
	struct machine m;

	(void)state;
	roce(&m, 5);
	m.ports[1].up = 0;
	m.ports[4].role = ROLE_STORAGE;
	m.ports[3].role = ROLE_COUNT;
	m.ports[1].gid_index = 7;	/* a down port's GID does not count */
	m.ports[1].path = PATH_SYS;	/* nor its placement */
	advise(&m);
	is_set(&m, "NCCL_IB_HCA", "=mlx5_0:1,mlx5_2:1");
	v = var(&m, "NCCL_IB_HCA");
	assert_non_null(strstr(v->why, "storage mlx5_4:1"));
	assert_non_null(strstr(v->why, "down mlx5_1:1"));
	assert_non_null(strstr(v->why, "mlx5_3:1"));
	is_set(&m, "NCCL_IB_GID_INDEX", "3");
	is_set(&m, "NCCL_NET_GDR_LEVEL", "PXB");
	assert_int_equal(m.a.n_warnings + m.a.n_errors, 0);
	done(&m);
}

static void test_no_rail_up(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.ports[0].up = 0;
	m.ports[1].up = -1;
	advise(&m);
	is_left(&m, "NCCL_IB_HCA", "no compute rail port is up");
	is_left(&m, "NCCL_IB_GID_INDEX", "no compute rail");
	is_left(&m, "NCCL_NET_GDR_LEVEL", "no compute rail");
	assert_true(said(m.a.warnings, m.a.n_warnings, "no compute rail port is up"));
	done(&m);
}

static void test_gdr_paths(void **state)
{
	static const struct {
		enum path_type worst;
		const char *level;
	} cases[] = {
		{ PATH_PIX, "PIX" }, { PATH_PXB, "PXB" }, { PATH_NODE, "PHB" },
		{ PATH_PHB, "PHB" }, { PATH_SYS, NULL },
	};
	struct machine m;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		roce(&m, 2);
		m.ports[0].path = PATH_PIX;
		m.ports[1].path = cases[k].worst;
		advise(&m);
		if (cases[k].level) {
			is_set(&m, "NCCL_NET_GDR_LEVEL", cases[k].level);
			assert_int_equal(m.a.n_warnings, 0);
		} else {
			is_left(&m, "NCCL_NET_GDR_LEVEL", "SYS");
			assert_true(said(m.a.warnings, m.a.n_warnings, "socket link"));
		}
		is_set(&m, "NCCL_NET_GDR_READ", "1");
		done(&m);
	}
	/* not ready, unknown: neither is set */
	roce(&m, 2);
	m.f.gdr_ready = 0;
	advise(&m);
	is_left(&m, "NCCL_NET_GDR_LEVEL", "not ready");
	is_left(&m, "NCCL_NET_GDR_READ", "not ready");
	done(&m);
	roce(&m, 2);
	m.f.gdr_ready = -1;
	advise(&m);
	is_left(&m, "NCCL_NET_GDR_READ", "could not be confirmed");
	done(&m);
	/* unknown for unread ACS control: says so, names the check, sets nothing */
	roce(&m, 2);
	m.f.gdr_ready = -1;
	m.f.gdr_cause = "pcie.acs";
	m.f.gdr_why = "the ACS control of the bridges between a GPU and its NIC is in PCI "
		      "config space, which only root reads; run as root to confirm it";
	advise(&m);
	is_left(&m, "NCCL_NET_GDR_LEVEL", "run as root");
	is_left(&m, "NCCL_NET_GDR_LEVEL", "pcie.acs \"not checked\"");
	is_left(&m, "NCCL_NET_GDR_READ", "could not be confirmed");
	done(&m);
}

static void test_no_gpu(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 2);
	m.f.n_gpus = 0;
	m.ports[0].nearest_gpu = m.ports[1].nearest_gpu = -1;
	advise(&m);
	is_set(&m, "NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1");
	is_left(&m, "NCCL_NET_GDR_LEVEL", "no GPU");
	is_left(&m, "NCCL_NET_GDR_READ", "no GPU");
	done(&m);
}

static void test_no_port(void **state)
{
	struct machine m;

	(void)state;
	roce(&m, 0);
	m.f.n_gpus = 0;
	advise(&m);
	is_left(&m, "NCCL_IB_HCA", "no RDMA port");
	assert_int_equal(m.a.n_warnings, 1);
	for (size_t i = 0; i < m.a.n; i++)
		assert_null(m.a.v[i].value);
	done(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roce_rails),
		cmocka_unit_test(test_ib_rails),
		cmocka_unit_test(test_gid_disagree),
		cmocka_unit_test(test_gid_none),
		cmocka_unit_test(test_pfc_none),
		cmocka_unit_test(test_pfc_several),
		cmocka_unit_test(test_pfc_one_rail),
		cmocka_unit_test(test_dscp_map),
		cmocka_unit_test(test_trust_pcp_and_unknown),
		cmocka_unit_test(test_storage_and_down),
		cmocka_unit_test(test_no_rail_up),
		cmocka_unit_test(test_gdr_paths),
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_no_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
