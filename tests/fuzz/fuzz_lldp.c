/* libFuzzer target: `lldpcli -f json show neighbors` (src/sysfs/lldp_parse.c),
 * live stdout or a snapshot's .rdmadoctor/lldp/neighbors.  Seeds in
 * corpus/lldp/ are the fixtures of tests/fixtures/lldp/. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/neighbor.h"
#include "sysfs/lldp_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lldp_table t;
	char *err = NULL;
	/* a copy of exactly the bytes, so ASan sees any overread */
	char *m = malloc(size ? size : 1);
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = lldp_parse(m, size, &t, &err);
	if (rc != 0 && rc != -EINVAL && rc != -ENOMEM)
		abort();
	/* a failure says why and gives nothing; a success says nothing */
	if ((rc == -EINVAL) != (err != NULL) || (rc != 0 && (t.n || t.v)))
		abort();
	for (size_t i = 0; i < t.n; i++) {
		const struct lldp_entry *e = &t.v[i];

		/* one neighbour, or none and why; names unique */
		if (!e->ifname || !*e->ifname || !e->heard || (e->neighbor == NULL) == (e->why == NULL))
			abort();
		if ((e->heard == 1) != (e->neighbor != NULL))
			abort();
		if (e->neighbor && !e->neighbor->system && !e->neighbor->port &&
		    !e->neighbor->chassis_id)
			abort();
		if (lldp_table_find(&t, e->ifname) != e)
			abort();
	}
	lldp_table_free(&t);
	free(err);
	free(m);
	return 0;
}
