#include "cmd.h"
#include "../opt/opt_files.h"
#include "../profiles/site.h"
#include "../print/json.h"
#include "../print/text_wrap.h"
#include "../print/plural.h"
#include "../state/boot_id.h"
#include "../sysfs/tape.h"
#include "../sysfs/tape_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct cmd_spec snapshot_spec = {
	.name = "snapshot",
	.operands = "OUTDIR",
	.min_operands = 1,
	.max_operands = 1,
	.about =
	"Capture this machine for replay elsewhere: copies every file the readers\n"
	"read (sysfs, procfs), byte for byte and with its symlinks, into OUTDIR,\n"
	"plus what only a live query can tell (verbs port attributes such as the\n"
	"active MTU, whether /dev/infiniband/uverbsN can be opened; the memlock\n"
	"limit and kernel name come from /proc files), and the kernel's raw\n"
	"answers under OUTDIR/.rdmadoctor/: DCB netlink (dcb/), ethtool\n"
	"statistics (ethtool/), link modes and FEC (ethtool-nl/), module EEPROM\n"
	"pages (module/; needs CAP_NET_ADMIN), of each RoCE netdev or, for a\n"
	"RoCE LAG, of each bond slave.\n"
	"A file the kernel refused to read becomes an empty directory, so the\n"
	"replay sees the same refusal.\n"
	"\n"
	"  rdmadoctor --root OUTDIR inventory --json\n"
	"\n"
	"then gives the same document as `rdmadoctor inventory --json` gave here.\n"
	"OUTDIR must not exist; it appears only once complete.  Attach it to a\n"
	"bug report, or keep it as the record of an accepted machine.\n",
};

struct dropped_links {
	struct ctx *c;
	size_t n;
};

/* A link of the tree read that leads outside it (a replayed tree's link
 * to /etc or /proc/self): said, since the replay will miss it.  The names
 * come from that tree: cleaned, a newline in them included. */
static void note_dropped(void *arg, const char *path, const char *target)
{
	struct dropped_links *d = arg;

	d->n++;
	if (d->c->quiet)
		return;
	fprintf(stderr, "%s snapshot: left out the symlink '", d->c->prog);
	text_put_clean(stderr, path);
	fputs("' -> '", stderr);
	text_put_clean(stderr, target);
	fputs("': it leads outside the tree\n", stderr);
}

static int write_snapshot(struct ctx *c, struct root *r, const char *out, size_t *dropped)
{
	struct dropped_links d = { c, 0 };
	size_t len = strlen(out) + 256;
	char *why = malloc(len);
	int rc;

	if (!why)
		return ctx_fail(c, "%s snapshot: out of memory", c->prog);
	rc = tape_write_dir(r->tape, out, note_dropped, &d, why, len);
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", c->prog, why);
	free(why);
	*dropped = d.n;
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
}

/* The site file, and the profile file it names, go on the tape too, so that
 * `check --root SNAPSHOT` judges under the profile, waivers and roles the
 * machine itself was judged under (pipeline/pipeline.h).  Reading records them;
 * a site file that does not parse is kept as it is, for the replay to say
 * what is wrong with it.  EXIT_OK, or EXIT_RUNTIME without memory. */
static int tape_site(struct ctx *c, struct root *r)
{
	struct profile_error err;
	struct site site;
	char *text = NULL, *prof = NULL;
	int rc = root_read(r, SITE_FILE, &text);

	if (rc == -ENOMEM)
		goto nomem;
	if (rc < 0)
		return EXIT_OK;	/* none, or its read error is on the tape */
	rc = site_parse(text, strlen(text), SITE_FILE, &site, &err);
	free(text);
	if (rc == -ENOMEM)
		goto nomem;
	if (rc < 0)
		return EXIT_OK;
	if (site.profile && site.profile[0] == '/')
		rc = root_read(r, site.profile + 1, &prof);
	free(prof);
	site_free(&site);
	if (rc == -ENOMEM)
		goto nomem;
	return EXIT_OK;
nomem:
	fprintf(stderr, "%s snapshot: out of memory\n", c->prog);
	return EXIT_RUNTIME;
}

int cmd_snapshot(struct ctx *c, int argc, char **argv)
{
	const char *out;
	struct inventory inv;
	struct root r;
	struct stat st;
	size_t dropped = 0;
	int n, rc = opts_parse(c, &snapshot_spec, argc, argv, NULL, &n);

	if (rc != CMD_GO_ON)
		return rc;
	out = argv[1];
	if (lstat(out, &st) == 0) {
		fprintf(stderr, "%s snapshot: '%s' already exists (choose a new directory)\n",
			c->prog, out);
		return EXIT_USAGE;
	}
	rc = opt_need_parent(c, "snapshot", "OUTDIR", out);
	if (rc != CMD_GO_ON)
		return rc;
	rc = ctx_collect(c, &r, &inv, true);
	if (rc == EXIT_OK)
		rc = tape_site(c, &r);
	/* the boot, for `check --state` on the replay (docs/state.md); its
	 * read error, if any, is on the tape */
	if (rc == EXIT_OK) {
		char boot[BOOT_ID_LEN + 1];

		if (boot_id_read(&r, boot) == -ENOMEM)
			rc = ctx_fail(c, "%s snapshot: out of memory", c->prog);
	}
	if (rc == EXIT_OK)
		rc = write_snapshot(c, &r, out, &dropped);
	if (rc == EXIT_OK) {
		size_t files = tape_count(r.tape);

		if (c->json)
			rc = ctx_emit_json(c, json_pack("{s:i, s:o, s:I, s:I, s:b, s:I}", "schema", 1,
				"snapshot", json_string_or_null(out), "entries", (json_int_t)files, "nics", (json_int_t)inv.n_nics,
				"live", r.live, "links_left_out", (json_int_t)dropped));
		else if (!c->quiet)
			printf("snapshot of %zu %s and %zu %s (%zu %s) in '%s'\n"
			       "replay it with: %s --root %s inventory\n", inv.n_nics,
			       plural(inv.n_nics, "RDMA device", "RDMA devices"), inv.n_gpus,
			       plural(inv.n_gpus, "GPU", "GPUs"), files,
			       plural(files, "entry", "entries"), out, c->prog, out);
	}
	inventory_free(&inv);
	root_close(&r);
	return rc;
}
