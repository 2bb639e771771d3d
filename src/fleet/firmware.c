/* Which hosts run which firmware, per PSID (fleet/firmware.h). */
#include "firmware.h"
#include "fact_group.h"
#include "json_keys.h"

#include <stdlib.h>
#include <string.h>

int fleet_firmware_facts(const json_t *record, json_t **group)
{
	const json_t *nics = json_object_get(
		json_object_get(json_object_get(record, "check"), "inventory"), "nics");
	const json_t *nic;
	json_t *fields;
	size_t i;

	*group = NULL;
	fields = json_object();
	if (!fields)
		return -1;
	json_array_foreach(nics, i, nic) {
		const char *name = json_string_value(json_object_get(nic, "name"));
		const char *psid = json_string_value(json_object_get(nic, "board_id"));
		const char *fw = json_string_value(json_object_get(nic, "fw_ver"));

		if (!name || !name[0] || !psid || !psid[0])
			continue;
		if (json_object_set_new(fields, name, json_pack("{s:s, s:o}", "psid", psid, "fw",
								fw && fw[0] ? json_string(fw) :
									      json_null())) < 0) {
			json_decref(fields);
			return -1;
		}
	}
	return fleet_group_make(fields, FLEET_FIRMWARE_MODEL, FLEET_FIRMWARE_LINK_LAYER, group);
}

/* by_psid: {psid: {version or "" (not read): {host: true}}} */
static int count_host(json_t *by_psid, json_t *psid_hosts, const char *host,
		      const json_t *boards)
{
	const char *nic;
	json_t *b;

	json_object_foreach((json_t *)boards, nic, b) {
		const char *psid = json_string_value(json_object_get(b, "psid"));
		const char *fw = json_string_value(json_object_get(b, "fw"));
		json_t *vers, *hs, *ph;

		if (!psid || !psid[0])
			continue;
		if (!(vers = fleet_json_child(by_psid, psid)) ||
		    !(hs = fleet_json_child(vers, fw ? fw : "")) ||
		    !(ph = fleet_json_child(psid_hosts, psid)))
			return -1;
		if (json_object_set_new(hs, host, json_true()) < 0 ||
		    json_object_set_new(ph, host, json_true()) < 0)
			return -1;
	}
	return 0;
}

struct version_row {
	const char *version;	/* "" not read */
	size_t hosts;
};

/* most hosts first, then in version order, not read last */
static int by_hosts_version(const void *pa, const void *pb)
{
	const struct version_row *a = pa, *b = pb;

	if (a->hosts != b->hosts)
		return a->hosts > b->hosts ? -1 : 1;
	if (!a->version[0] != !b->version[0])
		return a->version[0] ? -1 : 1;
	return strverscmp(a->version, b->version);
}

static json_t *psid_entry(const char *psid, const json_t *vers, const json_t *hosts)
{
	struct version_row *rows = calloc(json_object_size(vers) + 1, sizeof(*rows));
	json_t *list = json_array(), *out = NULL;
	const char *k;
	json_t *v;
	size_t n = 0;

	if (!rows || !list)
		goto done;
	json_object_foreach((json_t *)vers, k, v)
		rows[n++] = (struct version_row){ k, json_object_size(v) };
	qsort(rows, n, sizeof(*rows), by_hosts_version);
	for (size_t i = 0; i < n; i++) {
		json_t *names = fleet_sorted_key_array(json_object_get(vers, rows[i].version));

		if (!names || json_array_append_new(list, json_pack("{s:o, s:I, s:o}", "version",
			rows[i].version[0] ? json_string(rows[i].version) : json_null(), "hosts",
			(json_int_t)rows[i].hosts, "host_names", names)) < 0)
			goto done;
	}
	out = json_pack("{s:s, s:I, s:O}", "psid", psid, "hosts",
			(json_int_t)json_object_size(hosts), "versions", list);
done:
	free(rows);
	json_decref(list);
	return out;
}

json_t *fleet_firmware(const json_t *hosts)
{
	json_t *by_psid = json_object(), *psid_hosts = json_object(), *psids = json_array();
	json_t *out = NULL, *e;
	const char **keys = NULL;
	size_t i, n_hosts = 0;

	if (!by_psid || !psid_hosts || !psids)
		goto done;
	json_array_foreach(hosts, i, e) {
		const char *h = json_string_value(json_object_get(e, "host"));
		const json_t *boards = fleet_group_fields(e, FLEET_FIRMWARE_MODEL,
							  FLEET_FIRMWARE_LINK_LAYER);

		if (!h || !boards)
			continue;
		n_hosts++;
		if (count_host(by_psid, psid_hosts, h, boards) < 0)
			goto done;
	}
	if (!n_hosts) {
		out = json_null();
		goto done;
	}
	keys = fleet_sorted_keys(by_psid);
	if (!keys)
		goto done;
	for (i = 0; keys[i]; i++)
		if (json_array_append_new(psids, psid_entry(keys[i], json_object_get(by_psid, keys[i]),
							    json_object_get(psid_hosts, keys[i]))) < 0)
			goto done;
	out = json_pack("{s:I, s:O}", "hosts", (json_int_t)n_hosts, "psids", psids);
done:
	free(keys);
	json_decref(by_psid);
	json_decref(psid_hosts);
	json_decref(psids);
	return out;
}
