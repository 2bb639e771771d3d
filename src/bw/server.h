/* The server side of bw and lat: it listens on --port (--bind), answers
 * whom --allow keeps out and whoever comes while a client runs (bw/door.h),
 * serves one client at a time (bw_session_serve) and hands on one report of
 * everything each client ran; the command judges and prints it. */
#ifndef RD_BW_SERVER_H
#define RD_BW_SERVER_H

#include <stdbool.h>

#include "opts.h"
#include "rails.h"
#include "report.h"

struct bw_server_conf {
	const char *prog, *cmd;	/* for messages: "rdmadoctor bw: " */
	struct bw_opts *o;	/* the server's command line */
	bool quiet;		/* no "listening on" line */
	/* This side's verbs rails, asked for once, at the first verbs test:
	 * NULL when it has none (the callee has said why). */
	const struct bw_rail_set *(*verbs_rails)(void *arg);
	/* One report of what a client ran (its expectation not yet set):
	 * the exit code it makes. */
	int (*report)(void *arg, struct bw_report *rep);
	void *arg;
};

/* Serve until accept fails, or with --once until the first client that got
 * a test has left: the last client's report's answer, 0 when it ran
 * nothing, or -1 when the server or that client's test failed (said on
 * stderr). */
int bw_server_run(const struct bw_server_conf *cf);

#endif
