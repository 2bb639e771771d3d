/* libFuzzer target: the texts fabric ranks read from each other through
 * PMIx (src/fabric/wire.c): endpoints and results.  Seeds in
 * corpus/fabric_wire/.  Whatever decodes must satisfy the documented
 * bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fab_endpoint ep;
	struct fab_results res;
	char err[200];

	if (fab_endpoint_decode((const char *)data, size, &ep, err, sizeof(err)) == 0) {
		if (ep.port == 0 || ep.n_rails == 0 || ep.n_rails > 32 ||
		    strlen(ep.name) > FAB_NAME_MAX || strlen(ep.addr) > FAB_ADDR_MAX)
			abort();
	}
	if (fab_results_decode((const char *)data, size, 1, 16, 16, 4, &res, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < res.n; i++)
			if (res.r[i].a != 1 || res.r[i].b >= 16 || res.r[i].b == 1 ||
			    res.r[i].round >= 16 || res.r[i].rail >= 4 ||
			    (res.r[i].error && strlen(res.r[i].error) > FAB_ERROR_MAX))
				abort();
		fab_results_free(&res);
	}
	return 0;
}
