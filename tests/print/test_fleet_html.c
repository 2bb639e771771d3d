/* The fleet report page writer (src/print/fleet_html.c and its parts):
 * escaping, an empty fleet, records with anything null or of another type,
 * a write error, the bandwidth figures and the chart axis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "print/fleet_bw.h"
#include "print/fleet_html.h"
#include "print/fleet_html_stream.h"
#include "print/fleet_svg.h"

/* html_text(s) into a new string. */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct html_out o = { .f = f };

	assert_non_null(f);
	html_text(&o, s);
	assert_false(o.failed);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect_escaped(const char *in, const char *want)
{
	char *got = escaped(in);

	assert_string_equal(got, want);
	free(got);
}

static void escaping(void **state)
{
	(void)state;
	expect_escaped("<script>alert(\"x\")</script>",
		       "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
	expect_escaped("a&b 'c'", "a&amp;b &#39;c&#39;");
	expect_escaped("&amp;", "&amp;amp;");
	expect_escaped("plain dgx-h100-017", "plain dgx-h100-017");
	expect_escaped(NULL, "-");	/* the missing spelling */
	expect_escaped("", "");
	/* tab and newline stay; other controls do not */
	expect_escaped("a\tb\nc\x01\x1b[31md\x7f", "a\tb\nc&#xFFFD;&#xFFFD;[31md&#xFFFD;");
	/* valid UTF-8 passes: 2, 3 and 4 bytes */
	expect_escaped("\xc3\xa9\xe2\x86\x92\xf0\x9f\x96\xa5", "\xc3\xa9\xe2\x86\x92\xf0\x9f\x96\xa5");
	/* invalid UTF-8 does not: a lone continuation, an overlong '/', a
	 * surrogate, a sequence cut short, a value past U+10FFFF, 0xff */
	expect_escaped("a\x80z", "a&#xFFFD;z");
	expect_escaped("\xc0\xaf", "&#xFFFD;&#xFFFD;");
	expect_escaped("\xed\xa0\x80", "&#xFFFD;&#xFFFD;&#xFFFD;");
	expect_escaped("x\xe2\x82", "x&#xFFFD;&#xFFFD;");
	expect_escaped("\xf4\x90\x80\x80", "&#xFFFD;&#xFFFD;&#xFFFD;&#xFFFD;");
	expect_escaped("\xff<", "&#xFFFD;&lt;");
	assert_int_equal(html_text_width("h\xc3\xa9\xe2\x86\x92"), 3);
	assert_int_equal(html_text_width("\xff\xfe"), 2);
	assert_int_equal(html_text_width(NULL), strlen("-"));
}

static void clipping(void **state)
{
	struct html_out o;
	char *buf = NULL;
	size_t len = 0;
	(void)state;

	o.f = open_memstream(&buf, &len);
	o.failed = false;
	assert_non_null(o.f);
	html_text_clip(&o, "abc", 3);
	html_raw(&o, "|");
	html_text_clip(&o, "abcd", 3);
	html_raw(&o, "|");
	/* whole characters and whole entities only */
	html_text_clip(&o, "\xc3\xa9\xc3\xa9\xc3\xa9", 2);
	html_raw(&o, "|");
	html_text_clip(&o, "<<<", 1);
	html_raw(&o, "|");
	html_text_clip(&o, NULL, 3);
	assert_false(o.failed);
	assert_int_equal(fclose(o.f), 0);
	assert_string_equal(buf, "abc|abc\xe2\x80\xa6|\xc3\xa9\xc3\xa9\xe2\x80\xa6|"
			    "&lt;\xe2\x80\xa6|-");
	free(buf);
}

/* The page for records and diff given as JSON text; asserts a 0 return. */
static char *page(const char *records_json, const char *diff_json)
{
	json_t *records = records_json ? json_loads(records_json, JSON_DECODE_ANY, NULL) : NULL;
	json_t *diff = diff_json ? json_loads(diff_json, 0, NULL) : NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (records_json)
		assert_non_null(records);
	if (diff_json)
		assert_non_null(diff);
	assert_int_equal(fleet_html_write(f, records, diff), 0);
	assert_int_equal(fclose(f), 0);
	json_decref(records);
	json_decref(diff);
	/* always a whole page */
	assert_true(!strncmp(buf, "<!DOCTYPE html>\n", 16));
	assert_non_null(strstr(buf, "</body></html>\n"));
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void empty_fleet(void **state)
{
	const char *inputs[] = { "[]", NULL, "{}", "\"not an array\"" };
	(void)state;

	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		char *p = page(inputs[i], NULL);

		assert_non_null(strstr(p, "data-hosts=\"0\">0</span> hosts"));
		assert_non_null(strstr(p, "id=\"empty\""));
		assert_non_null(strstr(p, "No hosts recorded yet"));
		assert_null(strstr(p, "<svg"));
		free(p);
	}
}

static void hostile_strings(void **state)
{
	char *p;
	(void)state;

	p = page("[{\"host\":\"<script>alert(1)</script>\",\"verdict\":\"fail\","
		 "\"profile\":\"\\\"><b>\",\"check\":{\"findings\":[{\"id\":\"x\","
		 "\"severity\":\"error\",\"subject\":\"<i>s</i>\",\"observed\":\"a&b\","
		 "\"fix\":\"run `x < y`\"}]},"
		 "\"bw\":[{\"role\":\"client\",\"remote\":{\"host\":\"<svg onload=x>\"},"
		 "\"results\":[{\"rails\":[{\"device\":\"<d>\",\"port\":1,"
		 "\"gbps\":{\"avg\":10}}],\"total\":{\"gbps\":{\"avg\":10}}}]}]}]",
		 "{\"groups\":[{\"profile\":\"<pp>\",\"nic_model\":\"m\","
		 "\"link_layer\":\"InfiniBand\",\"hosts\":[\"a\"],"
		 "\"baseline\":{\"<f>\":\"<v>\"},\"outliers\":[{\"host\":\"<h>\","
		 "\"field\":\"fw\",\"value\":\"<v2>\",\"baseline\":\"<v>\","
		 "\"shares\":{\"<v>\":3,\"<v2>\":1}}]}]}");
	/* the page's only tags are its own */
	assert_null(strstr(p, "<script"));
	assert_non_null(strstr(p, "&quot;&gt;&lt;b&gt;"));
	assert_null(strstr(p, "<i>"));
	assert_null(strstr(p, "<svg onload"));
	assert_null(strstr(p, "<d>"));
	assert_null(strstr(p, "<pp>"));
	assert_null(strstr(p, "<h>"));
	assert_null(strstr(p, "<v"));
	assert_non_null(strstr(p, "data-host=\"&lt;script&gt;alert(1)&lt;/script&gt;\""));
	assert_non_null(strstr(p, ">&lt;script&gt;alert(1)&lt;/script&gt;</td>"));
	assert_non_null(strstr(p, "<td>run `x &lt; y`</td>"));
	/* the group's name has its link layer, as the text report's */
	assert_non_null(strstr(p, "<td>&lt;pp&gt; \xc2\xb7 m \xc2\xb7 InfiniBand</td>"));
	assert_non_null(strstr(p, "data-link-layer=\"InfiniBand\""));
	assert_non_null(strstr(p, "&lt;svg onload=x&gt;"));
	/* shares: the majority first */
	assert_non_null(strstr(p, "&lt;v&gt; (3)</span>, <span class=\"share\" "
			       "data-value=\"&lt;v2&gt;\" data-count=\"1\">&lt;v2&gt; (1)"));
	free(p);
}

static void odd_records(void **state)
{
	char *p;
	(void)state;

	p = page("[null, 5, \"s\", {}, {\"host\":null,\"verdict\":3,\"profile\":[1],"
		 "\"time\":{},\"check\":[],\"bw\":{}},"
		 "{\"host\":\"odd\",\"check\":{\"findings\":[null,7,{\"id\":5,\"severity\":null}],"
		 "\"inventory\":{\"nics\":[null,{\"model\":7}]}},"
		 "\"bw\":[null,{\"role\":\"client\",\"results\":\"x\"},"
		 "{\"role\":\"client\",\"local\":5,\"remote\":[],\"results\":[null,"
		 "{\"size_bytes\":\"big\",\"rails\":[null,{\"device\":null,\"port\":\"1\","
		 "\"gbps\":{\"avg\":\"fast\"}},{\"gbps\":{\"avg\":12.5}}],"
		 "\"total\":{\"gbps\":{\"avg\":12345.5}}}]},"
		 "{\"role\":\"client\",\"results\":[{\"rails\":[{\"device\":\"big\","
		 "\"gbps\":{\"avg\":1e308}}]}]}]}]",
		 "{\"groups\":[null,4,{\"profile\":1,\"hosts\":\"h\",\"baseline\":[],"
		 "\"outliers\":[null,{\"host\":9,\"value\":{\"a\":[1,true]},\"baseline\":1.5,"
		 "\"shares\":{\"x\":\"y\"}}]}]}");
	assert_non_null(strstr(p, "data-hosts=\"6\""));
	/* no record has a verdict of its own */
	assert_non_null(strstr(p, "<tr data-verdict=\"-\"><td><span class=\"badge v-other\">"
			       "-</span></td><td class=\"num\" data-count=\"6\">6</td>"));
	assert_non_null(strstr(p, "data-findings=\"-\""));
	/* one spelling of a missing value: the text tables' */
	assert_null(strstr(p, "unknown"));
	assert_non_null(strstr(p, "data-findings=\"3\""));
	/* the one rail with a number, under unknown names */
	assert_non_null(strstr(p, "data-host=\"odd\" data-rail=\"-/-\" data-gbps=\"12.50\""));
	assert_non_null(strstr(p, "data-src=\"odd\" data-dst=\"-\" data-gbps=\"12345.50\""));
	/* no link carries 1e308 Gb/s: left out (it would break every mean) */
	assert_null(strstr(p, "data-rail=\"big"));
	/* a drift value that is an object is shown as JSON; reals with 2 decimals */
	assert_non_null(strstr(p, "<td data-k=\"value\">{&quot;a&quot;:[1,true]}</td>"));
	assert_non_null(strstr(p, "<td data-k=\"baseline\">1.50</td>"));
	free(p);
}

static void bandwidth_figures(void **state)
{
	struct fleet_bw bw;
	json_t *records;
	(void)state;

	records = json_loads(
		"[{\"host\":\"b\",\"bw\":["
		" {\"role\":\"client\",\"local\":{\"host\":\"b\"},\"remote\":{\"host\":\"a\"},"
		"  \"results\":[{\"size_bytes\":1048576,\"rails\":[{\"device\":\"mlx5_0\",\"port\":1,"
		"   \"gbps\":{\"avg\":100}}],\"total\":{\"gbps\":{\"avg\":100}}},"
		"   {\"size_bytes\":4096,\"rails\":[{\"device\":\"mlx5_0\",\"port\":1,"
		"   \"gbps\":{\"avg\":5}}],\"total\":{\"gbps\":{\"avg\":5}}}]},"
		" {\"role\":\"client\",\"remote\":{\"host\":\"a\"},"
		"  \"results\":[{\"size_bytes\":65536,\"rails\":[{\"device\":\"mlx5_0\",\"port\":1,"
		"   \"gbps\":{\"avg\":200}},{\"device\":\"mlx5_1\",\"port\":1,\"gbps\":{\"avg\":50}}],"
		"   \"total\":{\"gbps\":{\"avg\":250}}}]},"
		" {\"role\":\"server\",\"results\":[{\"rails\":[{\"device\":\"mlx5_9\",\"port\":1,"
		"   \"gbps\":{\"avg\":1}}],\"total\":{\"gbps\":{\"avg\":1}}}]}]},"
		" {\"host\":\"a\",\"bw\":[{\"role\":\"client\",\"remote\":{\"host\":\"b\"},"
		"  \"results\":[{\"rails\":[{\"device\":\"mlx5_0\",\"port\":2,\"gbps\":{\"avg\":7}}],"
		"   \"total\":{\"gbps\":{\"avg\":7}}}]}]}]", 0, NULL);
	assert_non_null(records);
	assert_int_equal(fleet_bw_collect(records, &bw), 0);
	/* sorted by host, device, port; the largest size only; the mean of runs */
	assert_int_equal(bw.n_rails, 3);
	assert_string_equal(bw.rails[0].host, "a");
	assert_int_equal(bw.rails[0].port, 2);
	assert_true(bw.rails[0].gbps == 7);
	assert_string_equal(bw.rails[1].host, "b");
	assert_string_equal(bw.rails[1].device, "mlx5_0");
	assert_true(bw.rails[1].gbps == 150);
	assert_int_equal(bw.rails[1].n, 2);
	assert_string_equal(bw.rails[2].device, "mlx5_1");
	assert_true(bw.rails[2].gbps == 50);
	assert_int_equal(bw.n_pairs, 2);
	assert_string_equal(bw.pairs[0].src, "a");
	assert_string_equal(bw.pairs[0].dst, "b");
	assert_string_equal(bw.pairs[1].src, "b");
	assert_true(bw.pairs[1].gbps == 175);
	fleet_bw_free(&bw);
	assert_null(bw.rails);
	json_decref(records);
}

/* A record may carry a document another machine ran: its rails and its
 * pair both go to the document's local.host; a negative rate counts for
 * nothing. */
static void bandwidth_source_host(void **state)
{
	struct fleet_bw bw;
	json_t *records;
	(void)state;

	records = json_loads(
		"[{\"host\":\"rec\",\"bw\":["
		" {\"role\":\"client\",\"local\":{\"host\":\"ran\"},\"remote\":{\"host\":\"peer\"},"
		"  \"results\":[{\"rails\":[{\"device\":\"mlx5_0\",\"port\":1,\"gbps\":{\"avg\":40}},"
		"   {\"device\":\"mlx5_1\",\"port\":1,\"gbps\":{\"avg\":-1}}],"
		"   \"total\":{\"gbps\":{\"avg\":40}}}]},"
		" {\"role\":\"client\",\"remote\":{\"host\":\"peer\"},"
		"  \"results\":[{\"rails\":[{\"device\":\"mlx5_2\",\"port\":1,\"gbps\":{\"avg\":-0.5}}],"
		"   \"total\":{\"gbps\":{\"avg\":-3}}}]}]}]", 0, NULL);
	assert_non_null(records);
	assert_int_equal(fleet_bw_collect(records, &bw), 0);
	assert_int_equal(bw.n_rails, 1);
	assert_string_equal(bw.rails[0].host, "ran");
	assert_string_equal(bw.rails[0].device, "mlx5_0");
	assert_int_equal(bw.n_pairs, 1);
	assert_string_equal(bw.pairs[0].src, "ran");
	assert_string_equal(bw.pairs[0].dst, "peer");
	fleet_bw_free(&bw);
	json_decref(records);
}

/* The model cell of a host with 20,000 NICs (each its own model) looks at
 * the first 64 and ends in an ellipsis: the scan is bounded. */
static void many_nics(void **state)
{
	json_t *nics = json_array(), *records;
	char *p, *text, name[32];
	(void)state;

	for (int i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		json_array_append_new(nics, json_pack("{s:s}", "model", name));
	}
	records = json_pack("[{s:s,s:{s:{s:o}}}]", "host", "h", "check", "inventory", "nics", nics);
	assert_non_null(records);
	text = json_dumps(records, JSON_COMPACT);
	p = page(text, NULL);
	assert_non_null(strstr(p, "m0, m1, "));
	assert_non_null(strstr(p, "m62, m63, \u2026</td>"));
	assert_null(strstr(p, "m64"));
	free(p);
	free(text);
	json_decref(records);
}

static void axis(void **state)
{
	struct fleet_axis ax;
	(void)state;

	fleet_axis_for(390.5, &ax);
	assert_true(ax.step == 100 && ax.top == 400 && ax.decimals == 0 && ax.ticks == 5);
	fleet_axis_for(0.37, &ax);
	assert_true(ax.decimals == 1 && ax.ticks == 5);
	assert_true(ax.top > 0.399 && ax.top < 0.401);
	fleet_axis_for(0, &ax);
	assert_true(ax.top == 1 && ax.ticks >= 2);
	fleet_axis_for(-5, &ax);
	assert_true(ax.top == 1);
	fleet_axis_for(1e308, &ax);
	assert_true(ax.top >= 1e308 && ax.ticks >= 2 && ax.ticks <= 11);
	fleet_axis_for(1e-300, &ax);
	assert_true(ax.decimals == 6 && ax.ticks >= 2 && ax.ticks <= 11);
	fleet_axis_for(100, &ax);
	assert_true(ax.top == 100 && ax.step == 20 && ax.ticks == 6);
}

static void heatmap_limit(void **state)
{
	struct fleet_pair_bw pairs[FLEET_HEATMAP_MAX_HOSTS];
	char names[FLEET_HEATMAP_MAX_HOSTS + 1][8];
	FILE *f = fopen("/dev/null", "w");
	struct html_out o = { .f = f };
	(void)state;

	assert_non_null(f);
	for (int i = 0; i <= FLEET_HEATMAP_MAX_HOSTS; i++)
		snprintf(names[i], sizeof(names[i]), "h%03d", i);
	for (int i = 0; i < FLEET_HEATMAP_MAX_HOSTS; i++)
		pairs[i] = (struct fleet_pair_bw){ names[i], names[i + 1], 1, 1 };
	/* 65 hosts: too many */
	assert_int_equal(fleet_svg_heatmap(&o, pairs, FLEET_HEATMAP_MAX_HOSTS), -E2BIG);
	/* 64: drawn */
	assert_int_equal(fleet_svg_heatmap(&o, pairs, FLEET_HEATMAP_MAX_HOSTS - 1), 0);
	assert_false(o.failed);
	fclose(f);
}

/* A fleet with more hosts than a heatmap holds lists the slowest pairs. */
static void many_pairs(void **state)
{
	json_t *records = json_array();
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *f;
	(void)state;

	for (int i = 0; i < 100; i++) {
		char a[16], b[16];

		snprintf(a, sizeof(a), "n%03d", i);
		snprintf(b, sizeof(b), "n%03d", (i + 1) % 100);
		json_array_append_new(records, json_pack(
			"{s:s, s:[{s:s, s:{s:s}, s:[{s:{s:{s:f}}}]}]}", "host", a, "bw",
			"role", "client", "remote", "host", b, "results", "total", "gbps",
			"avg", 100.0 + i));
	}
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fleet_html_write(f, records, NULL), 0);
	assert_int_equal(fclose(f), 0);
	assert_null(strstr(buf, "id=\"bw-heatmap\""));
	p = strstr(buf, "id=\"slowest-pairs\"");
	assert_non_null(p);
	/* slowest first */
	assert_non_null(strstr(p, "<tr class=\"pair\" data-src=\"n000\" data-dst=\"n001\" "
			       "data-gbps=\"100.00\">"));
	assert_true(strstr(p, "data-gbps=\"100.00\"") < strstr(p, "data-gbps=\"101.00\""));
	assert_non_null(strstr(buf, "id=\"drift-none\""));
	free(buf);
	json_decref(records);
}

/* More rails than a chart holds: the slowest FLEET_BARS_MAX, slowest first. */
static void many_rails(void **state)
{
	json_t *rails = json_array(), *records;
	const char *first;
	char *buf = NULL, *p, *q;
	size_t len = 0, bars = 0;
	FILE *f;
	(void)state;

	for (int i = 0; i < FLEET_BARS_MAX + 88; i++) {
		char dev[16];

		snprintf(dev, sizeof(dev), "mlx5_%d", i);
		json_array_append_new(rails, json_pack("{s:s, s:i, s:{s:f}}", "device", dev,
						       "port", 1, "gbps", "avg", 1000.0 - i));
	}
	records = json_pack("[{s:s, s:[{s:s, s:[{s:o}]}]}]", "host", "big", "bw", "role",
			    "client", "results", "rails", rails);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fleet_html_write(f, records, NULL), 0);
	assert_int_equal(fclose(f), 0);
	p = strstr(buf, "id=\"bw-slowest\"");
	assert_non_null(p);
	assert_non_null(strstr(p, "data-shown=\"512\" data-of=\"600\""));
	for (q = p; (q = strstr(q, "<g class=\"bar\"")); q++)
		bars++;
	assert_int_equal(bars, FLEET_BARS_MAX);
	/* the slowest (mlx5_599, 401 Gb/s) first; the fastest 88 left out */
	q = strstr(p, "<g class=\"bar\"");
	first = "<g class=\"bar\" data-host=\"big\" data-rail=\"mlx5_599/1\" data-gbps=\"401.00\"";
	assert_non_null(q);
	assert_memory_equal(q, first, strlen(first));
	assert_null(strstr(buf, "data-rail=\"mlx5_87/1\""));
	assert_non_null(strstr(buf, "data-rail=\"mlx5_88/1\""));
	free(buf);
	json_decref(records);
}

static void write_error(void **state)
{
	json_t *records = json_loads("[{\"host\":\"a\"}]", 0, NULL);
	FILE *f = fopen("/dev/full", "w");
	(void)state;

	if (!f)
		fail_msg("cannot open /dev/full: %s", strerror(errno));
	assert_int_equal(fleet_html_write(f, records, NULL), -1);
	fclose(f);
	json_decref(records);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escaping),
		cmocka_unit_test(clipping),
		cmocka_unit_test(empty_fleet),
		cmocka_unit_test(hostile_strings),
		cmocka_unit_test(odd_records),
		cmocka_unit_test(bandwidth_figures),
		cmocka_unit_test(bandwidth_source_host),
		cmocka_unit_test(many_nics),
		cmocka_unit_test(axis),
		cmocka_unit_test(heatmap_limit),
		cmocka_unit_test(many_pairs),
		cmocka_unit_test(many_rails),
		cmocka_unit_test(write_error),
	};

	return cmocka_run_group_tests_name("fleet_html", tests, NULL, NULL);
}
