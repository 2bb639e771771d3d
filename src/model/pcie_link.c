#include "pcie_link.h"

#include <math.h>

const struct pci_func *pcie_link_partner(const struct pci_func *dev, size_t i)
{
	/* Below a root port (index 0) the chain alternates upstream port (odd),
	 * downstream port (even); the device itself follows the last one. */
	if (i >= dev->n_upstream)
		return NULL;
	if (i % 2 == 0)
		return i + 1 < dev->n_upstream ? &dev->upstream[i + 1] : dev;
	return &dev->upstream[i - 1];
}

static double min_speed(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a < b ? a : b;
}

static int64_t min_width(int64_t a, int64_t b)
{
	if (IS_NA(a))
		return b;
	if (IS_NA(b))
		return a;
	return a < b ? a : b;
}

struct pci_link pcie_link_reachable(const struct pci_func *f, const struct pci_func *p)
{
	struct pci_link l = f->link;

	if (p) {
		l.max_speed_gts = min_speed(l.max_speed_gts, p->link.max_speed_gts);
		l.max_width = min_width(l.max_width, p->link.max_width);
	}
	return l;
}

bool pcie_link_degraded(const struct pci_func *f, const struct pci_func *p)
{
	struct pci_link l = pcie_link_reachable(f, p);

	return (!isnan(l.speed_gts) && !isnan(l.max_speed_gts) &&
		l.speed_gts < l.max_speed_gts) ||
	       (!IS_NA(l.width) && !IS_NA(l.max_width) && l.width < l.max_width);
}

/* Per generation (index gen - 1): the transfer rate per lane and the share
 * of it left after line coding: 8b/10b for Gen1-2, 128b/130b for Gen3-5,
 * and for Gen6-7 the 236 bytes of TLPs a 256-byte FLIT carries. */
static const struct {
	double gts, num, den;	/* payload = num / den of what is sent */
} gens[] = {
	{ 2.5, 8, 10 }, { 5, 8, 10 }, { 8, 128, 130 }, { 16, 128, 130 }, { 32, 128, 130 },
	{ 64, 236, 256 }, { 128, 236, 256 },
};

#define N_GENS ((int)(sizeof(gens) / sizeof(gens[0])))

int pcie_gen(double gts)
{
	for (int i = 0; i < N_GENS; i++)
		if (fabs(gts - gens[i].gts) < 0.01)
			return i + 1;
	return 0;
}

double pcie_gen_gts(int gen)
{
	return gen >= 1 && gen <= N_GENS ? gens[gen - 1].gts : NAN;
}

double pcie_raw_gbytes(double gts, int width)
{
	int gen = pcie_gen(gts);

	if (!gen)
		return 0;
	return gts * gens[gen - 1].num / gens[gen - 1].den / 8.0 * width;
}

double pcie_usable_gbytes(double gts, int width)
{
	return 0.9 * pcie_raw_gbytes(gts, width);
}
