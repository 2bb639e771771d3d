/* The floor a fabric run holds each rail and direction to. */
#ifndef RD_FABRIC_FLOOR_H
#define RD_FABRIC_FLOOR_H

#include <stddef.h>

#include "pair_test.h"

struct profile;

/* --expect-gbps (expect_gbps, NAN not given), else bw's rule (bw_floor):
 * the profile's bw_floor_gbps, else 90% of the port rate (min_rate) on
 * verbs, at sizes of 64 KiB and up.  The floor, NAN none; *why where it
 * comes from (NULL: none), in buf when it is bw_floor's. */
double fab_floor(double expect_gbps, const struct profile *pr, const struct fab_side *side,
		 double min_rate, char *buf, size_t bufsz, const char **why);

#endif
