/* A record made ready to store: what the store keeps of it, computed
 * before any transaction (no database needed here). */
#include "sha256.h"
#include "store.h"
#include "../fleet/counters.h"
#include "../fleet/fabric.h"
#include "../fleet/facts.h"
#include "../fleet/skim.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_string(const json_t *v)
{
	const char *s = json_string_value(v);

	return s ? strdup(s) : NULL;
}

void store_row_free(struct store_row *row)
{
	free(row->host);
	free(row->time);
	free(row->profile);
	free(row->verdict);
	free(row->dmi_product);
	free(row->gpus);
	free(row->fabric);
	free(row->text);
	free(row->counters);
	json_decref(row->facts);
	memset(row, 0, sizeof(*row));
}

/* The JSON text s (valid: fleet_skim checked it) without the white space
 * between its tokens, in place; its new length.  `check --json` is
 * indented and the record `record` makes is compact: one check, two
 * spellings, which must not be two contents (record --from of a host's
 * check after its live record).  A compact text is left as it is, so its
 * fingerprint is the one it always had. */
static size_t squeeze_blanks(char *s, size_t len)
{
	bool in_string = false, escaped = false;
	size_t out = 0;

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (in_string) {
			if (escaped)
				escaped = false;
			else if (ch == '\\')
				escaped = true;
			else if (ch == '"')
				in_string = false;
		} else if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			continue;
		} else if (ch == '"') {
			in_string = true;
		}
		s[out++] = ch;
	}
	return out;
}

int store_row_content(const char *text, char out[65])
{
	char *slim, why[200];
	size_t len;
	int rc = fleet_skim(text, strlen(text), fleet_skim_volatile, &slim, &len, why, sizeof(why));

	if (rc < 0)
		return rc == -ENOMEM ? -ENOMEM : -EBADMSG;
	len = squeeze_blanks(slim, len);
	sha256_hex(slim, len, out);
	free(slim);
	return 0;
}

int store_row_make(const json_t *record, char *text, struct store_row *row)
{
	const json_t *profile = json_object_get(record, "profile");
	const json_t *verdict = json_object_get(record, "verdict");
	json_t *machine = fleet_machine(record), *fabric;
	json_t *counters = fleet_counters(json_object_get(record, "check"));
	int rc = 0;

	memset(row, 0, sizeof(*row));
	row->text = text ? text : json_dumps(record, JSON_COMPACT);
	row->host = dup_string(json_object_get(record, "host"));
	row->time = dup_string(json_object_get(record, "time"));
	row->profile = dup_string(profile);
	row->verdict = dup_string(verdict);
	row->dmi_product = dup_string(json_object_get(machine, "dmi_product"));
	row->gpus = dup_string(json_object_get(machine, "gpus"));
	row->findings = (long long)json_array_size(
		json_object_get(json_object_get(record, "check"), "findings"));
	row->facts = fleet_facts(record);
	row->counters = counters ? json_dumps(counters, JSON_COMPACT) : NULL;
	json_decref(counters);
	fabric = json_array_get(json_object_get(record, "fabric"),
				json_array_size(json_object_get(record, "fabric")) - 1);
	if (fabric) {
		json_t *sum = fleet_fabric_summary(fabric, row->time ? row->time : "");

		row->fabric = sum ? json_dumps(sum, JSON_COMPACT) : NULL;
		json_decref(sum);
	}
	if (row->text)
		rc = store_row_content(row->text, row->content);
	if (!row->text || !row->host || !row->time || !row->facts || !machine || !row->gpus ||
	    !row->counters ||
	    rc < 0 || (json_is_string(profile) && !row->profile) ||
	    (json_is_string(verdict) && !row->verdict) ||
	    (json_is_string(json_object_get(machine, "dmi_product")) && !row->dmi_product) ||
	    (fabric && !row->fabric)) {
		json_decref(machine);
		store_row_free(row);
		return -ENOMEM;
	}
	json_decref(machine);
	return 0;
}
