/* A replayed tree against its manifest (manifest_check.h). */
#include "manifest_check.h"
#include "manifest.h"
#include "root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The manifest's bytes, bounded; -ENOENT none. */
static int read_manifest(int dirfd, char **out, size_t *len)
{
	int fd = openat(dirfd, MANIFEST_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	size_t n = 0, cap = 1 << 16;
	char *b;

	if (fd < 0)
		return -errno;
	b = malloc(cap + 1);
	while (b) {
		ssize_t got;

		if (n == cap) {
			char *nb;

			if (cap > MANIFEST_MAX_TEXT)
				break;	/* over the bound: the parser says so */
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = -errno;

			free(b);
			close(fd);
			return err;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (!b)
		return -ENOMEM;
	b[n] = '\0';
	*out = b;
	*len = n;
	return 0;
}

/* Whether the entry is in the tree as what it was. */
static bool present(int dirfd, const struct manifest_entry *e)
{
	struct stat st;

	if (fstatat(dirfd, e->path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	switch (e->kind) {
	case 'f':
		return S_ISREG(st.st_mode);
	case 'l':
		return S_ISLNK(st.st_mode);
	case 'd':
		return S_ISDIR(st.st_mode);
	default: {
		char *marker;
		bool ok;

		if (!S_ISDIR(st.st_mode) || asprintf(&marker, "%s/.errno", e->path) < 0)
			return false;
		ok = fstatat(dirfd, marker, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
		free(marker);
		return ok;
	}
	}
}

int manifest_check(struct root *r, struct snapshot_gaps *g)
{
	struct manifest m;
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(g, 0, sizeof(*g));
	if (r->live)
		return 0;
	rc = read_manifest(r->fd, &text, &len);
	if (rc == -ENOENT)
		return 0;
	if (rc == -ENOMEM)
		return rc;
	g->manifest = true;
	if (rc < 0) {
		snprintf(g->malformed, sizeof(g->malformed), "cannot read it: %s", strerror(-rc));
		return 0;
	}
	rc = manifest_parse(text, len, &m, g->malformed, sizeof(g->malformed));
	free(text);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		return 0;
	g->entries = m.n;
	for (size_t i = 0; i < m.n; i++) {
		char **v;

		if (present(r->fd, &m.v[i]))
			continue;
		v = realloc(g->missing, (g->n_missing + 1) * sizeof(*v));
		if (!v) {
			manifest_free(&m);
			return -ENOMEM;
		}
		g->missing = v;
		v[g->n_missing++] = m.v[i].path;
		m.v[i].path = NULL;	/* moved */
	}
	manifest_free(&m);
	return 0;
}

void snapshot_gaps_free(struct snapshot_gaps *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n_missing; i++)
		free(g->missing[i]);
	free(g->missing);
	memset(g, 0, sizeof(*g));
}
