/* What the planner reads and writes (plan.h): a training job, a machine's
 * rail ports, and the plan: traffic per kind, bandwidth per GPU, the
 * verdict and the ports that would make it fit. */
#ifndef RD_PLAN_TYPES_H
#define RD_PLAN_TYPES_H

#include <stdbool.h>
#include <stddef.h>

struct plan_job {
	double params;			/* all parameters */
	int tp, pp, dp, ep;		/* group sizes; 1 for none */
	int zero;			/* ZeRO stage 0-3 */
	int layers, hidden, seq, micro_batch;	/* 0: not known */
	int heads, kv_heads;		/* attention and key/value heads; 0: not known */
	long long global_batch;		/* 0: one micro-batch per DP rank */
	int experts, top_k, moe_layers;	/* 0 for a dense model */
	int bytes, grad_bytes;		/* per element: activations, gradients */
	double step_seconds;		/* compute time per step; 0 not given */
	double tflops;			/* achieved per GPU; 0 not given */
};

/* One rail port of a node. */
struct plan_port {
	char nic[64];			/* "mlx5_0" (cut short if longer) */
	int port;
	char card[32];			/* PCI device "0000:41:00": ports of one card
					 * share its link; "" a card of its own */
	double rate_gbps;		/* nominal (negotiated) rate */
	double measured_gbps;		/* a measured figure; NAN none */
	bool ib;			/* InfiniBand, else RoCE */
	int mtu;			/* RDMA MTU in bytes; 0 unknown (4096 assumed) */
	double pcie_gbytes;		/* usable GB/s of the card's link; NAN unknown */
	double slot_gbytes;		/* usable GB/s the card and slot could train; NAN */
	char pcie_link[24];		/* "Gen4 x16"; "" unknown */
};

struct plan_machine {
	int gpus_per_node;
	struct plan_port *ports;
	size_t n_ports;
	int gpudirect;			/* 1 yes, 0 no, -1 unknown */
	size_t ports_down;		/* rail ports left out: not up */
};

enum plan_kind { PLAN_DP, PLAN_TP, PLAN_PP, PLAN_EP, PLAN_KINDS };

struct plan_traffic {
	int group;			/* ranks in one group; 1: no such traffic */
	int per_node;			/* of them in one node */
	double bytes;			/* sent per GPU per step over all links */
	double nic_bytes;		/* of which through the NIC */
};

enum plan_cap { PLAN_CAP_PORTS, PLAN_CAP_PCIE, PLAN_CAP_MEASURED };
enum plan_verdict { PLAN_UNKNOWN, PLAN_FITS, PLAN_TIGHT, PLAN_BOUND };

/* Rates offered by "needs", in Gb/s per port. */
#define PLAN_RATES 4

struct plan_option {
	int rate_gbps;
	int ports_per_node;		/* 0: more than 4 per GPU would be needed */
	double per_gpu_gbytes;		/* what they give each GPU (expected) */
	int pcie_ok;			/* the machine's NIC slots carry one port: 1, 0, -1 */
};

struct plan_need {
	double per_gpu_gbytes;		/* NAN without a compute time */
	struct plan_option options[PLAN_RATES];
};

struct plan_result {
	int gpus, nodes;
	long long global_batch, micro_batches;
	struct plan_traffic traffic[PLAN_KINDS];
	double nic_bytes;		/* sum over kinds */
	/* GB/s one way */
	double per_gpu_nominal, per_gpu_line, per_gpu_expected;
	enum plan_cap capped_by;
	const struct plan_port *cap_port;	/* a port where that cap bites; NULL */
	bool measured;			/* a measured figure was used */
	double network_line_s, network_expected_s;
	double compute_s;		/* NAN unknown */
	double share;			/* expected network / compute; NAN */
	enum plan_verdict verdict;
	bool tp_spans_nodes;
	struct plan_need overlap;	/* network hidden behind compute */
	struct plan_need no_overlap;	/* network under a tenth of the step */
};

#endif
