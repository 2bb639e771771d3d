/* The EINVAL memo on disk (einval_file.h). */
#include "einval_file.h"
#include "boot_id.h"
#include "dir.h"
#include "einval_state.h"
#include "file_replace.h"
#include "own_file.h"
#include "../sysfs/einval_memo.h"
#include "../sysfs/root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void save(struct root *r, struct einval_memo *m);

static struct einval_memo *memo_open(struct root *r, const char *dir, bool all_paths)
{
	struct einval_memo *m = calloc(1, sizeof(*m));
	struct timespec ts;
	char why[400], *text = NULL;
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
	m->save = save;
	/* the boot's own clock: the file is of one boot, and a wall clock
	 * set at boot (NTP) would move a retry by as much */
	if (clock_gettime(CLOCK_BOOTTIME, &ts) == 0)
		m->now = (int64_t)ts.tv_sec;
	if (asprintf(&m->file, "%s/%s", dir, EINVAL_MEMO_FILE) < 0) {
		m->file = NULL;
		einval_memo_free(&m);
		return NULL;
	}
	rc = boot_id_live(m->boot_id);
	if (rc < 0) {
		root_note(r, "/proc/sys/kernel/random/boot_id", "cannot read the boot id (%s): "
			  "files the kernel refused with EINVAL are read again in every run",
			  strerror(-rc));
		einval_memo_free(&m);
		return NULL;
	}
	/* a directory another user can write is one whose memo that user
	 * writes: this run would skip the files it names */
	m->dir_ok = state_dir_check(dir, false, why, sizeof(why));
	if (m->dir_ok < 0 && m->dir_ok != -ENOENT) {
		root_note(r, m->file, "not used: %s; files the kernel refused with EINVAL are "
			  "read again", why);
		return m;
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

/* The directory of the file: made when missing (0755: users other than
 * root read root's memo too), and refused when another user could write
 * it (dir.h). */
static int make_dir(const char *file)
{
	char *dir = strdup(file), *slash, why[400];
	int rc = 0;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			rc = -errno;
		else
			rc = state_dir_check(dir, false, why, sizeof(why));
	}
	free(dir);
	return rc;
}

static int write_text(FILE *out, void *arg)
{
	const char *text = arg;

	return fputs(text, out) == EOF ? -(errno ? errno : EIO) : 0;
}

static void save(struct root *r, struct einval_memo *m)
{
	const char *stage = "";
	char *text;
	int rc;

	if (!m || !m->dirty || (m->dir_ok < 0 && m->dir_ok != -ENOENT))
		return;
	text = einval_state_format(&m->st, m->boot_id);
	rc = text ? make_dir(m->file) : -ENOMEM;
	if (rc == 0)
		rc = file_replace_mode(m->file, 0644, write_text, text, &stage);
	if (rc < 0)
		root_note(r, m->file, "cannot write it (%s): files the kernel refused with EINVAL "
			  "will be read again by the next run", strerror(-rc));
	else
		m->dirty = false;
	free(text);
}

int einval_file_load(struct root *r, const char *dir, bool all_paths)
{
	struct einval_memo *m;

	if (!r->live)
		return -ENODEV;
	m = memo_open(r, dir, all_paths);
	if (!m)
		return -ENODEV;
	einval_memo_free(&r->memo);
	r->memo = m;
	return 0;
}
