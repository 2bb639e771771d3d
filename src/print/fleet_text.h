/* The fleet documents for people.  Printers only: the documents are those
 * of `fleet ls|show|diff --json`, the stream should filter control
 * characters (safe_stream.h: host names come from other machines). */
#ifndef RD_OUT_FLEET_TEXT_H
#define RD_OUT_FLEET_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* {"hosts": store_hosts()} */
void fleet_text_ls(FILE *out, const json_t *ls);
/* {"host", "records": [{time, profile, verdict, findings}], "changes"} */
void fleet_text_show(FILE *out, const json_t *show);
void fleet_text_diff(FILE *out, const json_t *diff);

#endif
