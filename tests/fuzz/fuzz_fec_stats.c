/* libFuzzer target: the ETHTOOL_A_FEC_STATS nest of a FEC_GET reply
 * (src/nl/fec_stats.c), its payload alone.  Whole replies with the nest
 * reach it through fuzz_link_modes too.  Seeds in corpus/fec_stats/ come
 * from tests/nl/test_link_modes.c (RD_FEC_STATS_CORPUS=DIR). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nl/fec_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so ASan sees any overread */
	uint8_t *m = malloc(size ? size : 1);
	struct fec_stats s, before;
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	fec_stats_init(&s);
	before = s;
	rc = ethnl_parse_fec_stats(m, size, &s);
	if (rc != 0 && rc != -22)
		abort();
	/* a refusal leaves s as it was; a success keeps every bound */
	if (rc != 0 && memcmp(&s, &before, sizeof(s)) != 0)
		abort();
	if (rc == 0) {
		if (s.have != 1 || s.n_hist > FEC_HIST_MAX)
			abort();
		for (int k = 0; k < FEC_COUNTERS; k++)
			if (s.c[k].n > 1 + FEC_LANES_MAX)
				abort();
		for (size_t i = 0; i < s.n_hist; i++)
			if (s.hist[i].n_lanes > FEC_LANES_MAX || s.hist[i].low > s.hist[i].high)
				abort();
	}
	free(m);
	return 0;
}
