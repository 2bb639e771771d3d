/* PLACEHOLDER until the fleet issue lands: replaced by the real command. */
#include <stdio.h>

#include "cmd.h"

int cmd_fleet(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "%s: fleet: not built yet\n", c->prog);
	return EXIT_RUNTIME;
}
