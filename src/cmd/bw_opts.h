/* The command line of bw and lat (cmd/bw_opts.c), for cmd/bw.c. */
#ifndef RD_CMD_BW_OPTS_H
#define RD_CMD_BW_OPTS_H

#include "cmd.h"
#include "../bw/opts.h"

/* Parse argv of `bw` or `lat` into o: EXIT_OK (help printed), EXIT_USAGE
 * (said why), or CMD_GO_ON to go on. */
int bw_cmd_parse(struct ctx *c, const char *cmd, enum bw_mode mode, int argc, char **argv,
		 struct bw_opts *o);

#endif
