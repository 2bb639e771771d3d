/* verbs_user.h: the reader.  The judging is src/check/verbs_user.c. */
#include "verbs_user.h"
#include "attr.h"
#include "elf_verdef.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where distributions put libibverbs, as the dynamic loader searches. */
static const char *const LIBDIRS[] = {
	"usr/lib/x86_64-linux-gnu", "usr/lib/aarch64-linux-gnu", "usr/lib64", "usr/lib",
	"lib/x86_64-linux-gnu", "lib64",
};

static char *join(const char *a, const char *b)
{
	char *s;

	return asprintf(&s, "%s/%s", a, b) < 0 ? NULL : s;
}

/* The library's sets from its bytes; the why when they cannot be had. */
static int read_sets(struct root *r, struct verbs_user *u)
{
	char *path = join(u->libdir, u->library), **names = NULL;
	unsigned char *buf = NULL;
	size_t len = 0, n = 0;
	int rc;

	if (!path)
		return -ENOMEM;
	rc = root_read_whole(r, path, VERBS_LIB_MAX, &buf, &len);
	if (rc == 0)
		rc = elf_verdef_names(buf, len, &names, &n);
	free(buf);
	if (rc == -ENOMEM) {
		free(path);
		return rc;
	}
	if (rc == 0) {
		verbs_sets_scan(names, n, &u->verbs_minor, &u->pabi);
		elf_verdef_free(names, n);
		if (u->verbs_minor < 0 || u->pabi < 0)
			rc = -ENOENT;
	}
	if (rc) {
		const char *what = rc == -EFBIG	 ? "not a library of a sane size"
				   : rc == -ENOENT ? "no IBVERBS_1.N and IBVERBS_PRIVATE_N version sets"
				   : rc == -EOPNOTSUPP ? "not a 64-bit little-endian ELF object"
				   : rc == -EINVAL ? "a malformed ELF object"
						   : strerror(-rc);

		if (asprintf(&u->why, "%s: %s", path, what) < 0)
			u->why = NULL;
		root_note(r, path, "libibverbs not read: %s", what);
		if (!u->why) {
			free(path);
			return -ENOMEM;
		}
	}
	free(path);
	return 0;
}

static int find_library(struct root *r, struct verbs_user *u)
{
	for (size_t i = 0; i < sizeof(LIBDIRS) / sizeof(LIBDIRS[0]); i++) {
		char *so1 = join(LIBDIRS[i], "libibverbs.so.1"), *target = NULL;
		int rc;

		if (!so1)
			return -ENOMEM;
		if (!root_exists(r, so1)) {
			free(so1);
			continue;
		}
		rc = root_readlink(r, so1, &target);
		free(so1);
		if (rc == -ENOMEM)
			return rc;
		u->libdir = strdup(LIBDIRS[i]);
		if (rc == 0) {
			const char *base = strrchr(target, '/');

			u->library = strdup(base ? base + 1 : target);
			free(target);
		} else {
			u->library = strdup("libibverbs.so.1");	/* a file, not a link */
		}
		if (!u->libdir || !u->library)
			return -ENOMEM;
		u->release = verbs_release_of(u->library);
		return read_sets(r, u);
	}
	/* not a fault: jobs in containers bring their own */
	root_note(r, "usr/lib", "no libibverbs.so.1 in usr/lib/<multiarch>, usr/lib64 or usr/lib: "
		  "the host's verbs userspace not judged");
	return 0;
}

static bool provider_is_elf(struct root *r, const char *dir, const char *name)
{
	unsigned char head[16];
	size_t len = 0;
	char *path = join(dir, name);
	int rc = path ? root_read_bin(r, path, head, sizeof(head), &len) : -ENOMEM;

	if (rc == 0 && (len < 4 || memcmp(head, "\177ELF", 4)))
		rc = -ENOEXEC;
	if (rc && rc != -ENOMEM)
		root_note(r, path, "provider not taken: %s", strerror(-rc));
	free(path);
	return rc == 0;
}

static int read_providers(struct root *r, struct verbs_user *u)
{
	char *dir = join(u->libdir, "libibverbs"), **names = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!dir)
		return -ENOMEM;
	rc = root_list(r, dir, &names, &n);
	if (rc == -ENOMEM) {
		free(dir);
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct verbs_provider p;
		void *grown;

		if (verbs_provider_file(names[i], &p.name, &p.pabi) == -ENOMEM)
			rc = -ENOMEM;
		if (!p.name)
			continue;
		/* its ELF header: a dangling link or no ELF loads nothing; and so
		 * the snapshot keeps the name (a listing alone is not taped) */
		if (!provider_is_elf(r, dir, names[i])) {
			free(p.name);
			continue;
		}
		grown = growbuf_reserve(u->providers, &cap, u->n_providers + 1,
					sizeof(*u->providers));
		if (!grown) {
			free(p.name);
			rc = -ENOMEM;
			break;
		}
		u->providers = grown;
		u->providers[u->n_providers++] = p;
	}
	root_free_list(names, n);
	free(dir);
	return rc == -ENOMEM ? rc : 0;
}

/* "driver mlx5" (or "driver /opt/x/libfoo"): the word after "driver". */
static int add_driver_lines(const char *text, struct verbs_user *u, size_t *cap)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *w, *we;
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > 7 && !strncmp(line, "driver", 6) && (line[6] == ' ' || line[6] == '\t')) {
			w = line + 7;
			while (w < line + len && (*w == ' ' || *w == '\t'))
				w++;
			we = w;
			while (we < line + len && *we != ' ' && *we != '\t' && *we != '\r')
				we++;
			if (we > w) {
				void *grown = growbuf_reserve(u->drivers, cap, u->n_drivers + 1,
							      sizeof(*u->drivers));
				char *s = grown ? strndup(w, (size_t)(we - w)) : NULL;

				if (grown)
					u->drivers = grown;
				if (!s)
					return -ENOMEM;
				u->drivers[u->n_drivers++] = s;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return 0;
}

static int read_drivers(struct root *r, struct verbs_user *u)
{
	static const char dir[] = "etc/libibverbs.d";
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = root_list(r, dir, &names, &n);

	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return 0;	/* drivers_known stays false */
	u->drivers_known = true;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		size_t len = strlen(names[i]);
		char *text = NULL;

		if (len <= 7 || strcmp(names[i] + len - 7, ".driver"))
			continue;
		rc = root_readf(r, &text, "%s/%s", dir, names[i]);
		if (rc == -ENOMEM)
			break;
		rc = text ? add_driver_lines(text, u, &cap) : 0;
		free(text);
	}
	root_free_list(names, n);
	return rc == -ENOMEM ? rc : 0;
}

static int abi(struct root *r, const char *dir)
{
	int64_t v = attr_s64(r, dir, "abi_version");

	return v >= 0 && v < 1000 ? (int)v : -1;
}

int verbs_user_read(struct root *r, struct verbs_user **out)
{
	struct verbs_user *u = calloc(1, sizeof(*u));
	int rc;

	*out = NULL;
	if (!u)
		return -ENOMEM;
	u->verbs_minor = u->pabi = -1;
	u->uverbs_abi = abi(r, "sys/class/infiniband_verbs");
	u->umad_abi = abi(r, "sys/class/infiniband_mad");
	rc = find_library(r, u);
	if (rc == 0 && u->libdir)
		rc = read_providers(r, u);
	if (rc == 0)
		rc = read_drivers(r, u);
	if (rc) {
		verbs_user_free(u);
		return rc;
	}
	*out = u;
	return 0;
}
