/* Majority baselines and the hosts that differ from them. */
#include "diff.h"
#include "facts.h"
#include "fields.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One value of a field in a group: its text, the value, how many hosts. */
struct share {
	char *text;
	json_t *value;
	size_t hosts;
};

static int share_cmp(const void *a, const void *b)
{
	const struct share *x = a, *y = b;
	bool xn = json_is_null(x->value), yn = json_is_null(y->value);

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	if (xn != yn)
		return xn ? 1 : -1;
	return strcmp(x->text, y->text);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* An outlier waiting to be sorted: host, then field order. */
struct odd {
	const char *host;
	size_t field;
	json_t *doc;
};

static int odd_cmp(const void *a, const void *b)
{
	const struct odd *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (c)
		return c;
	return x->field < y->field ? -1 : x->field > y->field;
}

/* Fill baseline and outliers of one field.  by_host: {host: value}. */
static int judge_field(size_t f, json_t *by_host, json_t *baseline, struct odd **odds,
		       size_t *n_odds, size_t *cap_odds)
{
	size_t n = json_object_size(by_host), n_sh = 0, i;
	struct share *sh = calloc(n ? n : 1, sizeof(*sh));
	json_t *texts = json_object(), *shares = json_object(), *v;
	const char *host;
	int rc = -1;

	if (!sh || !texts || !shares)
		goto done;
	/* texts: {text: index into sh} */
	json_object_foreach(by_host, host, v) {
		char *t = fleet_value_text(v);
		json_t *idx;

		if (!t)
			goto done;
		idx = json_object_get(texts, t);
		if (idx) {
			sh[json_integer_value(idx)].hosts++;
			free(t);
			continue;
		}
		if (json_object_set_new(texts, t, json_integer((json_int_t)n_sh)) < 0) {
			free(t);
			goto done;
		}
		sh[n_sh++] = (struct share){ t, v, 1 };
	}
	qsort(sh, n_sh, sizeof(*sh), share_cmp);
	for (i = 0; i < n_sh; i++)
		if (json_object_set_new(shares, sh[i].text, json_integer((json_int_t)sh[i].hosts)) < 0)
			goto done;
	if (json_object_set(baseline, fleet_field_names[f], sh[0].value) < 0)
		goto done;
	json_object_foreach(by_host, host, v) {
		char *t = fleet_value_text(v);
		json_t *o;
		bool same = t && strcmp(t, sh[0].text) == 0;

		free(t);
		if (!t)
			goto done;
		if (same)
			continue;
		o = json_pack("{s:s, s:s, s:O, s:O, s:O}", "host", host,
			      "field", fleet_field_names[f], "value", v,
			      "baseline", sh[0].value, "shares", shares);
		if (!o)
			goto done;
		if (*n_odds == *cap_odds) {
			size_t cap = *cap_odds ? *cap_odds * 2 : 16;
			struct odd *grown = realloc(*odds, cap * sizeof(**odds));

			if (!grown) {
				json_decref(o);
				goto done;
			}
			*odds = grown;
			*cap_odds = cap;
		}
		/* the host name lives in by_host, which outlives the sort */
		(*odds)[(*n_odds)++] = (struct odd){ host, f, o };
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

/* One group: {"hosts":{host:true}, "values":{field:{host:value}}} in,
 * its contract form out. */
static json_t *judge_group(const char *profile, const char *model, json_t *g)
{
	json_t *hosts_set = json_object_get(g, "hosts"), *values = json_object_get(g, "values");
	json_t *hosts = json_array(), *baseline = json_object(), *outliers = json_array();
	json_t *out = NULL, *v;
	struct odd *odds = NULL;
	size_t n_odds = 0, cap = 0, n = 0, i;
	const char **names = calloc(json_object_size(hosts_set) + 1, sizeof(*names));
	const char *h;

	if (!hosts || !baseline || !outliers || !names)
		goto done;
	json_object_foreach(hosts_set, h, v)
		names[n++] = h;
	qsort(names, n, sizeof(*names), str_cmp);
	for (i = 0; i < n; i++)
		if (json_array_append_new(hosts, json_string(names[i])) < 0)
			goto done;
	for (size_t f = 0; f < fleet_n_fields; f++) {
		json_t *by_host = json_object_get(values, fleet_field_names[f]);

		if (by_host && judge_field(f, by_host, baseline, &odds, &n_odds, &cap) < 0)
			goto done;
	}
	if (n_odds)
		qsort(odds, n_odds, sizeof(*odds), odd_cmp);
	for (i = 0; i < n_odds; i++) {
		if (json_array_append(outliers, odds[i].doc) < 0)
			goto done;
	}
	out = json_pack("{s:s, s:s, s:O, s:O, s:O}", "profile", profile, "nic_model", model,
			"hosts", hosts, "baseline", baseline, "outliers", outliers);
done:
	for (i = 0; i < n_odds; i++)
		json_decref(odds[i].doc);
	free(odds);
	free(names);
	json_decref(hosts);
	json_decref(baseline);
	json_decref(outliers);
	return out;
}

/* Record one host's facts into its groups: groups[profile][model]. */
static int add_host(json_t *groups, const json_t *entry)
{
	const char *host = json_string_value(json_object_get(entry, "host"));
	const char *profile = json_string_value(json_object_get(entry, "profile"));
	const json_t *facts = json_object_get(entry, "facts"), *fm;
	json_t *v;
	const char *field;
	size_t i;

	if (!host)
		return 0;
	if (!profile)
		profile = "(none)";
	json_array_foreach(facts, i, fm) {
		const char *model = json_string_value(json_object_get(fm, "nic_model"));
		json_t *by_model = json_object_get(groups, profile), *g, *values;

		if (!model)
			continue;
		if (!by_model) {
			by_model = json_object();
			if (json_object_set_new(groups, profile, by_model) < 0)
				return -1;
		}
		g = json_object_get(by_model, model);
		if (!g) {
			g = json_pack("{s:{}, s:{}}", "hosts", "values");
			if (json_object_set_new(by_model, model, g) < 0)
				return -1;
		}
		if (json_object_set_new(json_object_get(g, "hosts"), host, json_true()) < 0)
			return -1;
		values = json_object_get(g, "values");
		json_object_foreach(json_object_get(fm, "fields"), field, v) {
			json_t *by_host = json_object_get(values, field);

			if (!by_host) {
				by_host = json_object();
				if (json_object_set_new(values, field, by_host) < 0)
					return -1;
			}
			if (json_object_set(by_host, host, v) < 0)
				return -1;
		}
	}
	return 0;
}

/* The keys of an object, sorted; NULL-terminated, malloc'd. */
static const char **sorted_keys(const json_t *obj)
{
	const char **keys = calloc(json_object_size(obj) + 1, sizeof(*keys));
	const char *k;
	json_t *v;
	size_t n = 0;

	if (!keys)
		return NULL;
	json_object_foreach((json_t *)obj, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof(*keys), str_cmp);
	return keys;
}

json_t *fleet_diff(const json_t *hosts)
{
	json_t *groups = json_object(), *out_groups = json_array(), *distinct = json_object();
	json_t *out = NULL, *e;
	const char **profiles = NULL;
	size_t i;

	if (!groups || !out_groups || !distinct)
		goto done;
	json_array_foreach(hosts, i, e) {
		const char *h = json_string_value(json_object_get(e, "host"));

		if (h && json_object_set_new(distinct, h, json_true()) < 0)
			goto done;
		if (add_host(groups, e) < 0)
			goto done;
	}
	profiles = sorted_keys(groups);
	if (!profiles)
		goto done;
	for (i = 0; profiles[i]; i++) {
		json_t *by_model = json_object_get(groups, profiles[i]);
		const char **models = sorted_keys(by_model);

		if (!models)
			goto done;
		for (size_t m = 0; models[m]; m++) {
			json_t *g = judge_group(profiles[i], models[m],
						json_object_get(by_model, models[m]));

			if (json_array_append_new(out_groups, g) < 0) {
				free(models);
				goto done;
			}
		}
		free(models);
	}
	out = json_pack("{s:i, s:I, s:O}", "schema", FLEET_DIFF_SCHEMA,
			"hosts", (json_int_t)json_object_size(distinct), "groups", out_groups);
done:
	free(profiles);
	json_decref(groups);
	json_decref(out_groups);
	json_decref(distinct);
	return out;
}

json_t *fleet_diff_records(const json_t *records)
{
	json_t *hosts = json_array(), *r, *out = NULL;
	size_t i;

	if (!hosts)
		return NULL;
	json_array_foreach(records, i, r) {
		json_t *e = json_pack("{s:O?, s:O?, s:o}", "host", json_object_get(r, "host"),
				      "profile", json_object_get(r, "profile"),
				      "facts", fleet_facts(r));

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

size_t fleet_diff_odd_hosts(const json_t *diff)
{
	json_t *seen = json_object();
	size_t i, j, n;
	const json_t *g, *o;

	if (!seen)
		return fleet_diff_outliers(diff);	/* out of memory: an upper bound */
	json_array_foreach(json_object_get(diff, "groups"), i, g)
		json_array_foreach(json_object_get(g, "outliers"), j, o) {
			const char *h = json_string_value(json_object_get(o, "host"));

			if (h)
				json_object_set_new(seen, h, json_true());
		}
	n = json_object_size(seen);
	json_decref(seen);
	return n;
}
