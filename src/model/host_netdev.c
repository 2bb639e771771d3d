/* A list of host interfaces' memory (host_netdev.h). */
#include "host_netdev.h"

#include <stdlib.h>

void host_netdevs_free(struct host_netdev *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}
