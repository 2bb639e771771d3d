/* Times as option values (opt_time.h). */
#include "opt_time.h"
#include "../fleet/record.h"
#include "../pipeline/ctx.h"

#include <stdio.h>

int opt_take_time(const struct ctx *c, const char *cmd, const char *opt, const char *value,
		  const char **into)
{
	if (!fleet_time_valid(value)) {
		fprintf(stderr, "%s %s: --%s '%s': give a UTC time like 2026-11-30T07:00:00Z\n",
			c->prog, cmd, opt, value);
		return EXIT_USAGE;
	}
	*into = value;
	return CMD_GO_ON;
}
