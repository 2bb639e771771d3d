/* rail_ports (rails.h): count first, then fill, so the array is one
 * allocation of the right size. */
#include "rails.h"

#include <errno.h>
#include <stdlib.h>

struct rail_port *rail_ports(const struct inventory *inv, const enum nic_role *roles, size_t *n)
{
	struct rail_port *v;
	size_t count = 0, k = 0;

	*n = 0;
	if (!inv || !roles)
		return NULL;
	for (size_t i = 0; i < inv->n_nics; i++)
		if (roles[i] == ROLE_RAIL)
			count += inv->nics[i].n_ports;
	if (!count)
		return NULL;
	v = calloc(count, sizeof(*v));
	if (!v) {
		errno = ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t p = 0; roles[i] == ROLE_RAIL && p < inv->nics[i].n_ports; p++) {
			v[k].rail = k;
			v[k].nic = i;
			v[k].port = p;
			k++;
		}
	*n = count;
	return v;
}
