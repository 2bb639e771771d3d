/* Private to src/check: what every check family shares.  One file per
 * family (nic.c, port.c, pcie.c, ...), each exporting one function that
 * appends its findings; run.c calls them all and sorts. */
#ifndef RD_CHECK_FAMILIES_H
#define RD_CHECK_FAMILIES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "finding.h"
#include "../model/inventory.h"
#include "../profiles/profile.h"
#include "../model/port_state.h"
#include "../model/growbuf.h"

/* Call a family or a helper that adds findings; return its -ENOMEM at once. */
#define CHECK_TRY(call)                         \
	do {                                    \
		int check_rc_ = (call);         \
		if (check_rc_ < 0)              \
			return check_rc_;       \
	} while (0)

struct check_ctx {
	const struct inventory *inv;
	const struct profile *p;	/* NULL: generic */
	const enum nic_role *roles;	/* one per NIC */
	bool generic;			/* the profile defines no [rail] role */
	/* each GPU's rail NIC ((size_t)-1: none) and the path to it */
	const size_t *gpu_nic;
	const enum path_type *gpu_path;
	/* one per NIC: a card that would be a rail but for its link layer
	 * (roles_assign_links); NULL: none */
	const bool *wrong_link;
	/* what the site file says (profiles/site.h: rail_switch, job_user,
	 * job_group); NULL: none */
	const struct site *site;
};

/* roles_assign, and which NICs are no rail only for their link layer: a
 * card of the rail model next to a GPU, or one that would have made up a
 * shortfall, known to run the other link layer than [rail] link_layer.
 * wrong_link (one per NIC) may be NULL. */
void roles_assign_links(const struct inventory *inv, const struct profile *p,
			enum nic_role *roles, bool *wrong_link);

/* finding_add; NULL when memory ran out (the caller returns -ENOMEM).
 * The caller fills subject, observed, expected and fix with finding_set.
 * c is not written; it keeps every family's add call one shape. */
struct finding *check_add(const struct check_ctx *c, struct findings *out, const char *id,
			  enum severity sev, const char *why);

/* A growing string for lists ("mlx5_0:3 mlx5_1:5"); s is NULL until the
 * first append, and stays NULL-safe (check_buf_str gives "" then).  It
 * grows through model/growbuf.h. */
struct check_buf {
	char *s;
	size_t len, cap;
	bool nomem;
};

void check_buf_printf(struct check_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *check_buf_str(const struct check_buf *b);
/* Move the text into *field (freeing what was there); a failed buffer
 * leaves *field NULL, which check_run counts as out of memory (run.h). */
void check_buf_take(struct check_buf *b, char **field);
void check_buf_free(struct check_buf *b);

/* The role's expectations, or one that judges nothing when the profile has
 * no section for it (generic, or no [storage]). */
const struct role_spec *check_role_spec(const struct check_ctx *c, size_t nic);
bool check_is_rail(const struct check_ctx *c, size_t nic);
/* No rail only because of its link layer (port.link_layer says so). */
bool check_wrong_link(const struct check_ctx *c, size_t nic);
/* A port of a rail, or of such a card, known to run the other link layer
 * than [rail] link_layer: port.link_layer's subject.  What follows from it
 * alone (no RoCE GID, no DCB on a rail) is left to that finding. */
bool check_port_wrong_link(const struct check_ctx *c, size_t nic, const struct port *pt);
/* Rail findings are errors, storage ones warnings. */
enum severity check_role_sev(const struct check_ctx *c, size_t nic);

/* ACTIVE and (when known) LinkUp. */
/* The name the check files used for port_is_up (model/port_state.h), kept
 * for code written before it; new code calls port_is_up. */
static inline bool check_port_up(const struct port *pt)
{
	return port_is_up(pt);
}
bool check_port_is_ib(const struct port *pt);
bool check_port_is_eth(const struct port *pt);
/* The NIC's link layer: that of its first port that says; NULL unknown. */
const char *check_nic_link_layer(const struct nic *n);
/* rxe, siw: RDMA on top of an ordinary netdev. */
bool check_nic_is_software(const struct nic *n);
/* Two PCI functions of one device: same domain:bus:device. */
bool check_same_pci_device(const char *bdf_a, const char *bdf_b);
/* "Gen5 x16", "Gen5", "x8", "16 GT/s x8" (speed NAN / width NA left out). */
void check_link_str(char *buf, size_t len, double gts, int64_t width);
/* "400", "12.5": a rate or size without trailing zeros. */
void check_num_str(char *buf, size_t len, double v);

/* Give every GPU its rail NIC: the nearest one (software devices never);
 * among equally near ones the one with the fewest GPUs so far, then the
 * lowest index, so that two GPUs and two NICs under one switch pair up
 * instead of both GPUs taking the first NIC.  (size_t)-1: no NIC with a
 * path.  Arrays of inv->n_gpus. */
void check_map_gpus(const struct check_ctx *c, size_t *nic, enum path_type *path);

int check_nic(const struct check_ctx *c, struct findings *out);
/* fw.version: firmware against the site file's [firmware] (fw_version.c) */
int check_fw_version(const struct check_ctx *c, struct findings *out);

/* nic.excluded (excluded.c), and dropping, of the findings from `from` on,
 * the others on an excluded device: they follow from the exclusion. */
int check_excluded(const struct check_ctx *c, struct findings *out);
void check_drop_excluded(const struct check_ctx *c, struct findings *out, size_t from);
int check_port(const struct check_ctx *c, struct findings *out);
/* nvlink.fabric, nvlink.link_down: NVML's fabric and links (nvlink.c) */
int check_nvlink(const struct check_ctx *c, struct findings *out);
int check_pcie(const struct check_ctx *c, struct findings *out);
int check_mtu(const struct check_ctx *c, struct findings *out);
int check_gid(const struct check_ctx *c, struct findings *out);
int check_counters(const struct check_ctx *c, struct findings *out);
/* counters.errors' "not checked" per NIC (counter_avail.c, called by
 * check_counters): the judged classes its driver has no counter of, or
 * hw_counters of a driver no table knows. */
int check_counter_avail(const struct check_ctx *c, struct findings *out);
struct drv_counter;	/* model/driver_counters.h */
/* A hw_counters row counters.errors judges, *retry set for the retries
 * (counters.c); NULL or a row of no judged class: false. */
bool check_hw_judged(const struct drv_counter *r, bool *retry);
int check_gdr(const struct check_ctx *c, struct findings *out);
int check_verbs_user(const struct check_ctx *c, struct findings *out);
int check_drv_stack(const struct check_ctx *c, struct findings *out);
int check_topo(const struct check_ctx *c, struct findings *out);
int check_sys(const struct check_ctx *c, struct findings *out);
int check_roce(const struct check_ctx *c, struct findings *out);
int check_qos(const struct check_ctx *c, struct findings *out);
int check_module(const struct check_ctx *c, struct findings *out);
/* "not checked" infos for what the profile expects but could not be read
 * (unchecked.c) */
int check_unchecked_values(const struct check_ctx *c, struct findings *out);
/* nic.bandwidth_per_gpu (bandwidth.c) */
int check_bandwidth(const struct check_ctx *c, struct findings *out);
/* port.fec (link.c) */
int check_link(const struct check_ctx *c, struct findings *out);
/* link.ber: bit error ratios over a window (ber.c) */
int check_ber(const struct check_ctx *c, struct findings *out);
/* port.link_layer (link_layer.c) */
int check_link_layer(const struct check_ctx *c, struct findings *out);
/* The rails agree (agree.c): runs after the others, since a port with a
 * finding of the same id among out->v[from..] gets no second one. */
int check_agree(const struct check_ctx *c, struct findings *out, size_t from);
/* One cause, one finding (same_fix.c): drop each of out->v[from..] whose
 * fix commands another on the same subject gives at no lower severity.
 * 0 or -ENOMEM. */
int check_drop_same_fix(struct findings *out, size_t from);
/* The priority most rail RoCE ports (more than half of those with DSCP
 * trust, at least two) map this DSCP to; -1 when there is no such. */
int check_rails_dscp_prio(const struct check_ctx *c, int dscp);
/* rail.cabling: each rail on its switch (rail_cabling.c) */
int check_rail_cabling(const struct check_ctx *c, struct findings *out);
/* the Ascend NPU ports (npu.c) */
int check_npu(const struct check_ctx *c, struct findings *out);
/* npu.health: the Ascend NPUs' own health as npu-smi says it (npu_health.c) */
int check_npu_health(const struct check_ctx *c, struct findings *out);
/* kmsg.*: the kernel log's NIC/RDMA faults (kmsg.c) */
int check_kmsg(const struct check_ctx *c, struct findings *out);
/* npu.subnets, the NPU ports against the subnet plan (npu_subnets.c) */
int check_npu_subnets(const struct check_ctx *c, struct findings *out);

/* Firmware commands for a card whose driver is not mlx5's (mlx5 keeps
 * mlxfwmanager, flint and mlxfwreset in its checks' own words), by
 * model/driver_tools.h: how to read the running and stored versions, and
 * how to write an image; an unread PCI address reads "<its PCI address>". */
void check_fw_query(struct check_buf *b, const struct nic *n);
void check_fw_update(struct check_buf *b, const struct nic *n);

#endif
