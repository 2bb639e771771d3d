/* libFuzzer target: any bytes as a snapshot's recorded NVML fabric answer
 * (.rdmadoctor/nvml/<bdf>, src/nvml/fabric_text.c).  An answer taken is
 * written back and read again to the same values; the links stay within
 * NVML's 18 and the active ones among those answered. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvml/fabric_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpu_fabric f, g;
	char buf[NVML_FABRIC_TEXT_MAX];
	size_t n;

	if (nvml_fabric_parse(data, size, &f) != 0)
		return 0;
	if (f.n_links > NVLINK_MAX_LINKS || (f.active & ~f.answered) ||
	    (f.answered >> NVLINK_MAX_LINKS))
		abort();
	n = nvml_fabric_format(&f, buf, sizeof(buf));
	if (nvml_fabric_parse(buf, n, &g) != 0 || g.state != f.state || g.status != f.status ||
	    g.clique != f.clique || memcmp(g.cluster, f.cluster, sizeof(f.cluster)) ||
	    g.answered != f.answered || g.active != f.active || g.n_links != f.n_links)
		abort();
	return 0;
}
