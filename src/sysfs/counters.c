#include "counters.h"
#include "attr.h"
#include "ib.h"
#include "../model/window.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int sample_port(struct root *r, const struct nic *n, struct port *pt)
{
	char *dir;
	int rc;

	counter_set_clear(&pt->counters);
	counter_set_clear(&pt->hw_counters);
	if (asprintf(&dir, "sys/class/infiniband/%s/ports/%d/counters", n->name, pt->num) < 0)
		return -ENOMEM;
	rc = ib_read_counter_dir(r, dir, &pt->counters, true);
	free(dir);
	if (rc < 0)
		return rc;
	if (asprintf(&dir, "sys/class/infiniband/%s/ports/%d/hw_counters", n->name,
		     pt->num) < 0)
		return -ENOMEM;
	rc = ib_read_counter_dir(r, dir, &pt->hw_counters, false);
	free(dir);
	if (rc < 0)
		return rc;
	pt->carrier_changes = NA;
	if (pt->netdev) {
		if (asprintf(&dir, "sys/class/net/%s", pt->netdev) < 0)
			return -ENOMEM;
		pt->carrier_changes = attr_s64(r, dir, "carrier_changes");
		free(dir);
	}
	return 0;
}

int counters_sample(struct root *r, struct inventory *inv)
{
	root_forget_files(r);
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		if (!n->name)
			continue;
		for (size_t k = 0; k < n->n_ports; k++) {
			int rc = sample_port(r, n, &inv->nics[i].ports[k]);

			if (rc < 0)
				return rc;
		}
	}
	return 0;
}
