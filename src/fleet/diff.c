/* Majority baselines and the hosts that differ from them. */
#include "diff.h"
#include "fact_group.h"
#include "facts.h"
#include "fields.h"
#include "json_keys.h"
#include "rails.h"
#include "firmware.h"
#include "../model/growbuf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* Order of values among equal counts: numbers (by value), strings (by
 * text), anything else (by its JSON text), null last. */
static int kind_rank(const json_t *v)
{
	if (json_is_number(v))
		return 0;
	if (json_is_string(v))
		return 1;
	if (json_is_null(v))
		return 3;
	return 2;
}

static int value_cmp(const json_t *a, const json_t *b, const char *ta, const char *tb)
{
	int ra = kind_rank(a), rb = kind_rank(b);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (ra == 0) {
		double x = json_number_value(a), y = json_number_value(b);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return strcmp(ta, tb);
}

/* One value of a field in a group: its text, the value, how many hosts. */
struct share {
	char *text;
	json_t *value;
	size_t hosts;
};

static int share_cmp(const void *a, const void *b)
{
	const struct share *x = a, *y = b;

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	return value_cmp(x->value, y->value, x->text, y->text);
}

/* An outlier waiting to be sorted: host, then field order, then subject. */
struct odd {
	const char *host;
	size_t field;
	const char *subject;
	json_t *doc;
};

static int odd_cmp(const void *a, const void *b)
{
	const struct odd *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (c)
		return c;
	if (x->field != y->field)
		return x->field < y->field ? -1 : 1;
	return strcmp(x->subject, y->subject);
}

/* Where a field comes in fleet_field_names (unknown ones last). */
static size_t field_index(const char *field)
{
	for (size_t i = 0; i < fleet_n_fields; i++)
		if (strcmp(fleet_field_names[i], field) == 0)
			return i;
	return fleet_n_fields;
}

/* A fact key "FIELD@SUBJECT" split: field (malloc'd) and subject (in key;
 * "" for a value of the whole group). */
struct fact_key {
	const char *key, *subject;
	char *field;
	size_t index;
};

static int fact_key_cmp(const void *a, const void *b)
{
	const struct fact_key *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if (strcmp(x->field, y->field))
		return strcmp(x->field, y->field);
	return strcmp(x->subject, y->subject);
}

/* What one group's judging gathers. */
struct judged {
	json_t *votes;		/* {field: {text: [count, value]}}: the group baseline */
	json_t *no_majority;
	struct odd *odds;
	size_t n_odds, cap_odds;
};

static int add_odd(struct judged *j, struct odd odd)
{
	struct odd *grown = growbuf_reserve(j->odds, &j->cap_odds, j->n_odds + 1, sizeof(*grown));

	if (!grown)
		return -1;
	j->odds = grown;
	j->odds[j->n_odds++] = odd;
	return 0;
}

static int vote(struct judged *j, const char *field, const char *text, json_t *value)
{
	json_t *by_text = json_object_get(j->votes, field), *v;

	if (!by_text) {
		by_text = json_object();
		if (json_object_set_new(j->votes, field, by_text) < 0)
			return -1;
	}
	v = json_object_get(by_text, text);
	if (v)
		return json_array_set_new(v, 0, json_integer(json_integer_value(
			json_array_get(v, 0)) + 1));
	return json_object_set_new(by_text, text, json_pack("[i, O]", 1, value));
}

/* Judge one value over a group's variants ({id: {"fields", "hosts"}}: the
 * hosts whose facts are one and the same object, as the store gives hosts
 * alike): each variant's value is looked at once, whatever its number of
 * hosts.  The outliers' host names live in the variants, which outlive
 * the sort. */
static int judge_value(const struct fact_key *fk, const json_t *variants, struct judged *j)
{
	size_t n = json_object_size(variants), n_sh = 0, i, k;
	struct share *sh = calloc(n ? n : 1, sizeof(*sh));
	json_t *texts = json_object(), *shares = json_object(), *var, *h;
	const char *id;
	int rc = -1;

	if (!sh || !texts || !shares)
		goto done;
	/* texts: {text: index into sh} */
	json_object_foreach((json_t *)variants, id, var) {
		json_t *v = json_object_get(json_object_get(var, "fields"), fk->key), *idx;
		size_t hosts = json_array_size(json_object_get(var, "hosts"));
		char *t;

		if (!v)
			continue;
		t = fleet_value_text(v);
		if (!t)
			goto done;
		idx = json_object_get(texts, t);
		if (idx) {
			sh[json_integer_value(idx)].hosts += hosts;
			free(t);
			continue;
		}
		if (json_object_set_new(texts, t, json_integer((json_int_t)n_sh)) < 0) {
			free(t);
			goto done;
		}
		sh[n_sh++] = (struct share){ t, v, hosts };
	}
	if (!n_sh) {
		rc = 0;
		goto done;
	}
	qsort(sh, n_sh, sizeof(*sh), share_cmp);
	for (i = 0; i < n_sh; i++)
		if (json_object_set_new(shares, sh[i].text, json_integer((json_int_t)sh[i].hosts)) < 0)
			goto done;
	if (n_sh > 1 && sh[0].hosts == sh[1].hosts) {
		/* a tie: neither value is the fleet's, no host is wrong */
		json_t *t = json_pack("{s:s, s:O}", "field", fk->field, "shares", shares);

		if (!t || (fk->subject[0] && json_object_set_new(t, "subject",
							  json_string(fk->subject)) < 0) ||
		    json_array_append_new(j->no_majority, t) < 0)
			goto done;
		rc = 0;
		goto done;
	}
	if (vote(j, fk->field, sh[0].text, sh[0].value) < 0)
		goto done;
	json_object_foreach((json_t *)variants, id, var) {
		json_t *v = json_object_get(json_object_get(var, "fields"), fk->key);
		char *t = v ? fleet_value_text(v) : NULL;
		bool same = t && strcmp(t, sh[0].text) == 0;

		free(t);
		if (!v || same)
			continue;
		if (!t)
			goto done;
		json_array_foreach(json_object_get(var, "hosts"), k, h) {
			json_t *o = json_pack("{s:O, s:s, s:O, s:O, s:O}", "host", h, "field",
					      fk->field, "value", v, "baseline", sh[0].value,
					      "shares", shares);

			if (!o || (fk->subject[0] &&
				   json_object_set_new(o, "subject", json_string(fk->subject)) < 0) ||
			    add_odd(j, (struct odd){ json_string_value(h), fk->index, fk->subject,
						    o }) < 0) {
				json_decref(o);
				goto done;
			}
		}
	}
	rc = 0;
done:
	for (i = 0; i < n_sh; i++)
		free(sh[i].text);
	free(sh);
	json_decref(texts);
	json_decref(shares);
	return rc;
}

/* The group's baseline per field: the baseline most of its NICs or ports
 * have (one value of the whole group: that value), in field order. */
static json_t *group_baseline(const json_t *votes)
{
	json_t *out = json_object();

	if (!out)
		return NULL;
	for (size_t f = 0; f < fleet_n_fields; f++) {
		const json_t *by_text = json_object_get(votes, fleet_field_names[f]);
		const json_t *best = NULL, *v;
		const char *t;

		json_object_foreach((json_t *)by_text, t, v) {
			if (!best || json_integer_value(json_array_get(v, 0)) >
				     json_integer_value(json_array_get(best, 0)))
				best = v;
		}
		if (best && json_object_set(out, fleet_field_names[f], json_array_get(best, 1)) < 0) {
			json_decref(out);
			return NULL;
		}
	}
	return out;
}


/* One group: {"hosts":{host:true}, "variants":{id:{"fields", "hosts"}},
 * "keys":{key:true}} in, its contract form out. */
static json_t *judge_group(const char *profile, const char *model, const char *ll, json_t *g)
{
	json_t *values = json_object_get(g, "keys"), *variants = json_object_get(g, "variants");
	json_t *hosts = fleet_sorted_key_array(json_object_get(g, "hosts"));
	json_t *outliers = json_array(), *baseline = NULL, *out = NULL, *v;
	struct judged j = { json_object(), json_array(), NULL, 0, 0 };
	struct fact_key *keys = calloc(json_object_size(values) + 1, sizeof(*keys));
	size_t n = 0, i, odd_hosts = 0;
	const char *k, *last = NULL;

	if (!hosts || !outliers || !j.votes || !j.no_majority || !keys)
		goto done;
	json_object_foreach(values, k, v) {
		const char *sep = strchr(k, FLEET_FACT_SEP);

		keys[n].key = k;
		keys[n].subject = sep ? sep + 1 : "";
		keys[n].field = sep ? strndup(k, (size_t)(sep - k)) : strdup(k);
		if (!keys[n].field)
			goto done;
		keys[n].index = field_index(keys[n].field);
		n++;
	}
	qsort(keys, n, sizeof(*keys), fact_key_cmp);
	for (i = 0; i < n; i++)
		if (judge_value(&keys[i], variants, &j) < 0)
			goto done;
	if (j.n_odds)
		qsort(j.odds, j.n_odds, sizeof(*j.odds), odd_cmp);
	for (i = 0; i < j.n_odds; i++) {
		if (json_array_append(outliers, j.odds[i].doc) < 0)
			goto done;
		if (!last || strcmp(last, j.odds[i].host) != 0)
			odd_hosts++;
		last = j.odds[i].host;
	}
	baseline = group_baseline(j.votes);
	if (!baseline)
		goto done;
	out = json_pack("{s:s, s:s, s:s, s:O, s:I, s:O, s:O, s:O}", "profile", profile,
			"nic_model", model, "link_layer", ll, "hosts", hosts,
			"hosts_differ", (json_int_t)odd_hosts, "baseline", baseline,
			"outliers", outliers, "no_majority", j.no_majority);
done:
	for (i = 0; i < j.n_odds; i++)
		json_decref(j.odds[i].doc);
	for (i = 0; i < n; i++)
		free(keys[i].field);
	free(keys);
	free(j.odds);
	json_decref(j.votes);
	json_decref(j.no_majority);
	json_decref(hosts);
	json_decref(baseline);
	json_decref(outliers);
	return out;
}

/* Record one host's facts into its groups, keyed "profile\x1fmodel\x1fll"
 * (sorts by profile, model, link layer): the host joins the variant of
 * its facts object (hosts alike share one), and the group learns the
 * object's keys once. */
static int add_host(json_t *groups, const json_t *entry, const char *host)
{
	const char *profile = json_string_value(json_object_get(entry, "profile"));
	const json_t *fm;
	json_t *v;
	const char *key;
	size_t i;

	if (!profile)
		profile = "(none)";
	json_array_foreach(json_object_get(entry, "facts"), i, fm) {
		const char *model = json_string_value(json_object_get(fm, "nic_model"));
		const char *ll = json_string_value(json_object_get(fm, "link_layer"));
		json_t *fields = json_object_get(fm, "fields"), *g, *variants, *var, *keys;
		char *gk, id[32];
		int rc;

		if (!model || !json_is_object(fields))
			continue;
		/* which switch each rail reaches differs host by host (a
		 * rail has many leaves): fleet_rails() judges it, not drift */
		if (fleet_group_is(fm, FLEET_RAILS_MODEL, FLEET_RAILS_LINK_LAYER))
			continue;
		/* who runs which firmware per PSID: fleet_firmware() shows it */
		if (fleet_group_is(fm, FLEET_FIRMWARE_MODEL, FLEET_FIRMWARE_LINK_LAYER))
			continue;
		if (asprintf(&gk, "%s\x1f%s\x1f%s", profile, model, ll ? ll : "unknown") < 0)
			return -1;
		g = fleet_json_child(groups, gk);
		free(gk);
		if (!g || !(variants = fleet_json_child(g, "variants")) ||
		    !fleet_json_child(g, "hosts") || !(keys = fleet_json_child(g, "keys")))
			return -1;
		if (json_object_set_new(json_object_get(g, "hosts"), host, json_true()) < 0)
			return -1;
		snprintf(id, sizeof(id), "%p", (void *)fields);
		var = json_object_get(variants, id);
		if (!var) {
			var = json_pack("{s:O, s:[]}", "fields", fields, "hosts");
			if (json_object_set_new(variants, id, var) < 0)
				return -1;
			json_object_foreach(fields, key, v) {
				rc = json_object_set_new(keys, key, json_true());
				if (rc < 0)
					return -1;
			}
		}
		if (json_array_append_new(json_object_get(var, "hosts"), json_string(host)) < 0)
			return -1;
	}
	return 0;
}

static json_t *profile_or_null(const json_t *v)
{
	return json_is_string(v) ? (json_t *)v : json_null();
}

/* Hosts whose latest profile is not the one of their record before. */
static int profile_change(json_t *changes, const json_t *entry, const char *host)
{
	const json_t *prev = json_object_get(entry, "previous_profile");
	const json_t *now = json_object_get(entry, "profile");

	if (!prev || json_equal(profile_or_null(prev), profile_or_null(now)))
		return 0;
	return json_array_append_new(changes, json_pack("{s:s, s:O, s:O}", "host", host,
		"from", profile_or_null(prev), "to", profile_or_null(now)));
}

/* machines: {"dmi\x1fgpus": {profile: {host: true}}} */
static int add_machine(json_t *machines, const json_t *entry, const char *host)
{
	const char *dmi = json_string_value(json_object_get(entry, "dmi_product"));
	const char *gpus = json_string_value(json_object_get(entry, "gpus"));
	const char *profile = json_string_value(json_object_get(entry, "profile"));
	json_t *m, *p;
	char *key;

	if (!dmi || !dmi[0] || !gpus)
		return 0;	/* no DMI product: nothing says two machines are alike */
	if (asprintf(&key, "%s\x1f%s", dmi, gpus) < 0)
		return -1;
	m = fleet_json_child(machines, key);
	free(key);
	p = m ? fleet_json_child(m, profile ? profile : "(none)") : NULL;
	return p ? json_object_set_new(p, host, json_true()) : -1;
}

static json_t *profile_splits(const json_t *machines)
{
	const char **keys = fleet_sorted_keys(machines);
	json_t *out = keys ? json_array() : NULL;

	for (size_t i = 0; out && keys[i]; i++) {
		const json_t *by_profile = json_object_get(machines, keys[i]);
		const char **profiles, *sep = strchr(keys[i], '\x1f');
		json_t *list, *split;

		if (json_object_size(by_profile) < 2)
			continue;
		profiles = fleet_sorted_keys(by_profile);
		list = profiles ? json_array() : NULL;
		for (size_t p = 0; list && profiles[p]; p++) {
			json_t *hosts = fleet_sorted_key_array(json_object_get(by_profile, profiles[p]));

			if (!hosts || json_array_append_new(list, json_pack("{s:s, s:o}", "profile",
					profiles[p], "hosts", hosts)) < 0) {
				json_decref(list);
				list = NULL;
			}
		}
		free(profiles);
		split = list ? json_pack("{s:s%, s:s, s:o}", "dmi_product", keys[i],
					 (size_t)(sep - keys[i]), "gpus", sep + 1, "profiles", list)
			     : NULL;
		if (json_array_append_new(out, split) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	free(keys);
	return out;
}

json_t *fleet_diff(const json_t *hosts)
{
	json_t *groups = json_object(), *out_groups = json_array(), *distinct = json_object();
	json_t *changes = json_array(), *machines = json_object(), *splits = NULL;
	json_t *out = NULL, *rails = NULL, *firmware = NULL, *e;
	const char **keys = NULL;
	size_t i, outliers = 0;

	if (!groups || !out_groups || !distinct || !changes || !machines)
		goto done;
	json_array_foreach(hosts, i, e) {
		const char *h = json_string_value(json_object_get(e, "host"));

		if (!h)
			continue;
		if (json_object_set_new(distinct, h, json_true()) < 0 || add_host(groups, e, h) < 0 ||
		    profile_change(changes, e, h) < 0 || add_machine(machines, e, h) < 0)
			goto done;
	}
	keys = fleet_sorted_keys(groups);
	splits = profile_splits(machines);
	if (!keys || !splits)
		goto done;
	for (i = 0; keys[i]; i++) {
		char *profile = strdup(keys[i]), *model, *ll;
		json_t *g;

		if (!profile)
			goto done;
		model = strchr(profile, '\x1f');
		*model++ = '\0';
		ll = strchr(model, '\x1f');
		*ll++ = '\0';
		g = judge_group(profile, model, ll, json_object_get(groups, keys[i]));
		free(profile);
		if (!g)
			goto done;
		outliers += json_array_size(json_object_get(g, "outliers"));
		if (json_array_append_new(out_groups, g) < 0)
			goto done;
	}
	rails = fleet_rails(hosts);
	if (!rails)
		goto done;
	firmware = fleet_firmware(hosts);
	if (!firmware)
		goto done;
	out = json_pack("{s:i, s:I, s:I, s:I, s:O, s:O, s:O, s:n, s:O, s:O}", "schema",
			FLEET_DIFF_SCHEMA, "hosts", (json_int_t)json_object_size(distinct),
			"hosts_differ", (json_int_t)0, "outliers", (json_int_t)outliers, "groups",
			out_groups, "profile_changes", changes, "profile_splits", splits, "fabric",
			"rails", rails, "firmware", firmware);
	if (out && json_object_set_new(out, "hosts_differ",
				       json_integer((json_int_t)fleet_diff_odd_hosts(out))) < 0) {
		json_decref(out);
		out = NULL;
	}
done:
	free(keys);
	json_decref(groups);
	json_decref(out_groups);
	json_decref(distinct);
	json_decref(changes);
	json_decref(machines);
	json_decref(splits);
	json_decref(rails);
	json_decref(firmware);
	return out;
}

json_t *fleet_diff_records(const json_t *records)
{
	json_t *hosts = json_array(), *r, *out = NULL;
	size_t i;

	if (!hosts)
		return NULL;
	json_array_foreach(records, i, r) {
		json_t *m = fleet_machine(r);
		json_t *e = m ? json_pack("{s:O?, s:O?, s:o, s:O, s:O}", "host",
					  json_object_get(r, "host"), "profile",
					  json_object_get(r, "profile"), "facts", fleet_facts(r),
					  "dmi_product", json_object_get(m, "dmi_product"),
					  "gpus", json_object_get(m, "gpus")) : NULL;

		json_decref(m);
		if (json_array_append_new(hosts, e) < 0)
			goto done;
	}
	out = fleet_diff(hosts);
done:
	json_decref(hosts);
	return out;
}

size_t fleet_diff_outliers(const json_t *diff)
{
	size_t i, n = 0;
	const json_t *g;

	json_array_foreach(json_object_get(diff, "groups"), i, g)
		n += json_array_size(json_object_get(g, "outliers"));
	return n;
}

size_t fleet_diff_group_odd_hosts(const json_t *group)
{
	const char *last = NULL;
	size_t i, n = 0;
	const json_t *o;

	/* outliers come sorted by host: count where the host changes */
	json_array_foreach(json_object_get(group, "outliers"), i, o) {
		const char *h = json_string_value(json_object_get(o, "host"));

		if (h && (!last || strcmp(h, last) != 0))
			n++;
		if (h)
			last = h;
	}
	return n;
}

static void mark(json_t *seen, const json_t *host)
{
	if (json_is_string(host))
		json_object_set_new(seen, json_string_value(host), json_true());
}

size_t fleet_diff_odd_hosts(const json_t *diff)
{
	json_t *seen = json_object();
	size_t i, j, k, n;
	const json_t *g, *o, *p, *h;

	if (!seen)
		return fleet_diff_outliers(diff);	/* out of memory: an upper bound */
	json_array_foreach(json_object_get(diff, "groups"), i, g)
		json_array_foreach(json_object_get(g, "outliers"), j, o)
			mark(seen, json_object_get(o, "host"));
	json_array_foreach(json_object_get(diff, "profile_changes"), i, o)
		mark(seen, json_object_get(o, "host"));
	/* a node of the fabric without a record is no host of the fleet */
	json_array_foreach(json_object_get(json_object_get(diff, "fabric"), "suspects"), i, o)
		if (!json_is_false(json_object_get(o, "recorded")))
			mark(seen, json_object_get(o, "host"));
	json_array_foreach(json_object_get(json_object_get(diff, "rails"), "findings"), i, o)
		mark(seen, json_object_get(o, "host"));
	/* of a split, the hosts of every profile but the one most have */
	json_array_foreach(json_object_get(diff, "profile_splits"), i, o) {
		size_t most = 0, best = 0;

		json_array_foreach(json_object_get(o, "profiles"), j, p)
			if (json_array_size(json_object_get(p, "hosts")) > most) {
				most = json_array_size(json_object_get(p, "hosts"));
				best = j;
			}
		json_array_foreach(json_object_get(o, "profiles"), j, p)
			if (j != best)
				json_array_foreach(json_object_get(p, "hosts"), k, h)
					mark(seen, h);
	}
	n = json_object_size(seen);
	json_decref(seen);
	return n;
}

size_t fleet_diff_fabric_unrecorded(const json_t *diff)
{
	json_t *seen = json_object();
	const json_t *o;
	size_t i, n;

	if (!seen)
		return 0;
	json_array_foreach(json_object_get(json_object_get(diff, "fabric"), "suspects"), i, o)
		if (json_is_false(json_object_get(o, "recorded")))
			mark(seen, json_object_get(o, "host"));
	n = json_object_size(seen);
	json_decref(seen);
	return n;
}

int fleet_diff_add_fabric(json_t *diff, const json_t *summary, const json_t *hosts)
{
	json_t *fabric = json_is_object(summary) ? json_deep_copy(summary) : json_null();
	json_t *known = json_object(), *x;
	const json_t *e;
	size_t i;
	int rc = -1;

	if (!fabric || !known)
		goto out;
	json_array_foreach(hosts, i, e)
		mark(known, json_object_get(e, "host"));
	json_array_foreach(json_object_get(fabric, "suspects"), i, x) {
		const char *h = json_string_value(json_object_get(x, "host"));

		if (json_object_set_new(x, "recorded",
					json_boolean(h && json_object_get(known, h))) < 0)
			goto out;
	}
	if (json_object_set(diff, "fabric", fabric) < 0)
		goto out;
	rc = json_object_set_new(diff, "hosts_differ",
				 json_integer((json_int_t)fleet_diff_odd_hosts(diff)));
out:
	json_decref(fabric);
	json_decref(known);
	return rc;
}
