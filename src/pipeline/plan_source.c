/* plan's machine from the source asked for (plan_source.h). */
#include "plan_source.h"
#include "db.h"
#include "pipeline.h"
#include "../store/host_latest.h"
#include "../plan/recorded.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Put the figures measured on host (its rails in bw) on the ports they
 * were measured on; how many ports got one. */
static size_t measured(struct plan_machine *m, const struct fleet_bw *bw, const char *host)
{
	size_t hits = 0;

	for (size_t i = 0; i < m->n_ports; i++) {
		struct plan_port *pt = &m->ports[i];

		for (size_t k = 0; k < bw->n_rails; k++) {
			const struct fleet_rail_bw *r = &bw->rails[k];

			if (strcmp(r->host, host) != 0 || strcmp(r->device, pt->nic) != 0 ||
			    (r->port >= 0 && r->port != pt->port))
				continue;
			pt->measured_gbps = r->gbps;
			hits++;
			break;
		}
	}
	return hits;
}


static int machine_from_profile(struct ctx *c, const struct plan_ask *a,
				struct plan_source *ms, char *why, size_t len)
{
	const struct profile *p;
	int rc = ctx_load_profile(c, "plan", a->profile, &ms->loaded, &p);

	if (rc != CMD_GO_ON)
		return rc;
	snprintf(ms->source, sizeof(ms->source), "profile %s", p->name ? p->name : a->profile);
	if (plan_machine_from_profile(p, a->gpn, &ms->m, why, len) < 0)
		return EXIT_USAGE;
	return CMD_GO_ON;
}

/* The rails are those of the profile the machine was judged under: the
 * recorded check's (named), else the one check would pick.  what: the
 * machine in words ("gpu-017 under DIR"). */
static int machine_from_inventory(const struct plan_ask *a, struct plan_source *ms,
				  const char *what, const struct profile *p,
				  const struct site *site, char *why, size_t len)
{
	char reason[256];

	if (!p)
		p = profile_select(&ms->inv, reason, sizeof(reason));
	snprintf(ms->source, sizeof(ms->source), "%s (profile %s)", what,
		 p && p->name ? p->name : "generic");
	if (plan_machine_from_inventory(&ms->inv, p, site, a->gpn, &ms->m, why, len) < 0)
		return EXIT_RUNTIME;
	return CMD_GO_ON;
}

/* *out: the latest record of host in the database at db.  EXIT_OK;
 * EXIT_USAGE when the host has no record; EXIT_RUNTIME when the database
 * cannot be read.  Errors are printed. */
static int latest_record(struct ctx *c, const char *db, const char *host, json_t **out)
{
	struct store *s = NULL;
	int rc = pipeline_db_open(c, db, STORE_READ, STORE_WAIT_MS, &s);

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	rc = store_host_latest(s, host, out);
	if (rc == -ENOENT)
		fprintf(stderr, "%s plan: no record of host '%s' in '%s' (`%s fleet ls --db "
			"%s` lists the hosts)\n", c->prog, host, db, c->prog, db);
	else if (rc < 0)
		fprintf(stderr, "%s: %s\n", c->prog, store_error(s));
	store_close(&s);
	return rc == 0 ? EXIT_OK : rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
}

static int machine_from_record(struct ctx *c, const struct plan_ask *a,
			       struct plan_source *ms, char *why, size_t len)
{
	json_t *recs;
	const char *time, *profile;
	char what[400];
	size_t hits;
	int rc = latest_record(c, a->db, a->host, &ms->record);

	if (rc != EXIT_OK)
		return rc;
	if (plan_inventory_from_check(json_object_get(ms->record, "check"), &ms->inv) < 0) {
		snprintf(why, len, "the record of '%s' has no readable inventory", a->host);
		return EXIT_RUNTIME;
	}
	time = json_string_value(json_object_get(ms->record, "time"));
	snprintf(what, sizeof(what), "record of %s at %s in %s", a->host, time ? time : "?",
		 a->db);
	profile = json_string_value(json_object_get(ms->record, "profile"));
	rc = machine_from_inventory(a, ms, what, profile ? profile_builtin(profile) : NULL, NULL,
				    why, len);
	if (rc != CMD_GO_ON)
		return rc;
	recs = json_pack("[O]", ms->record);
	if (!recs || fleet_bw_collect(recs, &ms->bw) < 0) {
		json_decref(recs);
		snprintf(why, len, "out of memory");
		return EXIT_RUNTIME;
	}
	json_decref(recs);
	hits = measured(&ms->m, &ms->bw, a->host);
	if (hits)
		snprintf(ms->measured, sizeof(ms->measured),
			 "%zu of %zu rail ports measured by `bw` in the record of %s at %s: "
			 "those figures replace the nominal rates", hits, ms->m.n_ports,
			 a->host, time ? time : "?");
	else
		snprintf(ms->measured, sizeof(ms->measured),
			 "no bw result on record for %s's rail ports: nominal rates only",
			 a->host);
	ms->have_measured = true;
	return CMD_GO_ON;
}

/* Host names and paths come from outside: JSON takes only UTF-8, so text
 * that is not gets its bytes above ASCII shown as '?'. */
static void plain_text(char *s)
{
	json_t *probe = json_string(s);

	if (probe) {
		json_decref(probe);
		return;
	}
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			*s = '?';
}

int plan_source_pick(struct ctx *c, const struct plan_ask *a, struct plan_source *ms)
{
	char why[256] = "";
	struct pipeline pl;
	int rc;

	if (!!a->db != !!a->host) {
		fprintf(stderr, "%s plan: --db and --host go together\n", c->prog);
		return EXIT_USAGE;
	}
	if ((a->db != NULL) + (a->profile != NULL) + (strcmp(c->root_dir, "/") != 0) > 1) {
		fprintf(stderr, "%s plan: one machine at a time: --profile, --root or "
			"--db/--host\n", c->prog);
		return EXIT_USAGE;
	}
	if (a->profile)
		rc = machine_from_profile(c, a, ms, why, sizeof(why));
	else if (a->db)
		rc = machine_from_record(c, a, ms, why, sizeof(why));
	else {
		/* the profile check would judge this machine under: the site
		 * file's, else the one the machine is (pipeline.h) */
		rc = pipeline_collect(c, "plan", &pl, false);
		if (rc == EXIT_OK)
			rc = pipeline_choose(c, &pl, NULL);
		if (rc == EXIT_OK) {
			const char *host;
			char what[400];

			/* the plan keeps the inventory; the pipeline frees the rest */
			ms->inv = pl.inv;
			memset(&pl.inv, 0, sizeof(pl.inv));
			host = ms->inv.host.hostname ? ms->inv.host.hostname : "this host";
			if (strcmp(c->root_dir, "/") != 0)
				snprintf(what, sizeof(what), "%s under %s", host, c->root_dir);
			else
				snprintf(what, sizeof(what), "%s", host);
			rc = machine_from_inventory(a, ms, what, pl.profile,
						    pl.has_site ? &pl.site : NULL, why, sizeof(why));
		}
		pipeline_free(&pl);
	}
	if (rc != CMD_GO_ON && why[0])
		fprintf(stderr, "%s plan: %s\n", c->prog, why);
	plain_text(ms->source);
	return rc;
}

void plan_source_free(struct plan_source *ms)
{
	plan_machine_free(&ms->m);
	profile_free(&ms->loaded);
	inventory_free(&ms->inv);
	fleet_bw_free(&ms->bw);
	json_decref(ms->record);
}
