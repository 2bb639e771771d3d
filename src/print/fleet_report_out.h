/* What `fleet report` says it wrote: one line for people, or its --json
 * document. */
#ifndef RD_PRINT_FLEET_REPORT_OUT_H
#define RD_PRINT_FLEET_REPORT_OUT_H

#include <jansson.h>
#include <stdio.h>

/* html: the page's file; records: the hosts on it; diff: fleet_diff()'s. */
void text_fleet_report(FILE *out, const char *html, const json_t *records, const json_t *diff);
/* NULL when out of memory. */
json_t *fleet_report_json(const char *html, const json_t *records, const json_t *diff);

#endif
