/* Files not to read again this boot: some NIC functions (the internal
 * ConnectX-7 functions of some B200/GB200 systems) refuse a counter read
 * with EINVAL and log a kernel error each time.  On the live system only,
 * a counter file the kernel refused with EINVAL is remembered in
 * /run/rdmadoctor/einval (tmpfs: gone at reboot), under the boot id
 * (/proc/sys/kernel/random/boot_id), and a later run in the same boot does
 * not read it: the read fails with EINVAL as the kernel's did, and -v and
 * the "not checked" reason say why (einval_state.h has the format).
 *
 * The file is outside data: read bounded, a malformed one gives no facts
 * (and is rewritten), written to a temporary file and renamed, and a /run
 * that cannot be written only costs a note.  RDMADOCTOR_RUN_DIR names
 * another directory (tests). */
#ifndef RD_SYSFS_EINVAL_MEMO_H
#define RD_SYSFS_EINVAL_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "einval_state.h"

#define EINVAL_MEMO_DIR "/run/rdmadoctor"
#define EINVAL_MEMO_FILE "einval"

struct root;

struct einval_memo {
	char *file;		/* "/run/rdmadoctor/einval" */
	char boot_id[EINVAL_STATE_BOOT_ID + 1];
	bool all_paths;		/* every file, not only counters (tests) */
	struct einval_state st;	/* this boot's refused files */
	size_t n_loaded;	/* of them, the first n_loaded came from the file */
	bool dirty;		/* a file was added: to save */
	unsigned long skipped;	/* reads not made for it in this run */
};

/* For a live root: the memory in dir (NULL: $RDMADOCTOR_RUN_DIR, else
 * EINVAL_MEMO_DIR), loaded; problems go to r's notes.  NULL when there is
 * no boot id or no memory: nothing is remembered then. */
struct einval_memo *einval_memo_open(struct root *r, const char *dir, bool all_paths);
void einval_memo_free(struct einval_memo **m);
/* Whether the memory holds to a root-relative canonical file path: one of
 * the files it remembers (counters/, counters_ext/, hw_counters/ of an RDMA
 * port; every file with all_paths). */
bool einval_memo_applies(const struct einval_memo *m, const char *path);
/* The read of path is skipped: the kernel refused it earlier this boot. */
bool einval_memo_skips(const struct einval_memo *m, const char *path);
/* Skipped, and refused in an earlier run (not this one). */
bool einval_memo_from_before(const struct einval_memo *m, const char *path);
/* The kernel refused path with EINVAL: remember it (when it applies). */
void einval_memo_refused(struct root *r, struct einval_memo *m, const char *path);
/* Write the memory when something was added; failures are notes. */
void einval_memo_save(struct root *r, struct einval_memo *m);

#endif
