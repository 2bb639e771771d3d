/* libFuzzer target: ethtool netlink LINKMODES_GET and FEC_GET replies and
 * their bitsets (src/nl/link_modes.c), for the kernel's family id and for
 * a snapshot's (any).  Seeds in corpus/link_modes/ come from
 * tests/nl/test_link_modes.c (RD_LINK_MODES_CORPUS=DIR). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/link_modes.h"
#include "nl/link_modes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct link_info *l)
{
	if (l->linkmodes < -1 || l->linkmodes > 1 || l->autoneg < -1 || l->autoneg > 1 ||
	    l->duplex < -1 || l->duplex > 1 || l->fec < -1 || l->fec > 1)
		abort();
	if (l->fec_active != -1 && !link_fec_name(l->fec_active))
		abort();
	if (!IS_NA(l->speed_mbps) && l->speed_mbps <= 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so ASan sees any overread */
	uint8_t *m = malloc(size ? size : 1);
	uint32_t v[LINK_MODE_WORDS], k[LINK_MODE_WORDS];
	struct link_info l;
	bool nomask;
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	for (uint16_t fam = 0; fam < 24; fam += 23) {
		link_info_init(&l);
		rc = ethnl_parse_linkmodes(m, size, fam, &l);
		if (rc > 0 || rc <= -4096 || (rc < 0 && l.linkmodes != -1) ||
		    (rc == 0 && l.linkmodes != 1))
			abort();
		check(&l);
		rc = ethnl_parse_fec(m, size, fam, &l);
		if (rc > 0 || rc <= -4096 || (rc == 0 && l.fec != 1))
			abort();
		check(&l);
	}
	/* the bytes as one bitset's payload */
	rc = ethnl_parse_bitset(m, size, v, k, LINK_MODE_WORDS, &nomask);
	if (rc > 0)
		abort();
	free(m);
	return 0;
}
