/* Freeing a PCI function and the bridges above it.  A leaf: the NIC, GPU
 * and NPU parts of the model (inventory.c, npu.c) all hold PCI functions,
 * and this calls neither of them. */
#include "pci_func.h"

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

void pcie_settings_unknown(struct pcie_settings *s)
{
	*s = (struct pcie_settings){ .express = -1, .mps_cap = -1, .ext_tag_cap = -1,
				     .mps = -1, .mrrs = -1, .relaxed_ordering = -1,
				     .ext_tag = -1, .ats = -1, .ats_enable = -1,
				     .ats_stu = -1 };
}
