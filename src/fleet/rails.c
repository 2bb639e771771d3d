/* The rails' switches across the fleet, their owners, and the hosts
 * cabled otherwise (fleet/rails.h). */
#include "rails.h"
#include "fact_group.h"
#include "json_keys.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A non-empty string member as a new reference, else JSON null. */
static json_t *str_or_null(const json_t *v)
{
	const char *s = json_string_value(v);

	return s && s[0] ? json_string(s) : json_null();
}

/* Who a neighbour is: its system name, else its chassis id (a switch
 * that does not send its name still has one); JSON null when neither. */
static json_t *switch_id(const json_t *neighbor)
{
	const char *s = json_string_value(json_object_get(neighbor, "system"));

	if (s && s[0])
		return json_string(s);
	return str_or_null(json_object_get(neighbor, "chassis_id"));
}

int fleet_rails_facts(const json_t *record, json_t **group)
{
	const json_t *rails = json_object_get(json_object_get(record, "check"), "rails"), *r;
	json_t *fields;
	size_t i;

	*group = NULL;
	if (!json_array_size(rails))
		return 0;
	fields = json_object();
	if (!fields)
		return -1;
	json_array_foreach(rails, i, r) {
		const json_t *idx = json_object_get(r, "rail"), *port = json_object_get(r, "port");
		json_t *v;
		char key[24];

		if (!json_is_integer(idx) || json_integer_value(idx) < 0 ||
		    json_integer_value(idx) >= FLEET_RAILS_MAX)
			continue;
		snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(idx));
		v = json_pack("{s:o, s:o, s:O}", "switch", switch_id(json_object_get(r, "neighbor")),
			      "device", str_or_null(json_object_get(r, "device")),
			      "port", json_is_integer(port) ? port : json_null());
		if (json_object_set_new(fields, key, v) < 0) {
			json_decref(fields);
			return -1;
		}
	}
	return fleet_group_make(fields, FLEET_RAILS_MODEL, FLEET_RAILS_LINK_LAYER, group);
}

/* A rail's key as the facts write it ("0".."1023"), or -1: a store edited
 * by hand must not name rail "007" or "-1". */
static int rail_index(const char *key)
{
	int k = 0;

	if (!key[0] || (key[0] == '0' && key[1]))
		return -1;
	for (const char *p = key; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		k = k * 10 + (*p - '0');
		if (k >= FLEET_RAILS_MAX)
			return -1;
	}
	return k;
}

static const char *rail_switch(const json_t *v)
{
	const char *s = json_string_value(json_object_get(v, "switch"));

	return s && s[0] ? s : NULL;
}

/* What the fleet's rails add up to, before any judging. */
struct tally {
	json_t *by_rail;	/* {"k": {switch: hosts}} */
	json_t *by_switch;	/* {switch: {"k": hosts}} */
	json_t *hosts_on;	/* {"k": hosts with rail k} */
	json_t *unchecked;	/* {"k": {host: true}} */
	json_t *owners;		/* {switch: j, or null on a tie} */
	size_t hosts;		/* hosts with rails */
};

/* Add one to the integer member key of obj (made when missing). */
static int bump(json_t *obj, const char *key)
{
	return json_object_set_new(obj, key, json_integer(json_integer_value(
		json_object_get(obj, key)) + 1));
}

static int count_host(struct tally *t, const char *host, const json_t *fields)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)fields, key, v) {
		const char *sw = rail_switch(v);
		json_t *c;

		if (rail_index(key) < 0)
			continue;
		if (bump(t->hosts_on, key) < 0)
			return -1;
		if (!sw) {
			c = fleet_json_child(t->unchecked, key);
			if (!c || json_object_set_new(c, host, json_true()) < 0)
				return -1;
			continue;
		}
		c = fleet_json_child(t->by_rail, key);
		if (!c || bump(c, sw) < 0)
			return -1;
		c = fleet_json_child(t->by_switch, sw);
		if (!c || bump(c, key) < 0)
			return -1;
	}
	return 0;
}




/* The rails as {"k": n} keys, as numbers, most hosts first, then by rail. */
struct share {
	int rail;
	json_int_t hosts;
};

static int share_cmp(const void *a, const void *b)
{
	const struct share *x = a, *y = b;

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	return x->rail < y->rail ? -1 : x->rail > y->rail;
}

/* Each switch's owner, and the ties into no_owner (by switch name). */
static int find_owners(struct tally *t, json_t *no_owner)
{
	const char **sws = fleet_sorted_keys(t->by_switch);

	if (!sws)
		return -1;
	for (size_t i = 0; sws[i]; i++) {
		const json_t *by = json_object_get(t->by_switch, sws[i]);
		struct share *sh = calloc(json_object_size(by) + 1, sizeof(*sh));
		const char *k;
		json_t *v, *shares;
		size_t n = 0;
		int rc;

		if (!sh)
			goto fail;
		json_object_foreach((json_t *)by, k, v)
			sh[n++] = (struct share){ rail_index(k), json_integer_value(v) };
		qsort(sh, n, sizeof(*sh), share_cmp);
		if (n < 2 || sh[0].hosts > sh[1].hosts) {
			rc = json_object_set_new(t->owners, sws[i], json_integer(sh[0].rail));
		} else {
			rc = json_object_set_new(t->owners, sws[i], json_null());
			shares = json_object();
			for (size_t j = 0; rc == 0 && shares && j < n; j++) {
				char key[24];

				snprintf(key, sizeof(key), "%d", sh[j].rail);
				rc = json_object_set_new(shares, key, json_integer(sh[j].hosts));
			}
			if (rc == 0)
				rc = json_array_append_new(no_owner, json_pack("{s:s, s:o}", "switch",
								sws[i], "shares", shares));
			else
				json_decref(shares);
		}
		free(sh);
		if (rc < 0)
			goto fail;
	}
	free(sws);
	return 0;
fail:
	free(sws);
	return -1;
}

/* The owner rail of the switch rail v reaches, or -1 (none known, a tie). */
static int owner_of(const struct tally *t, const json_t *v)
{
	const char *sw = rail_switch(v);
	const json_t *o = sw ? json_object_get(t->owners, sw) : NULL;

	return json_is_integer(o) ? (int)json_integer_value(o) : -1;
}

/* One rail of a finding: {"rail", "device", "port", "switch", "owner"}. */
static json_t *finding_rail(const struct tally *t, int k, const json_t *v)
{
	return json_pack("{s:i, s:O, s:O, s:O, s:i}", "rail", k,
			 "device", json_object_get(v, "device") ? json_object_get(v, "device")
								 : json_null(),
			 "port", json_object_get(v, "port") ? json_object_get(v, "port") : json_null(),
			 "switch", json_object_get(v, "switch"), "owner", owner_of(t, v));
}

/* "mlx5_2 port 1" of a rail, into buf ("rail 2" when the record has no
 * device). */
static const char *port_text(char *buf, size_t len, int k, const json_t *v)
{
	const char *dev = json_string_value(json_object_get(v, "device"));
	const json_t *port = json_object_get(v, "port");

	if (dev && json_is_integer(port))
		snprintf(buf, len, "%.200s port %lld", dev, (long long)json_integer_value(port));
	else if (dev)
		snprintf(buf, len, "%.200s", dev);
	else
		snprintf(buf, len, "rail %d", k);
	return buf;
}

static int add_finding(json_t *findings, const char *host, const char *kind, json_t *rails,
		       char *reason)
{
	json_t *f = rails && reason ? json_pack("{s:s, s:s, s:o, s:s}", "host", host, "kind",
						kind, "rails", rails, "reason", reason) : NULL;

	if (!f)
		json_decref(rails);
	free(reason);
	return json_array_append_new(findings, f);
}

/* The findings of one host: each rail that reaches another rail's switch;
 * a pair that reaches each other's, once, as swapped. */
static int judge_host(const struct tally *t, const char *host, const json_t *fields,
		      json_t *findings)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)fields, key, v) {
		int k = rail_index(key), j = k < 0 ? -1 : owner_of(t, v), jj;
		char jkey[24], a[256], b[256], *reason;
		const json_t *vj;

		if (j < 0 || j == k)
			continue;
		snprintf(jkey, sizeof(jkey), "%d", j);
		vj = json_object_get(fields, jkey);
		jj = vj ? owner_of(t, vj) : -1;
		if (jj == k) {
			if (k > j)
				continue;	/* said with rail j */
			if (asprintf(&reason, "rails %d and %d swapped (%s reaches %s, %s reaches "
				     "%s)", k, j, port_text(a, sizeof(a), k, v), rail_switch(v),
				     port_text(b, sizeof(b), j, vj), rail_switch(vj)) < 0)
				reason = NULL;
			if (add_finding(findings, host, "swapped",
					json_pack("[o, o]", finding_rail(t, k, v),
						  finding_rail(t, j, vj)), reason) < 0)
				return -1;
			continue;
		}
		if (asprintf(&reason, "rail %d reaches rail %d's switch %s (%s)", k, j,
			     rail_switch(v), port_text(a, sizeof(a), k, v)) < 0)
			reason = NULL;
		if (add_finding(findings, host, "other_rail", json_pack("[o]", finding_rail(t, k, v)),
				reason) < 0)
			return -1;
	}
	return 0;
}

/* Findings by host, then by their first rail. */
static int finding_cmp(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	int c = strcmp(json_string_value(json_object_get(x, "host")),
		       json_string_value(json_object_get(y, "host")));
	json_int_t rx = json_integer_value(json_object_get(json_array_get(json_object_get(x,
		"rails"), 0), "rail"));
	json_int_t ry = json_integer_value(json_object_get(json_array_get(json_object_get(y,
		"rails"), 0), "rail"));

	return c ? c : (rx < ry ? -1 : rx > ry);
}

static json_t *sorted_findings(const json_t *findings, size_t *hosts_differ)
{
	size_t n = json_array_size(findings), i;
	json_t **list = calloc(n + 1, sizeof(*list)), *out = list ? json_array() : NULL;
	const char *last = NULL;

	*hosts_differ = 0;
	for (i = 0; list && i < n; i++)
		list[i] = json_array_get(findings, i);
	if (list)
		qsort(list, n, sizeof(*list), finding_cmp);
	for (i = 0; out && i < n; i++) {
		const char *h = json_string_value(json_object_get(list[i], "host"));

		if (!last || strcmp(last, h) != 0)
			++*hosts_differ;
		last = h;
		if (json_array_append(out, list[i]) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	free(list);
	return out;
}

/* switches of one rail: {switch: hosts} in, sorted list out. */
static json_t *rail_switches(const struct tally *t, const json_t *by)
{
	const char **sws = fleet_sorted_keys(by);
	size_t n = json_object_size(by), i;
	struct sw {
		const char *name;
		json_int_t hosts;
	} *list = calloc(n + 1, sizeof(*list));
	json_t *out = sws && list ? json_array() : NULL;

	for (i = 0; out && i < n; i++)
		list[i] = (struct sw){ sws[i], json_integer_value(json_object_get(by, sws[i])) };
	/* most hosts first; names already sorted, and insertion keeps ties */
	for (i = 1; out && i < n; i++) {
		struct sw cur = list[i];
		size_t j = i;

		for (; j > 0 && list[j - 1].hosts < cur.hosts; j--)
			list[j] = list[j - 1];
		list[j] = cur;
	}
	for (i = 0; out && i < n; i++) {
		const json_t *o = json_object_get(t->owners, list[i].name);

		if (json_array_append_new(out, json_pack("{s:s, s:I, s:O}", "switch", list[i].name,
							 "hosts", list[i].hosts, "owner",
							 o ? o : json_null())) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	free(sws);
	free(list);
	return out;
}

static json_t *rails_list(const struct tally *t)
{
	json_t *out = json_array();

	for (int k = 0; out && k < FLEET_RAILS_MAX; k++) {
		char key[24];
		const json_t *un;
		json_t *names, *sws;

		snprintf(key, sizeof(key), "%d", k);
		if (!json_object_get(t->hosts_on, key))
			continue;
		un = json_object_get(t->unchecked, key);
		names = un ? fleet_sorted_key_array(un) : json_array();
		sws = rail_switches(t, json_object_get(t->by_rail, key));
		if (!names || !sws || json_array_append_new(out, json_pack("{s:i, s:O, s:I, s:o, "
				"s:o}", "rail", k, "hosts", json_object_get(t->hosts_on, key),
				"not_checked", (json_int_t)json_array_size(names),
				"not_checked_hosts", names, "switches", sws)) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	return out;
}

json_t *fleet_rails(const json_t *hosts)
{
	struct tally t = { json_object(), json_object(), json_object(), json_object(),
			   json_object(), 0 };
	json_t *no_owner = json_array(), *findings = json_array(), *sorted = NULL;
	json_t *list = NULL, *out = NULL, *e;
	size_t i, differ = 0;

	if (!t.by_rail || !t.by_switch || !t.hosts_on || !t.unchecked || !t.owners ||
	    !no_owner || !findings)
		goto done;
	json_array_foreach(hosts, i, e) {
		const char *h = json_string_value(json_object_get(e, "host"));
		const json_t *fields = fleet_group_fields(e, FLEET_RAILS_MODEL,
							  FLEET_RAILS_LINK_LAYER);

		if (!h || !fields)
			continue;
		t.hosts++;
		if (count_host(&t, h, fields) < 0)
			goto done;
	}
	if (!t.hosts) {
		out = json_null();
		goto done;
	}
	if (find_owners(&t, no_owner) < 0)
		goto done;
	json_array_foreach(hosts, i, e) {
		const char *h = json_string_value(json_object_get(e, "host"));
		const json_t *fields = fleet_group_fields(e, FLEET_RAILS_MODEL,
							  FLEET_RAILS_LINK_LAYER);

		if (h && fields && judge_host(&t, h, fields, findings) < 0)
			goto done;
	}
	sorted = sorted_findings(findings, &differ);
	list = rails_list(&t);
	if (!sorted || !list)
		goto done;
	out = json_pack("{s:I, s:I, s:O, s:O, s:O}", "hosts", (json_int_t)t.hosts,
			"hosts_differ", (json_int_t)differ, "rails", list, "no_owner", no_owner,
			"findings", sorted);
done:
	json_decref(t.by_rail);
	json_decref(t.by_switch);
	json_decref(t.hosts_on);
	json_decref(t.unchecked);
	json_decref(t.owners);
	json_decref(no_owner);
	json_decref(findings);
	json_decref(sorted);
	json_decref(list);
	return out;
}
