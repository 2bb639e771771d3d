/* GPUDirect RDMA readiness: the one judgement every command uses (check's
 * gdr.* and pcie.acs findings, nccl's NCCL_NET_GDR_LEVEL / _READ advice,
 * the node labels).  Computed from the inventory alone. */
#ifndef RD_CHECK_GPUDIRECT_H
#define RD_CHECK_GPUDIRECT_H

#include "../model/inventory.h"

enum gd_state {
	GD_NO_GPU,	/* no datacenter or workstation GPU to speak of */
	GD_READY,
	GD_NOT_READY,
	GD_UNKNOWN,	/* what decides it could not be read */
};

struct gd_judgement {
	enum gd_state state;
	const char *cause;	/* the check id that says why: "gdr.missing",
				 * "gdr.unsupported", "pcie.acs"; NULL when ready */
	const char *why;	/* one clause, static; NULL when ready, but for
				 * AMD GPUs the path they are ready by */
};

/* Peer memory (nvidia_peermem, nv_peer_mem, OFED memory peers, or DMA-BUF
 * with a libibverbs that registers it), GeForce GPUs, and ACS redirect on a
 * bridge between a GPU and a NIC under the same PCIe switch. */
void gpudirect_judge(const struct inventory *inv, struct gd_judgement *out);

/* AMD Instinct GPUs alone (host->amd): true when ready (out->why says by
 * which path), else out says why not or what could not be read. */
bool gpudirect_amd(const struct host *h, struct gd_judgement *out);

/* DMA-BUF's parts (open kernel modules, kernel 5.12 or later) present? */
bool gpudirect_dmabuf(const struct host *h);

/* Any peer-memory module or OFED memory peer loaded? */
bool gpudirect_peer(const struct host *h);

/* ACS Request or Completion Redirect on a bridge below the switch a GPU
 * shares with a NIC (path PIX or PXB)?  *unknown counts bridges whose
 * config space could not be read. */
bool gpudirect_acs_redirect(const struct pci_func *gpu, const struct pci_func *nic,
			    size_t *unknown);

#endif
