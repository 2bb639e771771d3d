/* The bw/lat report: one JSON document (keys carry their units; other
 * tools consume it, so the shape is fixed) and text like perftest's table,
 * in decimal Gb/s. */
#ifndef RD_OUT_BW_OUT_H
#define RD_OUT_BW_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../bw/report.h"

#define BW_SCHEMA 1

json_t *bw_report_to_json(const struct bw_report *r);
void bw_report_print(FILE *out, const struct bw_report *r);

#endif
