/* The words for a rate (module_apps.h). */
#include "module_apps.h"

#include <math.h>
#include <stdio.h>

void module_rate_kind(char *buf, size_t len, double gbps, bool ib)
{
	static const struct { double g; const char *n; } ibs[] = {
		{ 10, "SDR" }, { 20, "DDR" }, { 40, "QDR" }, { 56, "FDR" }, { 100, "EDR" },
		{ 200, "HDR" }, { 400, "NDR" }, { 800, "XDR" },
	};

	if (!buf || !len)
		return;
	for (size_t i = 0; ib && i < sizeof(ibs) / sizeof(ibs[0]); i++)
		if (fabs(gbps - ibs[i].g) < 0.5) {
			snprintf(buf, len, "%s (%gG)", ibs[i].n, gbps);
			return;
		}
	snprintf(buf, len, "%gG", gbps);
}
