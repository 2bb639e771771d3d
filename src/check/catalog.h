/* The catalog of check ids: one row per id, saying what fires it, at which
 * severity, and the fix tried first.  `check --list` prints it and
 * docs/checks.md is generated from that output (docs/gen_checks.py), so a
 * new id is one row here. */
#ifndef RD_CHECK_CATALOG_H
#define RD_CHECK_CATALOG_H

#include <stddef.h>

struct check_entry {
	const char *id;		/* "port.rate_low" */
	const char *severity;	/* "error", "warn", "info", or how it is chosen */
	const char *fires;	/* when it fires, one sentence */
	const char *fix;	/* the first fix it proposes */
};

/* The rows, in id order; *n of them. */
const struct check_entry *check_catalog(size_t *n);
/* The row of an id; NULL when the catalog lacks it. */
const struct check_entry *check_catalog_find(const char *id);

#endif
