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

int pcie_gen(double gts)
{
	static const double rates[] = { 2.5, 5, 8, 16, 32, 64 };

	for (int i = 0; i < 6; i++)
		if (fabs(gts - rates[i]) < 0.01)
			return i + 1;
	return 0;
}

double pcie_raw_gbytes(double gts, int width)
{
	double per_lane;

	switch (pcie_gen(gts)) {
	case 1:
	case 2:
		per_lane = gts * 8.0 / 10.0 / 8.0;
		break;
	case 3:
	case 4:
	case 5:
		per_lane = gts * 128.0 / 130.0 / 8.0;
		break;
	case 6:
		/* 256-byte FLIT carries 236 bytes of TLPs */
		per_lane = gts / 8.0 * 236.0 / 256.0;
		break;
	default:
		return 0;
	}
	return per_lane * width;
}

double pcie_usable_gbytes(double gts, int width)
{
	return 0.9 * pcie_raw_gbytes(gts, width);
}
