/* What a rail of a bw test is expected to reach: the floor (the profile's
 * or the port rate's) and a report's expectation from it. */
#ifndef RD_BW_EXPECT_H
#define RD_BW_EXPECT_H

#include <stddef.h>

#include "report.h"

struct profile;

/* The bandwidth a verbs rail must reach when --expect-gbps is not given:
 * the profile's rail bw_floor_gbps where it has one (pr may be NULL), else
 * 90% of the slowest port rate (NVIDIA's pass line), else nothing.  1 with
 * *gbps and why set, or 0. */
int bw_floor(const struct profile *pr, double min_rate, double *gbps, char *why, size_t whysz);

/* The expectation of a report: expect_gbps (--expect-gbps; NAN: not
 * given) for every size, else for a verbs bandwidth test bw_floor under pr
 * (NULL: none) and min_rate at sizes of BW_EXPECT_MIN_BYTES and up, else
 * none.  why holds the words r->expect_why may point at. */
void bw_expectation(struct bw_report *r, double expect_gbps, const struct profile *pr,
		    double min_rate, char *why, size_t whysz);

#endif
