/* What fabric ranks send each other through PMIx: endpoints and results
 * round-trip, and every bad field of a peer's text is refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "fabric/wire.h"

static void endpoint_round_trip(void **state)
{
	struct fab_endpoint ep = { .name = "gpu-017", .addr = "10.0.0.17", .port = 40123,
				   .n_rails = 8, .transport = "verbs", .t0 = 0 }, back;
	char *t, err[200];

	(void)state;
	for (int i = 0; i < FAB_SECRET_LEN; i++)
		ep.secret[i] = (unsigned char)(0xe0 + i);
	t = fab_endpoint_encode(&ep);
	assert_non_null(t);
	assert_int_equal(fab_endpoint_decode(t, strlen(t), &back, err, sizeof(err)), 0);
	assert_string_equal(back.name, "gpu-017");
	assert_string_equal(back.addr, "10.0.0.17");
	assert_int_equal(back.port, 40123);
	assert_int_equal(back.n_rails, 8);
	assert_string_equal(back.transport, "verbs");
	assert_memory_equal(back.secret, ep.secret, FAB_SECRET_LEN);
	free(t);
}

static void endpoint_refused(void **state)
{
	/* a well-formed secret, between the fields that come before it */
#define SECRET "\"secret\":\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\""
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "", "not a JSON object" },
		{ "[1]", "not a JSON object" },
		{ "{\"v\":2}", "version" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":0,\"rails\":1,\"transport\":\"tcp\"," SECRET ",\"t0\":0}", "'port'" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":33,\"transport\":\"tcp\"," SECRET ",\"t0\":0}", "'rails'" },
		{ "{\"v\":1,\"name\":\"a\\u001b[2J\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"tcp\"," SECRET ",\"t0\":0}", "control character" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"udp\"," SECRET ",\"t0\":0}", "transport" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"tcp\"," SECRET ",\"t0\":-1}", "'t0'" },
		{ "{\"v\":1,\"name\":\"a\",\"name\":\"b\"}", "not a JSON object" },
		/* no secret (an older rdmadoctor), too short, not hex, upper case */
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"tcp\",\"t0\":0}", "'secret'" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"tcp\",\"t0\":0,\"secret\":\"0a1b\"}", "'secret'" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"tcp\",\"t0\":0,\"secret\":\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg\"}", "'secret'" },
		{ "{\"v\":1,\"name\":\"a\",\"addr\":\"b\",\"port\":1,\"rails\":1,\"transport\":\"tcp\",\"t0\":0,\"secret\":\"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\"}", "'secret'" },
	};
#undef SECRET
	struct fab_endpoint ep;
	char err[200];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(fab_endpoint_decode(bad[i].text, strlen(bad[i].text), &ep, err,
						     sizeof(err)), -1);
		if (!strstr(err, bad[i].says))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].says);
	}
}

static void results_round_trip(void **state)
{
	struct fab_result r[3] = {
		{ .a = 2, .b = 5, .rail = 0, .round = 1, .ab = 97.5, .ba = 98.25, .lat_usec = NAN },
		{ .a = 2, .b = 5, .rail = 1, .round = 1, .ab = 12.0, .ba = NAN, .lat_usec = 2.5 },
		{ .a = 2, .b = 7, .rail = 0, .round = 3, .retest = true, .ab = NAN, .ba = NAN,
		  .lat_usec = NAN, .error = "connection refused" },
	};
	struct fab_results back;
	char *t = fab_results_encode(r, 3), err[200];

	(void)state;
	assert_non_null(t);
	assert_int_equal(fab_results_decode(t, strlen(t), 2, 8, 4, 2, &back, err, sizeof(err)), 0);
	assert_int_equal(back.n, 3);
	assert_int_equal(back.r[0].a, 2);
	assert_int_equal(back.r[0].b, 5);
	assert_true(back.r[0].ab == 97.5 && back.r[0].ba == 98.25);
	assert_true(isnan(back.r[1].ba));
	assert_true(back.r[1].lat_usec == 2.5);
	assert_true(back.r[2].retest);
	assert_string_equal(back.r[2].error, "connection refused");
	fab_results_free(&back);
	/* the bounds are the receiver's: a peer index, round or rail beyond */
	assert_int_equal(fab_results_decode(t, strlen(t), 2, 6, 4, 2, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'b'"));
	assert_int_equal(fab_results_decode(t, strlen(t), 2, 8, 3, 2, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'round'"));
	assert_int_equal(fab_results_decode(t, strlen(t), 2, 8, 4, 1, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'rail'"));
	/* a result of the sender with itself */
	assert_int_equal(fab_results_decode(t, strlen(t), 5, 8, 4, 2, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "itself"));
	free(t);
	{
		const char *neg = "{\"v\":1,\"results\":[{\"round\":0,\"b\":1,\"rail\":0,"
				  "\"retest\":false,\"ab\":-3,\"ba\":null,\"lat\":null}]}";

		assert_int_equal(fab_results_decode(neg, strlen(neg), 0, 2, 1, 1, &back, err,
						    sizeof(err)), -1);
		assert_non_null(strstr(err, "'ab'"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(endpoint_round_trip),
		cmocka_unit_test(endpoint_refused),
		cmocka_unit_test(results_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
