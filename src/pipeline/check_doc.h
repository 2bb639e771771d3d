/* The `check --json` document of this host (or of --root DIR), built by
 * the same code as `rdmadoctor check`, for commands that keep it
 * (record).  verb: the command that asks, for its messages ("record").
 * profile: a built-in name or a file, NULL to pick one.  Prints its own
 * errors; EXIT_OK with *doc set, else the exit code. */
#ifndef RD_PIPELINE_CHECK_DOC_H
#define RD_PIPELINE_CHECK_DOC_H

#include <jansson.h>

#include "ctx.h"

int check_document(struct ctx *c, const char *verb, const char *profile, json_t **doc);

#endif
