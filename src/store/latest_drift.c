/* The drift of the latest records (latest_drift.h). */
#include "latest_drift.h"
#include "../fleet/diff.h"

#include <errno.h>
#include <stdint.h>

int store_latest_drift(struct store *s, json_t **diff, size_t *n_hosts)
{
	json_t *hosts, *fabric;

	*diff = NULL;
	*n_hosts = SIZE_MAX;
	if (store_latest_facts(s, &hosts) < 0)
		return -EIO;
	*n_hosts = json_array_size(hosts);
	if (store_latest_fabric(s, &fabric) < 0) {
		json_decref(hosts);
		return -EIO;
	}
	*diff = fleet_diff(hosts);
	/* the fabric's nodes that have no record are no hosts of the fleet */
	if (!*diff || fleet_diff_add_fabric(*diff, fabric, hosts) < 0) {
		json_decref(*diff);
		*diff = NULL;
		json_decref(fabric);
		json_decref(hosts);
		return -ENOMEM;
	}
	json_decref(fabric);
	json_decref(hosts);
	return 0;
}
