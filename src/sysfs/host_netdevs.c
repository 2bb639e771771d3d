/* The host's network interfaces and their state (host_netdevs.h). */
#include "host_netdevs.h"
#include "attr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* operstate "up"; "unknown" (lo, some virtual devices) counts as up when
 * the carrier is there, as `ip link` shows such a device UP */
static int state_of(struct root *r, const char *name)
{
	char dir[64];
	char *op;
	int up = -1;

	if (snprintf(dir, sizeof(dir), "sys/class/net/%s", name) >= (int)sizeof(dir))
		return -1;
	op = attr_str(r, dir, "operstate");
	if (op && strcmp(op, "up") == 0)
		up = 1;
	else if (op && strcmp(op, "unknown") == 0)
		up = attr_s64(r, dir, "carrier") == 1 ? 1 : -1;
	else if (op)
		up = 0;
	free(op);
	return up;
}

int host_netdevs_read(struct root *r, struct host_netdev **out, size_t *n)
{
	char **names = NULL;
	size_t k = 0;
	struct host_netdev *v;

	*out = NULL;
	*n = 0;
	if (root_list(r, "sys/class/net", &names, &k) < 0)
		return 1;
	v = calloc(k ? k : 1, sizeof(*v));
	for (size_t i = 0; v && i < k; i++) {
		if (!(v[i].name = strdup(names[i]))) {
			host_netdevs_free(v, i);
			v = NULL;
			break;
		}
		v[i].up = state_of(r, names[i]);
	}
	root_free_list(names, k);
	if (!v)
		return -ENOMEM;
	*out = v;
	*n = k;
	return 0;
}
