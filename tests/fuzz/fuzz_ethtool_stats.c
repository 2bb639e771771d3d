/* libFuzzer target: ethtool statistics payloads (src/nl/ethtool_stats.c),
 * live bytes or a snapshot's .rdmadoctor/ethtool/<netdev>/{strings,stats}.
 * Input: u32 (host order) length of the strings payload, the strings
 * payload, then the stats payload; the count is what the strings header
 * says, as in replay.  Seeds in corpus/ethtool_stats/ come from
 * tests/nl/test_ethtool_stats.c (RD_ETHTOOL_STATS_CORPUS=DIR). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nl/ethtool_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct counter_set out = { 0 };
	uint8_t *s, *v;
	uint32_t slen32;
	size_t slen, vlen;
	int64_t count;
	int rc;

	if (size < 4)
		return 0;
	memcpy(&slen32, data, 4);
	data += 4;
	size -= 4;
	slen = slen32 < size ? slen32 : size;
	vlen = size - slen;
	/* copies of exactly the sizes, so ASan sees any overread */
	s = malloc(slen ? slen : 1);
	v = malloc(vlen ? vlen : 1);
	if (!s || !v)
		abort();
	memcpy(s, data, slen);
	memcpy(v, data + slen, vlen);
	count = ethtool_stats_count_of(s, slen);
	if (count >= 0 && count <= UINT32_MAX) {
		rc = ethtool_stats_parse(s, slen, v, vlen, (uint32_t)count, &out);
		if (rc == 0) {
			if (!out.v || out.n != (size_t)count)
				abort();
			for (size_t i = 0; i < out.n; i++) {
				size_t n = strlen(out.v[i].name);

				if (n == 0 || n >= 32 || !out.v[i].ok)
					abort();
				for (size_t k = 0; k < n; k++)
					if (out.v[i].name[k] < 0x20 || out.v[i].name[k] > 0x7e)
						abort();
				free(out.v[i].name);
			}
			free(out.v);
		} else if (rc != -EINVAL && rc != -E2BIG && rc != -ENOMEM) {
			abort();
		} else if (out.v || out.n) {
			abort();	/* a refused payload leaves nothing behind */
		}
	}
	free(s);
	free(v);
	return 0;
}
