/* fleet/rails: a record's rails as facts, each switch's owner rail, the
 * hosts whose rails reach another rail's switch (a swapped pair as one
 * finding), ties, neighbours not known, and the diff and its text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "fleet/diff.h"
#include "fleet/facts.h"
#include "fleet/rails.h"
#include "fleet/record.h"
#include "fleet/skim.h"
#include "print/fleet_text.h"

/* A record of host h whose rail k reaches sw[k]: a system name, "#ID" for
 * a switch that sends only its chassis id, NULL for a neighbour not known.
 * n < 0: a check without `rails` (a record older than the neighbours). */
static json_t *record(const char *h, int n, const char *const *sw)
{
	json_t *check = json_pack("{s:i, s:s, s:s, s:[], s:{s:i, s:{s:s}, s:[]}}", "schema", 1,
				  "profile", "p", "verdict", "pass", "findings", "inventory",
				  "schema", 1, "host", "hostname", h, "nics");
	json_t *rails = json_array();

	for (int k = 0; k < n; k++) {
		char dev[32];
		json_t *nb;

		snprintf(dev, sizeof(dev), "mlx5_%d", k);
		if (!sw[k])
			nb = json_null();
		else if (sw[k][0] == '#')
			nb = json_pack("{s:n, s:s, s:s, s:s}", "system", "port", "Ethernet1",
				       "chassis_id", sw[k] + 1, "source", "lldpd");
		else
			nb = json_pack("{s:s, s:s, s:s, s:s}", "system", sw[k], "port", "Ethernet1",
				       "chassis_id", "02:00:00:00:00:01", "source", "lldpd");
		json_array_append_new(rails, json_pack("{s:i, s:s, s:i, s:o}", "rail", k, "device",
						       dev, "port", 1, "neighbor", nb));
	}
	if (n >= 0)
		json_object_set_new(check, "rails", rails);
	else
		json_decref(rails);
	return fleet_record_new(check, "2026-11-30T07:00:00Z", NULL);
}

static const char *const GOOD[] = { "leaf-r0", "leaf-r1", "leaf-r2", "leaf-r3",
				    "leaf-r4", "leaf-r5", "leaf-r6", "leaf-r7" };

static json_t *diff_of(json_t *recs)
{
	json_t *d = fleet_diff_records(recs);

	assert_non_null(d);
	json_decref(recs);
	return d;
}

static const json_t *finding(const json_t *d, size_t i)
{
	return json_array_get(json_object_get(json_object_get(d, "rails"), "findings"), i);
}

static size_t n_findings(const json_t *d)
{
	return json_array_size(json_object_get(json_object_get(d, "rails"), "findings"));
}

static json_int_t finding_rail(const json_t *f, size_t i, const char *key)
{
	return json_integer_value(json_object_get(json_array_get(json_object_get(f, "rails"), i),
						  key));
}

static void facts(void **state)
{
	const char *sw[] = { "leaf-r0", NULL, "#aa:bb:cc:dd:ee:ff" };
	json_t *rec = record("h", 3, sw), *f = fleet_facts(rec), *g, *fields, *r;

	(void)state;
	/* no NIC: the rails group is the only one */
	assert_int_equal(json_array_size(f), 1);
	g = json_array_get(f, 0);
	assert_string_equal(json_string_value(json_object_get(g, "nic_model")), FLEET_RAILS_MODEL);
	assert_string_equal(json_string_value(json_object_get(g, "link_layer")),
			    FLEET_RAILS_LINK_LAYER);
	fields = json_object_get(g, "fields");
	assert_int_equal(json_object_size(fields), 3);
	r = json_object_get(fields, "0");
	assert_string_equal(json_string_value(json_object_get(r, "switch")), "leaf-r0");
	assert_string_equal(json_string_value(json_object_get(r, "device")), "mlx5_0");
	assert_int_equal(json_integer_value(json_object_get(r, "port")), 1);
	/* not known: null, never a name */
	assert_true(json_is_null(json_object_get(json_object_get(fields, "1"), "switch")));
	/* a switch without a system name is known by its chassis id */
	assert_string_equal(json_string_value(json_object_get(json_object_get(fields, "2"),
							      "switch")), "aa:bb:cc:dd:ee:ff");
	json_decref(f);
	json_decref(rec);
	/* an older record, and a host without rail ports: no group */
	rec = record("h", -1, NULL);
	f = fleet_facts(rec);
	assert_int_equal(json_array_size(f), 0);
	json_decref(f);
	json_decref(rec);
	rec = record("h", 0, NULL);
	f = fleet_facts(rec);
	assert_int_equal(json_array_size(f), 0);
	json_decref(f);
	json_decref(rec);
	/* rails that are not rails are not read: a negative or huge index,
	 * a string */
	rec = json_pack("{s:{s:[{s:i, s:n}, {s:i, s:n}, {s:s, s:n}, {s:i, s:{s:s}}]}}", "check",
			"rails", "rail", -1, "neighbor", "rail", FLEET_RAILS_MAX, "neighbor",
			"rail", "0", "neighbor", "rail", 3, "neighbor", "system", "s");
	assert_int_equal(fleet_rails_facts(rec, &g), 0);
	assert_int_equal(json_object_size(json_object_get(g, "fields")), 1);
	assert_true(json_is_null(json_object_get(json_object_get(json_object_get(g, "fields"), "3"),
						 "device")));
	json_decref(g);
	json_decref(rec);
}

/* The skim keeps every member the rails facts read. */
static void skim_keeps_rails(void **state)
{
	const char *sw[] = { "leaf-r0", "#aa:bb", NULL };
	json_t *rec = record("h", 3, sw), *slim_doc, *a, *b;
	char *text = json_dumps(rec, JSON_COMPACT), *slim, why[200];
	size_t len;

	(void)state;
	assert_int_equal(fleet_skim(text, strlen(text), fleet_skim_drop, &slim, &len, why,
				    sizeof(why)), 0);
	slim_doc = json_loads(slim, 0, NULL);
	a = fleet_facts(rec);
	b = fleet_facts(slim_doc);
	assert_true(json_equal(a, b));
	assert_int_equal(json_array_size(b), 1);
	json_decref(a);
	json_decref(b);
	json_decref(slim_doc);
	json_decref(rec);
	free(slim);
	free(text);
}

/* Six hosts: h2 has rails 2 and 3 swapped, h4's rail 5 is on rail 4's
 * switch (its rail 4 too); the others are right. */
static void swapped_and_crossed(void **state)
{
	json_t *recs = json_array(), *d, *r, *g;
	const json_t *f, *rail;
	size_t i;

	(void)state;
	for (int h = 0; h < 6; h++) {
		const char *sw[8];
		char name[8];

		memcpy(sw, GOOD, sizeof(sw));
		if (h == 2) {
			sw[2] = "leaf-r3";
			sw[3] = "leaf-r2";
		}
		if (h == 4)
			sw[5] = "leaf-r4";
		snprintf(name, sizeof(name), "h%d", h);
		json_array_append_new(recs, record(name, 8, sw));
	}
	d = diff_of(recs);
	r = json_object_get(d, "rails");
	assert_int_equal(json_integer_value(json_object_get(r, "hosts")), 6);
	assert_int_equal(json_integer_value(json_object_get(r, "hosts_differ")), 2);
	assert_int_equal(json_integer_value(json_object_get(d, "hosts_differ")), 2);
	/* the rails are no drift group */
	json_array_foreach(json_object_get(d, "groups"), i, g)
		assert_string_not_equal(json_string_value(json_object_get(g, "link_layer")),
					FLEET_RAILS_LINK_LAYER);
	assert_int_equal(fleet_diff_outliers(d), 0);
	/* exactly two findings: ONE for the swapped pair */
	assert_int_equal(n_findings(d), 2);
	f = finding(d, 0);
	assert_string_equal(json_string_value(json_object_get(f, "host")), "h2");
	assert_string_equal(json_string_value(json_object_get(f, "kind")), "swapped");
	assert_int_equal(json_array_size(json_object_get(f, "rails")), 2);
	assert_int_equal(finding_rail(f, 0, "rail"), 2);
	assert_int_equal(finding_rail(f, 0, "owner"), 3);
	assert_int_equal(finding_rail(f, 1, "rail"), 3);
	assert_int_equal(finding_rail(f, 1, "owner"), 2);
	assert_string_equal(json_string_value(json_object_get(f, "reason")),
			    "rails 2 and 3 swapped (mlx5_2 port 1 reaches leaf-r3, mlx5_3 port 1 "
			    "reaches leaf-r2)");
	f = finding(d, 1);
	assert_string_equal(json_string_value(json_object_get(f, "host")), "h4");
	assert_string_equal(json_string_value(json_object_get(f, "kind")), "other_rail");
	assert_int_equal(json_array_size(json_object_get(f, "rails")), 1);
	assert_int_equal(finding_rail(f, 0, "rail"), 5);
	assert_int_equal(finding_rail(f, 0, "owner"), 4);
	assert_string_equal(json_string_value(json_object_get(f, "reason")),
			    "rail 5 reaches rail 4's switch leaf-r4 (mlx5_5 port 1)");
	/* rail 2: leaf-r2 on 5 hosts (its own), leaf-r3 on 1 (rail 3's) */
	rail = json_array_get(json_object_get(r, "rails"), 2);
	assert_int_equal(json_integer_value(json_object_get(rail, "rail")), 2);
	assert_int_equal(json_integer_value(json_object_get(rail, "hosts")), 6);
	assert_int_equal(json_integer_value(json_object_get(rail, "not_checked")), 0);
	assert_int_equal(json_array_size(json_object_get(rail, "switches")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(
		rail, "switches"), 0), "switch")), "leaf-r2");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(
		rail, "switches"), 0), "hosts")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(
		rail, "switches"), 1), "owner")), 3);
	assert_int_equal(json_array_size(json_object_get(r, "no_owner")), 0);
	json_decref(d);
}

/* Two hosts, one swapped: each switch is reached on two rails by one host
 * each.  No rail owns them, so no host is named; the ties are listed. */
static void ties(void **state)
{
	const char *bad[] = { "leaf-r0", "leaf-r1", "leaf-r3", "leaf-r2" };
	json_t *recs = json_array(), *d, *r;
	const json_t *t;

	(void)state;
	json_array_append_new(recs, record("a", 4, GOOD));
	json_array_append_new(recs, record("b", 4, bad));
	d = diff_of(recs);
	r = json_object_get(d, "rails");
	assert_int_equal(n_findings(d), 0);
	assert_int_equal(json_integer_value(json_object_get(d, "hosts_differ")), 0);
	assert_int_equal(json_array_size(json_object_get(r, "no_owner")), 2);
	t = json_array_get(json_object_get(r, "no_owner"), 0);
	assert_string_equal(json_string_value(json_object_get(t, "switch")), "leaf-r2");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(t, "shares"), "2")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(t, "shares"), "3")), 1);
	/* a tied switch has no owner in the rail's list either */
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(r, "rails"), 2), "switches"), 0), "owner")));
	json_decref(d);
}

/* A neighbour not known is not checked on its rail: counted, named, never
 * fine and never a finding; an older record without rails adds nothing. */
static void unknown_neighbours(void **state)
{
	const char *some[] = { "leaf-r0", NULL, "leaf-r2" };
	const char *none[] = { NULL, NULL, NULL };
	json_t *recs = json_array(), *d, *r;
	const json_t *rail;

	(void)state;
	json_array_append_new(recs, record("a", 3, GOOD));
	json_array_append_new(recs, record("b", 3, GOOD));
	json_array_append_new(recs, record("c", 3, some));
	json_array_append_new(recs, record("d", 3, none));
	json_array_append_new(recs, record("old", -1, NULL));
	d = diff_of(recs);
	r = json_object_get(d, "rails");
	assert_int_equal(json_integer_value(json_object_get(d, "hosts")), 5);
	assert_int_equal(json_integer_value(json_object_get(r, "hosts")), 4);
	assert_int_equal(n_findings(d), 0);
	assert_int_equal(json_integer_value(json_object_get(d, "hosts_differ")), 0);
	rail = json_array_get(json_object_get(r, "rails"), 1);
	assert_int_equal(json_integer_value(json_object_get(rail, "hosts")), 4);
	assert_int_equal(json_integer_value(json_object_get(rail, "not_checked")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(rail,
		"not_checked_hosts"), 0)), "c");
	assert_string_equal(json_string_value(json_array_get(json_object_get(rail,
		"not_checked_hosts"), 1)), "d");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(rail,
		"switches"), 0), "hosts")), 2);
	rail = json_array_get(json_object_get(r, "rails"), 0);
	assert_int_equal(json_integer_value(json_object_get(rail, "not_checked")), 1);
	json_decref(d);
	/* no host with rails: null, as fabric is without a report */
	recs = json_array();
	json_array_append_new(recs, record("old", -1, NULL));
	d = diff_of(recs);
	assert_true(json_is_null(json_object_get(d, "rails")));
	json_decref(d);
	/* every neighbour unknown: rails listed, all not checked, no switch */
	recs = json_array();
	json_array_append_new(recs, record("d", 3, none));
	d = diff_of(recs);
	rail = json_array_get(json_object_get(json_object_get(d, "rails"), "rails"), 2);
	assert_int_equal(json_integer_value(json_object_get(rail, "not_checked")), 1);
	assert_int_equal(json_array_size(json_object_get(rail, "switches")), 0);
	json_decref(d);
}

/* Three rails rotated (0 on rail 1's switch, 1 on 2's, 2 on 0's): no pair
 * reaches each other's, so three findings, none of them "swapped". */
static void rotated(void **state)
{
	const char *rot[] = { "leaf-r1", "leaf-r2", "leaf-r0", "leaf-r3" };
	json_t *recs = json_array(), *d;

	(void)state;
	json_array_append_new(recs, record("a", 4, GOOD));
	json_array_append_new(recs, record("b", 4, GOOD));
	json_array_append_new(recs, record("c", 4, GOOD));
	json_array_append_new(recs, record("r", 4, rot));
	d = diff_of(recs);
	assert_int_equal(n_findings(d), 3);
	for (size_t i = 0; i < 3; i++) {
		const json_t *f = finding(d, i);

		assert_string_equal(json_string_value(json_object_get(f, "host")), "r");
		assert_string_equal(json_string_value(json_object_get(f, "kind")), "other_rail");
		assert_int_equal(finding_rail(f, 0, "rail"), (json_int_t)i);
		assert_int_equal(finding_rail(f, 0, "owner"), (json_int_t)((i + 1) % 3));
	}
	assert_string_equal(json_string_value(json_object_get(finding(d, 2), "reason")),
			    "rail 2 reaches rail 0's switch leaf-r0 (mlx5_2 port 1)");
	assert_int_equal(json_integer_value(json_object_get(d, "hosts_differ")), 1);
	json_decref(d);
}

/* The text names the hosts and says the findings, the ties and the rails
 * not checked. */
static void text(void **state)
{
	const char *swapped[] = { "leaf-r0", "leaf-r2", "leaf-r1" };
	const char *unknown[] = { "leaf-r0", "leaf-r1", NULL };
	json_t *recs = json_array(), *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	json_array_append_new(recs, record("a", 3, GOOD));
	json_array_append_new(recs, record("b", 3, GOOD));
	json_array_append_new(recs, record("s", 3, swapped));
	json_array_append_new(recs, record("u", 3, unknown));
	d = diff_of(recs);
	f = open_memstream(&buf, &len);
	fleet_text_diff(f, d);
	fclose(f);
	assert_non_null(strstr(buf, "rails: which switch each rail reaches, over 4 hosts\n"));
	assert_non_null(strstr(buf, "  rail 1: leaf-r1 on 3 hosts, leaf-r2 on 1 (rail 2's)\n"));
	assert_non_null(strstr(buf, "  rail 2: leaf-r2 on 2 hosts, leaf-r1 on 1 (rail 1's); not "
				    "checked on 1 host (neighbour not known): u\n"));
	assert_non_null(strstr(buf, "  s: rails 1 and 2 swapped (mlx5_1 port 1 reaches leaf-r2, "
				    "mlx5_2 port 1 reaches leaf-r1)\n"));
	assert_null(strstr(buf, "  u: "));
	assert_non_null(strstr(buf, "1 host differs from its group's baseline, profile or rails"));
	free(buf);
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(facts),
		cmocka_unit_test(skim_keeps_rails),
		cmocka_unit_test(swapped_and_crossed),
		cmocka_unit_test(ties),
		cmocka_unit_test(unknown_neighbours),
		cmocka_unit_test(rotated),
		cmocka_unit_test(text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
