/* The planner's pure parts: the count parser under hostile strings, the
 * shape table, the job checks, the bandwidth caps and the recorded
 * inventory reader.  The end-to-end figures are tests/plan/test_plan.py's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>

#include "plan/count.h"
#include "plan/plan.h"
#include "plan/recorded.h"
#include "plan/shapes.h"

static void counts_good(void **state)
{
	static const struct { const char *s; double v; } good[] = {
		{ "70B", 70e9 }, { "405b", 405e9 }, { "8e9", 8e9 }, { "1.5T", 1.5e12 },
		{ "4096", 4096 }, { "4K", 4000 }, { "7M", 7e6 }, { "46.7G", 46.7e9 },
		{ ".5B", 0.5e9 }, { "+3", 3 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		double v = 0;

		assert_null(plan_parse_count(good[i].s, &v));
		assert_true(fabs(v - good[i].v) <= 1e-9 * good[i].v);
	}
}

static void counts_hostile(void **state)
{
	static const char *const bad[] = {
		"", "-70B", "0", "0B", "-0", "70X", "70BB", "70 B", " 70B", "70B ", "inf", "+inf",
		"nan", "NAN", "0x10", "0X1p3", "1e999", "1e999B", "B", "-", ".", "e9", "70\n",
		"70\x80", "\xff\xfe", "7,0B", "1e-400", "--5", "7..0",
	};
	char huge[5000];
	double v = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_non_null(plan_parse_count(bad[i], &v));
		assert_true(v == 42);	/* untouched on error */
	}
	assert_non_null(plan_parse_count(NULL, &v));
	/* a very long number: too large, not a crash */
	memset(huge, '9', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	assert_non_null(plan_parse_count(huge, &v));
}

static void whole_numbers(void **state)
{
	long long n = 0;

	(void)state;
	assert_null(plan_parse_whole("8", 1, 100, &n));
	assert_int_equal(n, 8);
	assert_null(plan_parse_whole("2K", 1, 4096, &n));
	assert_int_equal(n, 2000);
	assert_non_null(plan_parse_whole("2.5", 1, 100, &n));
	assert_non_null(plan_parse_whole("101", 1, 100, &n));
	assert_non_null(plan_parse_whole("1e30", 1, 100, &n));
	assert_non_null(plan_parse_whole("0", 1, 100, &n));
}

static void shapes(void **state)
{
	(void)state;
	assert_non_null(plan_shape_find("LLAMA3-70B"));
	assert_null(plan_shape_find("gpt-9"));
	assert_null(plan_shape_find(NULL));
	for (size_t i = 0; i < plan_shape_count(); i++) {
		const struct plan_shape *s = plan_shape_at(i);

		assert_true(s->params > 0 && s->layers > 0 && s->hidden > 0);
		assert_true(s->top_k <= s->experts);
		assert_true(s->dense_layers < s->layers);
	}
	assert_null(plan_shape_at(plan_shape_count()));
}

static struct plan_job job70(void)
{
	return (struct plan_job){ .params = 70e9, .tp = 8, .pp = 1, .dp = 16, .ep = 1,
				  .layers = 80, .hidden = 8192, .seq = 4096, .micro_batch = 1,
				  .bytes = 2, .grad_bytes = 2, .step_seconds = 2 };
}

static void job_checks(void **state)
{
	struct plan_job j = job70();
	char why[256];

	(void)state;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), 0);
	assert_int_equal(plan_job_check(&j, 128, why, sizeof(why)), 0);
	assert_int_equal(plan_job_check(&j, 64, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "--gpus is 64"));
	j.ep = 3;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), -1);
	j = job70();
	j.pp = 81;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), -1);
	j = job70();
	j.hidden = 0;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), -1);
}

/* TP splits attention by heads: Llama 3 70B's 64 heads and 8 KV heads */
static void tp_heads(void **state)
{
	struct plan_job j = job70();
	char why[256];

	(void)state;
	j.heads = 64;
	j.kv_heads = 8;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), 0);
	j.tp = 3;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "64 attention heads"));
	j.tp = 16;
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "8 key/value heads"));
	j.heads = j.kv_heads = 0;	/* not known: not judged */
	assert_int_equal(plan_job_check(&j, 0, why, sizeof(why)), 0);
	assert_int_equal(plan_tp_check_node(8, 8, why, sizeof(why)), 0);
	assert_int_equal(plan_tp_check_node(2, 8, why, sizeof(why)), 0);
	assert_int_equal(plan_tp_check_node(16, 8, why, sizeof(why)), 0);
	assert_int_equal(plan_tp_check_node(4, 0, why, sizeof(why)), 0);
	assert_int_equal(plan_tp_check_node(3, 8, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "nodes of 8 GPUs"));
	assert_int_equal(plan_tp_check_node(12, 8, why, sizeof(why)), -1);
}

static struct plan_port port(const char *nic, const char *card, double rate, double pcie)
{
	struct plan_port p = { .port = 1, .rate_gbps = rate, .measured_gbps = NAN, .ib = true,
			       .mtu = 4096, .pcie_gbytes = pcie, .slot_gbytes = pcie };

	snprintf(p.nic, sizeof(p.nic), "%s", nic);
	snprintf(p.card, sizeof(p.card), "%s", card);
	return p;
}

/* Two 100G ports of one card in a Gen4 x8 slot (about 14.2 GB/s usable)
 * share that, not 25 GB/s. */
static void pcie_cap(void **state)
{
	struct plan_port ports[2] = { port("mlx5_0", "0000:41:00", 100, 14.175),
				      port("mlx5_1", "0000:41:00", 100, 14.175) };
	struct plan_machine m = { .gpus_per_node = 8, .ports = ports, .n_ports = 2 };
	struct plan_job j = job70();
	struct plan_result r;

	(void)state;
	plan_compute(&j, &m, &r);
	assert_int_equal(r.capped_by, PLAN_CAP_PCIE);
	assert_true(fabs(r.per_gpu_line - 14.175 / 8) < 1e-9);
	assert_true(fabs(r.per_gpu_nominal - 25.0 / 8) < 1e-9);
	assert_string_equal(r.cap_port->nic, "mlx5_0");
	/* on two cards the same ports are not capped */
	snprintf(ports[1].card, sizeof(ports[1].card), "0000:42:00");
	plan_compute(&j, &m, &r);
	assert_int_equal(r.capped_by, PLAN_CAP_PORTS);
	assert_true(fabs(r.per_gpu_line - 25.0 / 8) < 1e-9);
}

static void measured_cap(void **state)
{
	struct plan_port ports[2] = { port("mlx5_0", "", 200, NAN), port("mlx5_1", "", 200, NAN) };
	struct plan_machine m = { .gpus_per_node = 2, .ports = ports, .n_ports = 2 };
	struct plan_job j = job70();
	struct plan_result r;

	(void)state;
	ports[1].measured_gbps = 100;
	plan_compute(&j, &m, &r);
	assert_int_equal(r.capped_by, PLAN_CAP_MEASURED);
	assert_true(r.measured);
	assert_true(fabs(r.per_gpu_line - (25.0 + 12.5) / 2) < 1e-9);
	assert_string_equal(r.cap_port->nic, "mlx5_1");
}

/* A recorded document of the wrong shape anywhere reads as not known. */
static void recorded_hostile(void **state)
{
	static const char *const docs[] = {
		"{}", "[]", "{\"inventory\": 5}",
		"{\"inventory\": {\"nics\": 5, \"gpus\": \"x\"}}",
		"{\"inventory\": {\"nics\": [5, {\"name\": 7, \"ports\": [1, {\"rate_gbps\": -5, "
		"\"port\": 99999, \"active_mtu\": \"x\"}], \"pci\": {\"bdf\": \"0000:01:00.0\", "
		"\"vendor\": \"zz\", \"upstream\": [3, {\"bdf\": null}, {\"bdf\": \"x\", "
		"\"speed_gts\": 1e300}]}}], \"gpus\": [{\"upstream\": {}}]}}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		json_t *d = json_loads(docs[i], 0, NULL);
		struct inventory inv;
		int rc;

		assert_non_null(d);
		rc = plan_inventory_from_check(d, &inv);
		assert_true(rc == 0 || rc == -EINVAL);
		for (size_t k = 0; k < inv.n_nics; k++)
			for (size_t p = 0; p < inv.nics[k].n_ports; p++)
				assert_true(isnan(inv.nics[k].ports[p].rate_gbps));
		inventory_free(&inv);
		json_decref(d);
	}
}

/* Records list a device's bridges nearest first (docs/json/inventory.md);
 * those written before listed the root port first.  Both read back with
 * the root port first, as the model keeps them. */
static void recorded_bridge_order(void **state)
{
	static const char *const docs[] = {
		"{\"inventory\": {\"nics\": [{\"name\": \"mlx5_0\", \"pci\": {\"bdf\": "
		"\"0000:1b:00.0\", \"upstream\": [{\"bdf\": \"0000:19:0c.0\"}, {\"bdf\": "
		"\"0000:18:00.0\"}, {\"bdf\": \"0000:17:01.0\"}]}}]}}",
		"{\"inventory\": {\"nics\": [{\"name\": \"mlx5_0\", \"pci\": {\"bdf\": "
		"\"0000:1b:00.0\", \"upstream\": [{\"bdf\": \"0000:17:01.0\"}, {\"bdf\": "
		"\"0000:18:00.0\"}, {\"bdf\": \"0000:19:0c.0\"}]}}]}}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		json_t *d = json_loads(docs[i], 0, NULL);
		struct inventory inv;

		assert_non_null(d);
		assert_int_equal(plan_inventory_from_check(d, &inv), 0);
		assert_int_equal(inv.n_nics, 1);
		assert_int_equal(inv.nics[0].pci.n_upstream, 3);
		assert_string_equal(inv.nics[0].pci.upstream[0].bdf, "0000:17:01.0");
		assert_string_equal(inv.nics[0].pci.upstream[1].bdf, "0000:18:00.0");
		assert_string_equal(inv.nics[0].pci.upstream[2].bdf, "0000:19:0c.0");
		inventory_free(&inv);
		json_decref(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_good),
		cmocka_unit_test(counts_hostile),
		cmocka_unit_test(whole_numbers),
		cmocka_unit_test(shapes),
		cmocka_unit_test(job_checks),
		cmocka_unit_test(tp_heads),
		cmocka_unit_test(pcie_cap),
		cmocka_unit_test(measured_cap),
		cmocka_unit_test(recorded_hostile),
		cmocka_unit_test(recorded_bridge_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
