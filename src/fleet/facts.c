/* One record's drift facts, per NIC model and link layer. */
#include "facts.h"
#include "fields.h"
#include "rails.h"
#include "firmware.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or(const json_t *v, const char *dflt)
{
	const char *s = json_string_value(v);

	return s && s[0] ? s : dflt;
}

/* Put every member of vals (taken) into fields as "KEY@subject". */
static int put_subject(json_t *fields, json_t *vals, const char *subject)
{
	const char *k;
	json_t *v;
	int rc = 0;

	if (!vals)
		return -1;
	json_object_foreach(vals, k, v) {
		char *key;

		if (asprintf(&key, "%s%c%s", k, FLEET_FACT_SEP, subject) < 0) {
			rc = -1;
			break;
		}
		rc = json_object_set(fields, key, v);
		free(key);
		if (rc < 0)
			break;
	}
	json_decref(vals);
	return rc;
}

static const char *nic_link_layer(const json_t *nic)
{
	return str_or(json_object_get(json_array_get(json_object_get(nic, "ports"), 0),
				      "link_layer"), "unknown");
}

/* The facts of the NICs of one model and link layer. */
static json_t *group_facts(const json_t *record, const char *model, const char *ll,
			   const json_t *nics)
{
	const json_t *check = json_object_get(record, "check");
	json_t *devices = json_object(), *fields = json_object(), *out = NULL, *nic, *port;
	json_t *host, *bw;
	size_t i, j, count = 0;

	if (!devices || !fields)
		goto done;
	json_array_foreach(nics, i, nic) {
		char subject[300];
		const char *name = json_string_value(json_object_get(nic, "name"));

		if (strcmp(str_or(json_object_get(nic, "model"), "unknown"), model) != 0 ||
		    strcmp(nic_link_layer(nic), ll) != 0)
			continue;
		count++;
		if (name)
			json_object_set_new(devices, name, json_true());
		else
			snprintf(subject, sizeof(subject), "nic %zu", i);
		if (name)
			snprintf(subject, sizeof(subject), "%.250s", name);
		if (put_subject(fields, fleet_nic_values(nic), subject) < 0)
			goto done;
		json_array_foreach(json_object_get(nic, "ports"), j, port) {
			char psub[320];
			const json_t *num = json_object_get(port, "port");

			snprintf(psub, sizeof(psub), "%s port %lld", subject,
				 json_is_integer(num) ? (long long)json_integer_value(num)
						      : (long long)j + 1);
			if (put_subject(fields, fleet_port_values(port), psub) < 0)
				goto done;
		}
	}
	host = fleet_host_values(check);
	if (!host || json_object_update(fields, host) < 0) {
		json_decref(host);
		goto done;
	}
	json_decref(host);
	json_object_set_new(fields, "nic_count", json_integer((json_int_t)count));
	bw = fleet_bw_gbps(json_object_get(record, "bw"), devices);
	if (bw)
		json_object_set_new(fields, "bw_gbps", bw);
	out = json_pack("{s:s, s:s, s:O}", "nic_model", model, "link_layer", ll, "fields", fields);
done:
	json_decref(devices);
	json_decref(fields);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of obj, sorted (jansson keeps insertion order), in *n; the
 * array is malloc'd, the strings are obj's.  NULL on OOM. */
static const char **sorted_keys(json_t *obj, size_t *n)
{
	const char **names = calloc(json_object_size(obj) + 1, sizeof(*names));
	const char *k;
	json_t *v;

	*n = 0;
	if (!names)
		return NULL;
	json_object_foreach(obj, k, v)
		names[(*n)++] = k;
	qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

/* The facts of the Ascend NPUs of one model: each NPU and its one on-chip
 * port is the subject "npuN" (N the id hccn_tool takes). */
static json_t *npu_group_facts(const char *model, const json_t *npus)
{
	json_t *fields = json_object(), *out = NULL, *npu;
	size_t i, count = 0;

	if (!fields)
		return NULL;
	json_array_foreach(npus, i, npu) {
		char subject[40];
		const json_t *id = json_object_get(npu, "id");

		if (strcmp(str_or(json_object_get(npu, "model"), "unknown"), model) != 0)
			continue;
		count++;
		if (json_is_integer(id))
			snprintf(subject, sizeof(subject), "npu%lld", (long long)json_integer_value(id));
		else
			snprintf(subject, sizeof(subject), "npu #%zu", i);
		if (put_subject(fields, fleet_npu_values(npu), subject) < 0)
			goto done;
	}
	json_object_set_new(fields, "npu_count", json_integer((json_int_t)count));
	out = json_pack("{s:s, s:s, s:O}", "nic_model", model, "link_layer", FLEET_NPU_LINK_LAYER,
			"fields", fields);
done:
	json_decref(fields);
	return out;
}

/* One group per NPU model, sorted by model, appended to out. */
static int npu_facts(const json_t *record, json_t *out)
{
	const json_t *npus = json_object_get(json_object_get(json_object_get(json_object_get(
		record, "check"), "inventory"), "npus"), "devices");
	json_t *models = json_object(), *npu;
	const char **names = NULL;
	size_t i, n = 0;
	int rc = -1;

	if (!models)
		return -1;
	json_array_foreach(npus, i, npu)
		if (json_object_set_new(models, str_or(json_object_get(npu, "model"), "unknown"),
					json_true()) < 0)
			goto done;
	names = sorted_keys(models, &n);
	if (!names)
		goto done;
	for (i = 0; i < n; i++)
		if (json_array_append_new(out, npu_group_facts(names[i], npus)) < 0)
			goto done;
	rc = 0;
done:
	free(names);
	json_decref(models);
	return rc;
}

json_t *fleet_facts(const json_t *record)
{
	const json_t *nics = json_object_get(
		json_object_get(json_object_get(record, "check"), "inventory"), "nics");
	json_t *keys = json_object(), *out = json_array(), *nic;
	const char **names = NULL;
	size_t i, n = 0;

	if (!keys || !out)
		goto fail;
	/* "model\x1flink layer": sorts by model, then link layer */
	json_array_foreach(nics, i, nic) {
		char *key;
		int rc;

		if (asprintf(&key, "%s\x1f%s", str_or(json_object_get(nic, "model"), "unknown"),
			     nic_link_layer(nic)) < 0)
			goto fail;
		rc = json_object_set_new(keys, key, json_true());
		free(key);
		if (rc < 0)
			goto fail;
	}
	names = sorted_keys(keys, &n);
	if (!names)
		goto fail;
	for (i = 0; i < n; i++) {
		char *model = strdup(names[i]), *ll;

		if (!model)
			goto fail;
		ll = strchr(model, '\x1f');
		*ll++ = '\0';
		if (json_array_append_new(out, group_facts(record, model, ll, nics)) < 0) {
			free(model);
			goto fail;
		}
		free(model);
	}
	if (npu_facts(record, out) < 0)
		goto fail;
	/* the rails' switches ride with the drift facts (fleet/rails.h) */
	{
		json_t *rails;

		if (fleet_rails_facts(record, &rails) < 0 ||
		    (rails && json_array_append_new(out, rails) < 0))
			goto fail;
	}
	/* and each board's PSID and firmware (fleet/firmware.h) */
	{
		json_t *boards;

		if (fleet_firmware_facts(record, &boards) < 0 ||
		    (boards && json_array_append_new(out, boards) < 0))
			goto fail;
	}
	free(names);
	json_decref(keys);
	return out;
fail:
	free(names);
	json_decref(keys);
	json_decref(out);
	return NULL;
}

/* One more of the accelerator's model ("unknown" without one). */
static int count_model(json_t *models, const json_t *acc)
{
	const char *m = str_or(json_object_get(acc, "model"), "unknown");
	json_int_t n = json_integer_value(json_object_get(models, m));

	return json_object_set_new(models, m, json_integer(n + 1));
}

json_t *fleet_machine(const json_t *record)
{
	const json_t *inv = json_object_get(json_object_get(record, "check"), "inventory");
	const json_t *dmi = json_object_get(json_object_get(inv, "host"), "dmi_product");
	json_t *models = json_object(), *g, *v, *out = NULL;
	const char *k;
	char *text = NULL;
	size_t i, len = 0;
	FILE *f;

	if (!models)
		return NULL;
	/* the accelerators: GPUs and Ascend NPUs, counted per model alike */
	json_array_foreach(json_object_get(inv, "gpus"), i, g)
		if (count_model(models, g) < 0)
			goto done;
	json_array_foreach(json_object_get(json_object_get(inv, "npus"), "devices"), i, g)
		if (count_model(models, g) < 0)
			goto done;
	f = open_memstream(&text, &len);
	if (!f)
		goto done;
	/* jansson keeps insertion order: sort for the same text every time */
	{
		const char **names = calloc(json_object_size(models) + 1, sizeof(*names));
		size_t n = 0;

		if (!names) {
			fclose(f);
			goto done;
		}
		json_object_foreach(models, k, v)
			names[n++] = k;
		qsort(names, n, sizeof(*names), cmp_str);
		for (i = 0; i < n; i++)
			fprintf(f, "%s%lldx %s", i ? ", " : "",
				(long long)json_integer_value(json_object_get(models, names[i])),
				names[i]);
		if (!n)
			fputs("none", f);
		free(names);
	}
	if (fclose(f) != 0)
		goto done;
	out = json_pack("{s:O, s:s}", "dmi_product", json_is_string(dmi) ? dmi : json_null(),
			"gpus", text);
done:
	free(text);
	json_decref(models);
	return out;
}
