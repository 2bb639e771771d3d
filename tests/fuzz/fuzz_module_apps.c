/* libFuzzer target: transceiver rates and applications (eeprom/apps.c).
 * Input: byte 0 bit 0 picks the decoder (set: CMIS lower page, clear:
 * SFF-8636 upper page 00h); the rest is the page, of any length, copied
 * to a heap block of exactly its size so that ASan sees a read past it.
 * Every result must be a bounded list of NUL-terminated names, whose top
 * rate is the largest of theirs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eeprom/apps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct module_apps a;
	uint8_t *b;
	double top = 0;

	if (size < 1)
		return 0;
	b = malloc(size - 1 ? size - 1 : 1);
	if (!b)
		return 0;
	memcpy(b, data + 1, size - 1);
	if (data[0] & 1)
		module_apps_cmis(b, size - 1, &a);
	else
		module_apps_sff8636(b, size - 1, &a);
	free(b);
	if (a.n > MODULE_MAX_APPS || (!a.known && a.n))
		abort();
	for (size_t i = 0; i < a.n; i++) {
		if (strnlen(a.app[i].name, MODULE_APP_NAME) >= MODULE_APP_NAME ||
		    strnlen(a.app[i].kind, sizeof(a.app[i].kind)) >= sizeof(a.app[i].kind) ||
		    !(a.app[i].gbps >= 0))
			abort();
		if (a.app[i].gbps > top)
			top = a.app[i].gbps;
	}
	if (top != a.top_gbps || (a.top >= 0) != (top > 0) ||
	    (a.top >= 0 && a.app[a.top].gbps != top))
		abort();
	return 0;
}
