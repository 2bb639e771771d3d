/* The machine and the rails of a bw, lat or fabric test (bw_setup.h). */
#include "bw_setup.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void bw_setup_init(struct bw_setup *s, struct ctx *c, const char *cmd, struct bw_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->c = c;
	s->cmd = cmd;
	s->o = o;
	bw_rails_init(&s->rs);
}

int bw_setup_collect(struct bw_setup *s)
{
	if (s->collected)	/* once: a failure is said once */
		return s->collect_rc;
	s->collected = true;
	s->collect_rc = pipeline_collect(s->c, s->cmd, &s->pl, false);
	if (s->collect_rc == EXIT_OK)
		s->collect_rc = pipeline_choose(s->c, &s->pl, NULL);
	s->have_inv = s->collect_rc == EXIT_OK;
	return s->collect_rc;
}

int bw_setup_rails(struct bw_setup *s, enum bw_transport t)
{
	const char *list = s->o->devices ? s->o->devices : s->o->device;
	char why[512];
	int rc = t == BW_TRANSPORT_VERBS ? bw_setup_collect(s) : EXIT_OK;

	if (rc != EXIT_OK)
		return rc;
	rc = t == BW_TRANSPORT_VERBS ?
		bw_rails_verbs(&s->rs, &s->pl.r, &s->pl.inv, list, s->o->ib_port, s->o->gpu,
			       s->c->prog, why, sizeof(why)) :
		bw_rails_tcp(&s->rs, list, s->o->gpu, why, sizeof(why));
	if (rc == 0)
		return EXIT_OK;
	fprintf(stderr, "%s %s: %s\n", s->c->prog, s->cmd, why);
	return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

void bw_setup_free(struct bw_setup *s)
{
	bw_rails_free(&s->rs);
	if (s->collected)
		pipeline_free(&s->pl);
	s->collected = s->have_inv = false;
}
