/* The bw/lat report: one JSON document (keys carry their units; other
 * tools consume it, so the shape is fixed) and text like perftest's table,
 * in decimal Gb/s. */
#ifndef RD_OUT_BW_OUT_H
#define RD_OUT_BW_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../bw/loopback.h"
#include "../bw/report.h"

#define BW_SCHEMA 1

json_t *bw_report_to_json(const struct bw_report *r);
void bw_report_print(FILE *out, const struct bw_report *r);

/* bw --loopback: pair k's report as a bw document with role loopback and
 * pair {from, to} (NULL: out of memory); its text, a line naming the pair
 * and the report; the whole run's document around the pairs' (taking
 * pairs over; verdict "pass", "fail" or "error", reason NULL or empty:
 * none). */
json_t *bw_loopback_pair_json(const struct bw_loopback *L, size_t k, const struct bw_report *r);
void bw_loopback_pair_print(FILE *out, const struct bw_loopback *L, size_t k,
			    const struct bw_report *r);
json_t *bw_loopback_json(json_t *pairs, const char *verdict, const char *reason);

#endif
