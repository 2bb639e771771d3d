#include "tape.h"
#include "manifest.h"
#include "parse.h"
#include "pathcache.h"
#include "tape_link.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum kind { K_FILE, K_ERROR, K_SYMLINK, K_DIR };

struct entry {
	enum kind kind;
	char *path;
	char *data;	/* file bytes or symlink target */
	size_t len;
	int err;	/* K_ERROR: the errno the read failed with */
};

struct tape {
	struct entry *e;
	size_t n, cap;
	struct pathcache *seen;	/* each path once: the first read wins */
};

struct tape *tape_new(void)
{
	struct tape *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->seen = pathcache_new();
	if (!t->seen) {
		free(t);
		return NULL;
	}
	return t;
}

void tape_free(struct tape *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].path);
		free(t->e[i].data);
	}
	free(t->e);
	pathcache_free(t->seen);
	free(t);
}

size_t tape_count(const struct tape *t)
{
	return t->n;
}

static int add(struct tape *t, enum kind kind, const char *path,
	       const char *data, size_t len)
{
	struct entry *e;

	if (pathcache_get(t->seen, path, NULL))
		return 0;
	e = growbuf_reserve(t->e, &t->cap, t->n + 1, sizeof(*t->e));
	if (!e)
		return -ENOMEM;
	t->e = e;
	e = &t->e[t->n];
	e->kind = kind;
	e->len = len;
	e->err = 0;
	e->path = strdup(path);
	e->data = NULL;
	if (data) {
		e->data = malloc(len + 1);
		if (e->data) {
			memcpy(e->data, data, len);
			e->data[len] = '\0';
		}
	}
	if (!e->path || (data && !e->data) || pathcache_put(t->seen, path, "", 0) < 0) {
		free(e->path);
		free(e->data);
		return -ENOMEM;
	}
	t->n++;
	return 0;
}

int tape_file(struct tape *t, const char *path, const char *data, size_t len)
{
	return add(t, K_FILE, path, data, len);
}

int tape_error(struct tape *t, const char *path, int err)
{
	size_t before = t->n;
	int rc = add(t, K_ERROR, path, NULL, 0);

	if (rc == 0 && t->n > before)	/* not a path seen before */
		t->e[t->n - 1].err = err;
	return rc;
}

int tape_symlink(struct tape *t, const char *path, const char *target)
{
	return add(t, K_SYMLINK, path, target, strlen(target));
}

int tape_dir(struct tape *t, const char *path)
{
	return add(t, K_DIR, path, NULL, 0);
}

/* mkdir -p of every directory above path (and path itself if whole). */
static int make_dirs(int dirfd, const char *path, int whole)
{
	char *p = strdup(path);
	char *end;
	int rc = 0;

	if (!p)
		return -ENOMEM;
	end = whole ? p + strlen(p) : strrchr(p, '/');
	for (char *s = p; end && s <= end; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		if (s == p)
			continue;
		char c = *s;

		*s = '\0';
		if (mkdirat(dirfd, p, 0755) < 0 && errno != EEXIST) {
			rc = -errno;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

static int write_file(int dirfd, const struct entry *e)
{
	int fd = openat(dirfd, e->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t off = 0;
	int rc = 0;

	if (fd < 0)
		return -errno;
	while (off < e->len) {
		ssize_t w = write(fd, e->data + off, e->len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* The ".errno" marker in a refused read's directory: the errno by name
 * ("EINVAL\n", as the fixtures write it), else in decimal. */
static int write_marker(int dirfd, const struct entry *e)
{
	const char *name = errno_marker_name(e->err);
	char text[32];
	struct entry m = { .kind = K_FILE, .data = text };
	int rc;

	if (name)
		snprintf(text, sizeof(text), "%s\n", name);
	else
		snprintf(text, sizeof(text), "%d\n", e->err);
	m.len = strlen(text);
	if (asprintf(&m.path, "%s/.errno", e->path) < 0)
		return -ENOMEM;
	rc = write_file(dirfd, &m);
	free(m.path);
	return rc;
}

/* Whether what an absolute link names (norm, root-relative) is in the
 * snapshot: the tape holds it, something under it, or a link on its way
 * (which leads on by its own rules).  Else it names something of the
 * host that opened the tree (/etc/hosts).  -ENOMEM, or a bool. */
static int holds(const struct tape *t, const char *norm)
{
	size_t len = strlen(norm);
	char *prefix;
	bool found = false;

	if (!len)
		return true;
	for (size_t i = 0; i < t->n && !found; i++)
		found = strncmp(t->e[i].path, norm, len) == 0 && t->e[i].path[len] == '/';
	prefix = strdup(norm);
	if (!prefix)
		return -ENOMEM;
	for (char *s = prefix; !found && s; s = strchr(s + 1, '/')) {
		char c = *s;

		*s = '\0';
		found = s != prefix && pathcache_get(t->seen, prefix, NULL);
		*s = c;
	}
	found = found || pathcache_get(t->seen, prefix, NULL);
	free(prefix);
	return found;
}

/* The link as it may be written: its target, one rebased into the tree,
 * or (0 with *out NULL) none.  0 or -ENOMEM. */
static int link_target(const struct tape *t, const struct entry *e, char **out)
{
	char *norm = NULL;
	int where = tape_link_where(e->path, e->data, &norm);

	*out = NULL;
	if (where == TAPE_LINK_ABSOLUTE) {
		int held = holds(t, norm);

		if (held > 0)
			*out = tape_link_rebase(e->path, norm);
		where = held < 0 ? held : held ? where : TAPE_LINK_OUTSIDE;
		free(norm);
	} else if (where == TAPE_LINK_INSIDE) {
		*out = strdup(e->data);
	}
	if (where < 0)
		return where;
	return where != TAPE_LINK_OUTSIDE && !*out ? -ENOMEM : 0;
}

static int write_link(const struct tape *t, int dirfd, const struct entry *e,
		      tape_dropped_fn *dropped, void *arg)
{
	char *target;
	int rc = link_target(t, e, &target);

	if (rc < 0)
		return rc;
	if (!target) {
		if (dropped)
			dropped(arg, e->path, e->data);
		return 1;	/* not written */
	}
	rc = symlinkat(target, dirfd, e->path) < 0 ? -errno : 0;
	free(target);
	return rc;
}

/* The manifest (manifest.h) of what was written, at the tree's top. */
static int write_manifest(int dirfd, const struct manifest *m)
{
	struct entry f = { .kind = K_FILE, .path = (char *)MANIFEST_FILE };
	int rc;

	f.data = manifest_format(m);
	if (!f.data)
		return -ENOMEM;
	f.len = strlen(f.data);
	rc = write_file(dirfd, &f);
	free(f.data);
	return rc;
}

int tape_write(const struct tape *t, int dirfd, tape_dropped_fn *dropped, void *arg)
{
	struct manifest m = { 0 };
	int rc = 0;

	for (size_t i = 0; i < t->n && rc == 0; i++) {
		const struct entry *e = &t->e[i];
		char kind = 0;

		rc = make_dirs(dirfd, e->path, e->kind == K_DIR || e->kind == K_ERROR);
		if (rc < 0)
			break;
		switch (e->kind) {
		case K_FILE:
			rc = write_file(dirfd, e);
			kind = 'f';
			break;
		case K_SYMLINK:
			rc = write_link(t, dirfd, e, dropped, arg);
			kind = rc == 1 ? 0 : 'l';
			rc = rc == 1 ? 0 : rc;
			break;
		case K_ERROR:
			rc = e->err > 0 ? write_marker(dirfd, e) : 0;
			kind = e->err > 0 ? 'e' : 'd';
			break;
		case K_DIR:
			kind = 'd';
			break;
		}
		if (rc < 0 && rc != -EEXIST)
			break;
		rc = 0;
		/* a path the manifest cannot hold (a newline in it) is left
		 * out of it: not checked on replay, never counted missing */
		if (kind && manifest_add(&m, kind, e->path) == -ENOMEM)
			rc = -ENOMEM;
	}
	if (rc == 0)
		rc = write_manifest(dirfd, &m);
	manifest_free(&m);
	return rc;
}
