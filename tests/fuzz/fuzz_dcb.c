/* libFuzzer target: DCB netlink replies (src/nl/dcb.c), live bytes or a
 * snapshot's .rdmadoctor/dcb/<netdev> file.  Seeds in corpus/dcb/ come
 * from tests/nl/test_dcb.c (RD_DCB_CORPUS=DIR). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nl/dcb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so ASan sees any overread */
	uint8_t *m = malloc(size ? size : 1);
	struct dcb_info d;
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = dcb_parse_ieee(m, size, &d);
	if (rc == 0) {
		if (d.trust_dscp != 0 && d.trust_dscp != 1)
			abort();
		for (int i = 0; i < 64; i++)
			if (d.dscp_to_prio[i] < -1 || d.dscp_to_prio[i] > 7)
				abort();
	} else if (rc > 0 || rc <= -4096) {
		abort();
	} else if (rc != -EOPNOTSUPP && (d.trust_dscp || d.n_app || d.has_pfc)) {
		abort();	/* a refused message leaves nothing behind */
	}
	free(m);
	return 0;
}
