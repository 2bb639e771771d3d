/* rdmadoctor nccl: what a job's collective library (NCCL, or HCCL on
 * Ascend) must be told on this machine, as facts read from the model.
 * Pure: built from the inventory, the roles check gives the NICs, and the
 * profile (nccl/facts.c); consumed by the advice (nccl/advice.c: the
 * variables a job should set) and by the judge of a job's environment
 * (nccl/env_judge.c).  docs/nccl.md says what each fact and variable is. */
#ifndef RD_NCCL_FACTS_H
#define RD_NCCL_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/host_netdev.h"
#include "../model/inventory.h"
#include "../profiles/profile.h"

/* One RDMA port of the machine, as NCCL_IB_HCA names it ("mlx5_0:1"). */
struct nccl_port {
	const char *dev;		/* RDMA device name (the inventory's) */
	int port;			/* 1-based */
	size_t nic;			/* index into inv->nics */
	enum nic_role role;		/* ROLE_RAIL, ROLE_STORAGE (ROLE_COUNT: neither,
					 * e.g. wrong link layer) */
	bool infiniband;		/* link layer InfiniBand (else Ethernet/RoCE) */
	/* a transport of the driver's own, NCCL's IB transport does not
	 * drive (efa: SRD, through aws-ofi-nccl; model/driver_link.h); NULL
	 * for InfiniBand and RoCE */
	const char *own_transport;
	int up;				/* 1 ACTIVE and LinkUp, 0 not, -1 unknown */
	const char *netdev;		/* RoCE / IPoIB netdev, NULL none */
	int netdev_up;			/* operstate up: 1, 0, -1 unknown */
	/* RoCE: the RoCE v2 IPv4 GID index (gid_recommended), -1 none or
	 * unknown; every RoCE v2 IPv4 index of the port (to judge a job's) */
	int gid_index;
	int *v2_ipv4_indices;
	size_t n_v2_ipv4;
	/* RoCE QoS of the port (-1 / NULL unknown) */
	const char *trust;		/* "dscp", "pcp" */
	int pfc_mask;			/* bit p: PFC on for priority p; -1 unknown */
	int dscp_to_prio[64];		/* trust dscp; -1 unknown */
	/* the GPU nearest this port's NIC and the PCIe path to it */
	int nearest_gpu;		/* index into inv->gpus, -1 none */
	enum path_type path;		/* PATH_* (model/inventory.h); meaningful with a GPU */
};

/* An Ascend NPU's RoCE port, as HCCL uses it. */
struct nccl_npu_port {
	int64_t id;			/* the device id hccn_tool -i takes */
	int up;				/* link 1 UP, 0 DOWN, -1 unknown */
	int pfc_mask;			/* bit p: PFC on for priority p; -1 unknown */
};

/* The machine's facts for NCCL. */
struct nccl_facts {
	struct nccl_port *ports;	/* every port of every RDMA NIC, NIC order */
	size_t n_ports;
	size_t n_gpus;
	/* the GPUs are AMD's: the job runs RCCL, which reads the same NCCL_*
	 * variables (ROCm/rccl src/transport/net_ib.cc: NCCL_PARAM) */
	bool rccl;
	/* GPUDirect RDMA as check/gpudirect.c judges it for every command:
	 * 1 ready, 0 not, -1 unknown; the check id that says why and one
	 * clause of why (static), NULL when ready */
	int gdr_ready;
	const char *gdr_cause, *gdr_why;
	bool ascend;			/* an Ascend machine (NPUs read) */
	struct nccl_npu_port *npu_ports;	/* every NPU read, for HCCL's variables */
	size_t n_npu_ports;
	/* every interface of the host and whether it is up, for an interface
	 * a job names: filled by the command from sysfs/host_netdevs.h (not
	 * from the inventory, which holds the RDMA NICs' only); NULL with
	 * netdevs_read false: not read */
	const struct host_netdev *netdevs;
	size_t n_netdevs;
	bool netdevs_read;
	/* problems that stop a value from being derived (rails with
	 * different GID indices...): messages, malloc'd */
	char **errors;
	size_t n_errors;
};

/* 0, or -ENOMEM (*f then empty).  roles: one per NIC (check_roles). */
int nccl_facts_of(const struct inventory *inv, const enum nic_role *roles,
		  const struct profile *p, struct nccl_facts *f);
void nccl_facts_free(struct nccl_facts *f);

#endif
