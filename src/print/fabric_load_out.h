/* fabric --load's part of the report (fabric/report.h's fab_load_report):
 * the JSON keys `load`, `rounds[].counters` and `verdicts` added to the
 * fabric document (docs/json/fabric.md), and the text's receivers, rails
 * and evidence. */
#ifndef RD_OUT_FABRIC_LOAD_OUT_H
#define RD_OUT_FABRIC_LOAD_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../fabric/report.h"

/* Add the load keys to doc (fab_report_to_json's, whose `rounds` it
 * fills in), and its verdict and reason.  0, or -1 (no memory). */
int fab_load_json_add(json_t *doc, const struct fab_report *r);
/* The text after the header line: receivers, rails, evidence. */
void fab_load_print(FILE *out, const struct fab_report *r);
/* The verdict ("pass", "fail", "error") and reason of a load run. */
const char *fab_load_verdict_of(const struct fab_report *r);
const char *fab_load_reason_of(const struct fab_report *r);

#endif
