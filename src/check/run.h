/* Checks: the inventory judged against a profile.  Consumers only: they
 * read the model and never touch the system (docs/checks.md has the ids
 * and when each fires).
 *
 * Errors: a check cannot fail but for memory, and that is returned up.
 * Every check family, and every helper in it that adds a finding, returns
 * 0 or -ENOMEM; a caller that gets -ENOMEM returns it at once (after
 * freeing what it holds), and check_run returns it for the whole run.  A
 * text of a finding that could not be stored is left NULL (finding_set,
 * check_buf_take), and check_run counts that as -ENOMEM too.  So a verdict
 * with a finding missing is never given; the check context is read-only.
 * Nothing here prints. */
#ifndef RD_CHECK_RUN_H
#define RD_CHECK_RUN_H

#include "finding.h"
#include "../model/inventory.h"
#include "../profiles/profile.h"

/* The role of each NIC under a profile (rail or storage). */
void roles_assign(const struct inventory *inv, const struct profile *p, enum nic_role *roles);
/* The same, then the NICs the site file names (NULL: none) take its role. */
struct site;
void check_roles(const struct inventory *inv, const struct profile *p, const struct site *site,
		 enum nic_role *roles);
/* Which NICs are no rail only for their link layer (a VPI card left in
 * Ethernet on an InfiniBand fabric): one bool per NIC, to free; NULL
 * without memory.  They are neither rail nor storage. */
bool *check_wrong_links(const struct inventory *inv, const struct profile *p,
			const struct site *site);

/* Run every check; 0 or -ENOMEM.  Findings come out sorted: errors first,
 * then by the bandwidth each costs (rank.h), then by id, then by subject. */
int check_run(const struct inventory *inv, const struct profile *p, struct findings *out);
/* The same, with what the site file says (profiles/site.h; NULL: none)
 * and the roles check_roles gave under it (one per NIC, computed once by
 * the caller, who shows them too): the findings of the ids it ignores are
 * kept with waived set. */
struct site;
int check_run_site(const struct inventory *inv, const struct profile *p,
		   const struct site *site, const enum nic_role *roles, struct findings *out);
/* Sort findings as check_run does (errors first, then cost, id, subject):
 * for findings added after it (`check --env`'s nccl.* ones). */
void check_sort(struct findings *fs);
/* Mark the findings of the ids the site file ignores (NULL: none). */
void check_waive(struct findings *fs, const struct site *site);
/* A required unchecked finding (required set) the site file does not
 * accept weighs as a warning at least; one it accepts is marked accepted
 * and left as it is.  On fs->v[from..]; waived ones are left alone. */
void check_weigh_required(struct findings *fs, size_t from, const struct site *site);

/* Only the counter checks (counters.errors, counters.saturated, link.flaps,
 * link.ber under the defaults every profile has) for `watch`, sorted the same way; 0 or -ENOMEM. */
int check_run_counters(const struct inventory *inv, struct findings *out);
/* One of the error counters the counter checks judge; set as in
 * model/window.h's enum window_set (false / true: a PMA / hw_counters
 * name; WIN_ETH an `ethtool -S` name).  driver (nic.driver) says what a
 * hw_counters name counts (model/driver_counters.h): NULL or a driver no
 * table knows judges none of them; DRV_ANY: any driver's, for records. */
bool check_counter_is_error(const char *driver, const char *name, int set);
/* A counter counters.errors lists when it is not 0 (a one-shot check):
 * the error ones above and the PHY's link-down count (link_downed's
 * Ethernet form).  What `inventory` shows on its errors line. */
bool check_counter_is_listed(const char *driver, const char *name, int set);
/* One of them that counts retries (out of sequence, sequence NAKs, ACK
 * timeouts): they build up on any busy fabric, so counters.errors judges
 * them only as they grow within a window, or next to a real fault. */
bool check_counter_is_retry(const char *driver, const char *name, int set);
/* An error counter that counts bits or symbols received wrong (PMA
 * symbol_error and port_rcv_errors, the PHY's FCS and symbol errors):
 * what the physical-layer error ratio sums, never link_downed. */
bool check_counter_is_bit_error(const char *name, int set);
/* One of the Ascend NPU port's error counters (hccn_tool -stat names)
 * that counters.errors judges. */
bool check_npu_counter_is_error(const char *name);

#endif
