/* libFuzzer target: `npu-smi info -t health -i N -c C`
 * (src/ascend/npu_smi_health.c), live stdout or a snapshot's
 * .rdmadoctor/npu-smi/health-<N>-<C>.  Seeds in corpus/npu_smi_health/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ascend/npu_smi_health.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npu_smi_health h = { 0 };
	char *m = malloc(size ? size : 1);
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = npu_smi_parse_health(m, size, &h);
	/* a status read is a whole string, and only then is 0 returned */
	if ((rc == 0) != (h.status != NULL) || (h.status && !h.status[0]))
		abort();
	npu_smi_health_free(&h);
	free(m);
	return 0;
}
