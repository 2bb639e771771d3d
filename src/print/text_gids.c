#include "text.h"
#include "../model/gid_choice.h"
#include "text_printf.h"

#include <string.h>

/* The columns show_gids prints, plus which entry to hand NCCL. */
void text_gids(FILE *out, const struct inventory *inv, const struct text_opts *o)
{
	(void)o;	/* a GID entry is neither good nor bad: no colour */
	if (text_npu_only(inv)) {
		text_npu_ports(out, inv);
		return;
	}
	text_printf(out, "%-16s %-4s %-5s %-39s  %-15s %-3s %s\n", "DEV", "PORT",
		    "INDEX", "GID", "IPv4", "VER", "DEV");
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t p = 0; p < n->n_ports; p++) {
			const struct port *pt = &n->ports[p];

			for (size_t g = 0; g < pt->n_gids; g++) {
				const struct gid *e = &pt->gids[g];
				const char *ver = !e->type ? "" :
					strcmp(e->type, "RoCE v2") == 0 ? "v2" :
					strcmp(e->type, "IB/RoCE v1") == 0 ? "v1" : e->type;

				text_printf(out, "%-16s %-4d %-5d %-39s  %-15s %-3s %s\n",
					    n->name, pt->num, e->index, e->text, e->ipv4,
					    ver, e->netdev ? e->netdev : "");
			}
		}
	}
	fputs("\nrecommended RoCE v2 IPv4 GID index\n", out);
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t p = 0; p < n->n_ports; p++) {
			const struct port *pt = &n->ports[p];
			const struct gid *rec = gid_recommended(pt);

			if (!pt->link_layer || strcmp(pt->link_layer, "Ethernet") != 0)
				continue;
			text_printf(out, "  %s port %d (%s): ", n->name, pt->num,
				    pt->netdev ? pt->netdev : "no netdev");
			if (rec)
				text_printf(out, "%d  %s\n", rec->index, rec->ipv4);
			else
				fputs("none (no IPv4 address on a RoCE v2 GID)\n", out);
		}
	}
}
