/* libFuzzer target: two directed-route SMP replies (src/sysfs/ib_smp_parse.c),
 * live from libibumad or a snapshot's .rdmadoctor/ibsmp/CA/PORT.  Seed in
 * corpus/ib_smp/: tests/fixtures/ibsmp/leaf17.raw (ibsim's real replies). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/neighbor.h"
#include "sysfs/ib_smp_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct neighbor *nb;
	char *why;
	/* a copy of exactly the bytes, so ASan sees any overread */
	uint8_t *m = malloc(size ? size : 1);
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = ib_smp_parse(m, size, &nb, &why);
	if (rc != 0 && rc != -EINVAL && rc != -ENOMEM)
		abort();
	/* a refusal says why and gives nothing; a neighbour has a port and a
	 * GUID, and its name, when any, begins no new line */
	if ((rc == -EINVAL) != (why != NULL) || (rc == 0) != (nb != NULL))
		abort();
	if (nb && (!nb->port || !nb->chassis_id || strlen(nb->chassis_id) != 18 ||
		   (nb->system && strpbrk(nb->system, "\n\r\t"))))
		abort();
	neighbor_free(nb);
	free(why);
	free(m);
	return 0;
}
