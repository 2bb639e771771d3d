/* fleet/: drift fields, facts, the diff's majority and tie rule, history,
 * record checks and the validating skim, on small hand-made documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include <jansson.h>

#include "fleet/diff.h"
#include "fleet/fabric.h"
#include "fleet/facts.h"
#include "fleet/fields.h"
#include "fleet/history.h"
#include "fleet/record.h"
#include "fleet/skim.h"
#include "print/fleet_text.h"
#include "store/record_read.h"

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (!j)
		fail_msg("bad test JSON: %s at %d:%d", e.text, e.line, e.column);
	return j;
}

/* A port: Ethernet with QoS when trust is given, else InfiniBand. */
static json_t *port(int mtu, const char *trust)
{
	if (!trust)
		return json_pack("{s:i, s:s, s:{s:i, s:s}, s:i, s:i, s:i, s:[], s:n}", "port", 1,
				 "link_layer", "InfiniBand", "state", "code", 4, "name", "ACTIVE",
				 "rate_gbps", 400, "active_mtu", mtu, "netdev_mtu", 4092, "gids",
				 "qos");
	return json_pack("{s:i, s:s, s:{s:i, s:s}, s:i, s:i, s:i, s:[{s:i, s:s, s:n}, "
			 "{s:i, s:s, s:s}, {s:i, s:s, s:s}], s:{s:s, s:[i], s:[b,b,b,b], s:[b,b,b,b]}}",
			 "port", 1, "link_layer", "Ethernet", "state", "code", 4, "name", "ACTIVE",
			 "rate_gbps", 100, "active_mtu", mtu, "netdev_mtu", 9000, "gids",
			 "index", 1, "type", "RoCE v2", "ipv4",
			 "index", 2, "type", "IB/RoCE v1", "ipv4", "10.0.0.1",
			 "index", 3, "type", "RoCE v2", "ipv4", "10.0.0.1",
			 "qos", "trust", trust, "pfc_enabled", 3, "ecn_np", 0, 0, 0, 1,
			 "ecn_rp", 0, 0, 0, 0);
}

static json_t *nic(const char *name, const char *model, const char *fw, int width, json_t *p)
{
	return json_pack("{s:s, s:s, s:s, s:{s:{s:i, s:i}}, s:[o]}", "name", name, "model", model,
			 "fw_ver", fw, "pci", "link", "speed_gts", 32, "width", width, "ports", p);
}

/* A record of host h with NICs nics (taken) and bw documents (taken). */
static json_t *record(const char *h, const char *profile, json_t *nics, json_t *bw)
{
	json_t *check = json_pack("{s:i, s:s, s:s, s:[], s:{s:i, s:{s:s, s:{s:s, s:n}}, s:o}}",
				  "schema", 1, "profile", profile, "verdict", "pass", "findings",
				  "inventory", "schema", 1, "host", "hostname", h, "drivers",
				  "stack", "inbox", "ofed_version", "nics", nics);

	return fleet_record_new(check, "2026-11-30T07:00:00Z", bw);
}

static json_t *one_nic_record(const char *h, const char *fw, int mtu)
{
	return record(h, "p", json_pack("[o]", nic("mlx5_0", "ConnectX-7", fw, 16, port(mtu, NULL))),
		      NULL);
}

static void port_values(void **state)
{
	json_t *p = port(4096, "dscp"), *v = fleet_port_values(p);

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(v, "rocev2_gid_index")), 3);
	assert_string_equal(json_string_value(json_object_get(v, "pfc_priority")), "3");
	assert_string_equal(json_string_value(json_object_get(v, "trust")), "dscp");
	assert_string_equal(json_string_value(json_object_get(v, "ecn")), "np 3, rp none");
	assert_int_equal(json_integer_value(json_object_get(v, "mtu")), 4096);
	assert_string_equal(json_string_value(json_object_get(v, "port_state")), "ACTIVE");
	json_decref(v);
	json_decref(p);
	/* InfiniBand: no RoCE fields at all, so they cannot drift */
	p = port(4096, NULL);
	v = fleet_port_values(p);
	assert_null(json_object_get(v, "rocev2_gid_index"));
	assert_null(json_object_get(v, "trust"));
	assert_int_equal(json_integer_value(json_object_get(v, "netdev_mtu")), 4092);
	json_decref(v);
	json_decref(p);
	/* wrong types read as absent, never a crash */
	p = parse("{\"link_layer\":\"Ethernet\",\"gids\":7,\"qos\":[1],\"active_mtu\":{},"
		  "\"state\":\"x\"}");
	v = fleet_port_values(p);
	assert_true(json_is_null(json_object_get(v, "rocev2_gid_index")));
	assert_true(json_is_null(json_object_get(v, "trust")));
	assert_null(json_object_get(v, "mtu"));
	json_decref(v);
	json_decref(p);
}

static void pcie_gen(void **state)
{
	static const struct { const char *speed; const char *gen; } cases[] = {
		{ "2.5", "1" }, { "8", "3" }, { "16", "4" }, { "32", "5" }, { "64", "6" },
		{ "null", "null" }, { "20", "20.0" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[200];
		json_t *n, *v;
		char *got;

		snprintf(text, sizeof(text), "{\"pci\":{\"link\":{\"speed_gts\":%s,\"width\":8}}}",
			 cases[i].speed);
		n = parse(text);
		v = fleet_nic_values(n);
		got = fleet_value_text(json_object_get(v, "pcie_gen"));
		assert_string_equal(got, cases[i].gen);
		free(got);
		json_decref(v);
		json_decref(n);
	}
}

static void facts_per_model(void **state)
{
	json_t *rec = record("h", "p", json_pack("[o, o, o]",
		nic("mlx5_0", "ConnectX-7", "28.39.1002", 16, port(4096, NULL)),
		nic("mlx5_1", "ConnectX-7", "28.37.1014", 16, port(4096, NULL)),
		nic("mlx5_2", "BlueField-3", "32.43.1014", 16, port(4096, "pcp"))), NULL);
	json_t *f = fleet_facts(rec), *cx7, *bf3;

	(void)state;
	assert_int_equal(json_array_size(f), 2);
	bf3 = json_object_get(json_array_get(f, 0), "fields");
	cx7 = json_object_get(json_array_get(f, 1), "fields");
	assert_string_equal(json_string_value(json_object_get(json_array_get(f, 0), "nic_model")),
			    "BlueField-3");
	assert_string_equal(json_string_value(json_object_get(json_array_get(f, 0), "link_layer")),
			    "Ethernet");
	assert_string_equal(json_string_value(json_object_get(json_array_get(f, 1), "link_layer")),
			    "InfiniBand");
	/* the NICs of one model disagree: each NIC is a value of its own */
	assert_string_equal(json_string_value(json_object_get(cx7, "fw@mlx5_0")), "28.39.1002");
	assert_string_equal(json_string_value(json_object_get(cx7, "fw@mlx5_1")), "28.37.1014");
	assert_int_equal(json_integer_value(json_object_get(cx7, "mtu@mlx5_1 port 1")), 4096);
	assert_int_equal(json_integer_value(json_object_get(cx7, "pcie_width@mlx5_1")), 16);
	assert_int_equal(json_integer_value(json_object_get(cx7, "nic_count")), 2);
	assert_int_equal(json_integer_value(json_object_get(bf3, "nic_count")), 1);
	assert_string_equal(json_string_value(json_object_get(bf3, "trust@mlx5_2 port 1")), "pcp");
	assert_string_equal(json_string_value(json_object_get(cx7, "driver_stack")), "inbox");
	assert_null(json_object_get(cx7, "bw_gbps"));
	json_decref(f);
	json_decref(rec);
}

static json_t *bw(const char *role, size_t size, const char *dev, double gbps)
{
	return json_pack("{s:i, s:s, s:s, s:[{s:I, s:[{s:s, s:{s:f}}]}, {s:i, s:[{s:s, s:{s:f}}]}]}",
			 "schema", 1, "test", "bw", "role", role, "results",
			 "size_bytes", (json_int_t)size, "rails", "device", dev, "gbps", "avg", gbps,
			 "size_bytes", 4096, "rails", "device", dev, "gbps", "avg", 1.0);
}

static void facts_bandwidth(void **state)
{
	static const struct { double gbps; const char *want; } cases[] = {
		{ 394.9, "390" }, { 395.0, "400" }, { 97.3, "97" }, { 9.37, "9.4" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* the largest size counts; servers and other models' rails do not */
		json_t *rec = record("h", "p", json_pack("[o, o]",
			nic("mlx5_0", "ConnectX-7", "1", 16, port(4096, NULL)),
			nic("mlx5_1", "BlueField-3", "1", 16, port(4096, NULL))),
			json_pack("[o, o, o]", bw("client", 1 << 20, "mlx5_0", cases[i].gbps),
				  bw("server", 1 << 20, "mlx5_0", 5.0),
				  bw("client", 1 << 20, "mlx5_1", 2.0)));
		json_t *f = fleet_facts(rec);
		json_t *cx7 = json_object_get(json_array_get(f, 1), "fields");
		char *got = fleet_value_text(json_object_get(cx7, "bw_gbps"));

		assert_string_equal(got, cases[i].want);
		free(got);
		json_decref(f);
		json_decref(rec);
	}
}

/* fleet_diff_records over n hosts h0..; fw[i], mtu[i] per host. */
static json_t *diff_of(size_t n, const char *const *fw, const int *mtu)
{
	json_t *recs = json_array(), *d;

	for (size_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "h%zu", i);
		json_array_append_new(recs, one_nic_record(name, fw[i], mtu[i]));
	}
	d = fleet_diff_records(recs);
	json_decref(recs);
	return d;
}

static void diff_majority(void **state)
{
	const char *fw[] = { "2", "2", "1", "2", "2" };
	const int mtu[] = { 4096, 4096, 4096, 4096, 2048 };
	json_t *d = diff_of(5, fw, mtu), *g, *o;

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(d, "hosts")), 5);
	assert_int_equal(json_array_size(json_object_get(d, "groups")), 1);
	g = json_array_get(json_object_get(d, "groups"), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(g, "baseline"), "fw")), "2");
	assert_int_equal(fleet_diff_outliers(d), 2);
	o = json_array_get(json_object_get(g, "outliers"), 0);	/* by host: h2 then h4 */
	assert_string_equal(json_string_value(json_object_get(o, "host")), "h2");
	assert_string_equal(json_string_value(json_object_get(o, "field")), "fw");
	assert_string_equal(json_string_value(json_object_get(o, "value")), "1");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "shares"), "2")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "shares"), "1")), 1);
	o = json_array_get(json_object_get(g, "outliers"), 1);
	assert_string_equal(json_string_value(json_object_get(o, "host")), "h4");
	assert_int_equal(json_integer_value(json_object_get(o, "value")), 2048);
	assert_int_equal(json_integer_value(json_object_get(o, "baseline")), 4096);
	json_decref(d);
}

static void diff_ties(void **state)
{
	const char *fw[] = { "b", "a", "c", "c" };
	const int mtu[] = { 4096, 2048, 1024, 1024 };
	json_t *d = diff_of(2, fw, mtu), *g, *base, *hosts, *recs, *t;

	(void)state;
	/* one each: no majority, no baseline, no outlier, and it says so */
	g = json_array_get(json_object_get(d, "groups"), 0);
	base = json_object_get(g, "baseline");
	assert_null(json_object_get(base, "fw"));
	assert_null(json_object_get(base, "mtu"));
	assert_int_equal(fleet_diff_outliers(d), 0);
	assert_int_equal(json_array_size(json_object_get(g, "no_majority")), 2);
	t = json_array_get(json_object_get(g, "no_majority"), 0);
	assert_string_equal(json_string_value(json_object_get(t, "field")), "fw");
	assert_string_equal(json_string_value(json_object_get(t, "subject")), "mlx5_0");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(t, "shares"), "a")), 1);
	json_decref(d);
	/* null is a value like any other: a tie with it has no baseline
	 * either; a host without the field is not counted */
	hosts = parse("[{\"host\":\"x\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\","
		      "\"fields\":{\"trust\":null,\"bw_gbps\":390}}]},"
		      "{\"host\":\"y\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\","
		      "\"fields\":{\"trust\":\"pcp\"}}]}]");
	d = fleet_diff(hosts);
	g = json_array_get(json_object_get(d, "groups"), 0);
	base = json_object_get(g, "baseline");
	assert_null(json_object_get(base, "trust"));
	assert_int_equal(json_integer_value(json_object_get(base, "bw_gbps")), 390);
	assert_int_equal(fleet_diff_outliers(d), 0);
	json_decref(d);
	json_decref(hosts);
	/* no hosts: an empty document, not an error */
	recs = json_array();
	d = fleet_diff_records(recs);
	assert_int_equal(json_integer_value(json_object_get(d, "hosts")), 0);
	assert_int_equal(json_array_size(json_object_get(d, "groups")), 0);
	json_decref(d);
	json_decref(recs);
}

/* 7 NICs on 2 hosts, 8 on 2: no majority ("no majority: 7 on 2 hosts, 8
 * on 2"), not 7 for a baseline; rates are numbers, not text. */
static void diff_numbers(void **state)
{
	json_t *hosts = parse(
		"[{\"host\":\"a\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\",\"link_layer\":\"IB\","
		"\"fields\":{\"nic_count\":8,\"port_rate_gbps@n port 1\":400}}]},"
		"{\"host\":\"b\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\",\"link_layer\":\"IB\","
		"\"fields\":{\"nic_count\":7,\"port_rate_gbps@n port 1\":40}}]},"
		"{\"host\":\"c\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\",\"link_layer\":\"IB\","
		"\"fields\":{\"nic_count\":8,\"port_rate_gbps@n port 1\":200}}]},"
		"{\"host\":\"d\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\",\"link_layer\":\"IB\","
		"\"fields\":{\"nic_count\":7,\"port_rate_gbps@n port 1\":400}}]},"
		"{\"host\":\"e\",\"profile\":\"p\",\"facts\":[{\"nic_model\":\"m\",\"link_layer\":\"Ethernet\","
		"\"fields\":{\"nic_count\":1}}]}]");
	json_t *d = fleet_diff(hosts), *g, *t, *o;
	const char *k;
	json_t *v;
	char order[64] = "";
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* InfiniBand and Ethernet ports are never one group */
	assert_int_equal(json_array_size(json_object_get(d, "groups")), 2);
	g = json_array_get(json_object_get(d, "groups"), 1);
	assert_string_equal(json_string_value(json_object_get(g, "link_layer")), "IB");
	assert_int_equal(json_array_size(json_object_get(g, "no_majority")), 1);
	t = json_array_get(json_object_get(g, "no_majority"), 0);
	assert_string_equal(json_string_value(json_object_get(t, "field")), "nic_count");
	json_object_foreach(json_object_get(t, "shares"), k, v) {
		strcat(order, k);
		strcat(order, " ");
	}
	assert_string_equal(order, "7 8 ");
	/* the rate: 400 on 2 hosts is the baseline; the others follow in
	 * number order (40 before 200), not text order */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(g, "baseline"),
							    "port_rate_gbps")), 400);
	assert_int_equal(json_array_size(json_object_get(g, "outliers")), 2);
	o = json_array_get(json_object_get(g, "outliers"), 0);
	assert_string_equal(json_string_value(json_object_get(o, "host")), "b");
	assert_string_equal(json_string_value(json_object_get(o, "subject")), "n port 1");
	order[0] = '\0';
	json_object_foreach(json_object_get(o, "shares"), k, v) {
		strcat(order, k);
		strcat(order, " ");
	}
	assert_string_equal(order, "400 40 200 ");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	fleet_text_diff(f, d);
	fclose(f);
	assert_non_null(strstr(text, "no majority: nic_count: 7 on 2 hosts, 8 on 2\n"));
	assert_non_null(strstr(text, "p / m / IB: 4 hosts, 2 differ in 2 values\n"));
	assert_non_null(strstr(text, "\n2 hosts differ from their group's baseline"));
	free(text);
	json_decref(d);
	json_decref(hosts);
}

/* One host that differs in two fields is two outliers but one host: the
 * text says how many hosts differ, not how many fields. */
static void diff_counts_hosts(void **state)
{
	const char *fw[] = { "2", "2", "1" };
	const int mtu[] = { 4096, 4096, 2048 };
	json_t *d = diff_of(3, fw, mtu);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(fleet_diff_outliers(d), 2);
	assert_int_equal(fleet_diff_odd_hosts(d), 1);
	assert_int_equal(fleet_diff_group_odd_hosts(json_array_get(json_object_get(d, "groups"), 0)), 1);
	assert_non_null(f);
	fleet_text_diff(f, d);
	fclose(f);
	assert_non_null(strstr(text, ": 3 hosts, 1 differs in 2 values\n"));
	free(text);
	json_decref(d);
}

static void history(void **state)
{
	json_t *a = record("h", "p", json_pack("[o, o]",
		nic("mlx5_0", "ConnectX-7", "1.0", 16, port(4096, NULL)),
		nic("mlx5_1", "ConnectX-7", "1.0", 16, port(4096, NULL))), NULL);
	json_t *b = record("h", "p", json_pack("[o, o]",
		nic("mlx5_0", "ConnectX-7", "2.0", 16, port(2048, NULL)),
		nic("mlx5_2", "ConnectX-7", "1.0", 16, port(4096, NULL))), NULL);
	json_t *changes = json_array(), *c;
	size_t i;
	char seen[512] = "";

	(void)state;
	json_array_append_new(json_object_get(json_object_get(b, "check"), "findings"),
			      json_pack("{s:s, s:s}", "id", "port.down", "subject", "mlx5_2 port 1"));
	json_object_set_new(b, "verdict", json_string("fail"));
	assert_int_equal(fleet_changes(a, b, changes), 0);
	json_array_foreach(changes, i, c) {
		char *o = fleet_value_text(json_object_get(c, "old"));
		char *n = fleet_value_text(json_object_get(c, "new"));
		size_t used = strlen(seen);

		snprintf(seen + used, sizeof(seen) - used, "%s %s %s>%s;",
			 json_string_value(json_object_get(c, "subject")),
			 json_string_value(json_object_get(c, "field")), o, n);
		free(o);
		free(n);
	}
	assert_string_equal(seen, "host verdict pass>fail;"
			    "mlx5_1 nic ConnectX-7>null;"
			    "mlx5_0 fw 1.0>2.0;"
			    "mlx5_0 port 1 mtu 4096>2048;"
			    "mlx5_2 nic null>ConnectX-7;"
			    "mlx5_2 port 1 finding null>port.down;");
	json_decref(changes);
	changes = json_array();
	assert_int_equal(fleet_changes(a, a, changes), 0);
	assert_int_equal(json_array_size(changes), 0);
	json_decref(changes);
	json_decref(a);
	json_decref(b);
}

/* A port that went away or appeared on a NIC kept is history too. */
static void history_ports(void **state)
{
	json_t *p2 = port(4096, NULL), *n, *a, *b, *changes = json_array(), *c;

	(void)state;
	json_object_set_new(p2, "port", json_integer(2));
	n = nic("mlx5_0", "ConnectX-7", "1.0", 16, port(4096, NULL));
	json_array_append_new(json_object_get(n, "ports"), p2);
	a = record("h", "p", json_pack("[o]", n), NULL);
	b = record("h", "p", json_pack("[o]", nic("mlx5_0", "ConnectX-7", "1.0", 16,
						 port(4096, NULL))), NULL);
	assert_int_equal(fleet_changes(a, b, changes), 0);
	assert_int_equal(json_array_size(changes), 1);
	c = json_array_get(changes, 0);
	assert_string_equal(json_string_value(json_object_get(c, "subject")), "mlx5_0 port 2");
	assert_string_equal(json_string_value(json_object_get(c, "field")), "port");
	assert_string_equal(json_string_value(json_object_get(c, "old")), "ACTIVE");
	assert_true(json_is_null(json_object_get(c, "new")));
	json_decref(changes);
	changes = json_array();
	assert_int_equal(fleet_changes(b, a, changes), 0);
	assert_int_equal(json_array_size(changes), 1);
	c = json_array_get(changes, 0);
	assert_true(json_is_null(json_object_get(c, "old")));
	assert_string_equal(json_string_value(json_object_get(c, "new")), "ACTIVE");
	json_decref(changes);
	/* a NIC without a model that went away is named, not null to null */
	json_object_del(json_array_get(json_object_get(json_object_get(json_object_get(
		a, "check"), "inventory"), "nics"), 0), "model");
	json_array_clear(json_object_get(json_object_get(json_object_get(b, "check"),
							 "inventory"), "nics"));
	changes = json_array();
	assert_int_equal(fleet_changes(a, b, changes), 0);
	assert_int_equal(json_array_size(changes), 1);
	c = json_array_get(changes, 0);
	assert_string_equal(json_string_value(json_object_get(c, "field")), "nic");
	assert_string_equal(json_string_value(json_object_get(c, "old")), "mlx5_0");
	json_decref(changes);
	json_decref(a);
	json_decref(b);
}

/* record --from reads files a chunk at a time; a chunk stops taking files
 * once their text reaches the budget, so files of up to 64 MiB each
 * cannot pile up a chunk's worth in memory. */
static void read_files_budget(void **state)
{
	enum { N = 20 };
	char dir[] = "/tmp/rd-read-XXXXXX", *paths[N];
	const char *files[N];
	struct record_slot *slots = calloc(N, sizeof(*slots));
	size_t done = 0;

	(void)state;
	assert_non_null(slots);
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < N; i++) {
		char host[16];
		json_t *r;

		snprintf(host, sizeof(host), "h%d", i);
		r = one_nic_record(host, "1", 4096);
		assert_true(asprintf(&paths[i], "%s/%d.json", dir, i) > 0);
		assert_int_equal(json_dump_file(r, paths[i], 0), 0);
		json_decref(r);
		files[i] = paths[i];
	}
	/* a budget of one byte: each reader thread takes one file at most */
	assert_int_equal(record_read_files(files, N, N, NULL, 1, slots, &done), 0);
	assert_true(done >= 1 && done <= 8 && done < N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(slots[i].ok, i < done);
		store_row_free(&slots[i].row);
	}
	memset(slots, 0, N * sizeof(*slots));
	/* a budget that holds them all: all read */
	assert_int_equal(record_read_files(files, N, N, NULL, 1u << 30, slots, &done), 0);
	assert_int_equal(done, N);
	for (size_t i = 0; i < N; i++) {
		assert_true(slots[i].ok);
		store_row_free(&slots[i].row);
		unlink(paths[i]);
		free(paths[i]);
	}
	rmdir(dir);
	free(slots);
}

static void times(void **state)
{
	char buf[FLEET_TIME_LEN];

	(void)state;
	assert_true(fleet_time_valid("2026-11-30T07:00:00Z"));
	assert_false(fleet_time_valid("2026-11-30T07:00:00"));
	assert_false(fleet_time_valid("2026-11-30 07:00:00Z"));
	assert_false(fleet_time_valid("2026-13-30T07:00:00Z"));
	assert_false(fleet_time_valid("2026-11-30T24:00:00Z"));
	assert_false(fleet_time_valid("2026-11-30T07:00:00Z "));
	assert_false(fleet_time_valid(NULL));
	assert_true(fleet_time_format(0, buf));
	assert_string_equal(buf, "1970-01-01T00:00:00Z");
}

static void check_problems(void **state)
{
	static const struct { const char *doc, *says; } cases[] = {
		{ "[1]", "not a JSON object" },
		{ "{\"schema\":1,\"host\":{},\"nics\":[]}", "inventory document" },
		{ "{\"schema\":1,\"test\":\"bw\"}", "bw --json" },
		{ "{\"schema\":2,\"verdict\":\"pass\",\"findings\":[],\"inventory\":{}}", "schema 2" },
		{ "{\"schema\":1,\"verdict\":\"pass\",\"profile\":\"p\",\"findings\":[],"
		  "\"inventory\":{\"host\":{},\"nics\":[]}}", "host name" },
		{ "{\"schema\":1,\"verdict\":\"pass\",\"profile\":null,\"findings\":[],\"inventory\":{\"host\":"
		  "{\"hostname\":\"a\\u001bb\"},\"nics\":[]}}", "control characters" },
		{ "{\"schema\":1,\"verdict\":\"pass\",\"profile\":\"p\",\"findings\":[7],"
		  "\"inventory\":{}}", "finding 0" },
		{ "{\"schema\":1,\"verdict\":\"pass\",\"profile\":7,\"findings\":[],"
		  "\"inventory\":{}}", "profile" },
		{ "{\"schema\":1,\"findings\":[],\"inventory\":{}}", "verdict" },
		{ "{\"a\":1}", "not a check document" },
	};
	char why[300];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *d = parse(cases[i].doc);

		why[0] = '\0';
		assert_int_equal(fleet_check_problem(d, why, sizeof(why)), -1);
		if (!strstr(why, cases[i].says))
			fail_msg("case %zu: '%s' does not say '%s'", i, why, cases[i].says);
		json_decref(d);
	}
}

static void records_from_docs(void **state)
{
	json_t *r = one_nic_record("h", "1", 4096), *check, *rec, *back;
	char why[300], *text, *check_text, *live, spliced_fp[65], live_fp[65];

	(void)state;
	/* a check document is wrapped with the time given */
	check = json_incref(json_object_get(r, "check"));
	rec = fleet_record_from_doc(check, "2026-01-02T03:04:05Z", why, sizeof(why));
	assert_non_null(rec);
	assert_string_equal(json_string_value(json_object_get(rec, "time")), "2026-01-02T03:04:05Z");
	assert_string_equal(json_string_value(json_object_get(rec, "host")), "h");
	/* its text, the check spliced in as it came, is the same document */
	check_text = json_dumps(json_object_get(rec, "check"), JSON_INDENT(2));
	text = fleet_record_text(rec, check_text, strlen(check_text));
	back = parse(text);
	assert_true(json_equal(back, rec));
	json_decref(back);
	/* and one content with the record `record` makes live (compact, the
	 * check before bw): the store takes the second for a seen time */
	live = json_dumps(rec, JSON_COMPACT);
	assert_int_equal(store_row_content(text, spliced_fp), 0);
	assert_int_equal(store_row_content(live, live_fp), 0);
	assert_string_equal(spliced_fp, live_fp);
	free(live);
	free(text);
	free(check_text);
	json_decref(rec);
	/* a record keeps its own time; its verdict is its check's */
	json_object_set_new(r, "verdict", json_string("warn"));
	assert_false(fleet_record_is_final(r));
	rec = fleet_record_from_doc(json_incref(r), "2000-01-01T00:00:00Z", why, sizeof(why));
	assert_non_null(rec);
	assert_string_equal(json_string_value(json_object_get(rec, "time")), "2026-11-30T07:00:00Z");
	assert_string_equal(json_string_value(json_object_get(rec, "verdict")), "pass");
	assert_true(fleet_record_is_final(rec));
	json_decref(rec);
	/* a bad time, a bad bw list */
	json_object_set_new(r, "time", json_string("yesterday"));
	assert_null(fleet_record_from_doc(json_incref(r), "2000-01-01T00:00:00Z", why, sizeof(why)));
	assert_non_null(strstr(why, "time"));
	json_object_set_new(r, "time", json_string("2026-11-30T07:00:00Z"));
	json_object_set_new(r, "bw", json_pack("[{s:s}]", "test", "lat"));
	assert_null(fleet_record_from_doc(json_incref(r), "2000-01-01T00:00:00Z", why, sizeof(why)));
	assert_non_null(strstr(why, "bw document 0"));
	json_decref(r);
}

/* fleet_skim and jansson agree on every text. */
static void agree(const char *text, size_t len)
{
	json_error_t e;
	json_t *j = json_loadb(text, len, 0, &e);
	char *slim, why[200];
	size_t slim_len;
	int rc = fleet_skim(text, len, NULL, &slim, &slim_len, why, sizeof(why));

	if ((rc == 0) != (j != NULL))
		fail_msg("'%.*s': skim %s, jansson %s", (int)(len > 80 ? 80 : len), text,
			 rc == 0 ? "takes it" : why, j ? "takes it" : e.text);
	if (rc == 0) {
		json_t *k = json_loadb(slim, slim_len, 0, NULL);

		assert_true(json_equal(j, k));
		json_decref(k);
		free(slim);
	}
	json_decref(j);
}

static void skim_agrees_with_jansson(void **state)
{
	static const char *const texts[] = {
		"{}", "[]", " [1, 2.5, -0, 1e5, -1E-5, true, false, null, \"x\"] ", "{\"a\":{\"b\":[]}}",
		"", " ", "1", "\"x\"", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{,}", "{\"a\":1,}",
		"[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[-]", "[1x]", "[tru]", "[truex]", "[nul]",
		"[9223372036854775807]", "[9223372036854775808]", "[-9223372036854775808]",
		"[-9223372036854775809]", "[1e308]", "[1e309]", "[-1e309]", "[1e-400]",
		"[123456789012345678901234567890.5]",
		"[\"\\u00e9\\ud83d\\ude00\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]",
		"[\"\\u0000\"]", "[\"\\x\"]", "[\"\\u12\"]", "[\"a\tb\"]", "[\"\xc3\xa9\"]",
		"[\"\xc0\xaf\"]", "[\"\xe0\x80\xaf\"]", "[\"\xed\xa0\x80\"]", "[\"\xf4\x90\x80\x80\"]",
		"[\"\xf0\x9f\x98\x80\"]", "[\"\x80\"]", "[\"abc", "{\"a\":1} x", "{\"a\":1}\n\t ",
		"[1] [2]", "\xef\xbb\xbf{}", "[\"a\"\"b\"]",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		agree(texts[i], strlen(texts[i]));
	/* nesting at jansson's limit and one past it */
	for (int depth = 2047; depth <= 2049; depth++) {
		char *t = malloc((size_t)depth * 2);

		memset(t, '[', (size_t)depth);
		memset(t + depth, ']', (size_t)depth);
		agree(t, (size_t)depth * 2);
		free(t);
	}
}

static void skim_drops(void **state)
{
	const char *text = "{\"nics\":[{\"name\":\"m\",\"counters\":{\"a\":1,\"counters\":[2]},"
			   "\"ports\":[{\"hw_counters\":{\"x\":[1,{\"y\":2}]},\"mtu\":4096}]}],"
			   "\"gpus\": [1,2] ,\"keep\":\"counters\"}";
	char *slim, why[200];
	size_t len;
	json_t *got, *want;
	/* the mechanics of dropping, on a list of its own */
	static const char *const drop[] = { "counters", "hw_counters", "gpus", "lid", "why", NULL };

	(void)state;
	assert_int_equal(fleet_skim(text, strlen(text), drop, &slim, &len, why,
				    sizeof(why)), 0);
	got = parse(slim);
	want = parse("{\"nics\":[{\"name\":\"m\",\"ports\":[{\"mtu\":4096}]}],"
		     "\"keep\":\"counters\"}");
	assert_true(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	free(slim);
	/* first, last, every member dropped: the commas stay right */
	text = "[{\"gpus\":1,\"a\":2},{\"a\":1, \"gpus\" : [3] },{\"gpus\":1,\"lid\":2},"
	       "{\"gpus\":1,\"lid\":2,\"a\":3,\"why\":4,\"b\":5}]";
	assert_int_equal(fleet_skim(text, strlen(text), drop, &slim, &len, why,
				    sizeof(why)), 0);
	got = parse(slim);
	want = parse("[{\"a\":2},{\"a\":1},{},{\"a\":3,\"b\":5}]");
	assert_true(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	free(slim);
	/* the whole text is checked, dropped values too */
	text = "{\"counters\":{\"a\":01}}";
	assert_int_equal(fleet_skim(text, strlen(text), drop, &slim, &len, why,
				    sizeof(why)), -1);
	assert_non_null(strstr(why, "line 1 column 19"));
	/* a NUL byte, which jansson takes after a number */
	assert_int_equal(fleet_skim("[92\0]", 5, NULL, &slim, &len, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "NUL"));
	text = "{\n\"a\":[1,\n";
	assert_int_equal(fleet_skim(text, strlen(text), drop, &slim, &len, why,
				    sizeof(why)), -1);
	assert_non_null(strstr(why, "premature end"));
}


/* A fabric report: checked, and who its suspects are (a pair names both
 * of its nodes, split where both halves are nodes). */
static void fabric_suspects(void **state)
{
	json_t *doc = parse("{\"schema\":1,\"test\":\"fabric\",\"nodes\":[{\"name\":\"a-1\"},"
			    "{\"name\":\"a-1-b\"},{\"name\":\"b\"}],\"pairs\":[{\"a\":\"a-1\",\"b\":\"b\","
			    "\"rail\":0,\"gbps\":{\"a_to_b\":1,\"b_to_a\":2}}],\"suspects\":["
			    "{\"kind\":\"pair\",\"subject\":\"a-1-b\",\"rail\":0,\"reason\":\"slow\"},"
			    "{\"kind\":\"node\",\"subject\":\"b\",\"reason\":\"r\"}],\"verdict\":\"fail\"}");
	json_t *sum, *bad;
	char why[200];

	(void)state;
	assert_int_equal(fleet_fabric_problem(doc, why, sizeof(why)), 0);
	assert_true(fleet_fabric_names(doc, "a-1-b"));
	assert_false(fleet_fabric_names(doc, "c"));
	sum = fleet_fabric_summary(doc, "2026-11-30T07:00:00Z");
	assert_int_equal(json_array_size(json_object_get(sum, "suspects")), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(sum, "suspects"), 0), "host")), "a-1");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(sum, "suspects"), 1), "host")), "b");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
		json_object_get(sum, "suspects"), 1), "rail")), 0);
	json_decref(sum);
	bad = parse("{\"schema\":1,\"test\":\"fabric\",\"nodes\":[],\"pairs\":[],\"suspects\":"
		    "[{\"kind\":\"switch\",\"subject\":\"x\"}],\"verdict\":\"fail\"}");
	assert_int_equal(fleet_fabric_problem(bad, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "node, rail or pair"));
	json_decref(bad);
	bad = parse("{\"schema\":1,\"test\":\"bw\"}");
	assert_int_equal(fleet_fabric_problem(bad, why, sizeof(why)), -1);
	json_decref(bad);
	json_decref(doc);
}


/* Hosts alike share one facts object (as the store gives them): each is
 * still counted, and each host of an odd variant is its own outlier. */
static void diff_shared_facts(void **state)
{
	json_t *common = parse("[{\"nic_model\":\"m\",\"link_layer\":\"IB\",\"fields\":"
			       "{\"fw@n\":\"2\",\"nic_count\":1}}]");
	json_t *odd = parse("[{\"nic_model\":\"m\",\"link_layer\":\"IB\",\"fields\":"
			    "{\"fw@n\":\"1\",\"nic_count\":1}}]");
	json_t *hosts = json_pack("[{s:s, s:s, s:O}, {s:s, s:s, s:O}, {s:s, s:s, s:O},"
				  " {s:s, s:s, s:O}, {s:s, s:s, s:O}]",
				  "host", "a", "profile", "p", "facts", common,
				  "host", "b", "profile", "p", "facts", odd,
				  "host", "c", "profile", "p", "facts", common,
				  "host", "d", "profile", "p", "facts", common,
				  "host", "e", "profile", "p", "facts", odd);
	json_t *d = fleet_diff(hosts), *g, *o;

	(void)state;
	g = json_array_get(json_object_get(d, "groups"), 0);
	assert_int_equal(json_array_size(json_object_get(g, "hosts")), 5);
	assert_int_equal(json_array_size(json_object_get(g, "outliers")), 2);
	o = json_array_get(json_object_get(g, "outliers"), 0);
	assert_string_equal(json_string_value(json_object_get(o, "host")), "b");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "shares"), "2")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "shares"), "1")), 2);
	o = json_array_get(json_object_get(g, "outliers"), 1);
	assert_string_equal(json_string_value(json_object_get(o, "host")), "e");
	assert_int_equal(json_integer_value(json_object_get(d, "hosts_differ")), 2);
	json_decref(d);
	json_decref(hosts);
	json_decref(common);
	json_decref(odd);
}

/* ---- Ascend NPUs: records made from the Atlas fixtures' check documents ---- */

/* The `check --json` of a fixture machine (tests/fixtures/SHAPE/expected). */
static json_t *atlas_check(const char *shape)
{
	const char *dir = getenv("RD_FIXTURES");
	char path[4096];
	json_error_t e;
	json_t *doc;

	if (!dir)
		fail_msg("RD_FIXTURES is not set (ctest sets it to tests/fixtures)");
	snprintf(path, sizeof(path), "%s/%s/expected/check.json", dir, shape);
	doc = json_load_file(path, 0, &e);
	if (!doc)
		fail_msg("%s: %s", path, e.text);
	return doc;
}

static json_t *npu_of(json_t *check, int id)
{
	return json_array_get(json_object_get(json_object_get(json_object_get(check, "inventory"),
							      "npus"), "devices"), (size_t)id);
}

static json_t *atlas_record(json_t *check, const char *host)
{
	json_object_set_new(json_object_get(json_object_get(check, "inventory"), "host"),
			    "hostname", json_string(host));
	return fleet_record_new(check, "2026-11-30T07:00:00Z", NULL);
}

static void npu_values(void **state)
{
	json_t *check = atlas_check("atlas-800-9000-broken"), *v;

	(void)state;
	v = fleet_npu_values(npu_of(check, 0));
	assert_string_equal(json_string_value(json_object_get(v, "fw")), "6.4.12.1.241");
	assert_string_equal(json_string_value(json_object_get(v, "npu_driver")), "23.0.rc2");
	assert_string_equal(json_string_value(json_object_get(v, "port_state")), "UP");
	assert_true(json_is_integer(json_object_get(v, "port_rate_gbps")));
	assert_int_equal(json_integer_value(json_object_get(v, "port_rate_gbps")), 100);
	assert_string_equal(json_string_value(json_object_get(v, "pfc_priority")), "4");
	assert_int_equal(json_integer_value(json_object_get(v, "pcie_gen")), 4);
	json_decref(v);
	/* npu1 is down: its state is the drift, it has no speed */
	v = fleet_npu_values(npu_of(check, 1));
	assert_string_equal(json_string_value(json_object_get(v, "port_state")), "DOWN");
	assert_null(json_object_get(v, "port_rate_gbps"));
	json_decref(v);
	/* a PFC bit not read is not "none" */
	json_array_set_new(json_object_get(json_object_get(npu_of(check, 2), "port"),
					   "pfc_enabled"), 0, json_null());
	v = fleet_npu_values(npu_of(check, 2));
	assert_true(json_is_null(json_object_get(v, "pfc_priority")));
	json_decref(v);
	/* no port read: the state is unknown and nothing else of the port said */
	json_object_set_new(npu_of(check, 3), "port", json_null());
	v = fleet_npu_values(npu_of(check, 3));
	assert_true(json_is_null(json_object_get(v, "port_state")));
	assert_null(json_object_get(v, "pfc_priority"));
	assert_non_null(json_object_get(v, "fw"));
	json_decref(v);
	json_decref(check);
}

/* An odd host's outlier of FIELD on SUBJECT, or NULL. */
static const json_t *outlier(const json_t *group, const char *host, const char *field,
			     const char *subject)
{
	size_t i;
	json_t *o;

	json_array_foreach(json_object_get(group, "outliers"), i, o)
		if (!strcmp(json_string_value(json_object_get(o, "host")), host) &&
		    !strcmp(json_string_value(json_object_get(o, "field")), field) &&
		    json_is_string(json_object_get(o, "subject")) &&
		    !strcmp(json_string_value(json_object_get(o, "subject")), subject))
			return o;
	return NULL;
}

static void diff_npus(void **state)
{
	json_t *recs = json_array(), *d, *g, *facts, *c, *o;
	const char *healthy[] = { "atlas-a-01", "atlas-a-02", "atlas-a-03", "atlas-odd" };
	size_t i, k;

	(void)state;
	for (i = 0; i < 4; i++) {
		c = atlas_check("atlas-800-9000");
		if (i == 3) {	/* one host: npu5 other firmware and 25G, npu6 PFC on 3 */
			json_t *p6 = json_object_get(npu_of(c, 6), "port");

			json_object_set_new(npu_of(c, 5), "firmware", json_string("6.4.10.1.100"));
			json_object_set_new(json_object_get(npu_of(c, 5), "port"), "speed_mbps",
					    json_integer(25000));
			json_array_set_new(json_object_get(p6, "pfc_enabled"), 3, json_true());
			json_array_set_new(json_object_get(p6, "pfc_enabled"), 4, json_false());
		}
		json_array_append_new(recs, atlas_record(c, healthy[i]));
	}
	/* the broken fixture: npu1 down, npu3 at 25G */
	json_array_append_new(recs, atlas_record(atlas_check("atlas-800-9000-broken"), "atlas-b"));
	facts = fleet_facts(json_array_get(recs, 0));
	assert_int_equal(json_array_size(facts), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(facts, 0), "nic_model")),
			    "Ascend 910");
	assert_string_equal(json_string_value(json_object_get(json_array_get(facts, 0), "link_layer")),
			    FLEET_NPU_LINK_LAYER);
	json_decref(facts);

	d = fleet_diff_records(recs);
	assert_int_equal(json_array_size(json_object_get(d, "groups")), 1);
	g = json_array_get(json_object_get(d, "groups"), 0);
	assert_string_equal(json_string_value(json_object_get(g, "profile")), "atlas-800-9000");
	assert_int_equal(json_array_size(json_object_get(g, "hosts")), 5);
	assert_int_equal(json_integer_value(json_object_get(g, "hosts_differ")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(g, "baseline"),
							    "port_rate_gbps")), 100);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(g, "baseline"),
							    "npu_count")), 8);
	o = (json_t *)outlier(g, "atlas-odd", "fw", "npu5");
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "value")), "6.4.10.1.100");
	assert_string_equal(json_string_value(json_object_get(o, "baseline")), "6.4.12.1.241");
	o = (json_t *)outlier(g, "atlas-odd", "port_rate_gbps", "npu5");
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "value")), 25);
	o = (json_t *)outlier(g, "atlas-odd", "pfc_priority", "npu6");
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "value")), "3");
	assert_string_equal(json_string_value(json_object_get(o, "baseline")), "4");
	assert_non_null(outlier(g, "atlas-b", "port_state", "npu1"));
	assert_non_null(outlier(g, "atlas-b", "port_rate_gbps", "npu3"));
	/* a port that is down gives no speed to differ in */
	assert_null(outlier(g, "atlas-b", "port_rate_gbps", "npu1"));
	/* those five values and nothing else: the healthy hosts are not named */
	assert_int_equal(json_array_size(json_object_get(g, "outliers")), 5);
	for (i = 0; i < 3; i++)
		json_array_foreach(json_object_get(g, "outliers"), k, o)
			assert_string_not_equal(json_string_value(json_object_get(o, "host")),
						healthy[i]);
	json_decref(d);
	json_decref(recs);
}

/* `fleet show`: an NPU's firmware and speed changes, an NPU gone. */
static void history_npus(void **state)
{
	json_t *a = atlas_record(atlas_check("atlas-800-9000"), "atlas-a");
	json_t *c = atlas_check("atlas-800-9000"), *b, *changes = json_array(), *ch;
	json_t *devs = json_object_get(json_object_get(json_object_get(c, "inventory"), "npus"),
				       "devices");
	size_t i;
	bool fw = false, rate = false, gone = false;

	(void)state;
	json_object_set_new(npu_of(c, 3), "firmware", json_string("6.4.10.1.100"));
	json_object_set_new(json_object_get(npu_of(c, 3), "port"), "speed_mbps", json_integer(25000));
	json_array_remove(devs, 7);
	b = atlas_record(c, "atlas-a");
	assert_int_equal(fleet_changes(a, b, changes), 0);
	json_array_foreach(changes, i, ch) {
		const char *subj = json_string_value(json_object_get(ch, "subject"));
		const char *field = json_string_value(json_object_get(ch, "field"));

		fw |= !strcmp(subj, "npu3") && !strcmp(field, "fw") &&
		      !strcmp(json_string_value(json_object_get(ch, "new")), "6.4.10.1.100");
		rate |= !strcmp(subj, "npu3") && !strcmp(field, "port_rate_gbps") &&
			json_integer_value(json_object_get(ch, "old")) == 100 &&
			json_integer_value(json_object_get(ch, "new")) == 25;
		gone |= !strcmp(subj, "npu7") && !strcmp(field, "npu") &&
			json_is_null(json_object_get(ch, "new"));
	}
	assert_true(fw && rate && gone);
	assert_int_equal(json_array_size(changes), 3);
	json_decref(changes);
	json_decref(a);
	json_decref(b);
}

/* The skim keeps every NPU value the diff reads. */
static void skim_keeps_npus(void **state)
{
	json_t *c = atlas_check("atlas-800-9000-broken"), *rec, *slim_doc, *slim_rec, *a, *b;
	char *text = json_dumps(c, JSON_COMPACT), *slim, why[200];
	size_t len;

	(void)state;
	assert_non_null(text);
	assert_int_equal(fleet_skim(text, strlen(text), fleet_skim_drop, &slim, &len, why,
				    sizeof(why)), 0);
	assert_true(len < strlen(text));
	/* the bulk of an NPU port goes, what the diff reads stays */
	assert_null(strstr(slim, "\"roce_rx_rc_pkt_num\""));
	assert_null(strstr(slim, "\"rx_power_mw\""));
	slim_doc = parse(slim);
	rec = fleet_record_new(c, "2026-11-30T07:00:00Z", NULL);
	slim_rec = fleet_record_new(slim_doc, "2026-11-30T07:00:00Z", NULL);
	a = fleet_facts(rec);
	b = fleet_facts(slim_rec);
	assert_true(json_equal(a, b));
	assert_non_null(json_object_get(json_object_get(json_array_get(b, 0), "fields"),
					"port_rate_gbps@npu0"));
	json_decref(a);
	json_decref(b);
	json_decref(rec);
	json_decref(slim_rec);
	free(slim);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(port_values),
		cmocka_unit_test(pcie_gen),
		cmocka_unit_test(facts_per_model),
		cmocka_unit_test(facts_bandwidth),
		cmocka_unit_test(diff_majority),
		cmocka_unit_test(diff_ties),
		cmocka_unit_test(diff_numbers),
		cmocka_unit_test(fabric_suspects),
		cmocka_unit_test(diff_shared_facts),
		cmocka_unit_test(diff_counts_hosts),
		cmocka_unit_test(history),
		cmocka_unit_test(history_ports),
		cmocka_unit_test(read_files_budget),
		cmocka_unit_test(times),
		cmocka_unit_test(check_problems),
		cmocka_unit_test(records_from_docs),
		cmocka_unit_test(skim_agrees_with_jansson),
		cmocka_unit_test(skim_drops),
		cmocka_unit_test(npu_values),
		cmocka_unit_test(diff_npus),
		cmocka_unit_test(history_npus),
		cmocka_unit_test(skim_keeps_npus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
