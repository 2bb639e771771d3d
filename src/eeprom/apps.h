/* What a transceiver is built for: its rates and applications, from the
 * SFF-8636 compliance codes (upper page 00h byte 131, 10/40G Ethernet;
 * byte 192, SFF-8024 table 4-4 extended compliance, when byte 131 bit 7
 * says so; byte 164, InfiniBand SDR..EDR) and the CMIS application
 * descriptors (lower page bytes 86-117: host electrical interface id,
 * media interface id, host and media lane counts, host lane assignment;
 * SFF-8024 tables 4-5, 4-6 and 4-7 for the ids).
 *
 * The names are those ethtool prints for `ethtool -m` where its decoder
 * (sff-8636.c) has them, so that an engineer finds the same words; the
 * CMIS ones are SFF-8024's.  Pure functions over bytes, no I/O. */
#ifndef RD_EEPROM_APPS_H
#define RD_EEPROM_APPS_H

#include <stddef.h>
#include <stdint.h>

#include "../model/module_apps.h"

/* SFF-8636: upper is upper page 00h (its bytes 128-255, 128 of them), or
 * NULL when it was not read (apps->known stays false). */
void module_apps_sff8636(const uint8_t *upper, size_t len, struct module_apps *apps);

/* CMIS: lower is the lower page (bytes 0-127) with the media type at 85
 * and the first eight application descriptors at 86-117; NULL or short:
 * unknown. */
void module_apps_cmis(const uint8_t *lower, size_t len, struct module_apps *apps);

#endif
