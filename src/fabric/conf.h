/* What a fabric run asks (struct fab_conf, fabric/run_state.h): its
 * defaults, and the rules that span options, as bw/opts.c's for bw. */
#ifndef RD_FABRIC_CONF_H
#define RD_FABRIC_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "run_state.h"

/* Every field zero but the defaults: no floor, tolerance 0.93, timeout
 * 120 s, the guard chosen by fab_conf_finish, one retest, no --tc. */
void fab_conf_defaults(struct fab_conf *cf);

/* After the command line: the guard, the direction of the test (p->bidir
 * from one_way and --load), --load's own rounds, --pairs' mode.  0, or -1
 * with why (a usage error) when options do not go together; gpu is --gpu
 * given. */
int fab_conf_finish(struct fab_conf *cf, struct bw_params *p, bool one_way, bool gpu,
		    char *why, size_t whysz);

#endif
