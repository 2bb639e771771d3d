#include "port_guid.h"

bool port_guid(const struct port *p, uint64_t *guid)
{
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct gid *g = &p->gids[i];

		if (g->index != 0)
			continue;
		*guid = 0;
		for (int b = 8; b < 16; b++)
			*guid = *guid << 8 | g->raw[b];
		return true;
	}
	return false;
}
