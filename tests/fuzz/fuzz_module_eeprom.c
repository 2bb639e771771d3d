/* libFuzzer target: ethtool netlink MODULE_EEPROM_GET and nlctrl family
 * replies (src/nl/module_eeprom.c), and the page plan over whatever bytes
 * a reply carried.  Seeds in corpus/module_eeprom/ come from
 * tests/nl/test_module_eeprom.c (RD_MODULE_EEPROM_CORPUS=DIR). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nl/module_eeprom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so ASan sees any overread */
	uint8_t *m = malloc(size ? size : 1);
	uint8_t page[MODULE_EEPROM_READ_MAX];
	struct module_eeprom_req req[MODULE_EEPROM_PLAN_MAX];
	size_t n = 0, np;
	uint16_t id;
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = module_eeprom_parse_reply(m, size, 23, page, sizeof(page), &n);
	if (rc > 0 || rc <= -4096 || (rc < 0 && n != 0) || (rc == 0 && (n == 0 || n > sizeof(page))))
		abort();
	if (rc == 0) {
		np = module_eeprom_plan(page, n, req, MODULE_EEPROM_PLAN_MAX);
		if (np > MODULE_EEPROM_PLAN_MAX)
			abort();
		for (size_t i = 0; i < np; i++)
			if (req[i].len == 0 || (size_t)req[i].offset + req[i].len > 256)
				abort();
	}
	rc = module_eeprom_parse_family(m, size, &id);
	if (rc > 0 || rc <= -4096 || (rc == 0 && id == 0))
		abort();
	free(m);
	return 0;
}
