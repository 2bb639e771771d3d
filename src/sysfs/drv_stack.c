/* drv_stack.h: the reader.  The judging is src/check/drv_stack.c. */
#include "drv_stack.h"
#include "modinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[DRV_COUNT] = {
	"mlx5_core", "mlx5_ib", "ib_core", "ib_uverbs", "nvidia_peermem",
};

/* *why = "a: b" */
static int set_why(char **why, const char *a, const char *b)
{
	free(*why);
	*why = NULL;
	if (asprintf(why, "%s: %s", a, b) < 0) {
		*why = NULL;
		return -ENOMEM;
	}
	return 0;
}

static const char *err_word(int rc)
{
	return rc == -EFBIG ? "not a file of a sane size" : strerror(-rc);
}

/* The module as loaded now. */
static int read_loaded(struct root *r, struct drv_module *m)
{
	char dir[64], path[128];
	unsigned char note[256];
	size_t len = 0;
	int rc;

	snprintf(dir, sizeof(dir), "sys/module/%s", m->name);
	/* a loadable module has initstate; a built-in one (=y) has none and
	 * no file to compare */
	snprintf(path, sizeof(path), "%s/initstate", dir);
	m->loaded = root_exists(r, path);
	if (!m->loaded)
		return 0;
	rc = root_readf(r, &m->loaded_version, "%s/version", dir);
	if (rc == -ENOMEM)
		return rc;
	rc = root_readf(r, &m->loaded_srcversion, "%s/srcversion", dir);
	if (rc == -ENOMEM)
		return rc;
	snprintf(path, sizeof(path), "%s/notes/.note.gnu.build-id", dir);
	rc = root_read_bin(r, path, note, sizeof(note), &len);
	if (rc == 0 && modinfo_build_id(note, len, m->loaded_id, &m->loaded_id_len))
		root_note(r, path, "malformed: not a GNU build id note");
	else if (rc && rc != -ENOENT)
		root_note(r, path, "%s", strerror(-rc));
	return 0;
}

/* The file modprobe loads for the running kernel. */
static int read_disk(struct root *r, const char *kernel, struct drv_module *m)
{
	const char *z = drv_compression(m->path);
	unsigned char *buf;
	char *path;
	size_t len;
	int rc;

	m->source = drv_source_of(m->path);
	if (asprintf(&path, "lib/modules/%s/%s", kernel, m->path) < 0)
		return -ENOMEM;
	if (z) {
		char what[48];

		/* no decompressor here: said, never guessed */
		snprintf(what, sizeof(what), "compressed (%s), not read", z);
		rc = set_why(&m->disk_why, path, what);
		free(path);
		return rc;
	}
	rc = root_read_whole(r, path, DRV_FILE_MAX, &buf, &len);
	if (rc == 0) {
		rc = modinfo_read(buf, len, &m->disk);
		free(buf);
		if (rc == 0)
			m->disk_read = true;
		else if (rc != -ENOMEM)
			rc = set_why(&m->disk_why, path,
				     rc == -ENOENT ? "no .modinfo section"
				     : rc == -EOPNOTSUPP ? "not a 64-bit little-endian ELF object"
							 : "a malformed ELF object");
	} else if (rc != -ENOMEM) {
		rc = set_why(&m->disk_why, path, err_word(rc));
	}
	if (m->disk_why)
		root_note(r, path, "module file not read");
	free(path);
	return rc;
}

/* modules.dep of release k: its text, or why not. */
static int read_dep(struct root *r, const char *k, unsigned char **buf, size_t *len, char **why)
{
	char *path;
	int rc;

	if (asprintf(&path, "lib/modules/%s/modules.dep", k) < 0)
		return -ENOMEM;
	rc = root_read_whole(r, path, DRV_FILE_MAX, buf, len);
	if (rc && rc != -ENOMEM) {
		root_note(r, path, "not read: %s", err_word(rc));
		if (set_why(why, path, err_word(rc)))
			rc = -ENOMEM;
	}
	free(path);
	return rc;
}

static void take_newest(char **best, const char *name)
{
	if (*best && strverscmp(name, *best) <= 0)
		return;
	free(*best);
	*best = strdup(name);
}

/* A file known by its name only: its first bytes read, so that a snapshot
 * keeps the name (a listing alone is not taped). */
static void tape_name(struct root *r, const char *pre, const char *arg)
{
	unsigned char head[16];
	char path[512];
	size_t len;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", pre, arg) < sizeof(path) && root_exists(r, path))
		(void)root_read_bin(r, path, head, sizeof(head), &len);
}

/* The kernel the boot loader takes next: the newest installed one (Debian's
 * and RHEL's grub default), named by lib/modules/<k>/ or boot/vmlinuz-<k>.
 * Left NULL when that is the running kernel. */
static int find_next(struct root *r, struct drv_stack *s)
{
	char **names = NULL, *best = NULL;
	size_t n = 0;

	if (root_list(r, "lib/modules", &names, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			take_newest(&best, names[i]);
		root_free_list(names, n);
	}
	if (root_list(r, "boot", &names, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			if (!strncmp(names[i], "vmlinuz-", 8) && names[i][8])
				take_newest(&best, names[i] + 8);
		root_free_list(names, n);
	}
	if (best && s->kernel && !strcmp(best, s->kernel)) {
		free(best);
		best = NULL;
	}
	s->next_kernel = best;
	if (best)
		tape_name(r, "boot/vmlinuz-", best);
	return 0;
}

/* A DKMS file for a module the next kernel's modules.dep lacks: the first
 * one found is its next_dkms. */
static int dkms_take(struct root *r, const char *dir, const char *file, struct drv_stack *s)
{
	for (size_t i = 0; i < DRV_COUNT; i++) {
		struct drv_module *m = &s->mods[i];

		if (m->next_path || m->next_dkms || !drv_path_names(file, strlen(file), m->name))
			continue;
		if (asprintf(&m->next_dkms, "%s/%s", dir, file) < 0) {
			m->next_dkms = NULL;
			return -ENOMEM;
		}
		tape_name(r, "", m->next_dkms);
	}
	return 0;
}

/* The DKMS builds for kernel k, walked once, as dkms lays them out:
 * var/lib/dkms/<package>/<version>/<k>/<arch>/module/<m>.ko[.xz|.zst|.gz];
 * level is how many of <package>, <version>, <arch> dir is below. */
static int dkms_walk(struct root *r, const char *dir, int level, const char *k,
		     struct drv_stack *s)
{
	char **names = NULL, *sub;
	size_t n = 0;
	int rc = 0;

	if (root_list(r, dir, &names, &n))
		return 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const char *e = names[i];

		if (level == 3) {
			rc = dkms_take(r, dir, e, s);
			continue;
		}
		/* dkms's own links (kernel-<k>-<arch>) and the source link */
		if (level == 1 && (!strncmp(e, "kernel-", 7) || !strcmp(e, "source")))
			continue;
		if ((level == 0 ? asprintf(&sub, "%s/%s", dir, e)
		     : level == 1 ? asprintf(&sub, "%s/%s/%s", dir, e, k)
				  : asprintf(&sub, "%s/%s/module", dir, e)) < 0)
			rc = -ENOMEM;
		else {
			rc = dkms_walk(r, sub, level + 1, k, s);
			free(sub);
		}
	}
	root_free_list(names, n);
	return rc;
}

static int read_stack(struct root *r, struct drv_stack *s)
{
	unsigned char *dep = NULL;
	size_t len = 0;
	int rc;

	for (size_t i = 0; i < DRV_COUNT; i++) {
		s->mods[i].name = NAMES[i];
		rc = read_loaded(r, &s->mods[i]);
		if (rc)
			return rc;
	}
	s->nvidia_loaded = root_is_dir(r, "sys/module/nvidia");
	rc = root_read(r, "sys/module/nvidia/version", &s->nvidia_version);
	if (rc == -ENOMEM)
		return rc;
	if (!s->kernel) {
		s->dep_why = strdup("the running kernel's release (proc/sys/kernel/osrelease) "
				    "is unknown");
		return s->dep_why ? 0 : -ENOMEM;
	}
	rc = read_dep(r, s->kernel, &dep, &len, &s->dep_why);
	if (rc == -ENOMEM)
		return rc;
	if (rc == 0) {
		s->dep_known = true;
		for (size_t i = 0; rc == 0 && i < DRV_COUNT; i++) {
			struct drv_module *m = &s->mods[i];

			rc = drv_dep_find((const char *)dep, len, m->name, &m->path);
			if (rc == 0 && m->path)
				rc = read_disk(r, s->kernel, m);
		}
		free(dep);
		dep = NULL;
		if (rc)
			return rc;
	}
	rc = find_next(r, s);
	if (rc || !s->next_kernel)
		return rc;
	rc = read_dep(r, s->next_kernel, &dep, &len, &s->next_why);
	if (rc == -ENOMEM)
		return rc;
	s->next_dep_known = rc == 0;
	rc = 0;
	for (size_t i = 0; rc == 0 && s->next_dep_known && i < DRV_COUNT; i++)
		rc = drv_dep_find((const char *)dep, len, s->mods[i].name, &s->mods[i].next_path);
	free(dep);
	return rc ? rc : dkms_walk(r, "var/lib/dkms", 0, s->next_kernel, s);
}

int drv_stack_read(struct root *r, const char *kernel, struct drv_stack **out)
{
	struct drv_stack *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	if (kernel && !(s->kernel = strdup(kernel))) {
		free(s);
		return -ENOMEM;
	}
	rc = read_stack(r, s);
	if (rc) {
		drv_stack_free(s);
		return rc;
	}
	*out = s;
	return 0;
}
