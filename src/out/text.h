/* Text output for people: inventory, GID table, GPU x NIC matrix.  The
 * layout may change between versions; scripts use --json.  Errors as
 * every printer's (src/out/json.h): the caller checks the stream. */
#ifndef RD_OUT_TEXT_H
#define RD_OUT_TEXT_H

#include <stdio.h>

#include "../model/inventory.h"

void text_inventory(FILE *out, const struct inventory *inv);
void text_gids(FILE *out, const struct inventory *inv);
void text_topo(FILE *out, const struct inventory *inv);
/* A port's link modes and FEC lines ("      link 100000 Mb/s full ..."). */
void text_link(FILE *out, const struct link_info *l);
/* "numa 0  Gen4 x16" of a PCI function, as the device lines print it. */
void text_pci_place(FILE *out, const struct pci_func *f);
/* The NPUs section (out/npu_text.c); prints nothing without NPUs. */
void text_npus(FILE *out, const struct npu_inventory *ni);

#endif
