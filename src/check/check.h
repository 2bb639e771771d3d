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
#ifndef RD_CHECK_CHECK_H
#define RD_CHECK_CHECK_H

#include <stdarg.h>

#include "../model/inventory.h"
#include "../profiles/profile.h"

enum severity { SEV_INFO, SEV_WARN, SEV_ERROR };

/* What the agent's memory (`serve`, `check --state DIR`) says of a
 * finding: since 0, not kept. */
struct finding_latch {
	int64_t since, last;	/* first and last seen, seconds since the epoch */
	uint64_t count;		/* readings that saw it */
	int64_t expires;	/* 0: until cleared (`rdmadoctor clear ID`) */
	bool remembered;	/* not seen in this reading: only remembered */
};

struct finding {
	const char *id;		/* stable id, static: "port.rate_low" */
	enum severity severity;
	char *subject;		/* "mlx5_0 port 1", "mlx5_0", "GPU 0000:1b:00.0", "host" */
	char *observed;
	char *expected;
	const char *why;	/* one sentence, static */
	char *fix;		/* the first thing an engineer tries */
	/* says what was expected but could not be read, and why: counted as
	 * "unchecked".  Mostly an info, which leaves the verdict alone; a
	 * rail whose state could not be read is a warning, so that a node
	 * nobody saw cannot PASS */
	bool unchecked;
	/* unchecked, of a value the profile names for this NIC's role (PFC
	 * and trust, ECN, the rate, ...: docs/checks.md, "Required, not
	 * checked"): check_run_site weighs it as a warning at least, so a
	 * node whose required values nobody saw cannot PASS */
	bool required;
	/* required and unchecked, but named in the site file's
	 * accept_unchecked =: left an info, still listed and counted */
	bool accepted;
	/* named in the site file's ignore =: kept, but not counted toward
	 * the verdict */
	bool waived;
	/* kept in the agent's memory (check/latch.h): latch.since set */
	struct finding_latch latch;
};

struct findings {
	struct finding *v;
	size_t n, cap;
};

/* Add a finding; observed/expected/fix are printf formats joined by the
 * caller with finding_set.  Returns the new finding or NULL (no memory). */
struct finding *finding_add(struct findings *fs, const char *id, enum severity sev,
			    const char *why);
/* *field = formatted string (replacing any old one). */
void finding_set(char **field, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void findings_free(struct findings *fs);
/* Remove from fs->v[from..] each finding gone() says to, keeping the
 * order of the rest; i counts from `from`. */
void findings_remove_if(struct findings *fs, size_t from,
			bool (*gone)(const struct finding *f, size_t i, const void *ctx),
			const void *ctx);
const char *severity_name(enum severity s);

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
/* Findings that say what could not be checked (unchecked set). */
size_t check_unchecked(const struct findings *fs);

/* Only the counter checks (counters.errors, counters.saturated, link.flaps,
 * link.ber under the defaults every profile has) for `watch`, sorted the same way; 0 or -ENOMEM. */
int check_run_counters(const struct inventory *inv, struct findings *out);
/* One of the error counters the counter checks judge; set as in
 * model/window.h's enum window_set (false / true: a PMA / hw_counters
 * name; WIN_ETH an `ethtool -S` name). */
bool check_counter_is_error(const char *name, int set);
/* A counter counters.errors lists when it is not 0 (a one-shot check):
 * the error ones above and the PHY's link-down count (link_downed's
 * Ethernet form).  What `inventory` shows on its errors line. */
bool check_counter_is_listed(const char *name, int set);
/* One of them that counts retries (out of sequence, sequence NAKs, ACK
 * timeouts): they build up on any busy fabric, so counters.errors judges
 * them only as they grow within a window, or next to a real fault. */
bool check_counter_is_retry(const char *name, int set);
/* An error counter that counts bits or symbols received wrong (PMA
 * symbol_error and port_rcv_errors, the PHY's FCS and symbol errors):
 * what the physical-layer error ratio sums, never link_downed. */
bool check_counter_is_bit_error(const char *name, int set);
/* One of the Ascend NPU port's error counters (hccn_tool -stat names)
 * that counters.errors judges. */
bool check_npu_counter_is_error(const char *name);

/* "fail" if any error, "warn" if any warning, else "pass"; waived
 * findings do not count. */
const char *check_verdict(const struct findings *fs);

#endif
