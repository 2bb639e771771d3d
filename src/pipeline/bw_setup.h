/* The machine a bw, lat or fabric test runs on and its rails: the machine
 * as check reads it (pipeline_collect and pipeline_choose: the root, the
 * inventory, the site file, and the profile, the site file's, else the one
 * the machine is, whose rail floor a verbs test is held to), and the rails
 * of this side (bw/rails.h), from the inventory (verbs) or the command
 * line (tcp).  Each prints its own errors and returns EXIT_OK or an exit
 * code. */
#ifndef RD_PIPELINE_BW_SETUP_H
#define RD_PIPELINE_BW_SETUP_H

#include "ctx.h"
#include "pipeline.h"
#include "../bw/opts.h"
#include "../bw/rails.h"

struct bw_setup {
	struct ctx *c;
	const char *cmd;	/* "bw", "lat" or "fabric", for messages */
	struct bw_opts *o;
	struct pipeline pl;
	bool collected;		/* bw_setup_collect ran; collect_rc is its answer */
	int collect_rc;
	bool have_inv;		/* pl's inventory and profile are there */
	struct bw_rail_set rs;
};

void bw_setup_init(struct bw_setup *s, struct ctx *c, const char *cmd, struct bw_opts *o);

/* The inventory, the site file and the profile, read once (a failure is
 * said once): EXIT_USAGE for a broken site file or profile, as check. */
int bw_setup_collect(struct bw_setup *s);

/* The rails of a test over transport t: verbs, the devices of o->devices
 * or o->device, or the first; tcp, one rail, or one per netdev of them. */
int bw_setup_rails(struct bw_setup *s, enum bw_transport t);

void bw_setup_free(struct bw_setup *s);

#endif
