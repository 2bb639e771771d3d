/* --hold CLASS=S of serve and check --state: how long the agent's memory
 * keeps a class of event (docs/state.md). */
#ifndef RD_OPT_HOLD_H
#define RD_OPT_HOLD_H

#include "../pipeline/ctx.h"
#include "../pipeline/latch_run.h"

/* S=0: until cleared.  CMD_GO_ON, or EXIT_USAGE once said on stderr. */
int opt_hold(struct ctx *c, const char *verb, struct latch_opts *o, const char *value);

#endif
