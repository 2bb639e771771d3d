/* Files not to read again this boot: some NIC functions (the internal
 * ConnectX-7 functions of some B200/GB200 systems) refuse a counter read
 * with EINVAL and log a kernel error each time.  On the live system only,
 * a counter file the kernel refused with EINVAL is remembered in
 * /run/rdmadoctor/einval (tmpfs: gone at reboot), under the boot id
 * (/proc/sys/kernel/random/boot_id), and a later run in the same boot does
 * not read it: the read fails with EINVAL as the kernel's did, and -v and
 * the "not checked" reason say why.  Not for the whole boot: a refused
 * file is asked again EINVAL_MEMO_RETRY_S after the kernel last refused
 * it (-v says when, and that it was); read then, it is forgotten.
 *
 * This is the memory as the root handle holds it, in memory: the table of
 * refused files and what the root asks of it.  Loading it from the file and
 * writing it back are the node's memories' (state/einval_file.h, which
 * fills a root's memo and its save); the root never reaches up for them. */
#ifndef RD_SYSFS_EINVAL_MEMO_H
#define RD_SYSFS_EINVAL_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EINVAL_STATE_MAX_PATHS 200u	/* x 1 KiB: below the file's bound */
#define EINVAL_STATE_MAX_PATH 1024u		/* a sysfs path is well below */
#define EINVAL_MEMO_BOOT_ID 36	/* "xxxxxxxx-xxxx-...", as the kernel prints it */

/* A refused file is asked again this long after the kernel last refused
 * it.  A refusal need not last the boot: the function may finish its
 * bring-up, the firmware be reset or the driver reloaded, and a counter
 * never asked again would stay "not checked" until a reboot.  An hour
 * keeps the cost where the memo was made to keep it (a kernel error line
 * an hour per file, not one per scrape of `serve`) while a counter that
 * came back is read again the same hour. */
#define EINVAL_MEMO_RETRY_S 3600

struct root;

/* The refused files of one boot. */
struct einval_state {
	char **paths;		/* owned, in file order */
	int64_t *at;		/* when each was last refused: seconds since boot; 0 not known */
	size_t n, cap;		/* cap: room at paths (growbuf) */
	size_t cap_at;		/* room at at */
};

/* Whether path is held. */
bool einval_state_has(const struct einval_state *s, const char *path);
/* Add path (copied), refused at at, unless held or full or not a path the
 * file may hold (einval_state_path_ok); 1 added, 0 not, -ENOMEM. */
int einval_state_add(struct einval_state *s, const char *path, int64_t at);
/* The index of path; -1 not held. */
long einval_state_find(const struct einval_state *s, const char *path);
/* A line the file may hold: relative, no "." or ".." component, no
 * empty one, printable ASCII without blanks, at most
 * EINVAL_STATE_MAX_PATH bytes. */
bool einval_state_path_ok(const char *path, size_t len);
void einval_state_free(struct einval_state *s);

struct einval_memo {
	char *file;		/* "/run/rdmadoctor/einval" */
	char boot_id[EINVAL_MEMO_BOOT_ID + 1];
	bool all_paths;		/* every file, not only counters (tests) */
	struct einval_state st;	/* this boot's refused files */
	size_t n_loaded;	/* of them, the first n_loaded came from the file */
	bool dirty;		/* a file was added: to save */
	/* the directory as state/dir.h judged it: 0, -ENOENT (not made yet),
	 * or why the memo is neither read nor written (another user's) */
	int dir_ok;
	unsigned long skipped;	/* reads not made for it in this run */
	/* now, in seconds since boot (CLOCK_BOOTTIME, the clock of
	 * st.at: the file lives as long as the boot) */
	int64_t now;
	/* write the memory when dirty; failures are r's notes (filled by
	 * state/einval_file.c: root_memo_save calls it) */
	void (*save)(struct root *r, struct einval_memo *m);
};

void einval_memo_free(struct einval_memo **m);
/* Whether the memory holds to a root-relative canonical file path: one of
 * the files it remembers (counters/, counters_ext/, hw_counters/ of an RDMA
 * port; every file with all_paths). */
bool einval_memo_applies(const struct einval_memo *m, const char *path);
/* The read of path is skipped: the kernel refused it earlier this boot,
 * less than EINVAL_MEMO_RETRY_S ago. */
bool einval_memo_skips(const struct einval_memo *m, const char *path);
/* Seconds until a held path is asked again (0: it is due now); -1 not held. */
int64_t einval_memo_retry_in(const struct einval_memo *m, const char *path);
/* Seconds since the kernel last refused a held path; -1 not held or not
 * known. */
int64_t einval_memo_refused_ago(const struct einval_memo *m, const char *path);
/* A held path was asked again and read: forgotten (m->dirty); whether it
 * was held. */
bool einval_memo_read_ok(struct einval_memo *m, const char *path);
/* Skipped, and refused in an earlier run (not this one). */
bool einval_memo_from_before(const struct einval_memo *m, const char *path);
/* The kernel refused path with EINVAL: remember it (when it applies), as
 * refused now.  1 remembered anew, 2 held already and refused again (its
 * time renewed; both m->dirty), -ENOSPC not (the table is full), 0
 * otherwise (not a file it holds, or no memory). */
int einval_memo_refused(struct einval_memo *m, const char *path);

#endif
