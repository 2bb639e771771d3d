/* Transceiver EEPROM decoders: identifier, vendor strings, live monitors
 * (DOM) and the module's own alarm/warning thresholds, for SFF-8472 (SFP),
 * SFF-8636/8436 (QSFP, QSFP+, QSFP28) and CMIS (QSFP-DD, OSFP, QSFP112 ...).
 * Pure functions over byte buffers, no I/O (like ethtool's parsers):
 * the offsets and units are SFF-8472, SFF-8636 and CMIS 5's.
 *
 * Input, either or both of:
 *  - `lower`: the bytes at I2C 0x50 page 0 from offset 0.  128 bytes is the
 *    lower page only (a netlink read); a longer buffer is a legacy flat
 *    ETHTOOL_GMODULEEEPROM dump, mapped by the identifier byte:
 *      SFF-8636 (640): 0-127 lower, 128-255 upper 00h, 256-383 page 01h,
 *                      384-511 page 02h, 512-639 page 03h;
 *      SFF-8472 (512): 0-255 A0h (0x50), 256-511 A2h (0x51);
 *      CMIS     (384): 0-127 lower, 128-255 upper 00h, 256-383 page 01h.
 *  - `pages`: netlink MODULE_EEPROM_GET reads, each keyed by (I2C address,
 *    page, bank, offset) exactly as requested from the kernel.  These win
 *    over the flat buffer where both hold an address.
 * Every access is bounds-checked: what was not read, or was read short,
 * decodes as unknown (NAN, "" or false), never as a read past the end.
 */
#ifndef RD_EEPROM_MODULE_H
#define RD_EEPROM_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps.h"
#include "../model/module_info.h"

#define MODULE_PAGE_SIZE	128
#define MODULE_MAX_PAGES	16
#define MODULE_I2C_A0		0x50	/* SFF-8472 A0h; the only address of QSFP/CMIS */
#define MODULE_I2C_A2		0x51	/* SFF-8472 A2h: diagnostics */

/* Legacy ioctl (ETHTOOL_GMODULEINFO) lengths */
#define MODULE_SFF8079_LEN	256
#define MODULE_SFF8472_LEN	512
#define MODULE_SFF8636_LEN	640

/* One netlink read: `len` bytes at `offset` (0-255) of (i2c, page, bank).
 * The kernel only returns reads within one half page: offset 0-127 (lower
 * memory, the same for every page) or 128-255 (the upper page). */
struct module_page {
	uint8_t i2c;
	uint8_t page;
	uint8_t bank;
	uint8_t offset;
	const uint8_t *data;
	size_t len;
};

struct module_pages {
	size_t n;
	struct module_page page[MODULE_MAX_PAGES];
};

void module_pages_init(struct module_pages *p);
/* Adds a read (data is borrowed, not copied).  -EINVAL when data is NULL or
 * offset + len runs past 256; -ENOSPC when MODULE_MAX_PAGES are held. */
int module_pages_add(struct module_pages *p, uint8_t i2c, uint8_t page, uint8_t bank,
		     uint8_t offset, const uint8_t *data, size_t len);

/* Decodes whatever the buffers hold.  0 on success (fields not present stay
 * unknown); -EINVAL when out is NULL or no identifier byte was read;
 * -EBADMSG when the lower page is shorter than its 128 bytes (nothing but
 * id and type is taken from it);
 * -EOPNOTSUPP for an identifier that is none of the three maps (out->id and
 * out->type are still set). */
int module_decode(const uint8_t *lower, size_t lower_len, const struct module_pages *pages,
		  struct module_info *out);

const char *module_type_name(int id);

#endif
