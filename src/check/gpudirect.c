/* GPUDirect RDMA readiness, judged once (gpudirect.h). */
#include "gpudirect.h"
#include "../model/na.h"
#include "../model/topo_verdict.h"

#include <stdio.h>
#include <string.h>

#define ACS_RR 0x04	/* P2P Request Redirect (PCIe base spec, ACS Control) */
#define ACS_CR 0x08	/* P2P Completion Redirect */

/* Kernel release "5.15.0-1063-nvidia" at least major.minor? */
static bool kernel_at_least(const char *release, int major, int minor)
{
	int ma, mi;

	if (!release || sscanf(release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool gpudirect_dmabuf(const struct host *h)
{
	return h->nvidia_open == 1 && kernel_at_least(h->kernel, 5, 12);
}

bool gpudirect_peer(const struct host *h)
{
	return h->modules[MOD_NVIDIA_PEERMEM].loaded || h->modules[MOD_NV_PEER_MEM].loaded ||
	       h->peermem_memory_peers;
}

static bool redirect(const struct pci_func *b, size_t *unknown)
{
	if (!b->acs_known) {
		(*unknown)++;
		return false;
	}
	return !IS_NA(b->acs_ctrl) && (b->acs_ctrl & (ACS_RR | ACS_CR));
}

bool gpudirect_acs_redirect(const struct pci_func *gp, const struct pci_func *np, size_t *unknown)
{
	size_t common = 0;
	bool on = false;

	while (common < gp->n_upstream && common < np->n_upstream &&
	       gp->upstream[common].bdf && np->upstream[common].bdf &&
	       strcmp(gp->upstream[common].bdf, np->upstream[common].bdf) == 0)
		common++;
	if (!common)
		return false;
	for (size_t k = common; k < gp->n_upstream; k++)
		on |= redirect(&gp->upstream[k], unknown);
	for (size_t k = common; k < np->n_upstream; k++)
		on |= redirect(&np->upstream[k], unknown);
	return on;
}

/* ACS redirect on a GPU-NIC path under one switch?  *unknown counts the
 * bridges on such paths whose ACS control could not be read. */
static bool any_acs_redirect(const struct inventory *inv, size_t *unknown)
{
	for (size_t g = 0; g < inv->n_gpus; g++)
		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct affinity *a = topo_pair(inv, g, i);

			if (a && a->path <= PATH_PXB &&
			    gpudirect_acs_redirect(&inv->gpus[g].pci, &inv->nics[i].pci, unknown))
				return true;
		}
	return false;
}

static bool verbs_no_dmabuf(const struct host *h)
{
	const struct verbs_user *u = h->verbs_user;

	return h->modules_known && u && u->verbs_minor >= 0 && u->verbs_minor < VERBS_DMABUF_MINOR;
}

/* AMD Instinct: ROCm's amdkfd memory peer (PeerDirect through an OFED
 * ib_peer_mem), or DMA-BUF: amdgpu exports GPU memory as a dma-buf and
 * the kernel's RDMA core imports it from 5.12 on (ib_umem_dmabuf), with a
 * libibverbs that has ibv_reg_dmabuf_mr.  RCCL uses the first it finds
 * (ROCm/rccl src/transport/net_ib.cc: ncclIbGdrSupport looks for
 * amdkfd/version under memory_peers, ncclIbDmaBufSupport for DMA-BUF). */
bool gpudirect_amd(const struct host *h, struct gd_judgement *out)
{
	int ma, mi, kernel_ok = -1;	/* unknown until the release reads */

	if (h->kernel && sscanf(h->kernel, "%d.%d", &ma, &mi) == 2)
		kernel_ok = kernel_at_least(h->kernel, 5, 12);

	if (h->amd.memory_peer) {
		*out = (struct gd_judgement){ GD_READY, NULL,
					      "ROCm's amdkfd memory peer is registered" };
		return true;
	}
	if (!h->modules_known) {
		*out = (struct gd_judgement){ GD_UNKNOWN, "gdr.missing",
					      "the module list could not be read, so whether "
					      "amdgpu is loaded is unknown" };
		return false;
	}
	if (!h->amd.amdgpu.loaded) {
		*out = (struct gd_judgement){ GD_NOT_READY, "gdr.missing",
					      "amdgpu is not loaded and no amdkfd memory peer "
					      "is registered" };
		return false;
	}
	if (kernel_ok < 0) {
		*out = (struct gd_judgement){ GD_UNKNOWN, "gdr.missing",
					      "the kernel release could not be read, so whether "
					      "it imports DMA-BUF (5.12 or later) is unknown" };
		return false;
	}
	if (!kernel_ok) {
		*out = (struct gd_judgement){ GD_NOT_READY, "gdr.missing",
					      "the kernel is older than 5.12 (no DMA-BUF import "
					      "in RDMA) and no amdkfd memory peer is registered" };
		return false;
	}
	if (verbs_no_dmabuf(h)) {
		*out = (struct gd_judgement){ GD_NOT_READY, "gdr.missing",
					      "DMA-BUF, but libibverbs has no ibv_reg_dmabuf_mr" };
		return false;
	}
	*out = (struct gd_judgement){ GD_READY, NULL,
				      "DMA-BUF: amdgpu loaded, kernel 5.12 or later" };
	return true;
}

void gpudirect_judge(const struct inventory *inv, struct gd_judgement *out)
{
	const struct host *h = &inv->host;
	size_t dc = 0, geforce = 0, unknown = 0, amd = 0;
	struct gd_judgement amd_j = { GD_READY, NULL, NULL };

	for (size_t g = 0; g < inv->n_gpus; g++) {
		bool big = inv->gpus[g].kind == GPU_DATACENTER ||
			   inv->gpus[g].kind == GPU_WORKSTATION;

		if (big && inv->gpus[g].vendor == GPU_VENDOR_AMD)
			amd++;
		else
			dc += big;
		geforce += inv->gpus[g].kind == GPU_GEFORCE;
	}
	*out = (struct gd_judgement){ .state = GD_NO_GPU };
	if (amd && !gpudirect_amd(h, &amd_j)) {
		*out = amd_j;
		return;
	}
	if (!dc && !amd) {
		if (geforce)
			*out = (struct gd_judgement){ GD_NOT_READY, "gdr.unsupported",
						      "GeForce GPUs have no GPUDirect RDMA" };
		return;
	}
	if (dc && !gpudirect_peer(h) && !gpudirect_dmabuf(h)) {
		if (h->modules_known)
			*out = (struct gd_judgement){ GD_NOT_READY, "gdr.missing",
						      "no nvidia_peermem, no DMA-BUF" };
		else
			*out = (struct gd_judgement){ GD_UNKNOWN, "gdr.missing",
						      "the module list could not be read" };
		return;
	}
	if (dc && !gpudirect_peer(h) && verbs_no_dmabuf(h)) {
		*out = (struct gd_judgement){ GD_NOT_READY, "gdr.missing",
					      "DMA-BUF, but libibverbs has no ibv_reg_dmabuf_mr" };
		return;
	}
	if (any_acs_redirect(inv, &unknown)) {
		*out = (struct gd_judgement){ GD_NOT_READY, "pcie.acs",
					      "ACS redirect on a bridge between a GPU and its NIC" };
		return;
	}
	/* a redirect not seen is not a redirect ruled out: unknown is never
	 * ready (check says pcie.acs "not checked" for the same bridges) */
	if (unknown) {
		*out = (struct gd_judgement){ GD_UNKNOWN, "pcie.acs",
					      "the ACS control of the bridges between a GPU and "
					      "its NIC is in PCI config space, which only root "
					      "reads; run as root to confirm it" };
		return;
	}
	/* ready: an AMD machine keeps the path it is ready by, for the
	 * advice that says why */
	*out = (struct gd_judgement){ GD_READY, NULL, amd ? amd_j.why : NULL };
}
