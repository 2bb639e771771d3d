/* `nccl` output: the advice for people (one `export NAME=value  # why`
 * line per variable set, then a comment for each left out) and for
 * machines (docs/json/nccl.md).  Warnings and errors are the command's to
 * say on stderr; the JSON carries them. */
#ifndef RD_OUT_NCCL_OUT_H
#define RD_OUT_NCCL_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../nccl/advice.h"

#define NCCL_SCHEMA 1

/* "ok" (no warning, no error), "warn", "error". */
const char *nccl_advice_verdict(const struct nccl_advice *a);
void text_nccl_advice(FILE *out, const struct nccl_advice *a);
/* NULL when out of memory. */
json_t *nccl_advice_to_json(const struct nccl_advice *a);

#endif
