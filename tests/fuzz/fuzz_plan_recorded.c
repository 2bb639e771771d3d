/* libFuzzer target: any bytes as a recorded check document, read back into
 * an inventory the planner plans on.  Whatever it reads must be freeable
 * and plannable: no rate that is negative or not finite. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "plan/recorded.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	struct inventory inv;

	if (!doc)
		return 0;
	plan_inventory_from_check(doc, &inv);
	for (size_t i = 0; i < inv.n_nics; i++)
		for (size_t k = 0; k < inv.nics[i].n_ports; k++) {
			double r = inv.nics[i].ports[k].rate_gbps;

			if (!isnan(r) && (!isfinite(r) || r < 0))
				abort();
		}
	inventory_free(&inv);
	json_decref(doc);
	return 0;
}
