#include "cmd.h"
#include "../out/json.h"
#include "../sysfs/ib.h"
#include "../sysfs/tape.h"

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

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static void remove_tree(const char *dir)
{
	/* best effort: what is left is a directory named .partial */
	(void)nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The live-only values go onto the tape as files under .rdmadoctor/. */
static int tape_verbs(struct tape *t, const struct inventory *inv)
{
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		/* what stat and access said of /dev/infiniband/<uverbsN> */
		if (n->uverbs && n->uverbs_dev) {
			char *path, *text;
			int rc;

			if (asprintf(&path, "%s/%s", UVERBS_DEV_SNAPSHOT_DIR, n->uverbs) < 0)
				return -ENOMEM;
			if (asprintf(&text, "%s\n", n->uverbs_dev) < 0) {
				free(path);
				return -ENOMEM;
			}
			rc = tape_file(t, path, text, strlen(text));
			free(path);
			free(text);
			if (rc < 0)
				return rc;
		}

		for (size_t p = 0; p < n->n_ports; p++) {
			const struct port *pt = &n->ports[p];
			const struct { const char *name; int64_t v; } vals[] = {
				{ "active_mtu", pt->active_mtu }, { "max_mtu", pt->max_mtu },
			};

			for (size_t k = 0; k < 2; k++) {
				char *path, text[32];
				int rc, len;

				if (IS_NA(vals[k].v))
					continue;
				len = snprintf(text, sizeof(text), "%lld\n", (long long)vals[k].v);
				if (asprintf(&path, "%s/%s/%d/%s", VERBS_SNAPSHOT_DIR, n->name,
					     pt->num, vals[k].name) < 0)
					return -ENOMEM;
				rc = tape_file(t, path, text, (size_t)len);
				free(path);
				if (rc < 0)
					return rc;
			}
		}
	}
	return 0;
}

/* Written beside the target and renamed at the end: a full disk or a crash
 * leaves no half snapshot under the name the user asked for. */
static char *partial_dir(const char *out)
{
	char *tmpl = NULL;

	if (asprintf(&tmpl, "%s.partial-XXXXXX", out) < 0)
		tmpl = NULL;
	if (tmpl && !mkdtemp(tmpl)) {
		free(tmpl);
		tmpl = NULL;
	}
	return tmpl;
}

static int write_snapshot(struct ctx *c, struct root *r, const struct inventory *inv,
			  const char *out)
{
	char *tmp;
	int dirfd, rc = 0;

	if (r->live && tape_verbs(r->tape, inv) < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	tmp = partial_dir(out);
	if (!tmp) {
		fprintf(stderr, "%s: cannot create a directory next to '%s': %s\n", c->prog,
			out, strerror(errno));
		return EXIT_RUNTIME;
	}
	dirfd = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		rc = -errno;
	else
		rc = tape_write(r->tape, dirfd);
	if (dirfd >= 0)
		close(dirfd);
	if (rc == 0 && rename(tmp, out) < 0)
		rc = -errno;
	if (rc < 0) {
		fprintf(stderr, "%s: cannot write snapshot '%s': %s\n", c->prog, out,
			strerror(-rc));
		remove_tree(tmp);
		free(tmp);
		return EXIT_RUNTIME;
	}
	free(tmp);
	return EXIT_OK;
}

int cmd_snapshot(struct ctx *c, int argc, char **argv)
{
	const char *out;
	struct inventory inv;
	struct root r;
	struct stat st;
	int n, rc = opts_parse(c, &snapshot_spec, argc, argv, NULL, &n);

	if (rc >= 0)
		return rc;
	out = argv[1];
	if (lstat(out, &st) == 0) {
		fprintf(stderr, "%s snapshot: '%s' already exists (choose a new directory)\n",
			c->prog, out);
		return EXIT_USAGE;
	}
	rc = ctx_collect(c, &r, &inv, true);
	if (rc == EXIT_OK)
		rc = write_snapshot(c, &r, &inv, out);
	if (rc == EXIT_OK) {
		size_t files = tape_count(r.tape);

		if (c->json)
			rc = ctx_emit_json(c, json_pack("{s:i, s:o, s:I, s:I, s:b}", "schema", 1,
				"snapshot", json_string_or_null(out), "entries", (json_int_t)files, "nics", (json_int_t)inv.n_nics,
				"live", r.live));
		else if (!c->quiet)
			printf("snapshot of %zu RDMA devices and %zu GPUs (%zu entries) in '%s'\n"
			       "replay it with: %s --root %s inventory\n",
			       inv.n_nics, inv.n_gpus, files, out, c->prog, out);
	}
	inventory_free(&inv);
	root_close(&r);
	return rc;
}
