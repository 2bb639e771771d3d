/* What a cut snapshot lacks is not judged (snapshot_gaps.h). */
#include "snapshot_gaps.h"
#include "../check/families.h"
#include "../sysfs/manifest.h"
#include "../print/text_wrap.h"
#include "../check/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int snapshot_gaps_open(struct ctx *c, const char *verb, struct root *r,
		       struct snapshot_gaps *g)
{
	if (manifest_check(r, g) < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	if (g->malformed[0])
		fprintf(stderr, "%s %s: warning: the snapshot's manifest '%s' is not all right "
			"(%s): whether the snapshot is whole cannot be told\n", c->prog, verb,
			MANIFEST_FILE, g->malformed);
	if (g->n_missing) {
		fprintf(stderr, "%s %s: incomplete snapshot: %zu %s missing (of %zu its manifest "
			"lists; the first: '", c->prog, verb, g->n_missing,
			g->n_missing == 1 ? "entry" : "entries", g->entries);
		text_put_clean(stderr, g->missing[0]);
		fputs("'): what it lacks is not judged\n", stderr);
	}
	return EXIT_OK;
}

/* Whether path is one of nic's: under its RDMA device's directory, its
 * PCI function's, or a kernel answer kept for one of its netdevs. */
static bool of_nic(const struct nic *n, const char *path)
{
	const char *p;
	size_t len;

	if (n->name) {
		len = strlen(n->name);
		for (p = strstr(path, "infiniband/"); p; p = strstr(p + 1, "infiniband/")) {
			const char *name = p + strlen("infiniband/");

			if (!strncmp(name, n->name, len) && (name[len] == '/' || !name[len]))
				return true;
		}
	}
	if (n->has_pci && n->pci.sysfs_path) {
		len = strlen(n->pci.sysfs_path);
		if (!strncmp(path, n->pci.sysfs_path, len) && (path[len] == '/' || !path[len]))
			return true;
	}
	if (!strncmp(path, ".rdmadoctor/", 12)) {
		for (size_t k = 0; k < n->n_ports; k++) {
			const char *nd = n->ports[k].netdev;

			if (!nd)
				continue;
			len = strlen(nd);
			for (p = strchr(path + 12, '/'); p; p = strchr(p + 1, '/'))
				if (!strncmp(p + 1, nd, len) && (p[1 + len] == '/' || !p[1 + len]))
					return true;
		}
	}
	return false;
}

/* The RDMA device names that missing entries name (class links of
 * devices the replay then does not see at all, among them). */
static void missing_devices(const struct snapshot_gaps *g, struct check_buf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n_missing && n < 16; i++) {
		const char *p = strstr(g->missing[i], "infiniband/"), *end;
		char name[64];

		if (!p)
			continue;
		p += strlen("infiniband/");
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		if (end == p || (size_t)(end - p) >= sizeof(name))
			continue;
		memcpy(name, p, (size_t)(end - p));
		name[end - p] = '\0';
		if (b->len) {
			/* once each */
			char key[80];

			snprintf(key, sizeof(key), " %s,", name);
			if (strstr(check_buf_str(b), key))
				continue;
		}
		check_buf_printf(b, " %s,", name);
		n++;
	}
}

struct gone_ctx {
	const struct inventory *inv;
	const bool *lacking;
	struct check_buf *ids;
	size_t gone;
};

/* The NIC a finding is on: its subject is the device's name, or the name
 * and a port; -1 none (the machine, a GPU, the host). */
static long nic_of(const struct inventory *inv, const struct finding *f)
{
	if (!f->subject)
		return -1;
	for (size_t i = 0; i < inv->n_nics; i++) {
		size_t len = inv->nics[i].name ? strlen(inv->nics[i].name) : 0;

		if (len && !strncmp(f->subject, inv->nics[i].name, len) &&
		    (f->subject[len] == ' ' || !f->subject[len]))
			return (long)i;
	}
	return -1;
}

static bool gone(const struct finding *f, size_t i, const void *arg)
{
	const struct gone_ctx *g = arg;
	long n = nic_of(g->inv, f);
	char key[96];

	(void)i;
	if (n >= 0 && !g->lacking[n])
		return false;
	/* a note of the machine stays: it judges nothing */
	if (n < 0 && f->severity == SEV_INFO && !f->unchecked)
		return false;
	snprintf(key, sizeof(key), " %s,", f->id);
	if (!strstr(check_buf_str(g->ids), key))
		check_buf_printf(g->ids, "%s", key);
	((struct gone_ctx *)g)->gone++;
	return true;
}

/* " a, b," as "a, b" */
static const char *list_of(struct check_buf *b)
{
	char *s = (char *)check_buf_str(b);
	size_t n = strlen(s);

	if (n && s[n - 1] == ',')
		s[n - 1] = '\0';
	return s[0] == ' ' ? s + 1 : s;
}

int snapshot_gaps_apply(const struct inventory *inv, const struct snapshot_gaps *g,
			struct findings *fs)
{
	struct check_buf ids = { 0 }, devs = { 0 };
	struct gone_ctx gc = { .inv = inv, .ids = &ids };
	bool *lacking;
	struct finding *f;

	if (!g->n_missing)
		return 0;
	lacking = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*lacking));
	if (!lacking)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < g->n_missing && !lacking[i]; k++)
			lacking[i] = of_nic(&inv->nics[i], g->missing[k]);
	gc.lacking = lacking;
	findings_remove_if(fs, 0, gone, &gc);
	missing_devices(g, &devs);
	for (size_t i = 0; i < inv->n_nics; i++) {
		char key[80];

		snprintf(key, sizeof(key), " %s,", inv->nics[i].name ? inv->nics[i].name : "?");
		if (lacking[i] && !strstr(check_buf_str(&devs), key))
			check_buf_printf(&devs, "%s", key);
	}
	free(lacking);
	f = finding_add(fs, "snapshot.incomplete", SEV_WARN,
			"A snapshot cut short (a half-extracted archive, a copy that ran out of "
			"disk) looks like a machine whose cards fell off the bus: what it lacks "
			"cannot be judged, and judging the rest as a whole would blame the "
			"machine for the copy.");
	if (!f || ids.nomem || devs.nomem) {
		check_buf_free(&ids);
		check_buf_free(&devs);
		return -ENOMEM;
	}
	f->unchecked = true;
	finding_set(&f->subject, "snapshot");
	finding_set(&f->observed, "incomplete snapshot: %zu %s missing of the %zu its manifest "
		    "(%s) lists, e.g. '%.300s'%s%s; not judged: %s", g->n_missing,
		    g->n_missing == 1 ? "entry" : "entries", g->entries, MANIFEST_FILE,
		    g->missing[0], devs.len ? "; of " : "", devs.len ? list_of(&devs) : "",
		    ids.len ? list_of(&ids) : "nothing more (no finding was on what it lacks)");
	finding_set(&f->expected, "every entry its manifest lists");
	finding_set(&f->fix, "take the snapshot again, or unpack the whole archive; the "
		    "machine itself is judged by `rdmadoctor check` on it");
	check_buf_free(&ids);
	check_buf_free(&devs);
	check_sort(fs);
	return 0;
}
