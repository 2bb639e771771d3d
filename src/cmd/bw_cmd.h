/* TRANSITIONAL, for cmd/fabric*.c only, until fabric moves to src/fabric
 * (issue #42) and chooses its rails with bw/rails.h itself: the old names
 * of what bw's rail choice was when it lived in cmd/, over the new homes.
 *   struct bw_cmd_opts      -> struct bw_opts (bw/opts.h)
 *   struct bw_cmd_setup     -> the caller's pipeline + struct bw_rail_set
 *   bw_cmd_verbs_rails      -> bw_rails_verbs (bw/rails.h)
 *   bw_cmd_tcp_rails        -> bw_rails_tcp
 *   bw_cmd_fill_locals      -> bw_rails_fill
 *   bw_cmd_setup_free       -> bw_rails_free (+ pipeline_free)
 *   bw_cmd_floor            -> bw_floor (bw/expect.h)
 *   bw_cmd_device_list_ok   -> bw_rails_device_list_ok
 * Nothing of bw's own includes this; delete it with the last fabric user. */
#ifndef RD_CMD_BW_CMD_H
#define RD_CMD_BW_CMD_H

#include "cmd.h"
#include "../pipeline/pipeline.h"
#include "../bw/expect.h"
#include "../bw/opts.h"
#include "../bw/rails.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#define bw_cmd_opts bw_opts

struct bw_cmd_setup {
	struct ctx *c;
	const char *cmd;	/* for messages */
	struct bw_opts *o;
	struct pipeline pl;
	bool collected;		/* bw_cmd_collect ran; collect_rc is its answer */
	int collect_rc;
	bool have_inv;		/* pl's inventory and profile are there */
	union {
		struct bw_rail_set rs;
		struct {	/* the same fields, by their old names */
			size_t nic[BW_RAILS_MAX];
			char *names[BW_RAILS_MAX];
			char *cpulist[BW_RAILS_MAX];
			uint32_t n;
			struct bw_report_rail rail[BW_RAILS_MAX];
			double min_rate;
		};
	};
};
_Static_assert(offsetof(struct bw_cmd_setup, min_rate) - offsetof(struct bw_cmd_setup, rs) ==
	       offsetof(struct bw_rail_set, min_rate) &&
	       offsetof(struct bw_cmd_setup, rail) - offsetof(struct bw_cmd_setup, rs) ==
	       offsetof(struct bw_rail_set, rail),
	       "struct bw_cmd_setup's rail fields are struct bw_rail_set's");

static inline int bw_cmd_collect(struct bw_cmd_setup *s)
{
	if (s->collected)
		return s->collect_rc;
	s->collected = true;
	s->collect_rc = pipeline_collect(s->c, s->cmd, &s->pl, false);
	if (s->collect_rc == EXIT_OK)
		s->collect_rc = pipeline_choose(s->c, &s->pl, NULL);
	s->have_inv = s->collect_rc == EXIT_OK;
	return s->collect_rc;
}

static inline int bw_cmd_rails_said(const struct bw_cmd_setup *s, int rc, const char *why)
{
	if (rc == 0)
		return EXIT_OK;
	fprintf(stderr, "%s %s: %s\n", s->c->prog, s->cmd, why);
	return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

static inline int bw_cmd_verbs_rails(struct bw_cmd_setup *s)
{
	char why[512];
	int rc = bw_cmd_collect(s);

	if (rc != EXIT_OK)
		return rc;
	rc = bw_rails_verbs(&s->rs, &s->pl.r, &s->pl.inv, s->o->devices ? s->o->devices :
			    s->o->device, s->o->ib_port, s->o->gpu, s->c->prog, why, sizeof(why));
	return bw_cmd_rails_said(s, rc, why);
}

static inline int bw_cmd_tcp_rails(struct bw_cmd_setup *s)
{
	char why[512];
	int rc = bw_rails_tcp(&s->rs, s->o->devices ? s->o->devices : s->o->device, s->o->gpu,
			      why, sizeof(why));

	return bw_cmd_rails_said(s, rc, why);
}

static inline void bw_cmd_setup_free(struct bw_cmd_setup *s)
{
	bw_rails_free(&s->rs);
	if (s->collected)
		pipeline_free(&s->pl);
	s->collected = s->have_inv = false;
}

static inline void bw_cmd_fill_locals(const struct bw_opts *o, const struct bw_report_rail *rails,
				      uint32_t n, enum bw_transport t, uint32_t n_rails,
				      const char *peer, struct bw_rails *r)
{
	bw_rails_fill(rails, n, o->ib_port, o->gid_index, t, n_rails, peer, r);
}

static inline int bw_cmd_floor(const struct profile *pr, double min_rate, double *gbps,
			       char *why, size_t whysz)
{
	return bw_floor(pr, min_rate, gbps, why, whysz);
}

#endif
