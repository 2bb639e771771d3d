/* Text output for people: inventory, GID table, GPU x NIC matrix.  The
 * layout may change between versions; scripts use --json.  Errors as
 * every printer's (src/print/json.h): the caller checks the stream. */
#ifndef RD_OUT_TEXT_H
#define RD_OUT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "../model/inventory.h"
#include "check_out.h"

/* o: colour (a port that is down, a GPU x NIC path across host bridges). */
void text_inventory(FILE *out, const struct inventory *inv, const struct text_opts *o);
void text_gids(FILE *out, const struct inventory *inv, const struct text_opts *o);
void text_topo(FILE *out, const struct inventory *inv, const struct text_opts *o);
/* A port's link modes and FEC lines ("      link 100000 Mb/s full ..."). */
void text_link(FILE *out, const struct link_info *l);
/* A PCI function's place, as the device lines print it (print/text_pci.c):
 * "numa 0  " (text_pci_numa), "Gen4 x16 (capable Gen5 x16)" (text_pci_link),
 * both (text_pci_place). */
void text_pci_numa(FILE *out, int64_t node);
void text_pci_link(FILE *out, const struct pci_link *l);
void text_pci_place(FILE *out, const struct pci_func *f);
/* A machine whose network is NPU RoCE ports alone (no RDMA verbs
 * device), and what gids and topo print there: that, and each NPU port
 * (print/text_npu_ports.c). */
bool text_npu_only(const struct inventory *inv);
void text_npu_ports(FILE *out, const struct inventory *inv);
/* The NPUs section (print/npu_text.c); prints nothing without NPUs. */
void text_npus(FILE *out, const struct npu_inventory *ni);

#endif
