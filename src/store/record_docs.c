/* The --bw and --fabric documents of `record` (record_docs.h). */
#include "record_docs.h"
#include "record_read.h"
#include "../fleet/fabric.h"
#include "../fleet/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *record_read_bw(const char *const *files, size_t n, const char *host,
		       const char **bad, char *why, size_t len)
{
	struct doc_buf b = { 0 };
	json_t *bw = json_array();

	*bad = NULL;
	for (size_t i = 0; bw && i < n; i++) {
		char reason[512];
		time_t mtime;
		json_t *doc = record_read_doc(&b, files[i], false, &mtime, reason, sizeof(reason));

		if (doc && (fleet_bw_problem(doc, reason, sizeof(reason)) < 0 ||
			    fleet_bw_host_problem(doc, host, reason, sizeof(reason)) < 0)) {
			json_decref(doc);
			doc = NULL;
		}
		if (!doc) {
			snprintf(why, len, "%s%s", reason, strstr(reason, "measured on host") ?
				 " (give --host NAME when this machine is known by the name the "
				 "document gives)" : "");
			*bad = files[i];
			json_decref(bw);
			bw = NULL;
			break;
		}
		json_array_append_new(bw, doc);
	}
	free(b.buf);
	return bw;
}

json_t *record_read_fabric(const char *file, const char *host, bool *refused, char *why,
			   size_t len)
{
	struct doc_buf b = { 0 };
	time_t mtime;
	json_t *doc;

	*refused = false;
	if (!file)
		return json_array();
	/* the reasons of the documents' reader, as long as they were */
	doc = record_read_doc(&b, file, false, &mtime, why, len < 512 ? len : 512);
	free(b.buf);
	if (doc && fleet_fabric_problem(doc, why, len < 512 ? len : 512) < 0) {
		json_decref(doc);
		doc = NULL;
	}
	if (doc && !fleet_fabric_names(doc, host)) {
		snprintf(why, len < 512 ? len : 512, "it does not name host '%s' among its nodes (give --host "
			 "NAME when this machine is known there by another name)", host);
		json_decref(doc);
		doc = NULL;
	}
	if (!doc) {
		*refused = true;
		return NULL;
	}
	return json_pack("[o]", doc);
}
