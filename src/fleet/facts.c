/* One record's drift facts, per NIC model. */
#include "facts.h"
#include "fields.h"

#include <stdlib.h>
#include <string.h>

/* Add every member of vals to the per-field sets in sets:
 * sets[field][text] = value. */
static int collect(json_t *sets, json_t *vals)
{
	const char *field;
	json_t *v;

	if (!vals)
		return -1;
	json_object_foreach(vals, field, v) {
		json_t *set = json_object_get(sets, field);
		char *text = fleet_value_text(v);

		if (!text)
			goto fail;
		if (!set) {
			set = json_object();
			if (!set || json_object_set_new(sets, field, set) < 0) {
				free(text);
				goto fail;
			}
		}
		json_object_set(set, text, v);
		free(text);
	}
	json_decref(vals);
	return 0;
fail:
	json_decref(vals);
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One value from a set of distinct ones: itself, or their texts joined. */
static json_t *reduce(json_t *set)
{
	size_t n = json_object_size(set), i = 0, len = 1;
	const char **keys;
	const char *k;
	json_t *v, *out;
	char *buf;

	if (n == 1) {
		json_object_foreach(set, k, v)
			return json_incref(v);
	}
	keys = calloc(n, sizeof(*keys));
	if (!keys)
		return NULL;
	json_object_foreach(set, k, v) {
		keys[i++] = k;
		len += strlen(k) + 2;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	buf = malloc(len);
	if (!buf) {
		free(keys);
		return NULL;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, ", ");
		strcat(buf, keys[i]);
	}
	out = json_string(buf);
	free(buf);
	free(keys);
	return out;
}

static json_t *model_facts(const json_t *record, const char *model, const json_t *nics)
{
	const json_t *check = json_object_get(record, "check");
	json_t *sets = json_object(), *devices = json_object(), *fields = json_object();
	json_t *out = NULL, *nic, *port, *set, *bw;
	size_t i, j, count = 0;
	const char *field;

	if (!sets || !devices || !fields)
		goto done;
	json_array_foreach(nics, i, nic) {
		const char *m = json_string_value(json_object_get(nic, "model"));
		const char *name = json_string_value(json_object_get(nic, "name"));

		if (strcmp(m ? m : "unknown", model) != 0)
			continue;
		count++;
		if (name)
			json_object_set_new(devices, name, json_true());
		if (collect(sets, fleet_nic_values(nic)) < 0)
			goto done;
		json_array_foreach(json_object_get(nic, "ports"), j, port)
			if (collect(sets, fleet_port_values(port)) < 0)
				goto done;
	}
	if (collect(sets, fleet_host_values(check)) < 0)
		goto done;
	json_object_foreach(sets, field, set) {
		json_t *v = reduce(set);

		if (!v || json_object_set_new(fields, field, v) < 0)
			goto done;
	}
	json_object_set_new(fields, "nic_count", json_integer((json_int_t)count));
	bw = fleet_bw_gbps(json_object_get(record, "bw"), devices);
	if (bw)
		json_object_set_new(fields, "bw_gbps", bw);
	out = json_pack("{s:s, s:O}", "nic_model", model, "fields", fields);
done:
	json_decref(sets);
	json_decref(devices);
	json_decref(fields);
	return out;
}

json_t *fleet_facts(const json_t *record)
{
	const json_t *nics = json_object_get(
		json_object_get(json_object_get(record, "check"), "inventory"), "nics");
	json_t *models = json_object(), *out = json_array(), *nic;
	const char **names = NULL;
	const char *m;
	size_t i, n = 0;

	if (!models || !out)
		goto fail;
	json_array_foreach(nics, i, nic) {
		m = json_string_value(json_object_get(nic, "model"));
		if (json_object_set_new(models, m ? m : "unknown", json_true()) < 0)
			goto fail;
	}
	names = calloc(json_object_size(models) + 1, sizeof(*names));
	if (!names)
		goto fail;
	json_object_foreach(models, m, nic)
		names[n++] = m;
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		if (json_array_append_new(out, model_facts(record, names[i], nics)) < 0)
			goto fail;
	free(names);
	json_decref(models);
	return out;
fail:
	free(names);
	json_decref(models);
	json_decref(out);
	return NULL;
}
