/* This host's record for `record` (record_doc.h). */
#include "record_doc.h"
#include "check_doc.h"
#include "exit.h"
#include "../fleet/record.h"
#include "../store/record_docs.h"

#include <stdio.h>
#include <time.h>

int record_document(struct ctx *c, const struct record_ask *a, json_t **rec)
{
	char stamp[FLEET_TIME_LEN], why[1024];
	json_t *check = NULL, *bw = NULL, *fabric = NULL;
	const char *host, *bad;
	bool refused;
	int rc;

	*rec = NULL;
	rc = check_document(c, "record", a->profile, &check);
	if (rc != EXIT_OK)
		return rc;
	host = a->host ? a->host : json_string_value(json_object_get(json_object_get(
		json_object_get(check, "inventory"), "host"), "hostname"));
	rc = EXIT_USAGE;
	if (a->host && !fleet_host_valid(a->host)) {
		fprintf(stderr, "%s record: --host '%s': give a host name of 1 to 255 characters, "
			"no control characters\n", c->prog, a->host);
		goto out;
	}
	bw = record_read_bw(a->bw, a->n_bw, host ? host : "", &bad, why, sizeof(why));
	if (!bw && bad)
		fprintf(stderr, "%s record: --bw '%s': %s\n", c->prog, bad, why);
	fabric = bw ? record_read_fabric(a->fabric, host ? host : "", &refused, why,
					 sizeof(why)) : NULL;
	if (bw && !fabric && refused)
		fprintf(stderr, "%s record: --fabric '%s': %s\n", c->prog, a->fabric, why);
	if (!fabric)
		goto out;
	rc = EXIT_RUNTIME;
	if (!fleet_time_format(time(NULL), stamp)) {
		fprintf(stderr, "%s: the clock is out of range\n", c->prog);
		goto out;
	}
	*rec = fleet_record_with(check, stamp, bw, fabric, a->host);
	check = bw = NULL;	/* taken */
	if (*rec)
		rc = EXIT_OK;
	else
		fprintf(stderr, "%s: out of memory\n", c->prog);
out:
	json_decref(fabric);
	json_decref(bw);
	json_decref(check);
	return rc;
}
