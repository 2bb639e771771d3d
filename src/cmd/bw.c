/* PLACEHOLDER until the bw/lat issue lands: replaced by the real command. */
#include <stdio.h>

#include "cmd.h"

int cmd_bw(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "%s: bw: not built yet\n", c->prog);
	return EXIT_RUNTIME;
}

int cmd_lat(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "%s: lat: not built yet\n", c->prog);
	return EXIT_RUNTIME;
}
