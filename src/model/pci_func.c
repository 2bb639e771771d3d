/* Freeing a PCI function and the bridges above it.  A leaf: the NIC, GPU
 * and NPU parts of the model (inventory.c, npu.c) all hold PCI functions,
 * and this calls neither of them. */
#include "inventory.h"

#include <stdlib.h>

void pci_func_free(struct pci_func *f)
{
	free(f->bdf);
	free(f->sysfs_path);
	free(f->local_cpulist);
	free(f->driver);
	for (size_t i = 0; i < f->n_upstream; i++)
		pci_func_free(&f->upstream[i]);
	free(f->upstream);
}
