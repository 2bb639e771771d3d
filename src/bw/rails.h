/* Which devices a bw/lat test runs on: the inventory's RDMA devices (one
 * rail each, with its NUMA node, port rate, CPUs and nearest GPU) for
 * verbs, or network interfaces named on the command line for tcp; and each
 * rail's local side of a test.  bw and fabric choose their rails here.
 *
 * Errors: 0, or a negative errno with why filled (the words after
 * "rdmadoctor bw: "): -EINVAL the command line asks for what cannot be (a
 * usage error), -ENODEV no such device here, -ENOMEM. */
#ifndef RD_BW_RAILS_H
#define RD_BW_RAILS_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"
#include "session.h"

struct inventory;
struct root;

/* The chosen rails of one side. */
struct bw_rail_set {
	size_t nic[BW_RAILS_MAX];	/* inventory NIC indices (verbs) */
	char *names[BW_RAILS_MAX];	/* netdev names (tcp) */
	char *cpulist[BW_RAILS_MAX];	/* each verbs rail's NUMA CPU list (rail.cpulist) */
	uint32_t n;
	struct bw_report_rail rail[BW_RAILS_MAX];
	double min_rate;		/* the slowest port rate; NAN: none known */
};

/* Whether list is what --devices (and fabric's --rails) take: "all", or
 * names joined by commas, none empty ("a,,b" and "" are slips). */
bool bw_rails_device_list_ok(const char *list);

/* Empty, no rate known. */
void bw_rails_init(struct bw_rail_set *s);
/* Add the inventory's NIC k, port port_num, as the next rail: its NUMA
 * node, port rate, the node's CPUs (read through r) and the GPU (gpu: a
 * number, "auto" the nearest by topology, or NULL: host memory). */
int bw_rails_add(struct bw_rail_set *s, struct root *r, const struct inventory *inv, size_t k,
		 int port_num, const char *gpu, char *why, size_t whysz);
/* The verbs rails: port ib_port of each device of list (--device or
 * --devices: names joined by commas, or "all"; NULL: the first device);
 * prog names the program in the advice. */
int bw_rails_verbs(struct bw_rail_set *s, struct root *r, const struct inventory *inv,
		   const char *list, int ib_port, const char *gpu, const char *prog, char *why,
		   size_t whysz);
/* tcp: one rail, or one per network interface of list (bound to it). */
int bw_rails_tcp(struct bw_rail_set *s, const char *list, const char *gpu, char *why,
		 size_t whysz);
void bw_rails_free(struct bw_rail_set *s);

/* The engine and each rail's local side; rail i of the test runs on
 * rails[i % n] (a server with fewer devices than the client asks for runs
 * several rails on one), port ib_port, GID gid_index (-1: chosen). */
void bw_rails_fill(const struct bw_report_rail *rails, uint32_t n, int ib_port, int gid_index,
		   enum bw_transport t, uint32_t n_rails, const char *peer, struct bw_rails *r);

#endif
