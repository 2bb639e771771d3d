#include "gid_choice.h"

#include <string.h>

const struct gid *gid_recommended(const struct port *p)
{
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct gid *g = &p->gids[i];

		if (g->type && strcmp(g->type, "RoCE v2") == 0 && g->ipv4[0])
			return g;
	}
	return NULL;
}
