/* lldpcli's JSON (sysfs/lldp_parse.c) on real output: lldpd 1.0.16
 * recorded here in network namespaces, checked against lldpcli's own
 * keyvalue rendering of the same neighbours (the oracle), its json0 form
 * of the same, and output published with other tools
 * (tests/fixtures/lldp/README.md); malformed and short input gives no
 * facts and says why. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/neighbor.h"
#include "sysfs/lldp_parse.h"

static char *slurp(const char *name, size_t *len)
{
	const char *dir = getenv("RD_FIXTURES");
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/lldp/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void parse_file(const char *name, struct lldp_table *t)
{
	size_t len;
	char *text = slurp(name, &len), *err = NULL;
	int rc = lldp_parse(text, len, t, &err);

	if (rc != 0)
		fail_msg("%s: %d %s", name, rc, err ? err : "");
	assert_null(err);
	free(text);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void assert_neighbor(const struct lldp_table *t, const char *ifname, const char *system,
			    const char *port, const char *chassis_id)
{
	const struct lldp_entry *e = lldp_table_find(t, ifname);

	if (!e)
		fail_msg("no entry for %s", ifname);
	assert_int_equal(e->heard, 1);
	assert_non_null(e->neighbor);
	assert_null(e->why);
	if (!same_str(e->neighbor->system, system) || !same_str(e->neighbor->port, port) ||
	    !same_str(e->neighbor->chassis_id, chassis_id))
		fail_msg("%s: got %s/%s/%s", ifname, e->neighbor->system ? e->neighbor->system : "-",
			 e->neighbor->port ? e->neighbor->port : "-",
			 e->neighbor->chassis_id ? e->neighbor->chassis_id : "-");
	assert_string_equal(e->neighbor->source, NEIGHBOR_SOURCE_LLDPD);
}

/* ---- the oracle: `lldpcli -f keyvalue show neighbors` ------------------ */

/* The id subtypes lldpd writes (its chassis_id_subtype_map and
 * port_id_subtype_map): the keyvalue form names the id by its type. */
static bool is_id_type(const char *k)
{
	static const char *const types[] = { "mac", "ip", "ifname", "ifalias", "local",
					     "unhandled", NULL };

	for (size_t i = 0; types[i]; i++)
		if (strcmp(k, types[i]) == 0)
			return true;
	return false;
}

struct kv_neighbor {
	char ifname[256], system[256], chassis_id[256], port_type[256], port_id[256], descr[256];
};

/* Each neighbour starts at its "lldp.IF.via=" line. */
static size_t kv_parse(const char *text, struct kv_neighbor *v, size_t max)
{
	size_t n = 0;

	for (const char *l = text; *l;) {
		const char *eol = strchr(l, '\n'), *eq = strchr(l, '=');
		char key[256], val[256], *field, *dot;
		size_t kl, vl;

		if (!eol)
			eol = l + strlen(l);
		assert_true(eq && eq < eol && strncmp(l, "lldp.", 5) == 0);
		kl = (size_t)(eq - l - 5);
		vl = (size_t)(eol - eq - 1);
		assert_true(kl < sizeof(key) && vl < sizeof(val));
		memcpy(key, l + 5, kl);
		key[kl] = '\0';
		memcpy(val, eq + 1, vl);
		val[vl] = '\0';
		dot = strchr(key, '.');
		assert_non_null(dot);
		*dot = '\0';
		field = dot + 1;
		if (strcmp(field, "via") == 0) {
			assert_true(n < max);
			memset(&v[n], 0, sizeof(v[n]));
			snprintf(v[n++].ifname, sizeof(v[0].ifname), "%s", key);
		}
		assert_true(n > 0);
		if (strcmp(field, "chassis.name") == 0)
			snprintf(v[n - 1].system, sizeof(v[0].system), "%s", val);
		else if (strncmp(field, "chassis.", 8) == 0 && is_id_type(field + 8))
			snprintf(v[n - 1].chassis_id, sizeof(v[0].chassis_id), "%s", val);
		else if (strcmp(field, "port.descr") == 0)
			snprintf(v[n - 1].descr, sizeof(v[0].descr), "%s", val);
		else if (strncmp(field, "port.", 5) == 0 && is_id_type(field + 5)) {
			snprintf(v[n - 1].port_type, sizeof(v[0].port_type), "%s", field + 5);
			snprintf(v[n - 1].port_id, sizeof(v[0].port_id), "%s", val);
		}
		l = *eol ? eol + 1 : eol;
	}
	return n;
}

static const char *or_null(const char *s)
{
	return *s ? s : NULL;
}

/* The port as model/neighbor.h defines it, from the keyvalue fields. */
static const char *kv_port(const struct kv_neighbor *k)
{
	if (*k->port_id && (strcmp(k->port_type, "ifname") == 0 || strcmp(k->port_type, "local") == 0))
		return k->port_id;
	return *k->descr ? k->descr : or_null(k->port_id);
}

static void check_against_kv(const char *json, const char *kvname)
{
	struct kv_neighbor kv[8];
	struct lldp_table t;
	size_t len, n;
	char *text = slurp(kvname, &len);

	n = kv_parse(text, kv, 8);
	free(text);
	assert_true(n > 0);
	parse_file(json, &t);
	for (size_t i = 0; i < n; i++) {
		size_t count = 0;

		for (size_t j = 0; j < n; j++)
			count += strcmp(kv[j].ifname, kv[i].ifname) == 0;
		if (count == 1) {
			assert_neighbor(&t, kv[i].ifname, or_null(kv[i].system), kv_port(&kv[i]),
					or_null(kv[i].chassis_id));
		} else {
			const struct lldp_entry *e = lldp_table_find(&t, kv[i].ifname);
			char want[600];

			assert_non_null(e);
			assert_null(e->neighbor);
			assert_int_equal(e->heard, count);
			snprintf(want, sizeof(want), "%s port %s", kv[i].system, kv_port(&kv[i]));
			if (!strstr(e->why, want))
				fail_msg("\"%s\" does not name \"%s\"", e->why, want);
		}
	}
	/* nothing the keyvalue form does not list */
	for (size_t i = 0; i < t.n; i++) {
		bool found = false;

		for (size_t j = 0; j < n; j++)
			found |= strcmp(kv[j].ifname, t.v[i].ifname) == 0;
		assert_true(found);
	}
	lldp_table_free(&t);
}

static void two_ports_match_keyvalue(void **state)
{
	struct lldp_table t;

	(void)state;
	check_against_kv("lldpd-1.0.16-two-ports.json", "lldpd-1.0.16-two-ports.kv");
	/* port id type mac: the switch port is the description */
	parse_file("lldpd-1.0.16-two-ports.json", &t);
	assert_int_equal(t.n, 2);
	assert_neighbor(&t, "r0", "leaf-r0", "Ethernet1", "52:c3:40:da:bd:84");
	assert_neighbor(&t, "r1", "leaf-r0", "Ethernet2", "52:c3:40:da:bd:84");
	lldp_table_free(&t);
}

static void shared_segment_matches_keyvalue(void **state)
{
	struct lldp_table t;

	(void)state;
	check_against_kv("lldpd-1.0.16-shared-segment.json", "lldpd-1.0.16-shared-segment.kv");
	parse_file("lldpd-1.0.16-shared-segment.json", &t);
	assert_int_equal(t.n, 1);
	assert_null(t.v[0].neighbor);
	assert_string_equal(t.v[0].why, "lldpd heard 2 LLDP neighbours on r0, so its switch port "
			    "is not known: leaf-a port Ethernet3, leaf-b port Ethernet4");
	lldp_table_free(&t);
}

static void json0_same_as_json(void **state)
{
	static const char *const pairs[][2] = {
		{ "lldpd-1.0.16-two-ports.json", "lldpd-1.0.16-two-ports.json0" },
		{ "lldpd-1.0.16-one-port-ifname.json", "lldpd-1.0.16-one-port-ifname.json0" },
	};

	(void)state;
	for (size_t p = 0; p < 2; p++) {
		struct lldp_table a, b;

		parse_file(pairs[p][0], &a);
		parse_file(pairs[p][1], &b);
		assert_int_equal(a.n, b.n);
		assert_true(a.n > 0);
		for (size_t i = 0; i < a.n; i++) {
			const struct neighbor *x = a.v[i].neighbor, *y = b.v[i].neighbor;

			assert_string_equal(a.v[i].ifname, b.v[i].ifname);
			assert_true(x && y);
			assert_true(same_str(x->system, y->system));
			assert_true(same_str(x->port, y->port));
			assert_true(same_str(x->chassis_id, y->chassis_id));
		}
		lldp_table_free(&a);
		lldp_table_free(&b);
	}
}

static void one_port_ifname(void **state)
{
	struct lldp_table t;

	(void)state;
	parse_file("lldpd-1.0.16-one-port-ifname.json", &t);
	assert_int_equal(t.n, 1);
	assert_neighbor(&t, "r0", "leaf-r3-b", "Ethernet7", "6a:33:6c:3e:84:1b");
	assert_null(lldp_table_find(&t, "r1"));
	lldp_table_free(&t);
}

static void none_heard(void **state)
{
	struct lldp_table t;
	char *err = (char *)1;

	(void)state;
	parse_file("lldpd-1.0.16-none.json", &t);
	assert_int_equal(t.n, 0);
	assert_null(lldp_table_find(&t, "r0"));
	lldp_table_free(&t);
	/* json0's "none" */
	assert_int_equal(lldp_parse("{\"lldp\": [{}]}", 14, &t, &err), 0);
	assert_null(err);
	assert_int_equal(t.n, 0);
}

static void published_outputs(void **state)
{
	struct lldp_table t;

	(void)state;
	/* an array of interfaces, port id type ifname, LLDP-MED and dot1 TLVs */
	parse_file("puppet-lldpd-multiple-interfaces.json", &t);
	assert_int_equal(t.n, 1);
	assert_neighbor(&t, "eno1", "router", "ge-1/0/1", "10:0e:7e:aa:aa:aa");
	lldp_table_free(&t);
	/* no system name: the chassis given directly; port id type local, no
	 * description */
	parse_file("puppet-lldpd-no-sysname-local-port.json", &t);
	assert_int_equal(t.n, 1);
	assert_neighbor(&t, "enp3s0", NULL, "g17", "44:94:fc:9d:55:0a");
	lldp_table_free(&t);
}

static void parse_text(const char *text, struct lldp_table *t, int want)
{
	char *err = NULL;
	int rc = lldp_parse(text, strlen(text), t, &err);

	if (rc != want)
		fail_msg("%s: %d (%s)", text, rc, err ? err : "");
	if (want == 0)
		assert_null(err);
	free(err);
}

/* Shapes no recording here has, as lldpd's source writes them. */
static void other_shapes(void **state)
{
	struct lldp_table t;

	(void)state;
	/* a chassis whose system name is "id" */
	parse_text("{\"lldp\":{\"interface\":{\"e0\":{\"chassis\":{\"id\":{\"id\":{\"type\":\"mac\","
		   "\"value\":\"aa\"}}},\"port\":{\"id\":{\"type\":\"mac\",\"value\":\"bb\"}}}}}}",
		   &t, 0);
	assert_neighbor(&t, "e0", "id", "bb", "aa");
	lldp_table_free(&t);
	/* the chassis with only its id; the port an ifalias with a description */
	parse_text("{\"lldp\":{\"interface\":{\"e0\":{\"chassis\":{\"id\":{\"type\":\"mac\","
		   "\"value\":\"aa\"}},\"port\":{\"id\":{\"type\":\"ifalias\",\"value\":\"x\"},"
		   "\"descr\":\"swp3\"}}}}}", &t, 0);
	assert_neighbor(&t, "e0", NULL, "swp3", "aa");
	lldp_table_free(&t);
	/* a port id of an unhandled type and no description: the id as sent */
	parse_text("{\"lldp\":{\"interface\":[{\"e0\":{\"chassis\":{\"sw\":{\"id\":{\"type\":\"local\","
		   "\"value\":\"7\"}}},\"port\":{\"id\":{\"type\":\"unhandled\",\"value\":\"9\"}}}},"
		   "{\"e1\":{\"chassis\":{\"sw\":{\"id\":{\"type\":\"local\",\"value\":\"7\"}}},"
		   "\"port\":{\"id\":{\"type\":\"local\",\"value\":\"Eth1/2\"}}}}]}}", &t, 0);
	assert_neighbor(&t, "e0", "sw", "9", "7");
	assert_neighbor(&t, "e1", "sw", "Eth1/2", "7");
	lldp_table_free(&t);
}

static void malformed_gives_nothing(void **state)
{
	static const char *const bad[] = {
		"", "{", "[]", "null", "{}", "{\"lldp\": 3}", "{\"lldp\": [3]}",
		"{\"lldp\": {\"interface\": 3}}",
		"{\"lldp\": {\"interface\": [3]}}",
		"{\"lldp\": {\"interface\": [[]]}}",
		"{\"lldp\": {\"interface\": {\"e0\": 3}}}",
		"{\"lldp\": {\"interface\": {\"e0\": {}}}}",
		"{\"lldp\": {\"interface\": {\"\": {\"chassis\": {\"id\": \"x\"}}}}}",
		"{\"lldp\": {\"interface\": {\"e0\": {\"chassis\": 5, \"port\": 6}}}}",
		/* an interface named twice would lose a neighbour */
		("{\"lldp\": {\"interface\": {\"e0\": {\"port\": {\"descr\": \"a\"}},"
		 " \"e0\": {\"port\": {\"descr\": \"b\"}}}}}"),
		/* one good interface does not make a bad one acceptable */
		"{\"lldp\": {\"interface\": [{\"e0\": {\"port\": {\"descr\": \"a\"}}}, {\"e1\": 1}]}}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lldp_table t;
		char *err = NULL;
		int rc = lldp_parse(bad[i], strlen(bad[i]), &t, &err);

		if (rc != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(err);
		assert_true(strlen(err) > 5);
		assert_int_equal(t.n, 0);
		assert_null(t.v);
		free(err);
	}
}

/* A recording cut short anywhere is refused, never read in part. */
static void truncated_gives_nothing(void **state)
{
	size_t len;
	char *text = slurp("lldpd-1.0.16-two-ports.json", &len);

	(void)state;
	for (size_t cut = 0; cut + 2 < len; cut += 7) {
		struct lldp_table t;
		char *err = NULL;
		char *copy = malloc(cut ? cut : 1);

		assert_non_null(copy);
		memcpy(copy, text, cut);
		assert_int_equal(lldp_parse(copy, cut, &t, &err), -EINVAL);
		assert_non_null(err);
		assert_int_equal(t.n, 0);
		free(err);
		free(copy);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_ports_match_keyvalue),
		cmocka_unit_test(shared_segment_matches_keyvalue),
		cmocka_unit_test(json0_same_as_json),
		cmocka_unit_test(one_port_ifname),
		cmocka_unit_test(none_heard),
		cmocka_unit_test(published_outputs),
		cmocka_unit_test(other_shapes),
		cmocka_unit_test(malformed_gives_nothing),
		cmocka_unit_test(truncated_gives_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
