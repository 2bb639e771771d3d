/* The client side of bw and lat: it connects to the server, proves its
 * token, asks for each size of the sweep on this side's rails and hands on
 * one report of the sizes that finished; the command judges and prints
 * it. */
#ifndef RD_BW_CLIENT_H
#define RD_BW_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "opts.h"
#include "rails.h"
#include "session.h"

struct bw_client_conf {
	const char *prog, *cmd;	/* for messages: "rdmadoctor bw: " */
	struct bw_opts *o;	/* the client's command line */
	const struct bw_rail_set *rs;	/* this side's rails */
	bool progress;		/* a progress line on stderr while a size runs */
	bool always_report;	/* a report even when no size finished (--json) */
	/* The report of the sizes that finished (outs[0..done)), with why
	 * the rest did not when error is set: the exit code it makes, 0 a
	 * pass. */
	int (*report)(void *arg, const struct bw_session *ss, const char *host,
		      struct bw_outcome *outs, size_t done, const char *error);
	void *arg;
};

/* The whole sweep: the report's answer, or -EINVAL when the test asked for
 * cannot be (a usage error), or -1 when it could not run; either said on
 * stderr. */
int bw_client_run(const struct bw_client_conf *cf);

#endif
