/* How a PCI function's place prints in text: its NUMA node and its link
 * ("numa 0  Gen4 x16 (capable Gen5 x16)").  A leaf: the inventory text
 * and the NPU text both call it, and it calls neither. */
#include "text.h"
#include "../model/pcie_link.h"

#include <math.h>

static void print_gen_width(FILE *out, double gts, int64_t width)
{
	int gen = isnan(gts) ? 0 : pcie_gen(gts);

	if (gen)
		fprintf(out, "Gen%d", gen);
	else
		fputs("Gen?", out);
	if (IS_NA(width))
		fputs(" x?", out);
	else
		fprintf(out, " x%lld", (long long)width);
}

void text_pci_link(FILE *out, const struct pci_link *l)
{
	print_gen_width(out, l->speed_gts, l->width);
	if ((isnan(l->speed_gts) != isnan(l->max_speed_gts)) ||
	    (!isnan(l->speed_gts) && l->speed_gts != l->max_speed_gts) ||
	    l->width != l->max_width) {
		fputs(" (capable ", out);
		print_gen_width(out, l->max_speed_gts, l->max_width);
		fputc(')', out);
	}
}

void text_pci_numa(FILE *out, int64_t node)
{
	/* -1: the firmware gave no proximity domain */
	if (IS_NA(node) || node < 0)
		fputs("numa ?  ", out);
	else
		fprintf(out, "numa %lld  ", (long long)node);
}

void text_pci_place(FILE *out, const struct pci_func *f)
{
	text_pci_numa(out, f->numa_node);
	text_pci_link(out, &f->link);
}
