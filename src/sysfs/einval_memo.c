/* The EINVAL memory on /run (einval_memo.h). */
#include "einval_memo.h"
#include "own_file.h"
#include "root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The running kernel's boot id: an absolute path on purpose, the memory
 * is the live system's own (never a root's). */
static int read_boot_id(char out[EINVAL_STATE_BOOT_ID + 1])
{
	char buf[64];
	ssize_t got;
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 0)
		return -errno;
	while (got && (buf[got - 1] == '\n'))
		got--;
	if (!einval_state_boot_id_ok(buf, (size_t)got))
		return -EINVAL;
	memcpy(out, buf, EINVAL_STATE_BOOT_ID);
	out[EINVAL_STATE_BOOT_ID] = '\0';
	return 0;
}

struct einval_memo *einval_memo_open(struct root *r, const char *dir, bool all_paths)
{
	struct einval_memo *m = calloc(1, sizeof(*m));
	char why[160], *text = NULL;
	bool same = false;
	size_t len = 0;
	int rc;

	if (!m)
		return NULL;
	if (!dir)
		dir = getenv("RDMADOCTOR_RUN_DIR");
	if (!dir || !*dir)
		dir = EINVAL_MEMO_DIR;
	m->all_paths = all_paths;
	if (asprintf(&m->file, "%s/%s", dir, EINVAL_MEMO_FILE) < 0) {
		m->file = NULL;
		einval_memo_free(&m);
		return NULL;
	}
	rc = read_boot_id(m->boot_id);
	if (rc < 0) {
		root_note(r, "/proc/sys/kernel/random/boot_id", "cannot read the boot id (%s): "
			  "files the kernel refused with EINVAL are read again in every run",
			  strerror(-rc));
		einval_memo_free(&m);
		return NULL;
	}
	rc = own_file_read(m->file, EINVAL_STATE_MAX_TEXT, &text, &len);
	if (rc == -ENOENT)
		return m;
	if (rc < 0) {
		root_note(r, m->file, "cannot read it (%s): files the kernel refused with EINVAL "
			  "earlier this boot are read again", strerror(-rc));
		return m;
	}
	rc = einval_state_parse(text, len, m->boot_id, &same, &m->st, why, sizeof(why));
	free(text);
	if (rc == -ENOMEM) {
		einval_memo_free(&m);
		return NULL;
	}
	if (rc < 0) {
		root_note(r, m->file, "malformed (%s): nothing taken from it, it is rewritten", why);
		m->dirty = true;
	} else if (!same) {
		root_note(r, m->file, "of another boot: forgotten");
		m->dirty = true;
	}
	m->n_loaded = m->st.n;
	return m;
}

void einval_memo_free(struct einval_memo **m)
{
	if (!m || !*m)
		return;
	einval_state_free(&(*m)->st);
	free((*m)->file);
	free(*m);
	*m = NULL;
}

bool einval_memo_applies(const struct einval_memo *m, const char *path)
{
	if (!m || !path)
		return false;
	if (m->all_paths)
		return true;
	return strstr(path, "/infiniband/") && (strstr(path, "/counters/") ||
						strstr(path, "/counters_ext/") ||
						strstr(path, "/hw_counters/"));
}

bool einval_memo_skips(const struct einval_memo *m, const char *path)
{
	return einval_memo_applies(m, path) && einval_state_has(&m->st, path);
}

bool einval_memo_from_before(const struct einval_memo *m, const char *path)
{
	if (!einval_memo_applies(m, path))
		return false;
	for (size_t i = 0; i < m->n_loaded && i < m->st.n; i++)
		if (strcmp(m->st.paths[i], path) == 0)
			return true;
	return false;
}

void einval_memo_refused(struct root *r, struct einval_memo *m, const char *path)
{
	int rc;

	if (!einval_memo_applies(m, path))
		return;
	rc = einval_state_add(&m->st, path);
	if (rc > 0) {
		m->dirty = true;
		root_note(r, path, "the kernel refused it with EINVAL: not read again this boot "
			  "(remembered in %s)", m->file);
	} else if (rc == 0 && !einval_state_has(&m->st, path)) {
		root_note(r, path, "the kernel refused it with EINVAL; not remembered (%s holds "
			  "%u files at most)", m->file, EINVAL_STATE_MAX_PATHS);
	}
}

/* The directory of the file: made when missing. */
static int make_dir(const char *file)
{
	char *dir = strdup(file), *slash;
	int rc = 0;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			rc = -errno;
	}
	free(dir);
	return rc;
}

static int write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t put = write(fd, text, len);

		if (put < 0 && errno == EINTR)
			continue;
		if (put < 0)
			return -errno;
		text += put;
		len -= (size_t)put;
	}
	return 0;
}

void einval_memo_save(struct root *r, struct einval_memo *m)
{
	char *text, *tmp = NULL;
	int fd = -1, rc;

	if (!m || !m->dirty)
		return;
	text = einval_state_format(&m->st, m->boot_id);
	rc = text ? make_dir(m->file) : -ENOMEM;
	if (rc == 0 && asprintf(&tmp, "%s.XXXXXX", m->file) < 0) {
		tmp = NULL;
		rc = -ENOMEM;
	}
	if (rc == 0) {
		fd = mkstemp(tmp);
		rc = fd < 0 ? -errno : 0;
	}
	if (rc == 0 && fchmod(fd, 0644) < 0)
		rc = -errno;
	if (rc == 0)
		rc = write_all(fd, text, strlen(text));
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, m->file) < 0)
		rc = -errno;
	if (rc < 0 && fd >= 0)
		unlink(tmp);
	if (rc < 0)
		root_note(r, m->file, "cannot write it (%s): files the kernel refused with EINVAL "
			  "will be read again by the next run", strerror(-rc));
	else
		m->dirty = false;
	free(tmp);
	free(text);
}
