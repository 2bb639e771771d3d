/* libFuzzer target: any bytes as a lib/modules/<release>/modules.dep
 * (src/model/drv_stack.c drv_dep_find), the way it is read from a machine or
 * a snapshot.  A path found names the module asked for and lies inside the
 * input.  Seed: the RDMA lines of Debian 12's 6.1.0-57-amd64 modules.dep
 * (corpus/modules_dep). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/drv_stack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "mlx5_core", "ib_core", "nvidia_peermem", "a" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = NULL;

		if (drv_dep_find((const char *)data, size, names[i], &p))
			continue;
		if (p) {
			size_t l = strlen(p);

			if (l > size || !drv_path_names(p, l, names[i]))
				abort();
			(void)drv_source_of(p);
			(void)drv_compression(p);
		}
		free(p);
	}
	return 0;
}
