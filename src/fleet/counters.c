/* Counters flattened per port, and what changed between two checks. */
#include "counters.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int put_counters(json_t *into, const json_t *obj, const char *prefix)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		char name[300];

		if (!json_is_integer(v))
			continue;
		snprintf(name, sizeof(name), "%s%.250s", prefix, k);
		if (json_object_set(into, name, v) < 0)
			return -1;
	}
	return 0;
}

/* One integer member of obj (a count kept beside the counters) as name. */
static int put_one(json_t *into, const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_integer(v) ? json_object_set(into, key, (json_t *)v) : 0;
}

/* The totals of a port's FEC statistics (link.fec.stats) as
 * "fec:corrected_blocks", "fec:uncorrectable_blocks", "fec:corrected_bits". */
static int put_fec(json_t *into, const json_t *port)
{
	static const char *const keys[] = { "corrected_blocks", "uncorrectable_blocks",
					    "corrected_bits" };
	const json_t *stats = json_object_get(json_object_get(json_object_get(port, "link"),
							      "fec"), "stats");

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const json_t *v = json_object_get(json_object_get(stats, keys[i]), "total");
		char name[40];

		snprintf(name, sizeof(name), "fec:%s", keys[i]);
		if (json_is_integer(v) && json_object_set(into, name, (json_t *)v) < 0)
			return -1;
	}
	return 0;
}

/* Each Ascend NPU port as "npu<id>": its hccn_tool -stat counters and its
 * link-up count. */
static int put_npus(json_t *out, const json_t *check)
{
	const json_t *devs = json_object_get(json_object_get(json_object_get(check, "inventory"),
							     "npus"), "devices");
	json_t *npu;
	size_t i;

	json_array_foreach(devs, i, npu) {
		const json_t *port = json_object_get(npu, "port");
		json_t *c = json_object();
		char subject[40];

		snprintf(subject, sizeof(subject), "npu%lld",
			 (long long)json_integer_value(json_object_get(npu, "id")));
		if (!c || put_counters(c, json_object_get(port, "stat"), "") < 0 ||
		    put_one(c, port, "link_up_count") < 0 ||
		    (json_object_size(c) && json_object_set(out, subject, c) < 0)) {
			json_decref(c);
			return -1;
		}
		json_decref(c);
	}
	return 0;
}

json_t *fleet_counters(const json_t *check)
{
	const json_t *nics = json_object_get(json_object_get(check, "inventory"), "nics");
	json_t *out = json_object(), *nic, *port;
	size_t i, j;

	if (!out)
		return NULL;
	if (put_npus(out, check) < 0) {
		json_decref(out);
		return NULL;
	}
	json_array_foreach(nics, i, nic) {
		const char *name = json_string_value(json_object_get(nic, "name"));

		json_array_foreach(json_object_get(nic, "ports"), j, port) {
			char subject[300];
			json_t *c = json_object();

			snprintf(subject, sizeof(subject), "%.250s port %lld", name ? name : "?",
				 (long long)json_integer_value(json_object_get(port, "port")));
			if (!c || put_counters(c, json_object_get(port, "counters"), "") < 0 ||
			    put_counters(c, json_object_get(port, "hw_counters"), "hw:") < 0 ||
			    put_counters(c, json_object_get(port, "ethtool_stats"), "eth:") < 0 ||
			    put_one(c, port, "carrier_changes") < 0 || put_fec(c, port) < 0 ||
			    (json_object_size(c) && json_object_set(out, subject, c) < 0)) {
				json_decref(c);
				json_decref(out);
				return NULL;
			}
			json_decref(c);
		}
	}
	return out;
}

json_t *fleet_counter_deltas(const json_t *old, const json_t *new)
{
	json_t *out = json_object(), *c, *v;
	const char *subject, *k;

	if (!out)
		return NULL;
	json_object_foreach((json_t *)new, subject, c) {
		const json_t *was = json_object_get(old, subject);
		json_t *d = json_object();

		if (!d)
			goto fail;
		json_object_foreach(c, k, v) {
			json_int_t now = json_integer_value(v);
			json_int_t before = json_integer_value(json_object_get(was, k));
			json_t *delta;

			if (now == before)
				continue;
			delta = now > before ? json_integer(now - before)
					     : json_pack("{s:I}", "reset", now);
			if (json_object_set_new(d, k, delta) < 0) {
				json_decref(d);
				goto fail;
			}
		}
		if (json_object_size(d) && json_object_set(out, subject, d) < 0) {
			json_decref(d);
			goto fail;
		}
		json_decref(d);
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

json_t *fleet_counters_changed(const json_t *base, const json_t *now)
{
	json_t *out = json_object(), *c, *v;
	const char *subject, *k;

	if (!out)
		return NULL;
	json_object_foreach((json_t *)now, subject, c) {
		const json_t *was = json_object_get(base, subject);
		json_t *d = NULL;

		json_object_foreach(c, k, v) {
			if (json_equal(v, json_object_get(was, k)))
				continue;
			if (!d && (!(d = json_object()) || json_object_set_new(out, subject, d) < 0))
				goto fail;
			if (json_object_set(d, k, v) < 0)
				goto fail;
		}
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

json_t *fleet_counters_overlay(const json_t *base, const json_t *changed)
{
	json_t *out = json_deep_copy(base), *c;
	const char *subject;

	if (!out)
		return NULL;
	json_object_foreach((json_t *)changed, subject, c) {
		json_t *into = json_object_get(out, subject);

		if (!into) {
			into = json_object();
			if (json_object_set_new(out, subject, into) < 0)
				goto fail;
		}
		if (!json_is_object(c) || json_object_update(into, c) < 0)
			goto fail;
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

static bool dropped(const char *key, const char *const *drop)
{
	for (size_t i = 0; drop[i]; i++)
		if (strcmp(key, drop[i]) == 0)
			return true;
	return false;
}

json_t *fleet_without(const json_t *doc, const char *const *drop)
{
	json_t *out, *v;
	const char *k;
	size_t i;

	if (json_is_object(doc)) {
		out = json_object();
		json_object_foreach((json_t *)doc, k, v) {
			json_t *c;

			if (!out)
				return NULL;
			if (dropped(k, drop))
				continue;
			c = fleet_without(v, drop);
			if (!c || json_object_set_new(out, k, c) < 0) {
				json_decref(out);
				return NULL;
			}
		}
		return out;
	}
	if (json_is_array(doc)) {
		out = json_array();
		json_array_foreach(doc, i, v) {
			if (!out || json_array_append_new(out, fleet_without(v, drop)) < 0) {
				json_decref(out);
				return NULL;
			}
		}
		return out;
	}
	return json_incref((json_t *)doc);
}
