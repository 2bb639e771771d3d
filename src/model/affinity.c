#include "affinity.h"
#include "pci_ids.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A device's place in the PCI tree: its host bridge ("pci0000:17") and the
 * chain of functions from the root port down to the device itself. */
struct chain {
	char host[32];
	const struct pci_func *f[64];
	size_t n;
};

static bool is_bcm(const struct pci_func *f)
{
	return !IS_NA(f->vendor) && !IS_NA(f->device) &&
	       pci_is_bcm_two_level_switch((uint64_t)f->vendor, (uint64_t)f->device);
}

static void build_chain(const struct pci_func *dev, struct chain *c)
{
	const char *p = strstr(dev->sysfs_path, "/pci");
	size_t len = 0;

	c->n = 0;
	c->host[0] = '\0';
	if (p) {
		len = strcspn(p + 1, "/");
		if (len >= sizeof(c->host))
			len = sizeof(c->host) - 1;
		memcpy(c->host, p + 1, len);
		c->host[len] = '\0';
	}
	for (size_t i = 0; i < dev->n_upstream && c->n < 63; i++) {
		/* Broadcom PEX switches show up as two switch levels: a
		 * downstream port leading straight into another upstream port
		 * of the same chip.  NCCL merges them; so do we. */
		if (c->n >= 2 && c->n % 2 == 0 && i + 1 < dev->n_upstream &&
		    is_bcm(&dev->upstream[i]) && is_bcm(&dev->upstream[i + 1])) {
			i++;
			continue;
		}
		c->f[c->n++] = &dev->upstream[i];
	}
	c->f[c->n++] = dev;
}

/* NODE needs both nodes known and equal; unknown is not "the same". */
static bool same_numa(const struct pci_func *a, const struct pci_func *b)
{
	return !IS_NA(a->numa_node) && a->numa_node >= 0 && a->numa_node == b->numa_node;
}

enum path_type affinity_classify(const struct pci_func *a, const struct pci_func *b)
{
	struct chain ca, cb;
	size_t common = 0, after_a, after_b;
	bool common_is_usp;

	build_chain(a, &ca);
	build_chain(b, &cb);
	if (strcmp(ca.host, cb.host) != 0)
		return same_numa(a, b) ? PATH_NODE : PATH_SYS;
	while (common < ca.n && common < cb.n &&
	       strcmp(ca.f[common]->bdf, cb.f[common]->bdf) == 0)
		common++;
	if (common == 0)
		return PATH_PHB;
	if (common == ca.n && common == cb.n)
		return PATH_X;
	after_a = ca.n - common;
	after_b = cb.n - common;
	/* Below a root port, switch ports alternate upstream, downstream:
	 * index 0 root port, odd indices upstream ports. */
	common_is_usp = (common - 1) % 2 == 1;
	if (after_a <= 1 && after_b <= 1)
		return PATH_PIX;	/* both on the common bridge's bus */
	if (common_is_usp && after_a <= 2 && after_b <= 2)
		return PATH_PIX;	/* each one downstream port below one switch */
	return PATH_PXB;
}

int affinity_compute(struct inventory *inv)
{
	size_t n = 0;

	free(inv->affinity);
	inv->affinity = NULL;
	inv->n_affinity = 0;
	if (!inv->n_gpus || !inv->n_nics)
		return 0;
	inv->affinity = calloc(inv->n_gpus * inv->n_nics, sizeof(*inv->affinity));
	if (!inv->affinity)
		return -ENOMEM;
	for (size_t g = 0; g < inv->n_gpus; g++) {
		for (size_t i = 0; i < inv->n_nics; i++) {
			if (!inv->nics[i].has_pci)
				continue;
			inv->affinity[n].gpu = g;
			inv->affinity[n].nic = i;
			inv->affinity[n].path = affinity_classify(&inv->gpus[g].pci,
								  &inv->nics[i].pci);
			n++;
		}
	}
	inv->n_affinity = n;
	return 0;
}
