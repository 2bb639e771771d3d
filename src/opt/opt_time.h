/* An option's value that is a time (record --time, fleet --since and
 * --before), in the one form the store keeps (fleet_time_valid). */
#ifndef RD_OPT_OPT_TIME_H
#define RD_OPT_OPT_TIME_H

struct ctx;

/* CMD_GO_ON with *into set, or EXIT_USAGE after saying "CMD --OPT
 * 'value': give a UTC time like ...". */
int opt_take_time(const struct ctx *c, const char *cmd, const char *opt, const char *value,
		  const char **into);

#endif
