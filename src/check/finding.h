/* A finding of the checks, a set of them, and what a set says (its verdict,
 * how many say what could not be read).  Data and small helpers only: the
 * checks that make findings are in check/run.h; nothing here prints. */
#ifndef RD_CHECK_FINDING_H
#define RD_CHECK_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Findings that say what could not be checked (unchecked set). */
size_t check_unchecked(const struct findings *fs);

/* "fail" if any error, "warn" if any warning, else "pass"; waived
 * findings do not count. */
const char *check_verdict(const struct findings *fs);

#endif
