/* The record of this host that `record` stores: its check (as
 * check_document makes it), the --bw results and --fabric report checked
 * against it, stamped now (fleet/record.h). */
#ifndef RD_PIPELINE_RECORD_DOC_H
#define RD_PIPELINE_RECORD_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "ctx.h"

struct record_ask {
	const char *profile;		/* NULL: the one picked */
	const char *host;		/* the name to store under; NULL: the host's */
	const char *const *bw;		/* --bw files */
	size_t n_bw;
	const char *fabric;		/* --fabric file; NULL */
};

/* Prints its own errors; EXIT_OK with *rec set, else the exit code
 * (EXIT_USAGE for a document refused). */
int record_document(struct ctx *c, const struct record_ask *ask, json_t **rec);

#endif
