/* The fleet database for a command (record, fleet, plan): its place and
 * its opening, with the error said once. */
#ifndef RD_PIPELINE_DB_H
#define RD_PIPELINE_DB_H

#include "ctx.h"
#include "../store/store.h"

/* The path store_db_path gives (given: --db, or NULL for the default);
 * malloc'd, or NULL after printing why. */
char *pipeline_db_path(const struct ctx *c, const char *given, bool create);

/* Open (printing the error), waiting for the store at most timeout_ms
 * for each thing asked of it; EXIT_OK, or EXIT_RUNTIME with *s closed. */
int pipeline_db_open(const struct ctx *c, const char *path, enum store_mode mode,
		     int timeout_ms, struct store **s);

#endif
