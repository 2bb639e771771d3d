/* The client side of bw and lat (client.h). */
#include "client.h"
#include "params.h"
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A test that failed midway: what finished is still reported (and with
 * --json there is always one document), with why the rest did not. */
static int failed(const struct bw_client_conf *cf, const struct bw_session *ss, const char *host,
		  struct bw_outcome *outs, size_t done, const char *error, bool report)
{
	int rc = report ? cf->report(cf->arg, ss, host, outs, done, error) : -1;

	return rc == 0 ? -1 : rc;
}

int bw_client_run(const struct bw_client_conf *cf)
{
	struct bw_opts *o = cf->o;
	const struct bw_rail_set *rs = cf->rs;
	struct bw_session ss = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails rails;
	struct bw_outcome *outs = NULL;
	struct bw_progress pg = { .out = stderr, .prog = cf->prog, .cmd = cf->cmd };
	struct bw_err e = { "" };
	char host[BW_HOST_MAX + 1] = "";
	size_t done = 0;
	int rc;

	if (bw_params_check(&o->p, rs->n, NULL, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		return -EINVAL;
	}
	gethostname(host, sizeof(host) - 1);
	ss.token = o->token;
	if (bw_session_connect(&ss, o->host, o->port, (int)(o->timeout_s * 1000), &e) < 0 ||
	    bw_session_auth(&ss, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		rc = failed(cf, &ss, host, NULL, 0, e.msg, cf->always_report);
		goto out;
	}
	if (cf->progress) {
		ss.progress = bw_progress_show;
		ss.progress_arg = &pg;
	}
	outs = calloc(o->n_sizes, sizeof(*outs));
	if (!outs) {
		fprintf(stderr, "%s: out of memory\n", cf->prog);
		rc = -1;
		goto out;
	}
	/* the numeric address the control channel reached: both sides then
	 * name the same peer (GID choice, tcp data connections) */
	bw_rails_fill(rs->rail, rs->n, o->ib_port, o->gid_index, o->p.transport, rs->n,
		      ss.peer_addr, &rails);
	/* the client's own bound on each run (engine.h): its window and a
	 * margin; iterations mode has none of its own (the server's cap) */
	for (uint32_t i = 0; i < rails.n; i++)
		rails.local[i].max_run_ms = bw_params_run_bound_ms(&o->p, 0);
	for (size_t k = 0; k < o->n_sizes; k++) {
		bw_opts_hello(o, o->sizes[k], rs->n, host, &h);
		if (bw_params_check(&h.p, rs->n, NULL, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
			rc = -EINVAL;
			goto out;
		}
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		rc = bw_session_test(&ss, &h, &rails, &outs[k], &e);
		bw_progress_end(&pg);
		if (rc < 0) {
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
			rc = failed(cf, &ss, host, outs, done, e.msg, done || cf->always_report);
			goto out;
		}
		done++;
	}
	bw_session_bye(&ss);
	rc = cf->report(cf->arg, &ss, host, outs, done, NULL);
out:
	for (size_t k = 0; outs && k < o->n_sizes; k++)
		bw_outcome_free(&outs[k]);
	free(outs);
	bw_session_close(&ss);
	return rc;
}
