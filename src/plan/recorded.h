/* A recorded `check --json` document's inventory back into the model, as
 * far as the planner reads it: GPUs and NICs with their PCIe paths (for
 * placement and rail roles), ports with state, rate and MTU, the
 * peer-memory modules.  The document comes from a database other hosts
 * wrote: every value is checked, a wrong type reads as not available. */
#ifndef RD_PLAN_RECORDED_H
#define RD_PLAN_RECORDED_H

#include <jansson.h>

#include "../model/inventory.h"

/* 0; -EINVAL when check has no inventory object; -ENOMEM.  inv is
 * complete in every case (inventory_free it). */
int plan_inventory_from_check(const json_t *check, struct inventory *inv);

#endif
