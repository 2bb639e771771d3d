/* Which GID an application should use on a RoCE port: the first RoCE v2
 * entry carrying an IPv4 address (what NCCL_IB_GID_INDEX users look up
 * with show_gids, usually index 3). */
#ifndef RD_MODEL_GID_CHOICE_H
#define RD_MODEL_GID_CHOICE_H

#include "inventory.h"

/* The entry, or NULL when the port has none. */
const struct gid *gid_recommended(const struct port *p);

#endif
