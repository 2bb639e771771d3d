/* The baseline of one port (port_start.h). */
#include "port_start.h"

#include <stdlib.h>

void port_start_free(struct port_start *s)
{
	if (!s)
		return;
	counter_set_clear(&s->counters);
	counter_set_clear(&s->hw_counters);
	counter_set_clear(&s->eth_stats);
	counter_set_clear(&s->net_stats);
	free(s);
}
