/* fabric --load's port loads between ranks (src/fabric/load_wire.c): what
 * one rank encodes another decodes to the same; a peer's text that breaks
 * a bound (a counter the judge does not know, a rail out of range, a
 * negative delta, control bytes, too many counters) is refused with the
 * reason, and leaves nothing behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "fabric/load_wire.h"

static const struct fab_cdelta recv_c[] = {
	{ "hw:np_cnp_sent", 1800, false },
	{ "eth:tx_prio3_pause", 5200, false },
	{ "eth:rx_discards_phy", 0, false },
	{ "hw:out_of_sequence", 0, true },
	{ "dcb:tx_pause_prio3", UINT64_C(9223372036854775807), false },
};

static const struct fab_port_load ports[] = {
	{ .round = 0, .rail = 0, .rate_gbps = 400, .pfc_mask = 0x08, .c = recv_c, .n = 5 },
	{ .round = 1, .rail = 0, .rate_gbps = 399.75, .pfc_mask = 0, .c = recv_c, .n = 1 },
	{ .round = 0, .rail = 1, .rate_gbps = NAN, .pfc_mask = -1,
	  .unread = "cannot read 'hw_counters': Permission denied" },
};

static int decode(const char *text, struct fab_load_ports *lp, char *err, size_t errsz)
{
	return fab_load_decode(text, strlen(text), 7, 2, 2, lp, err, errsz);
}

static void round_trip(void **state)
{
	struct fab_load_ports lp;
	char err[200] = "";
	char *text = fab_load_encode(ports, 3);

	(void)state;
	assert_non_null(text);
	assert_int_equal(decode(text, &lp, err, sizeof(err)), 0);
	assert_int_equal(lp.n, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct fab_port_load *a = &ports[i], *b = &lp.p[i];

		assert_int_equal(b->rank, 7);
		assert_int_equal(b->round, a->round);
		assert_int_equal(b->rail, a->rail);
		assert_int_equal(b->pfc_mask, a->pfc_mask);
		assert_true(isnan(a->rate_gbps) ? isnan(b->rate_gbps) : b->rate_gbps == a->rate_gbps);
		assert_int_equal(b->n, a->n);
		if (a->unread)
			assert_string_equal(b->unread, a->unread);
		else
			assert_null(b->unread);
		for (size_t k = 0; k < a->n; k++) {
			assert_string_equal(b->c[k].name, a->c[k].name);
			assert_true(b->c[k].delta == a->c[k].delta);
			assert_int_equal(b->c[k].reset, a->c[k].reset);
		}
	}
	fab_load_ports_free(&lp);
	free(text);
}

/* What the encoder cannot send as it is, it sends so that it decodes. */
static void encode_sends_what_decodes(void **state)
{
	static const struct fab_cdelta huge[] = { { "eth:rx_discards_phy", UINT64_MAX, false } };
	struct fab_port_load p = { .rate_gbps = 1e9, .pfc_mask = 4096, .c = huge, .n = 1,
				   .unread = "bad\nline\x01" };
	struct fab_load_ports lp;
	char err[200];
	char *text = fab_load_encode(&p, 1);

	(void)state;
	assert_non_null(text);
	assert_int_equal(decode(text, &lp, err, sizeof(err)), 0);
	assert_true(lp.p[0].c[0].delta == INT64_MAX);
	assert_true(isnan(lp.p[0].rate_gbps));
	assert_int_equal(lp.p[0].pfc_mask, -1);
	assert_string_equal(lp.p[0].unread, "bad?line?");
	fab_load_ports_free(&lp);
	free(text);

	/* a counter the judge does not know is a caller's mistake: no text */
	static const struct fab_cdelta none[] = { { "eth:rx_bytes_phy", 1, false } };
	p = (struct fab_port_load){ .rate_gbps = NAN, .pfc_mask = -1, .c = none, .n = 1 };
	assert_null(fab_load_encode(&p, 1));
}

static void refused(const char *text, const char *why)
{
	struct fab_load_ports lp;
	char err[200] = "";

	if (decode(text, &lp, err, sizeof(err)) == 0)
		fail_msg("accepted: %s", text);
	if (!strstr(err, why))
		fail_msg("'%s' not in '%s' for %s", why, err, text);
	assert_null(lp.p);
	assert_null(lp.c);
	assert_null(lp.text);
	assert_int_equal(lp.n, 0);
}

#define P(x) "{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"rate\":100,\"pfc\":8," x "}]}"

static void rejections(void **state)
{
	char big[200];

	(void)state;
	refused("{\"v\":2,\"ports\":[]}", "version");
	refused("[1]", "not a JSON object");
	refused(P("\"c\":[[\"foo:np_cnp_sent\",1,false]]"), "no known prefix");
	refused(P("\"c\":[[\"np_cnp_sent\",1,false]]"), "no known prefix");
	refused(P("\"c\":[[\"eth:rx_bytes_phy\",1,false]]"), "'eth:rx_bytes_phy' is not one");
	refused(P("\"c\":[[\"hw:rnr_nak_retry_err\",1,false]]"), "is not one the load test");
	snprintf(big, sizeof(big), P("\"c\":[[\"hw:%061d\",1,false]]"), 0);
	refused(big, "longer than 63 bytes");
	refused(P("\"c\":[[\"hw:np_cnp\\u0001sent\",1,false]]"), "'hw:np_cnp?sent'");
	/* jansson refuses a NUL in a string before the name is looked at */
	refused(P("\"c\":[[\"hw:np_cnp\\u0000sent\",1,false]]"), "not a JSON object");
	refused(P("\"c\":[[\"hw:np_cnp_sent\",-1,false]]"), "negative delta");
	refused(P("\"c\":[[\"hw:np_cnp_sent\",1.5,false]]"), "[name, delta, reset]");
	refused(P("\"c\":[[\"hw:np_cnp_sent\",1]]"), "[name, delta, reset]");
	refused(P("\"c\":[[\"hw:np_cnp_sent\",9223372036854775808,false]]"), "not a JSON object");
	refused(P("\"c\":[[\"hw:np_cnp_sent\",1,false],[\"hw:np_cnp_sent\",2,false]]"),
		"given twice");
	refused(P("\"unread\":\"line\\nbreak\",\"c\":[]"), "'unread'");
	refused(P("\"unread\":\"\",\"c\":[]"), "'unread'");
	refused(P("\"c\":{}"), "'c' an array");
	refused("{\"v\":1,\"ports\":[{\"round\":0,\"rail\":2,\"c\":[]}]}", "'rail' is not a number "
									"from 0 to 1");
	refused("{\"v\":1,\"ports\":[{\"round\":2,\"rail\":0,\"c\":[]}]}", "'round'");
	refused("{\"v\":1,\"ports\":[{\"round\":-1,\"rail\":0,\"c\":[]}]}", "'round'");
	refused("{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"rate\":1e6,\"c\":[]}]}", "'rate'");
	refused("{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"rate\":-1,\"c\":[]}]}", "'rate'");
	refused("{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"pfc\":256,\"c\":[]}]}", "'pfc'");
	refused("{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"c\":[]},"
		"{\"round\":0,\"rail\":0,\"c\":[]}]}", "two port loads of round 0 rail 0");
	refused("{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"c\":[]}],\"v\":1}",
		"not a JSON object");
}

static void too_many_counters(void **state)
{
	/* 257 counters; names repeat past 32, but the count is refused before
	 * any name is looked at */
	static const char *pre[] = { "eth:rx_prio", "eth:tx_prio", "dcb:rx_pause_prio",
				     "dcb:tx_pause_prio" };
	static const char *post[] = { "_pause", "_pause", "", "" };
	size_t n = 0, cap = 1 << 16;
	char *t = malloc(cap);
	struct fab_load_ports lp;
	char err[200] = "";

	(void)state;
	assert_non_null(t);
	n += (size_t)snprintf(t + n, cap - n, "{\"v\":1,\"ports\":[{\"round\":0,\"rail\":0,\"c\":[");
	for (int k = 0; k < 257; k++) {
		char name[40];

		snprintf(name, sizeof(name), "%s%d%s", pre[k % 4], k % 8, post[k % 4]);
		n += (size_t)snprintf(t + n, cap - n, "%s[\"%s\",%d,false]", k ? "," : "", name, k);
	}
	snprintf(t + n, cap - n, "]}]}");
	assert_int_equal(fab_load_decode(t, strlen(t), 0, 1, 1, &lp, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "at most 256 counters"));
	assert_null(lp.p);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(encode_sends_what_decodes),
		cmocka_unit_test(rejections),
		cmocka_unit_test(too_many_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
