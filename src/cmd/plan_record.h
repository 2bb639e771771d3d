/* The one place `plan` reads the fleet database: a host's latest record. */
#ifndef RD_CMD_PLAN_RECORD_H
#define RD_CMD_PLAN_RECORD_H

#include <jansson.h>

#include "cmd.h"

/* *out: the latest record of host in the database at db (taken by the
 * caller).  EXIT_OK; EXIT_USAGE when the host has no record; EXIT_RUNTIME
 * when the database cannot be read.  Errors are printed. */
int plan_record_latest(struct ctx *c, const char *db, const char *host, json_t **out);

#endif
