/* Machine output: the inventory as the JSON document of docs/json/
 * inventory.md.  Key names are the stable interface.
 *
 * Errors, for every printer (src/print): printers never touch the system.
 * A *_to_json builder returns the document or NULL (no memory); a text
 * printer writes to the FILE it is given and the caller (src/cmd) checks
 * that stream once at the end (ctx_close_text), so a full disk or a closed
 * pipe is said once, never half-printed silently. */
#ifndef RD_OUT_JSON_H
#define RD_OUT_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "json_scalar.h"
#include "../model/inventory.h"

#define INVENTORY_SCHEMA 1

json_t *inventory_to_json(const struct inventory *inv);

/* Write doc (and a newline) to out in one piece; 0 or -errno.  The document
 * is rendered whole before the first byte goes out, so a failure never
 * leaves half a document behind our own output. */
int json_write(FILE *out, const json_t *doc);



/* `gids --json` and `topo --json` documents. */
json_t *gids_to_json(const struct inventory *inv);
/* A port's "link" (link modes and FEC); null for NULL. */
json_t *link_to_json(const struct link_info *l);
/* FEC statistics: null when the reply carried none (json_fec.c) */
json_t *fec_stats_to_json(const struct fec_stats *s);
json_t *topo_to_json(const struct inventory *inv);
/* A PCI function (print/json_pci.c) and a counter set (print/json_counters.c)
 * as the inventory writes them. */
json_t *pci_to_json(const struct pci_func *f);
/* Parts of it: a bridge above a device, the bridges above it (nearest
 * first), and a PCIe link. */
json_t *pci_bridge_to_json(const struct pci_func *f);
json_t *pci_upstream_to_json(const struct pci_func *f);
json_t *pci_link_to_json(const struct pci_link *l);
json_t *counters_to_json(const struct counter_set *set);
/* A port's neighbour (model/neighbor.h): {"system", "port", "chassis_id",
 * "source"}, each string or null; null for NULL (print/json_neighbor.c). */
json_t *neighbor_to_json(const struct neighbor *n);
/* The "npus" object of the inventory (print/npu_json.c). */
json_t *npus_to_json(const struct npu_inventory *ni);
#endif
