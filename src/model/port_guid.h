/* A port's GUID, as ibstat's "Port GUID" and ibstatus read it: the
 * interface ID (low 64 bits) of GID index 0, which the subnet manager
 * never changes (libibumad takes it from ports/N/gids/0 the same way). */
#ifndef RD_MODEL_PORT_GUID_H
#define RD_MODEL_PORT_GUID_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory.h"

/* false when GID 0 was not read. */
bool port_guid(const struct port *p, uint64_t *guid);

#endif
