/* The check pipeline (pipeline.h): one way from a machine to a verdict. */
#include "pipeline.h"
#include "snapshot_gaps.h"
#include "check_doc.h"
#include "../check/site_names.h"
#include "../print/check_out.h"
#include "../check/run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pipeline_option(struct ctx *c, const char *verb, const char *arg,
		    struct pipeline_option *o)
{
	memset(o, 0, sizeof(*o));
	if (!arg)
		return -1;
	return ctx_load_profile(c, verb, arg, &o->loaded, &o->profile);
}

void pipeline_option_free(struct pipeline_option *o)
{
	if (o->profile == &o->loaded)
		profile_free(&o->loaded);
	o->profile = NULL;
}

/* "ROOT/etc/rdmadoctor/rdmadoctor.conf", as the user would find it. */
static void site_path(const struct ctx *c, const char *rel, char *buf, size_t len)
{
	const char *root = c->root_dir;
	size_t n = strlen(root);

	snprintf(buf, len, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", rel);
}

/* A problem of the site file (or of the profile file it names): for a
 * judging command it stops the run with exit code rc, printed as
 * "FILE:LINE: message"; a view (pl->site_optional) shows the machine all
 * the same, so it warns, drops the site file, and goes on (EXIT_OK). */
static int site_problem(struct ctx *c, struct pipeline *pl, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int site_problem(struct ctx *c, struct pipeline *pl, int rc, const char *fmt, ...)
{
	char what[4608];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!pl->site_optional) {
		if (rc == EXIT_RUNTIME)
			return ctx_fail(c, "%s", what);
		fprintf(stderr, "%s\n", what);
		return rc;
	}
	/* said even under -q: a site file silently left out would mislabel
	 * the NICs it names */
	fprintf(stderr, "%s %s: warning: the site file is broken and was not applied "
		"(`%s check` refuses it): %s\n", c->prog, pl->verb, c->prog, what);
	site_free(&pl->site);
	pl->has_site = false;
	return EXIT_OK;
}

static int profile_error(struct ctx *c, struct pipeline *pl, const struct profile_error *err,
			 int rc)
{
	int code = rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;

	if (rc == -ENOMEM)
		return ctx_fail(c, "%s: out of memory", c->prog);
	if (err->line)
		return site_problem(c, pl, code, "%s:%d: %s", err->file, err->line, err->message);
	return site_problem(c, pl, code, "%s: %s", err->file,
			    err->message[0] ? err->message : strerror(-rc));
}

/* The site file, when there is one.  Absent is fine; unreadable or
 * broken stops a judging run, as a broken profile does. */
static int read_site(struct ctx *c, struct pipeline *pl)
{
	struct profile_error err;
	char path[4096], *text = NULL;
	int rc = root_read(&pl->r, SITE_FILE, &text);

	if (rc == -ENOENT)
		return EXIT_OK;
	site_path(c, SITE_FILE, path, sizeof(path));
	if (rc == -ENOMEM)
		return ctx_fail(c, "%s: out of memory", c->prog);
	if (rc < 0 && pl->site_optional)
		return site_problem(c, pl, EXIT_RUNTIME, "%s: cannot read it: %s", path,
				    strerror(-rc));
	if (rc < 0)
		return site_problem(c, pl, EXIT_RUNTIME, "%s %s: cannot read the site file %s: %s",
				    c->prog, pl->verb, path, strerror(-rc));
	rc = site_parse(text, strlen(text), path, &pl->site, &err);
	free(text);
	if (rc < 0)
		return profile_error(c, pl, &err, rc);
	pl->has_site = true;
	/* a misspelt id or a device this machine lacks would waive or label
	 * nothing, in silence */
	rc = check_site_names(&pl->site, &pl->inv, err.message, sizeof(err.message));
	if (rc == -ENOMEM)
		return ctx_fail(c, "%s: out of memory", c->prog);
	if (rc < 0)
		return site_problem(c, pl, EXIT_USAGE, "%s: %s", path, err.message);
	return EXIT_OK;
}

static int collect(struct ctx *c, const char *verb, struct pipeline *pl, bool record,
		   bool site_optional)
{
	int rc;

	memset(pl, 0, sizeof(*pl));
	pl->verb = verb;
	pl->opened = true;
	pl->site_optional = site_optional;
	rc = ctx_collect(c, &pl->r, &pl->inv, record);
	if (rc == EXIT_OK)
		rc = snapshot_gaps_open(c, verb, &pl->r, &pl->gaps);
	if (rc == EXIT_OK)
		rc = read_site(c, pl);
	return rc;
}

int pipeline_collect(struct ctx *c, const char *verb, struct pipeline *pl, bool record)
{
	return collect(c, verb, pl, record, false);
}

/* The site file's profile = NAME or an absolute path on the examined
 * machine, read through the root like the site file itself.  A view that
 * could not take it has dropped the site file: pl->profile stays NULL. */
static int site_profile(struct ctx *c, struct pipeline *pl)
{
	const char *name = pl->site.profile;
	struct profile_error err;
	char path[4096], *text = NULL;
	int rc;

	pl->profile = profile_builtin(name);
	if (pl->profile)
		return EXIT_OK;
	site_path(c, SITE_FILE, path, sizeof(path));
	if (name[0] != '/')
		return site_problem(c, pl, EXIT_USAGE,
				    "%s:%d: profile: no built-in profile '%s' (`%s profiles` lists "
				    "them; a profile file is named by its absolute path)", path,
				    pl->site.profile_line, name, c->prog);
	rc = root_read(&pl->r, name + 1, &text);
	if (rc < 0)
		return site_problem(c, pl, rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME,
				    "%s:%d: profile: cannot read '%s': %s", path,
				    pl->site.profile_line, name, strerror(-rc));
	site_path(c, name + 1, path, sizeof(path));
	rc = profile_parse(text, strlen(text), path, &pl->site_loaded, &err);
	free(text);
	if (rc < 0 && rc != -ENOMEM && pl->site_optional) {
		/* the site file's line too: the view goes on without either */
		site_path(c, SITE_FILE, path, sizeof(path));
		return site_problem(c, pl, EXIT_USAGE, "%s:%d: profile: %s:%d: %s", path,
				    pl->site.profile_line, err.file, err.line, err.message);
	}
	if (rc < 0)
		return profile_error(c, pl, &err, rc);
	pl->profile = &pl->site_loaded;
	return EXIT_OK;
}

int pipeline_choose(struct ctx *c, struct pipeline *pl, const struct pipeline_option *option)
{
	char path[4096];
	int rc;

	if (option && option->profile) {
		pl->profile = option->profile;
		pl->source = PROFILE_FROM_OPTION;
		snprintf(pl->reason, sizeof(pl->reason), "chosen with --profile");
		return EXIT_OK;
	}
	if (pl->has_site && pl->site.profile) {
		rc = site_profile(c, pl);
		if (rc != EXIT_OK)
			return rc;
	}
	if (pl->has_site && pl->site.profile) {
		pl->source = PROFILE_FROM_SITE;
		site_path(c, SITE_FILE, path, sizeof(path));
		snprintf(pl->reason, sizeof(pl->reason), "named in the site file %.200s", path);
		return EXIT_OK;
	}
	pl->profile = profile_pick(&pl->inv, &pl->source, pl->reason, sizeof(pl->reason));
	if (!pl->profile)
		return ctx_fail(c, "%s: %s", c->prog, pl->reason);
	return EXIT_OK;
}

int pipeline_judge(struct ctx *c, struct pipeline *pl, bool counters_only)
{
	const struct site *site = pl->has_site ? &pl->site : NULL;
	int rc;

	if (counters_only) {
		rc = check_run_counters(&pl->inv, &pl->findings);
		if (rc == 0)
			check_waive(&pl->findings, site);
	} else {
		if (!pl->inv.n_gpus && !inventory_has_network(&pl->inv)) {
			ctx_fail(c, "%s %s: nothing to check under '%s': no GPU, no NPU and no "
				 "RDMA device", c->prog, pl->verb, c->root_dir);
			if (!c->quiet)
				ctx_hint_no_devices(c);
			return EXIT_RUNTIME;
		}
		/* the roles are computed once: judged under, and printed with */
		pl->roles = calloc(pl->inv.n_nics ? pl->inv.n_nics : 1, sizeof(*pl->roles));
		rc = -ENOMEM;
		if (pl->roles) {
			check_roles(&pl->inv, pl->profile, site, pl->roles);
			pl->wrong_link = check_wrong_links(&pl->inv, pl->profile, site);
			rc = check_run_site(&pl->inv, pl->profile, site, pl->roles,
					    &pl->findings);
		}
	}
	/* a cut snapshot: what it lacks is not judged */
	if (rc == 0)
		rc = snapshot_gaps_apply(&pl->inv, &pl->gaps, &pl->findings);
	if (rc < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	return EXIT_OK;
}

int pipeline_run(struct ctx *c, const char *verb, struct pipeline *pl,
		 const struct pipeline_option *option)
{
	int rc = pipeline_collect(c, verb, pl, false);

	if (rc == EXIT_OK)
		rc = pipeline_choose(c, pl, option);
	if (rc == EXIT_OK)
		rc = pipeline_judge(c, pl, false);
	return rc;
}

void pipeline_free(struct pipeline *pl)
{
	if (!pl->opened)
		return;
	findings_free(&pl->findings);
	snapshot_gaps_free(&pl->gaps);
	free(pl->roles);
	free(pl->wrong_link);
	if (pl->profile == &pl->site_loaded)
		profile_free(&pl->site_loaded);
	site_free(&pl->site);
	inventory_free(&pl->inv);
	root_close(&pl->r);
	pl->opened = false;
}

int pipeline_view(struct ctx *c, const char *verb, struct pipeline *pl)
{
	static const char *const names[ROLE_COUNT] = { "rail", "storage" };
	int rc = collect(c, verb, pl, false, true);

	if (rc == EXIT_OK)
		rc = pipeline_choose(c, pl, NULL);
	if (rc != EXIT_OK)
		return rc;
	pl->roles = calloc(pl->inv.n_nics ? pl->inv.n_nics : 1, sizeof(*pl->roles));
	if (!pl->roles)
		return ctx_fail(c, "%s: out of memory", c->prog);
	check_roles(&pl->inv, pl->profile, pl->has_site ? &pl->site : NULL, pl->roles);
	/* under a profile without rails (generic) only the site file says */
	for (size_t i = 0; i < pl->inv.n_nics; i++)
		if (pl->profile->role[ROLE_RAIL].defined ||
		    (pl->has_site && site_role(&pl->site, pl->inv.nics[i].name) >= 0))
			pl->inv.nics[i].role = names[pl->roles[i]];
	return EXIT_OK;
}

struct check_report pipeline_report(const struct pipeline *pl)
{
	struct check_report rep = {
		.inv = &pl->inv, .profile = pl->profile, .reason = pl->reason,
		.findings = &pl->findings, .source = profile_source_name(pl->source),
		.roles = pl->roles, .wrong_link = pl->wrong_link,
	};

	return rep;
}

int check_document(struct ctx *c, const char *verb, const char *profile, json_t **doc)
{
	struct pipeline_option option;
	struct pipeline pl;
	int rc = pipeline_option(c, verb, profile, &option);

	*doc = NULL;
	if (rc >= 0)
		return rc;
	rc = pipeline_run(c, verb, &pl, &option);
	if (rc == EXIT_OK) {
		struct check_report rep = pipeline_report(&pl);

		if (!inventory_has_network(&pl.inv))
			ctx_hint_no_devices(c);
		*doc = check_to_json(&rep);
		if (!*doc) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			rc = EXIT_RUNTIME;
		}
	}
	pipeline_free(&pl);
	pipeline_option_free(&option);
	return rc;
}
