/* The floor of a fabric run (floor.h). */
#include "floor.h"
#include "../bw/expect.h"

#include <math.h>

double fab_floor(double expect_gbps, const struct profile *pr, const struct fab_side *side,
		 double min_rate, char *buf, size_t bufsz, const char **why)
{
	double f = NAN;

	*why = NULL;
	if (isfinite(expect_gbps)) {
		*why = "--expect-gbps";
		return expect_gbps;
	}
	if (side->p.size < BW_EXPECT_MIN_BYTES)
		return NAN;
	if (bw_floor(pr, side->transport == BW_TRANSPORT_VERBS ? min_rate : NAN, &f, buf,
		     bufsz)) {
		*why = buf;
		return f;
	}
	return NAN;
}
