/* The one check pipeline: collect -> site file -> profile -> check, shared
 * by check, serve, record (through check_document) and watch, so that a
 * machine gets the same verdict whichever command judges it.
 *
 *   pipeline_option   --profile NAME|FILE, loaded once, before anything
 *                     is read (serve keeps it for every reading)
 *   pipeline_collect  open the root, read the inventory and the site file
 *                     /etc/rdmadoctor/rdmadoctor.conf (through the root)
 *   pipeline_choose   the profile: --profile, else the site file's, else
 *                     the one the machine is (profiles/select.c)
 *   pipeline_judge    every check (or, for watch, the counter checks),
 *                     the site file's roles and waivers applied
 * Each prints its own errors and returns EXIT_OK or an exit code. */
#ifndef RD_PIPELINE_PIPELINE_H
#define RD_PIPELINE_PIPELINE_H

#include "ctx.h"
#include "../sysfs/manifest_check.h"
#include "../check/finding.h"
#include "../print/check_out.h"
#include "../profiles/profile.h"
#include "../profiles/site.h"

/* --profile, held by the caller for as long as it judges. */
struct pipeline_option {
	struct profile loaded;
	const struct profile *profile;	/* NULL: none given */
};

struct pipeline {
	const char *verb;		/* "check", "serve": for messages */
	struct root r;
	struct inventory inv;
	bool opened;			/* r and inv hold something to free */
	struct site site;
	bool has_site;
	bool site_optional;		/* a view: a broken site file is warned of and
					 * dropped, not a stop */
	struct profile site_loaded;	/* the site file's profile file */
	const struct profile *profile;
	enum profile_source source;
	char reason[320];
	struct findings findings;
	enum nic_role *roles;		/* one per NIC, once judged */
	bool *wrong_link;		/* one per NIC: no rail for its link
					 * layer alone (NULL: none shown) */
	struct snapshot_gaps gaps;	/* a replayed snapshot against its manifest */
};

int pipeline_option(struct ctx *c, const char *verb, const char *arg,
		    struct pipeline_option *o);
void pipeline_option_free(struct pipeline_option *o);

/* record: keep a tape for snapshot. */
int pipeline_collect(struct ctx *c, const char *verb, struct pipeline *pl, bool record);
/* option may be NULL. */
int pipeline_choose(struct ctx *c, struct pipeline *pl, const struct pipeline_option *option);
/* counters_only: watch's judgement over its own samples.  A machine with
 * neither GPUs nor RDMA devices has nothing to check: EXIT_RUNTIME. */
int pipeline_judge(struct ctx *c, struct pipeline *pl, bool counters_only);
/* The three, for check, serve and record. */
int pipeline_run(struct ctx *c, const char *verb, struct pipeline *pl,
		 const struct pipeline_option *option);
void pipeline_free(struct pipeline *pl);
/* For the views (inventory, topo): collect, choose the profile, and
 * label each NIC with its role (nic->role), as check would judge it.  A
 * site file that is broken (or names a profile that cannot be had) is
 * not applied, with a warning on stderr naming the file and line: the
 * machine is shown all the same, where check refuses to judge it. */
int pipeline_view(struct ctx *c, const char *verb, struct pipeline *pl);
/* What check_out prints of a judged pipeline. */
struct check_report pipeline_report(const struct pipeline *pl);

#endif
