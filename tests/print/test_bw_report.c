/* The bw report: which side's figures count, the verdict and its reason,
 * and the JSON shape other tools consume (a contract: keep it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "bw/params.h"
#include "print/bw_out.h"

static struct bw_interval iv_a[2] = { { 1, 11250000000ull, 10 }, { 1, 12500000000ull, 10 } };
static struct bw_interval iv_b[2] = { { 1, 2500000000ull, 10 }, { 1, 2500000000ull, 10 } };

/* two rails: 95 Gb/s and 20 Gb/s, measured by the client */
static void make(struct bw_report *r, struct bw_outcome *o, bool is_server, bool bidir)
{
	memset(r, 0, sizeof(*r));
	memset(o, 0, sizeof(*o));
	bw_params_defaults(&o->p, BW_MODE_BW);
	o->p.transport = BW_TRANSPORT_VERBS;
	o->p.bidir = bidir;
	o->n_rails = 2;
	struct bw_result *client = is_server ? o->remote : o->local;
	struct bw_result *server = is_server ? o->local : o->remote;

	client[0] = (struct bw_result){ .seconds = 2, .bytes = 23750000000ull, .msgs = 20,
					.intervals = iv_a, .n_intervals = 2, .mtu = 4096,
					.gid_index = 3, .numa_node = 0 };
	client[1] = (struct bw_result){ .seconds = 2, .bytes = 5000000000ull, .msgs = 20,
					.intervals = iv_b, .n_intervals = 2, .gid_index = -1,
					.numa_node = -1 };
	/* a passive server counts nothing unless both ways */
	server[0] = (struct bw_result){ .seconds = 2, .bytes = bidir ? 5000000000ull : 0,
					.msgs = bidir ? 5 : 0,
					.gid_index = 3, .numa_node = 1 };
	server[1] = (struct bw_result){ .seconds = 2, .bytes = bidir ? 5000000000ull : 0,
					.gid_index = -1, .numa_node = -1 };
	r->is_server = is_server;
	r->p = o->p;
	r->n_rails = 2;
	r->rails[0] = (struct bw_report_rail){ .device = "mlx5_0", .port = 1, .numa_node = 0,
					       .gpu = -1, .rate_gbps = 100 };
	r->rails[1] = (struct bw_report_rail){ .device = "mlx5_1", .port = 1, .numa_node = 1,
					       .gpu = 2, .gpu_path = "PIX", .rate_gbps = 100 };
	r->outcomes = o;
	r->n_outcomes = 1;
	r->expect_gbps = NAN;
}

static void figures_come_from_the_client(void **state)
{
	struct bw_report r;
	struct bw_outcome o;
	const struct bw_result *peer;

	(void)state;
	make(&r, &o, true, false);
	assert_ptr_equal(bw_rail_figures(&r, &o, 0, &peer), &o.remote[0]);
	assert_null(peer);
	make(&r, &o, false, false);
	assert_ptr_equal(bw_rail_figures(&r, &o, 1, &peer), &o.local[1]);
	/* both ways: this side's own, and the peer's */
	make(&r, &o, true, true);
	assert_ptr_equal(bw_rail_figures(&r, &o, 0, &peer), &o.local[0]);
	assert_ptr_equal(peer, &o.remote[0]);
}

static void verdict(void **state)
{
	struct bw_report r;
	struct bw_outcome o;

	(void)state;
	make(&r, &o, false, false);
	bw_judge(&r);
	assert_true(r.pass);	/* no expectation */
	r.expect_gbps = 90;
	r.expect_why = "90% of the 100 Gb/s port rate";
	bw_judge(&r);
	assert_false(r.pass);
	assert_non_null(strstr(r.reason,
			       "mlx5_1: 20.00 Gb/s average at 65536 bytes is below "
			       "the expected 90.00 Gb/s (90% of the 100 Gb/s port rate)"));
	r.expect_gbps = 20;
	bw_judge(&r);
	assert_true(r.pass);
	assert_string_equal(r.reason, "");
	/* the default expectation leaves out sizes under expect_min_bytes */
	r.expect_gbps = 90;
	r.expect_min_bytes = BW_EXPECT_MIN_BYTES;
	o.p.size = 2;
	bw_judge(&r);
	assert_true(r.pass);
	o.p.size = 65536;
	bw_judge(&r);
	assert_false(r.pass);
	assert_false(r.could_not_run);
	r.expect_min_bytes = 0;
	/* a run that could not finish: verdict error, whatever the figures */
	r.expect_gbps = 20;
	r.error = "the peer says: no";
	bw_judge(&r);
	assert_false(r.pass);
	assert_true(r.could_not_run);
	assert_string_equal(r.reason, "the peer says: no");
	r.error = NULL;
	/* latency: no expectation; without samples it could not run */
	r.p.mode = BW_MODE_LAT;
	r.expect_gbps = 1e9;
	bw_judge(&r);
	assert_false(r.pass);
	assert_true(r.could_not_run);
	assert_non_null(strstr(r.reason, "no latency samples"));
	{
		double s[1] = { 1 };

		o.local[0].lat_usec = s;
		o.local[0].n_lat = 1;
		bw_judge(&r);
		assert_true(r.pass);
		o.local[0].lat_usec = NULL;
		o.local[0].n_lat = 0;
	}
}

/* bidirectional: the peer's messages and rate, and both ways summed */
static void bidir_totals(void **state)
{
	struct bw_report r;
	struct bw_outcome o;
	struct bw_outcome_totals t;
	json_t *d, *res;

	(void)state;
	make(&r, &o, false, true);
	bw_outcome_totals(&r, &o, &t);
	assert_true(t.peer_msgs > 0);
	assert_true(fabs(t.bidir_gbps.avg - t.gbps.avg - t.peer_gbps.avg) < 1e-9);
	d = bw_report_to_json(&r);
	res = json_array_get(json_object_get(d, "results"), 0);
	assert_non_null(json_object_get(res, "bidir_total"));
	assert_true(json_integer_value(json_object_get(json_object_get(res, "remote_total"),
							"msgs")) > 0);
	json_decref(d);
}

static void json_shape(void **state)
{
	struct bw_report r;
	struct bw_outcome o;
	json_t *d, *res, *rail;

	(void)state;
	make(&r, &o, false, true);
	r.local_host = "a";
	r.remote_host = "b";
	r.local_addr = "10.0.0.1";
	r.remote_addr = "10.0.0.2";
	r.expect_gbps = 1;
	bw_judge(&r);
	d = bw_report_to_json(&r);
	assert_non_null(d);
	assert_int_equal(json_integer_value(json_object_get(d, "schema")), 1);
	assert_string_equal(json_string_value(json_object_get(d, "test")), "bw");
	assert_string_equal(json_string_value(json_object_get(d, "role")), "client");
	assert_string_equal(json_string_value(json_object_get(d, "transport")), "verbs");
	assert_string_equal(json_string_value(json_object_get(d, "op")), "write");
	assert_true(json_is_true(json_object_get(d, "bidir")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "params"),
							    "size_bytes")), 65536);
	assert_true(json_number_value(
			    json_object_get(json_object_get(d, "params"), "duration_s")) == 5);
	assert_string_equal(json_string_value(json_object_get(json_object_get(d, "remote"),
							   "address")), "10.0.0.2");
	res = json_array_get(json_object_get(d, "results"), 0);
	assert_int_equal(json_array_size(json_object_get(res, "rails")), 2);
	rail = json_array_get(json_object_get(res, "rails"), 0);
	assert_string_equal(json_string_value(json_object_get(rail, "device")), "mlx5_0");
	assert_int_equal(json_integer_value(json_object_get(rail, "mtu_bytes")), 4096);
	assert_int_equal(json_integer_value(json_object_get(rail, "gid_index")), 3);
	assert_true(json_is_null(json_object_get(rail, "gpu")));
	assert_true(fabs(json_number_value(json_object_get(json_object_get(rail, "gbps"), "avg")) -
			 95) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(rail, "gbps"), "min")) -
			 90) < 1e-9);
	assert_int_equal(json_array_size(json_object_get(rail, "intervals_gbps")), 2);
	rail = json_array_get(json_object_get(res, "rails"), 1);
	assert_int_equal(json_integer_value(json_object_get(rail, "gpu")), 2);
	assert_string_equal(json_string_value(json_object_get(rail, "gpu_path")), "PIX");
	assert_true(json_is_null(json_object_get(rail, "gid_index")));
	assert_true(fabs(json_number_value(json_object_get(json_object_get(json_object_get(res,
		"total"), "gbps"), "avg")) - 115) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(json_object_get(json_object_get(res,
		"remote_total"), "gbps"), "avg")) - 40) < 1e-9);
	assert_string_equal(json_string_value(json_object_get(d, "verdict")), "pass");
	assert_true(json_is_null(json_object_get(d, "reason")));
	assert_null(json_object_get(d, "latency_usec"));	/* bw only */
	json_decref(d);
}

static void json_latency(void **state)
{
	struct bw_report r;
	struct bw_outcome o;
	double s[4] = { 2, 1, 4, 3 };
	json_t *d, *l;

	(void)state;
	make(&r, &o, true, false);
	r.p.mode = o.p.mode = BW_MODE_LAT;
	o.remote[0].lat_usec = s;
	o.remote[0].n_lat = 4;
	bw_judge(&r);
	d = bw_report_to_json(&r);
	l = json_object_get(d, "latency_usec");
	assert_non_null(l);
	assert_true(json_number_value(json_object_get(l, "min")) == 1);
	assert_true(json_number_value(json_object_get(l, "p50")) == 2);
	assert_true(json_number_value(json_object_get(l, "p99_9")) == 4);
	assert_int_equal(json_integer_value(json_object_get(l, "samples")), 4);
	assert_string_equal(json_string_value(json_object_get(d, "test")), "lat");
	assert_true(json_is_null(json_object_get(d, "expect_gbps")));
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(figures_come_from_the_client),
		cmocka_unit_test(verdict),
		cmocka_unit_test(json_shape),
		cmocka_unit_test(json_latency),
		cmocka_unit_test(bidir_totals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
