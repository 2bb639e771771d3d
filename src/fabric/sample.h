/* fabric --load: this rank's rails' counters around a load round (the
 * counter window that check --window, watch and serve use too:
 * collect/counter_window.h, model/window.h), as the deltas
 * the judge weighs (fabric/load.h: only counters with a kind). */
#ifndef RD_FABRIC_SAMPLE_H
#define RD_FABRIC_SAMPLE_H

#include "load.h"
#include "load_wire.h"
#include "../bw/report.h"
#include "../model/inventory.h"
#include "../sysfs/root.h"

/* Where this rank's rails are: the machine's root and inventory (NULL:
 * its devices could not be read), the rails chosen, and with verbs each
 * rail's NIC index in the inventory. */
struct fab_machine {
	struct root *r;
	struct inventory *inv;
	const struct bw_report_rail *rail;
	const size_t *nic;
	uint32_t n;
};

struct fab_sampler {
	struct root *r;			/* the setup's machine */
	struct inventory *inv;
	/* each rail's port, found again after every change of inv:
	 * nic/port index; nic SIZE_MAX: none, why says so */
	size_t nic[BW_RAILS_MAX], port[BW_RAILS_MAX];
	const char *why[BW_RAILS_MAX];
	double rate_gbps[BW_RAILS_MAX];
	uint32_t n;
	bool started;			/* a start sample was taken */
	char error[200];		/* the last sample failed: why */
};

/* Find each rail's port (verbs: the RDMA device's; tcp: the netdev named
 * by --rails, added to the inventory when no RDMA port has it).  0, or -1
 * (no memory). */
int fab_sampler_init(struct fab_sampler *s, const struct fab_machine *m,
		     enum bw_transport transport);
/* The counters at the round's start. */
void fab_sampler_start(struct fab_sampler *s);
/* The counters at its end, as rail i's load in out[i] (n of them): the
 * deltas of every counter with a kind, names prefixed ("hw:", "eth:",
 * "net:", "dcb:"), malloc'd (fab_sampler_loads_free).  A rail whose
 * counters could not be read has unread set.  0, or -1 (no memory). */
int fab_sampler_end(struct fab_sampler *s, uint32_t round, uint32_t rank,
		    struct fab_port_load *out);
void fab_sampler_load_free(struct fab_port_load *l);

/* The priority a traffic class's packets take on rail 0's port: its DSCP
 * (tc >> 2) through the port's DSCP map when trust is dscp, else the
 * default map (DSCP >> 3).  -1 when traffic_class is 0 and nothing is
 * known. */
int fab_sampler_priority(const struct fab_sampler *s, int traffic_class);

#endif
