/* Counts written on a command line: "70B", "8e9", "1.5T", "4096".
 * Suffixes are decimal, as model sizes are quoted: K 10^3, M 10^6,
 * B or G 10^9, T 10^12 (either case).  Nothing else follows the number:
 * no unit, no space, no second suffix. */
#ifndef RD_PLAN_COUNT_H
#define RD_PLAN_COUNT_H

#include <stddef.h>

/* A finite count greater than zero into *out; NULL, or why not in words
 * ("is not a number", "has an unknown suffix 'X'...", "must be more than
 * zero").  s may be any bytes up to its NUL. */
const char *plan_parse_count(const char *s, double *out);

/* The same, but a whole number from min to max ("8", "4K"). */
const char *plan_parse_whole(const char *s, long long min, long long max, long long *out);

#endif
