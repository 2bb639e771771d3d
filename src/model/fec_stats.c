#include "fec_stats.h"

#include <string.h>

void fec_stats_init(struct fec_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->have = -1;
}

bool fec_stats_any(const struct fec_stats *s)
{
	for (int k = 0; k < FEC_COUNTERS; k++)
		if (s->c[k].n)
			return true;
	return s->n_hist > 0;
}

const char *fec_counter_name(enum fec_counter k)
{
	static const char *const names[FEC_COUNTERS] = {
		"corrected_blocks", "uncorrectable_blocks", "corrected_bits",
	};

	return k < FEC_COUNTERS ? names[k] : NULL;
}
