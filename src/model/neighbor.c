/* The neighbour struct's memory (model/neighbor.h). */
#include "neighbor.h"

#include <stdlib.h>
#include <string.h>

void neighbor_free(struct neighbor *n)
{
	if (!n)
		return;
	free(n->system);
	free(n->port);
	free(n->chassis_id);
	free(n);
}

static int dup_str(char **to, const char *from)
{
	*to = NULL;
	if (!from)
		return 0;
	*to = strdup(from);
	return *to ? 0 : -1;
}

struct neighbor *neighbor_dup(const struct neighbor *n)
{
	struct neighbor *d;

	if (!n || !(d = calloc(1, sizeof(*d))))
		return NULL;
	d->source = n->source;
	if (dup_str(&d->system, n->system) || dup_str(&d->port, n->port) ||
	    dup_str(&d->chassis_id, n->chassis_id)) {
		neighbor_free(d);
		return NULL;
	}
	return d;
}
