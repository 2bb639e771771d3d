#include "root.h"
#include "pathcache.h"
#include "tape.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Linux gives up after 40 symlinks in one lookup; so do we. */
#define MAX_SYMLINKS 40

int root_open(struct root *r, const char *dir)
{
	char *real;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->dir = strdup(dir);
	r->dirs = pathcache_new();
	r->files = pathcache_new();
	if (!r->dir || !r->dirs || !r->files) {
		root_close(r);
		return -ENOMEM;
	}
	r->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0) {
		int err = -errno;

		root_close(r);
		return err;
	}
	real = realpath(dir, NULL);
	r->live = real && strcmp(real, "/") == 0;
	free(real);
	return 0;
}

void root_close(struct root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->dir);
	r->dir = NULL;
	pathcache_free(r->dirs);
	r->dirs = NULL;
	pathcache_free(r->files);
	r->files = NULL;
	tape_free(r->tape);
	r->tape = NULL;
	for (size_t i = 0; i < r->n_notes; i++) {
		free(r->notes[i].path);
		free(r->notes[i].what);
	}
	free(r->notes);
	r->notes = NULL;
	r->n_notes = r->cap_notes = 0;
}

void root_forget_files(struct root *r)
{
	struct pathcache *fresh = pathcache_new();

	if (!fresh)
		return;	/* keep the old cache: stale beats crashing */
	pathcache_free(r->files);
	r->files = fresh;
}

int root_record(struct root *r)
{
	if (!r->tape)
		r->tape = tape_new();
	return r->tape ? 0 : -ENOMEM;
}

void root_note(struct root *r, const char *path, const char *fmt, ...)
{
	struct root_note *n;
	va_list ap;
	char *what;

	if (r->n_notes == r->cap_notes) {
		size_t cap = r->cap_notes ? r->cap_notes * 2 : 16;

		n = realloc(r->notes, cap * sizeof(*n));
		if (!n)
			return;	/* a lost note is not worth failing over */
		r->notes = n;
		r->cap_notes = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	n = &r->notes[r->n_notes];
	n->path = strdup(path);
	n->what = what;
	if (!n->path || !n->what) {
		free(n->path);
		free(n->what);
		return;
	}
	r->n_notes++;
}

/* "a/b" + "c" -> "a/b/c"; "" + "c" -> "c". */
static char *join(const char *dir, const char *name)
{
	char *out;

	if (!*dir)
		return strdup(name);
	if (asprintf(&out, "%s/%s", dir, name) < 0)
		return NULL;
	return out;
}

/* Split "a/b/c" into a malloc'd "a/b" and a pointer to "c". */
static char *split_parent(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*name = path;
		return strdup("");
	}
	*name = slash + 1;
	return strndup(path, (size_t)(slash - path));
}

static int resolve(struct root *r, const char *path, char **out, int *links);

/* Canonical path of parent/name where parent is already canonical. */
static int resolve_step(struct root *r, const char *parent, const char *name,
			char **out, int *links)
{
	char target[PATH_MAX];
	char *cand, *via;
	ssize_t len;
	int rc;

	if (!*name || strcmp(name, ".") == 0) {
		*out = strdup(parent);
		return *out ? 0 : -ENOMEM;
	}
	if (strcmp(name, "..") == 0) {
		const char *slash = strrchr(parent, '/');

		*out = slash ? strndup(parent, (size_t)(slash - parent)) : strdup("");
		return *out ? 0 : -ENOMEM;
	}
	cand = join(parent, name);
	if (!cand)
		return -ENOMEM;
	len = readlinkat(r->fd, cand, target, sizeof(target) - 1);
	if (len < 0) {
		/* Not a symlink (EINVAL) or not there (ENOENT): the path is
		 * canonical as it stands; opening it will say the rest. */
		*out = cand;
		return 0;
	}
	target[len] = '\0';
	if (r->tape && tape_symlink(r->tape, cand, target) < 0) {
		free(cand);
		return -ENOMEM;
	}
	free(cand);
	if (++*links > MAX_SYMLINKS)
		return -ELOOP;
	if (target[0] == '/') {
		/* Absolute targets mean the root of the examined machine. */
		return resolve(r, target + strspn(target, "/"), out, links);
	}
	via = join(parent, target);
	if (!via)
		return -ENOMEM;
	rc = resolve(r, via, out, links);
	free(via);
	return rc;
}

static int resolve(struct root *r, const char *path, char **out, int *links)
{
	const char *cached, *name;
	char *parent, *cparent;
	int rc;

	while (path[0] == '/')
		path++;
	if (!*path) {
		*out = strdup("");
		return *out ? 0 : -ENOMEM;
	}
	cached = pathcache_get(r->dirs, path, NULL);
	if (cached) {
		*out = strdup(cached);
		return *out ? 0 : -ENOMEM;
	}
	parent = split_parent(path, &name);
	if (!parent)
		return -ENOMEM;
	rc = resolve(r, parent, &cparent, links);
	free(parent);
	if (rc < 0)
		return rc;
	rc = resolve_step(r, cparent, name, out, links);
	free(cparent);
	if (rc == 0 && pathcache_put(r->dirs, path, *out, 0) < 0) {
		free(*out);
		return -ENOMEM;
	}
	return rc;
}

int root_resolve(struct root *r, const char *path, char **out)
{
	int links = 0;

	return resolve(r, path, out, &links);
}

int root_readlink(struct root *r, const char *path, char **out)
{
	char target[PATH_MAX];
	const char *name;
	char *parent, *cparent, *full;
	ssize_t len;
	int rc;

	parent = split_parent(path, &name);
	if (!parent)
		return -ENOMEM;
	rc = root_resolve(r, parent, &cparent);
	free(parent);
	if (rc < 0)
		return rc;
	full = join(cparent, name);
	free(cparent);
	if (!full)
		return -ENOMEM;
	len = readlinkat(r->fd, full, target, sizeof(target) - 1);
	if (len < 0) {
		rc = -errno;
		free(full);
		return rc;
	}
	target[len] = '\0';
	if (r->tape && tape_symlink(r->tape, full, target) < 0) {
		free(full);
		return -ENOMEM;
	}
	free(full);
	*out = strdup(target);
	return *out ? 0 : -ENOMEM;
}

/* Read a whole file.  O_NONBLOCK keeps a FIFO or a terminal that a hostile
 * tree might hold from blocking (they read as empty or EAGAIN), and the size
 * cap bounds /dev/zero; a directory fails with EISDIR, which is how fixtures
 * spell "the kernel refused this read".  No fstat: a third of the syscalls
 * on a 4096-GID machine. */
static int slurp(struct root *r, const char *cpath, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b;
	int fd, rc = 0;

	fd = openat(r->fd, cpath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r->opens++;
	b = malloc(cap + 1);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *nb;

			if (cap >= ROOT_MAX_FILE) {
				rc = -EFBIG;
				break;
			}
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				rc = -ENOMEM;
				break;
			}
			b = nb;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		n += (size_t)got;
		/* A short read is the end: sysfs hands out an attribute in one
		 * read, seq_file fills the buffer it is given, local files too.
		 * Saves a second read() per file: 4096 of them for 4096 GIDs. */
		if (got == 0 || n < cap)
			break;
	}
	close(fd);
	if (rc < 0) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Read through the per-run cache: a file read once is not opened again. */
static int read_cached(struct root *r, char **full, char **buf, size_t *len)
{
	int err = 0;
	const char *hit = pathcache_get(r->files, *full, &err);
	int rc;

	if (hit) {
		if (err)
			return -err;
		*len = strlen(hit);
		*buf = strdup(hit);
		return *buf ? 0 : -ENOMEM;
	}
	rc = slurp(r, *full, buf, len);
	if (rc == -ELOOP) {
		/* The attribute itself is a symlink: follow it inside the root. */
		char *target;

		rc = root_resolve(r, *full, &target);
		if (rc < 0)
			return rc;
		free(*full);
		*full = target;
		rc = slurp(r, *full, buf, len);
	}
	if (r->tape) {
		int trc = 0;

		if (rc == 0)
			trc = tape_file(r->tape, *full, *buf, *len);
		else if (rc != -ENOENT && rc != -ENOTDIR)
			trc = tape_error(r->tape, *full, -rc);
		if (trc < 0) {
			if (rc == 0)
				free(*buf);
			return trc;
		}
	}
	/* Only the success or failure matters to callers; a cache miss on
	 * ENOMEM here just means the file is read again later. */
	(void)pathcache_put(r->files, *full, rc == 0 ? *buf : "", rc < 0 ? -rc : 0);
	return rc;
}

int root_read(struct root *r, const char *path, char **out)
{
	const char *name;
	char *parent, *cparent, *full;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	parent = split_parent(path, &name);
	if (!parent)
		return -ENOMEM;
	rc = root_resolve(r, parent, &cparent);
	free(parent);
	if (rc < 0)
		return rc;
	full = join(cparent, name);
	free(cparent);
	if (!full)
		return -ENOMEM;
	rc = read_cached(r, &full, &buf, &len);
	free(full);
	if (rc < 0)
		return rc;
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	*out = buf;
	return 0;
}

int root_readf(struct root *r, char **out, const char *fmt, ...)
{
	va_list ap;
	char *path;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&path, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	rc = root_read(r, path, out);
	free(path);
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void root_free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int root_list(struct root *r, const char *path, char ***names, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	char *cpath;
	DIR *d;
	int fd, rc = 0;

	*names = NULL;
	*n = 0;
	rc = root_resolve(r, path, &cpath);
	if (rc < 0)
		return rc;
	fd = openat(r->fd, *cpath ? cpath : ".",
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		free(cpath);
		return rc;
	}
	r->opens++;
	d = fdopendir(fd);
	if (!d) {
		rc = -errno;
		close(fd);
		free(cpath);
		return rc;
	}
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (cnt == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			char **nv = realloc(v, ncap * sizeof(*nv));

			if (!nv) {
				rc = -ENOMEM;
				break;
			}
			v = nv;
			cap = ncap;
		}
		v[cnt] = strdup(de->d_name);
		if (!v[cnt]) {
			rc = -ENOMEM;
			break;
		}
		cnt++;
	}
	closedir(d);
	if (rc == 0 && r->tape)
		rc = tape_dir(r->tape, cpath);
	free(cpath);
	if (rc < 0) {
		root_free_list(v, cnt);
		return rc;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_names);
	*names = v;
	*n = cnt;
	return 0;
}

/* lstat inside the root: the path's own symlinks resolved, not its last. */
static int stat_in_root(struct root *r, const char *path, struct stat *st)
{
	char *cpath;
	int rc;

	if (root_resolve(r, path, &cpath) < 0)
		return -1;
	rc = fstatat(r->fd, *cpath ? cpath : ".", st, AT_SYMLINK_NOFOLLOW);
	free(cpath);
	return rc;
}

bool root_exists(struct root *r, const char *path)
{
	struct stat st;

	return stat_in_root(r, path, &st) == 0;
}

bool root_is_dir(struct root *r, const char *path)
{
	struct stat st;

	return stat_in_root(r, path, &st) == 0 && S_ISDIR(st.st_mode);
}
