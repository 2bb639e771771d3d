/* The fabric report (fabric/report.h): one JSON document whatever failed
 * (docs/json/fabric.md), and text with the verdict first, then the
 * suspects with their evidence, the per-rail summary and the slowest
 * pairs.  The plan rank 0 prints before the rounds is here too. */
#ifndef RD_OUT_FABRIC_OUT_H
#define RD_OUT_FABRIC_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../fabric/report.h"

json_t *fab_report_to_json(const struct fab_report *r);
void fab_report_print(FILE *out, const struct fab_report *r);
/* The plan: nodes, rounds with their pairs, rails, the expected length. */
void fab_plan_print(FILE *out, const struct fab_report *r);
/* "name-name" of a pair (the subject of a pair suspect). */
void fab_pair_name(const struct fab_report *r, uint32_t a, uint32_t b, char *out, size_t outsz);

#endif
