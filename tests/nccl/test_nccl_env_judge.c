/* A job's NCCL environment judged against facts built by hand
 * (src/nccl/env_judge.c): each nccl.* id fires on the bad value and not
 * on the good one; NCCL_IB_HCA's prefix match (mlx5_1 is also mlx5_10)
 * and '^' exclusion; facts that could not be read give an unchecked
 * info, never a pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nccl/env_judge.h"

/* mlx5_0, mlx5_1 (RoCE rails, trust dscp, PFC on 3, DSCP 26 -> 3, GID 3),
 * mlx5_10 (storage), mlx5_2 (a rail, down), one GPU per rail at PIX. */
static int v2[] = { 3 };

static struct nccl_port port(const char *dev, size_t nic, enum nic_role role, int up,
			     const char *netdev)
{
	struct nccl_port p = { .dev = dev, .port = 1, .nic = nic, .role = role, .up = up,
			       .netdev = netdev, .netdev_up = up, .gid_index = 3,
			       .v2_ipv4_indices = v2, .n_v2_ipv4 = 1, .trust = "dscp",
			       .pfc_mask = 1 << 3, .nearest_gpu = 0, .path = PATH_PIX };

	for (int d = 0; d < 64; d++)
		p.dscp_to_prio[d] = d >> 3;
	return p;
}

struct world {
	struct nccl_port ports[4];
	struct nccl_facts f;
};

static void world(struct world *w)
{
	w->ports[0] = port("mlx5_0", 0, ROLE_RAIL, 1, "ens1");
	w->ports[1] = port("mlx5_1", 1, ROLE_RAIL, 1, "ens2");
	w->ports[2] = port("mlx5_10", 2, ROLE_STORAGE, 1, "ens3");
	w->ports[3] = port("mlx5_2", 3, ROLE_RAIL, 0, "ens4");
	memset(&w->f, 0, sizeof(w->f));
	w->f.ports = w->ports;
	w->f.n_ports = 4;
	w->f.n_gpus = 2;
	w->f.gdr_ready = 1;
}

/* Judge text against w; how many findings of id (any subject), with the
 * first's severity and unchecked flag. */
struct seen {
	size_t n;
	int sev;
	bool unchecked;
	char subject[64], observed[512];
};

static struct seen judge(const struct world *w, const char *text, const char *id)
{
	struct nccl_env env;
	struct findings out = { 0 };
	struct seen s = { .sev = -1 };
	char err[200];

	assert_int_equal(nccl_env_parse(text, strlen(text), &env, err, sizeof(err)), 0);
	assert_int_equal(nccl_env_judge(&w->f, &env, &out), 0);
	for (size_t i = 0; i < out.n; i++) {
		const struct finding *f = &out.v[i];

		assert_non_null(f->subject);
		assert_non_null(f->observed);
		assert_non_null(f->expected);
		assert_non_null(f->fix);
		assert_non_null(f->why);
		if (strcmp(f->id, id) != 0)
			continue;
		if (!s.n++) {
			s.sev = (int)f->severity;
			s.unchecked = f->unchecked;
			snprintf(s.subject, sizeof(s.subject), "%s", f->subject);
			snprintf(s.observed, sizeof(s.observed), "%s", f->observed);
		}
	}
	findings_free(&out);
	nccl_env_free(&env);
	return s;
}

/* Nothing at all for the environment rdmadoctor nccl would print. */
static void good_env_is_quiet(void **state)
{
	struct world w;
	struct nccl_env env;
	struct findings out = { 0 };
	static const char good[] = "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1\nNCCL_IB_GID_INDEX=3\n"
				   "NCCL_IB_TC=106\nNCCL_NET_GDR_LEVEL=PIX\n"
				   "NCCL_SOCKET_IFNAME==ens1\nNCCL_DEBUG=INFO\n";
	char err[200];

	(void)state;
	world(&w);
	assert_int_equal(nccl_env_parse(good, strlen(good), &env, err, sizeof(err)), 0);
	assert_int_equal(nccl_env_judge(&w.f, &env, &out), 0);
	for (size_t i = 0; i < out.n; i++)
		fail_msg("%s: %s", out.v[i].id, out.v[i].observed);
	findings_free(&out);
	nccl_env_free(&env);
	/* nothing set: nothing to judge */
	assert_int_equal(judge(&w, "", "nccl.hca_missing").n, 0);
}

static void hca(void **state)
{
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	s = judge(&w, "NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_9\n", "nccl.hca_unknown");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_string_equal(s.subject, "mlx5_9");
	/* a port the NIC lacks */
	assert_int_equal(judge(&w, "NCCL_IB_HCA==mlx5_0:2,mlx5_1\n", "nccl.hca_unknown").n, 1);
	/* mlx5_1 without '=' is a prefix: it brings in mlx5_10, storage */
	s = judge(&w, "NCCL_IB_HCA=mlx5_0,mlx5_1\n", "nccl.hca_storage");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_WARN);
	assert_string_equal(s.subject, "mlx5_10 port 1");
	assert_non_null(strstr(s.observed, "prefix"));
	assert_non_null(strstr(s.observed, "(line 1)"));
	assert_int_equal(judge(&w, "NCCL_IB_HCA==mlx5_0,mlx5_1\n", "nccl.hca_storage").n, 0);
	/* "mlx5" selects everything, storage too */
	assert_int_equal(judge(&w, "NCCL_IB_HCA=mlx5\n", "nccl.hca_storage").n, 1);
	/* '^' excludes: the storage NIC out, the rails in */
	assert_int_equal(judge(&w, "NCCL_IB_HCA=^=mlx5_10\n", "nccl.hca_storage").n, 0);
	assert_int_equal(judge(&w, "NCCL_IB_HCA=^=mlx5_10\n", "nccl.hca_missing").n, 0);
	/* '^mlx5_1' is a prefix too: it drops rail mlx5_1 as well */
	s = judge(&w, "NCCL_IB_HCA=^mlx5_1\n", "nccl.hca_missing");
	assert_int_equal(s.n, 1);
	assert_string_equal(s.subject, "mlx5_1 port 1");
	/* a rail left out */
	s = judge(&w, "NCCL_IB_HCA==mlx5_0:1\n", "nccl.hca_missing");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_WARN);
	assert_string_equal(s.subject, "mlx5_1 port 1");
	/* a down rail named */
	s = judge(&w, "NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2\n", "nccl.hca_down");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_string_equal(s.subject, "mlx5_2 port 1");
	/* picked only by a prefix, NCCL skips it while down, as it should */
	assert_int_equal(judge(&w, "NCCL_IB_HCA=mlx5\n", "nccl.hca_down").n, 0);
	/* state unknown: unchecked, not a pass */
	w.ports[3].up = -1;
	s = judge(&w, "NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2\n", "nccl.hca_down");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_INFO);
	assert_true(s.unchecked);
	/* a port that is no number */
	assert_int_equal(judge(&w, "NCCL_IB_HCA=mlx5_0:x\n", "nccl.malformed").n, 1);
}

static void gid_index(void **state)
{
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	s = judge(&w, "NCCL_IB_GID_INDEX=1\n", "nccl.gid_index");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_int_equal(judge(&w, "NCCL_IB_GID_INDEX=3\n", "nccl.gid_index").n, 0);
	assert_int_equal(judge(&w, "NCCL_IB_GID_INDEX=-1\n", "nccl.gid_index").n, 0);
	/* only the ports the job uses: mlx5_1 has its GID elsewhere */
	static int other[] = { 5 };
	w.ports[1].v2_ipv4_indices = other;
	w.ports[1].gid_index = 5;
	assert_int_equal(judge(&w, "NCCL_IB_GID_INDEX=3\n", "nccl.gid_index").n, 1);
	assert_int_equal(judge(&w, "NCCL_IB_HCA==mlx5_0\nNCCL_IB_GID_INDEX=3\n",
			       "nccl.gid_index").n, 0);
	/* InfiniBand has no GID index to get wrong */
	w.ports[1].infiniband = true;
	assert_int_equal(judge(&w, "NCCL_IB_GID_INDEX=3\n", "nccl.gid_index").n, 0);
	assert_int_equal(judge(&w, "NCCL_IB_GID_INDEX=three\n", "nccl.malformed").n, 1);
	assert_int_equal(judge(&w, "NCCL_IB_GID_INDEX=3x\n", "nccl.malformed").n, 1);
}

static void tc_sl(void **state)
{
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	/* 106 >> 2 = DSCP 26 -> priority 3, PFC on; 0 -> priority 0, off */
	assert_int_equal(judge(&w, "NCCL_IB_TC=106\n", "nccl.tc_no_pfc").n, 0);
	assert_int_equal(judge(&w, "NCCL_IB_TC=0x6a\n", "nccl.tc_no_pfc").n, 0);
	s = judge(&w, "NCCL_IB_TC=0\n", "nccl.tc_no_pfc");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_non_null(strstr(s.observed, "priority 0"));
	assert_int_equal(judge(&w, "NCCL_IB_TC=256\n", "nccl.malformed").n, 1);
	/* PFC unknown: unchecked */
	w.ports[0].pfc_mask = -1;
	s = judge(&w, "NCCL_IB_TC=0\n", "nccl.tc_no_pfc");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.sev, SEV_INFO);
	assert_true(s.unchecked);
	/* trust pcp: the SL is the priority */
	world(&w);
	w.ports[0].trust = w.ports[1].trust = "pcp";
	assert_int_equal(judge(&w, "NCCL_IB_SL=3\n", "nccl.sl_no_pfc").n, 0);
	s = judge(&w, "NCCL_IB_SL=0\n", "nccl.sl_no_pfc");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_int_equal(judge(&w, "NCCL_IB_TC=0\n", "nccl.tc_no_pfc").n, 0);
	assert_int_equal(judge(&w, "NCCL_IB_SL=16\n", "nccl.malformed").n, 1);
	/* on InfiniBand neither is judged */
	w.ports[0].infiniband = w.ports[1].infiniband = true;
	assert_int_equal(judge(&w, "NCCL_IB_SL=0\n", "nccl.sl_no_pfc").n, 0);
}

static void ifname(void **state)
{
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	s = judge(&w, "NCCL_SOCKET_IFNAME==ens4\n", "nccl.ifname_down");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_string_equal(s.subject, "ens4");
	/* "ens" matches ens1, which is up */
	assert_int_equal(judge(&w, "NCCL_SOCKET_IFNAME=ens\n", "nccl.ifname_down").n, 0);
	assert_int_equal(judge(&w, "NCCL_SOCKET_IFNAME=^=ens4\n", "nccl.ifname_down").n, 0);
	/* not an RDMA NIC's interface, the host's not read: not checked */
	s = judge(&w, "NCCL_SOCKET_IFNAME=eth0\n", "nccl.ifname_down");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_INFO);
	assert_true(s.unchecked);
}

/* With the host's interfaces read: a name it lacks, or whose interfaces
 * are all down, is an error; one up among those it matches is enough. */
static void ifname_host(void **state)
{
	static char n0[] = "eno1", n1[] = "eno2", n2[] = "ens1", n3[] = "ens4", n4[] = "lo";
	static const struct host_netdev host[] = {
		{ n0, 1 }, { n1, 0 }, { n2, 1 }, { n3, 0 }, { n4, 1 },
	};
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	w.f.netdevs = host;
	w.f.n_netdevs = sizeof(host) / sizeof(host[0]);
	w.f.netdevs_read = true;
	assert_int_equal(judge(&w, "NCCL_SOCKET_IFNAME==eno1\n", "nccl.ifname_down").n, 0);
	assert_int_equal(judge(&w, "NCCL_SOCKET_IFNAME=eno\n", "nccl.ifname_down").n, 0);
	s = judge(&w, "NCCL_SOCKET_IFNAME==eth7\n", "nccl.ifname_down");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_false(s.unchecked);
	assert_non_null(strstr(s.observed, "does not have"));
	s = judge(&w, "NCCL_SOCKET_IFNAME==eno2\n", "nccl.ifname_down");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_string_equal(s.subject, "eno2");
}

/* HCCL_RDMA_SL against the NPU ports' PFC; HCCL_RDMA_TC's form, and the
 * priority it lands on said as not checked. */
static void hccl(void **state)
{
	struct nccl_npu_port npus[] = { { 0, 1, 1 << 4 }, { 1, 1, 1 << 4 }, { 2, 0, 0 },
					 { 3, 1, -1 } };
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	w.f.npu_ports = npus;
	w.f.n_npu_ports = 4;
	/* SL 4: lossless on 0 and 1; port 2 is down; port 3's PFC unknown */
	s = judge(&w, "HCCL_RDMA_SL=4\n", "hccl.sl_no_pfc");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_INFO);
	assert_true(s.unchecked);
	assert_string_equal(s.subject, "NPU 3");
	npus[3].pfc_mask = 1 << 4;
	assert_int_equal(judge(&w, "HCCL_RDMA_SL=4\n", "hccl.sl_no_pfc").n, 0);
	s = judge(&w, "HCCL_RDMA_SL=3\n", "hccl.sl_no_pfc");
	assert_int_equal(s.n, 3);
	assert_int_equal(s.sev, SEV_ERROR);
	assert_string_equal(s.subject, "NPU 0");
	assert_int_equal(judge(&w, "HCCL_RDMA_SL=8\n", "nccl.malformed").n, 1);
	assert_int_equal(judge(&w, "HCCL_RDMA_TC=130\n", "nccl.malformed").n, 1);
	s = judge(&w, "HCCL_RDMA_TC=132\n", "hccl.tc_no_pfc");
	assert_int_equal(s.n, 1);
	assert_true(s.unchecked);
	assert_int_equal(judge(&w, "HCCL_RDMA_TC=132\n", "nccl.malformed").n, 0);
}

static void gdr_level(void **state)
{
	struct world w;
	struct seen s;

	(void)state;
	world(&w);
	w.ports[1].path = PATH_NODE;
	s = judge(&w, "NCCL_NET_GDR_LEVEL=PXB\n", "nccl.gdr_level");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.sev, SEV_WARN);
	assert_string_equal(s.subject, "mlx5_1 port 1");
	assert_int_equal(judge(&w, "NCCL_NET_GDR_LEVEL=PHB\n", "nccl.gdr_level").n, 0);
	assert_int_equal(judge(&w, "NCCL_NET_GDR_LEVEL=3\n", "nccl.gdr_level").n, 0);
	assert_int_equal(judge(&w, "NCCL_NET_GDR_LEVEL=LOC\n", "nccl.gdr_level").n, 2);
	assert_int_equal(judge(&w, "NCCL_NET_GDR_LEVEL=FAR\n", "nccl.malformed").n, 1);
	w.ports[0].nearest_gpu = -1;
	s = judge(&w, "NCCL_NET_GDR_LEVEL=SYS\n", "nccl.gdr_level");
	assert_int_equal(s.n, 1);
	assert_true(s.unchecked);
	/* GPUDirect not there: the level changes nothing */
	w.f.gdr_ready = 0;
	assert_int_equal(judge(&w, "NCCL_NET_GDR_LEVEL=LOC\n", "nccl.gdr_level").n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_env_is_quiet),
		cmocka_unit_test(hca),
		cmocka_unit_test(gid_index),
		cmocka_unit_test(tc_sl),
		cmocka_unit_test(ifname),
		cmocka_unit_test(ifname_host),
		cmocka_unit_test(hccl),
		cmocka_unit_test(gdr_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
