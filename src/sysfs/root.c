#include "root.h"
#include "einval_memo.h"
#include "parse.h"
#include "pathcache.h"
#include "tape.h"
#include "../model/growbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
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
	r->noted = pathcache_new();
	if (!r->dir || !r->dirs || !r->files || !r->noted) {
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

void root_memo_save(struct root *r)
{
	if (r->memo && r->memo->save)
		r->memo->save(r, r->memo);
}

void root_close(struct root *r)
{
	/* a zeroed handle has no dir and its fd 0 is not its own (stdin) */
	if (r->dir && r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->dir);
	r->dir = NULL;
	pathcache_free(r->dirs);
	r->dirs = NULL;
	pathcache_free(r->files);
	r->files = NULL;
	pathcache_free(r->noted);
	r->noted = NULL;
	tape_free(r->tape);
	r->tape = NULL;
	for (size_t i = 0; i < r->n_notes; i++) {
		free(r->notes[i].path);
		free(r->notes[i].what);
	}
	free(r->notes);
	r->notes = NULL;
	r->n_notes = r->cap_notes = 0;
	exclude_free(&r->exclude);
	einval_memo_free(&r->memo);
}

void root_exclude(struct root *r, struct exclude_list *l)
{
	exclude_move(&r->exclude, l);
}

int root_forget_files(struct root *r)
{
	struct pathcache *fresh = pathcache_new();

	/* never keep the old cache: a stale counter reads as no change, and
	 * a window that saw nothing grow would pass */
	if (!fresh)
		return -ENOMEM;
	pathcache_free(r->files);
	r->files = fresh;
	return 0;
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
	char *what, *key;

	n = growbuf_reserve(r->notes, &r->cap_notes, r->n_notes + 1, sizeof(*n));
	if (!n)
		return;	/* a lost note is not worth failing over */
	r->notes = n;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	if (!what)
		return;
	if (r->noted && asprintf(&key, "%s\n%s", path, what) >= 0) {
		bool seen = pathcache_get(r->noted, key, NULL) != NULL;

		if (!seen)
			(void)pathcache_put(r->noted, key, "", 0);
		free(key);
		if (seen) {
			free(what);
			return;
		}
	}
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

/* The canonical form of the longest prefix of path (cut at a '/') that an
 * earlier call resolved; *used is how much of path it covers. */
static char *cached_prefix(struct root *r, const char *path, size_t *used)
{
	char *buf = strdup(path), *canon = NULL;

	*used = 0;
	if (!buf)
		return NULL;
	for (;;) {
		const char *hit = pathcache_get(r->dirs, buf, NULL);
		char *slash;

		if (hit) {
			canon = strdup(hit);
			*used = strlen(buf);
			break;
		}
		slash = strrchr(buf, '/');
		if (!slash) {
			canon = strdup("");
			break;
		}
		*slash = '\0';
	}
	free(buf);
	return canon;
}

/* Walk the path one component at a time, as the kernel does, with the root
 * as "/": no recursion (a crafted chain of links cannot exhaust the stack),
 * at most MAX_SYMLINKS links, nothing longer than PATH_MAX, ".." stops at
 * the root.  Only whole results are cached, one entry per path asked for. */
int root_resolve(struct root *r, const char *path, char **out)
{
	char target[PATH_MAX];
	const char *cached, *p;
	char *canon, *rest;
	size_t used;
	int links = 0, rc = 0;

	while (path[0] == '/')
		path++;
	cached = pathcache_get(r->dirs, path, NULL);
	if (cached) {
		*out = strdup(cached);
		return *out ? 0 : -ENOMEM;
	}
	canon = cached_prefix(r, path, &used);
	rest = strdup(path + used);
	if (!canon || !rest) {
		rc = -ENOMEM;
		goto out;
	}
	for (p = rest;;) {
		size_t len;
		ssize_t tlen;
		char *cand, *next;

		p += strspn(p, "/");
		if (!*p)
			break;
		len = strcspn(p, "/");
		if (len == 1 && p[0] == '.') {
			p += len;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(canon, '/');

			*(slash ? slash : canon) = '\0';
			p += len;
			continue;
		}
		if (asprintf(&cand, "%s%s%.*s", canon, *canon ? "/" : "", (int)len, p) < 0) {
			rc = -ENOMEM;
			break;
		}
		p += len;
		if (strlen(cand) >= PATH_MAX) {
			free(cand);
			rc = -ENAMETOOLONG;
			break;
		}
		tlen = readlinkat(r->fd, cand, target, sizeof(target) - 1);
		if (tlen < 0) {
			/* Not a symlink (EINVAL) or not there (ENOENT): the path
			 * stands as it is; opening it will say the rest. */
			free(canon);
			canon = cand;
			continue;
		}
		target[tlen] = '\0';
		if (r->tape && tape_symlink(r->tape, cand, target) < 0) {
			free(cand);
			rc = -ENOMEM;
			break;
		}
		if (++links > MAX_SYMLINKS) {
			free(cand);
			rc = -ELOOP;
			break;
		}
		/* Continue with the target, then what was left; an absolute
		 * target starts again at the root of the examined machine. */
		if (target[0] == '/') {
			canon[0] = '\0';
		} else {
			char *slash = strrchr(cand, '/');

			free(canon);
			canon = slash ? strndup(cand, (size_t)(slash - cand)) : strdup("");
		}
		free(cand);
		if (!canon || asprintf(&next, "%s/%s", target, p) < 0) {
			rc = -ENOMEM;
			break;
		}
		free(rest);
		rest = next;
		p = rest;
		if (strlen(rest) >= PATH_MAX) {
			rc = -ENAMETOOLONG;
			break;
		}
	}
	if (rc == 0 && pathcache_put(r->dirs, path, canon, 0) < 0)
		rc = -ENOMEM;
out:
	free(rest);
	if (rc < 0) {
		free(canon);
		return rc;
	}
	*out = canon;
	return 0;
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

/* Open a canonical path.  openat2(RESOLVE_IN_ROOT) keeps the kernel's own
 * lookup inside the root even if the tree changes under us between
 * root_resolve and here (a directory swapped for a symlink); kernels before
 * 5.6 lack it and get the plain openat of an already resolved path. */
static int open_in_root(struct root *r, const char *cpath, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (!*cpath)
		cpath = ".";
	if (!r->no_openat2) {
		fd = (int)syscall(SYS_openat2, r->fd, cpath, &how, sizeof(how));
		if (fd >= 0 || errno != ENOSYS)
			return fd;
		r->no_openat2 = true;
	}
	return openat(r->fd, cpath, flags);
}

/* A directory where a file was read: in a snapshot or fixture, a read the
 * kernel refused, its errno in the ".errno" marker inside (docs/snapshot.md).
 * That errno, so that a replay says what the kernel said ("Invalid
 * argument"), not "Is a directory"; EISDIR itself without a marker. */
static int refused_read(struct root *r, const char *cpath)
{
	char path[PATH_MAX], text[32];
	ssize_t got;
	int fd, err;

	if (snprintf(path, sizeof(path), "%s/.errno", cpath) >= (int)sizeof(path))
		return -EISDIR;
	fd = open_in_root(r, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -EISDIR;
	got = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (got <= 0)
		return -EISDIR;
	text[got] = '\0';
	return parse_errno_marker(text, &err) == 0 ? -err : -EISDIR;
}

/* Read a whole file.  O_NONBLOCK keeps a FIFO or a terminal that a hostile
 * tree might hold from blocking (they read as empty or EAGAIN), and the size
 * cap bounds /dev/zero; a directory fails with EISDIR, which is how fixtures
 * spell "the kernel refused this read".  No fstat: a third of the syscalls
 * on a 4096-GID machine. */
static int slurp(struct root *r, const char *cpath, char **buf, size_t *len)
{
	bool short_is_eof = strncmp(cpath, "sys/", 4) == 0;
	size_t cap = 0, n = 0;	/* cap: bytes b can hold, the NUL included */
	char *b = NULL;
	int fd, rc = 0;

	fd = open_in_root(r, cpath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r->opens++;
	for (;;) {
		ssize_t got;

		if (n + 1 >= cap) {
			char *nb;

			if (n >= ROOT_MAX_FILE) {
				rc = -EFBIG;
				break;
			}
			/* a page and its NUL first: one read for a sysfs file */
			nb = growbuf_reserve(b, &cap, n ? n + 2 : 4097, 1);
			if (!nb) {
				rc = -ENOMEM;
				break;
			}
			b = nb;
		}
		got = read(fd, b + n, cap - 1 - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		n += (size_t)got;
		/* sysfs hands out an attribute in one read (at most a page), so
		 * a short read there is the end: that saves a second read() per
		 * file, 4096 of them on a 4096-GID machine.  procfs seq files
		 * may return short reads before the end: read those to EOF. */
		if (got == 0 || (short_is_eof && n < cap - 1))
			break;
	}
	close(fd);
	if (rc == -EISDIR)
		rc = refused_read(r, cpath);
	if (rc < 0) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Minutes, rounded up: when a retry is due, how long ago a refusal was. */
static long long minutes(int64_t s)
{
	return (long long)((s + 59) / 60);
}

/* The kernel refused full with EINVAL: the memo keeps it, said in a note. */
static void memo_refused(struct root *r, const char *full)
{
	int rc = einval_memo_refused(r->memo, full);

	if (rc == 1)
		root_note(r, full, "the kernel refused it with EINVAL: not read again this boot "
			  "until it is retried in %lld min (remembered in %s)",
			  minutes(EINVAL_MEMO_RETRY_S), r->memo->file);
	else if (rc == 2)
		root_note(r, full, "retried: the kernel refused it with EINVAL again: not read "
			  "again until it is retried in %lld min (%s)",
			  minutes(EINVAL_MEMO_RETRY_S), r->memo->file);
	else if (rc == -ENOSPC)
		root_note(r, full, "the kernel refused it with EINVAL; not remembered (%s holds "
			  "%u files at most)", r->memo->file, EINVAL_STATE_MAX_PATHS);
}

/* Read through the per-run cache: a file read once is not opened again.
 * full is canonical up to its last component. */
static int read_cached(struct root *r, const char *full, char **buf, size_t *len)
{
	char *target = NULL;
	int err = 0;
	const char *hit = pathcache_get(r->files, full, &err);
	int64_t ago = -1;
	bool retry;
	int rc;

	if (hit) {
		if (err)
			return -err;
		*len = strlen(hit);
		*buf = strdup(hit);
		return *buf ? 0 : -ENOMEM;
	}
	if (einval_memo_skips(r->memo, full)) {
		/* refused earlier this boot: asking again logs a kernel error */
		r->memo->skipped++;
		root_note(r, full, "the kernel refused it with EINVAL earlier this boot: not read "
			  "again until it is retried in %lld min (%s)",
			  minutes(einval_memo_retry_in(r->memo, full)), r->memo->file);
		/* a snapshot holds the refusal, as it would have been read */
		if (r->tape && tape_error(r->tape, full, EINVAL) < 0)
			return -ENOMEM;
		(void)pathcache_put(r->files, full, "", EINVAL);
		return -EINVAL;
	}
	/* refused earlier this boot, and the retry is due: asked again */
	retry = einval_memo_retry_in(r->memo, full) == 0;
	if (retry)
		ago = einval_memo_refused_ago(r->memo, full);
	rc = slurp(r, full, buf, len);
	if (rc == -ELOOP) {
		/* The attribute itself is a symlink: follow it inside the root. */
		rc = root_resolve(r, full, &target);
		if (rc < 0)
			return rc;
		full = target;
		rc = slurp(r, full, buf, len);
	}
	if (rc == -EINVAL && r->memo)
		memo_refused(r, full);
	if (rc == 0 && retry && einval_memo_read_ok(r->memo, full)) {
		if (ago >= 0)
			root_note(r, full, "retried: the kernel refused it with EINVAL %lld min ago, "
				  "and read it now: forgotten by %s", minutes(ago), r->memo->file);
		else
			root_note(r, full, "retried: the kernel refused it with EINVAL earlier this "
				  "boot, and read it now: forgotten by %s", r->memo->file);
	}
	if (r->tape) {
		int trc = 0;

		if (rc == 0)
			trc = tape_file(r->tape, full, *buf, *len);
		else if (rc != -ENOENT && rc != -ENOTDIR)
			trc = tape_error(r->tape, full, -rc);
		if (trc < 0) {
			if (rc == 0)
				free(*buf);
			free(target);
			return trc;
		}
	}
	/* Only the success or failure matters to callers; a cache miss on
	 * ENOMEM here just means the file is read again later. */
	(void)pathcache_put(r->files, full, rc == 0 ? *buf : "", rc < 0 ? -rc : 0);
	free(target);
	return rc;
}

/* The canonical form of path up to its last component, into full.  Paths
 * are built on the stack: a read costs no allocation but the content.
 * Anything longer than PATH_MAX the kernel would refuse too. */
static int file_path(struct root *r, const char *path, char full[PATH_MAX])
{
	char parent[PATH_MAX], *resolved = NULL;
	const char *slash = strrchr(path, '/'), *name, *cparent;
	size_t plen = slash ? (size_t)(slash - path) : 0;
	int rc, n;

	if (plen >= PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(parent, path, plen);
	parent[plen] = '\0';
	name = slash ? slash + 1 : path;
	cparent = pathcache_get(r->dirs, parent, NULL);
	if (!cparent) {
		rc = root_resolve(r, parent, &resolved);
		if (rc < 0)
			return rc;
		cparent = resolved;
	}
	n = snprintf(full, PATH_MAX, "%s%s%s", cparent, *cparent ? "/" : "", name);
	free(resolved);
	if (n < 0 || n >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

bool root_refused_before(struct root *r, const char *dir, const char *name)
{
	char full[PATH_MAX];
	char *path;
	bool was;

	if (!r->memo || asprintf(&path, "%s/%s", dir, name) < 0)
		return false;
	was = file_path(r, path, full) == 0 && einval_memo_from_before(r->memo, full);
	free(path);
	return was;
}

int root_read(struct root *r, const char *path, char **out)
{
	char full[PATH_MAX];
	char *buf = NULL;
	size_t len = 0;
	int rc = file_path(r, path, full);

	if (rc < 0)
		return rc;
	rc = read_cached(r, full, &buf, &len);
	if (rc < 0)
		return rc;
	/* the kernel's words without the whitespace after them: a file ending
	 * in two newlines ("InfiniBand\n\n") is still "InfiniBand" */
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t' ||
		       buf[len - 1] == '\r'))
		buf[--len] = '\0';
	*out = buf;
	return 0;
}

/* Read at most cap bytes of a binary file into buf: to EOF (sysfs may hand
 * a bin attribute out in pieces) or until buf is full. */
/* *whole: the file ended within cap (so the bytes may be cached). */
static int slurp_bin(struct root *r, const char *cpath, void *buf, size_t cap, size_t *len,
		     bool *whole)
{
	size_t n = 0;
	int fd, rc = 0;

	*whole = false;
	fd = open_in_root(r, cpath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r->opens++;
	while (n < cap) {
		ssize_t got = read(fd, (char *)buf + n, cap - n);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (got == 0) {
			*whole = true;
			break;
		}
		n += (size_t)got;
	}
	if (rc == 0 && !*whole) {
		char probe;

		*whole = read(fd, &probe, 1) == 0;
	}
	close(fd);
	if (rc == 0)
		*len = n;
	return rc;
}

int root_read_whole(struct root *r, const char *path, size_t max, unsigned char **buf,
		    size_t *len)
{
	struct stat st;
	int rc = root_stat(r, path, &st, NULL);

	*buf = NULL;
	*len = 0;
	if (rc)
		return rc;
	if (st.st_size <= 0 || (unsigned long long)st.st_size > max)
		return -EFBIG;
	*buf = malloc((size_t)st.st_size);
	if (!*buf)
		return -ENOMEM;
	rc = root_read_bin(r, path, *buf, (size_t)st.st_size, len);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int root_read_bin(struct root *r, const char *path, void *buf, size_t cap, size_t *len)
{
	char full[PATH_MAX], *target = NULL;
	const char *cpath = full;
	int rc = file_path(r, path, full);
	bool whole = false;

	*len = 0;
	if (rc < 0)
		return rc;
	/* bridges above a GPU and above its NIC are the same bridges: read once */
	{
		int err = 0;
		size_t have;
		const char *hit = pathcache_get_bytes(r->files, full, &err, &have);

		if (hit) {
			if (err)
				return -err;
			*len = have < cap ? have : cap;
			memcpy(buf, hit, *len);
			return 0;
		}
	}
	rc = slurp_bin(r, cpath, buf, cap, len, &whole);
	if (rc == -ELOOP) {
		/* the file itself is a symlink: follow it inside the root */
		rc = root_resolve(r, full, &target);
		if (rc < 0)
			return rc;
		cpath = target;
		rc = slurp_bin(r, cpath, buf, cap, len, &whole);
	}
	if (r->tape) {
		int trc = 0;

		if (rc == 0)
			trc = tape_file(r->tape, cpath, buf, *len);
		else if (rc != -ENOENT && rc != -ENOTDIR)
			trc = tape_error(r->tape, cpath, -rc);
		if (trc < 0)
			rc = trc;
	}
	/* a miss on ENOMEM only means reading it again later; a file longer
	 * than this caller's buffer is not cached whole, so not at all */
	if (rc < 0 || whole)
		(void)pathcache_put_bytes(r->files, full, buf, rc == 0 ? *len : 0,
					  rc < 0 ? -rc : 0);
	free(target);
	if (rc < 0)
		*len = 0;
	return rc;
}

int root_readf(struct root *r, char **out, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return root_read(r, path, out);
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
	fd = open_in_root(r, cpath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
		char **nv = growbuf_reserve(v, &cap, cnt + 1, sizeof(*v));

		if (!nv) {
			rc = -ENOMEM;
			break;
		}
		v = nv;
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
	int rc = root_resolve(r, path, &cpath);

	if (rc < 0)
		return rc;
	rc = fstatat(r->fd, *cpath ? cpath : ".", st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
	/* What a reader learnt by looking must replay the same way. */
	if (rc == 0 && S_ISDIR(st->st_mode) && r->tape && tape_dir(r->tape, cpath) < 0)
		rc = -ENOMEM;
	free(cpath);
	return rc;
}

int root_access(struct root *r, const char *path, bool want_chr, int mode)
{
	struct stat st;
	char *cpath;
	int rc;

	rc = stat_in_root(r, path, &st);
	if (rc < 0)
		return rc;
	if (want_chr && !S_ISCHR(st.st_mode))
		return -ENODEV;
	rc = root_resolve(r, path, &cpath);
	if (rc < 0)
		return rc;
	rc = faccessat(r->fd, *cpath ? cpath : ".", mode, 0) < 0 ? -errno : 0;
	free(cpath);
	return rc;
}

int root_stat(struct root *r, const char *path, struct stat *st, char **canon)
{
	int rc = stat_in_root(r, path, st);

	if (rc == 0 && canon)
		rc = root_resolve(r, path, canon);
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
