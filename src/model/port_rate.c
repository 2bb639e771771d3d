#include "port_rate.h"
#include "inventory.h"

#include <string.h>

double port_data_gbps(const struct port *p, double gbps)
{
	static const struct {
		const char *speed;
		double data_per_signal;
	} codes[] = {
		{ "SDR", 8.0 / 10 }, { "DDR", 8.0 / 10 }, { "QDR", 8.0 / 10 },
		/* named 14 Gb/s a lane, signalled at 14.0625 GBd */
		{ "FDR", 14.0625 / 14 * 64 / 66 },
	};

	const char *speed = p->rate_speed;

	if (!p->link_layer || strcmp(p->link_layer, "InfiniBand") != 0)
		return gbps;
	/* a rate read without its name: kernels before 4.15 left SDR's out */
	if (!speed && !IS_NA(p->lanes))
		speed = "SDR";
	for (size_t i = 0; speed && i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(speed, codes[i].speed) == 0)
			return gbps * codes[i].data_per_signal;
	return gbps;
}
