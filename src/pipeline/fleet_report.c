/* What `fleet report` draws (fleet_report.h). */
#include "fleet_report.h"
#include "fleet_series.h"
#include "../fleet/skim.h"
#include "../store/latest_drift.h"

#include <errno.h>

int fleet_report_load(struct store *s, json_t **records, json_t **diff)
{
	size_t n_hosts;
	int err;

	*records = *diff = NULL;
	/* the page shows no counters of a record, GID tables, GPUs: leave
	 * them out of the trees (fleet_skim_bulk); the counters it draws are
	 * the series of the seen checks (fleet_add_series) */
	if (store_latest(s, fleet_skim_bulk, records) < 0)
		return -EIO;
	err = store_latest_drift(s, diff, &n_hosts);
	if (err < 0)
		return err;
	if (!json_array_size(*records))
		return -ENOENT;
	return fleet_add_series(s, *records);
}
