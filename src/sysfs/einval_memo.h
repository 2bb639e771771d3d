/* Files not to read again this boot: some NIC functions (the internal
 * ConnectX-7 functions of some B200/GB200 systems) refuse a counter read
 * with EINVAL and log a kernel error each time.  On the live system only,
 * a counter file the kernel refused with EINVAL is remembered in
 * /run/rdmadoctor/einval (tmpfs: gone at reboot), under the boot id
 * (/proc/sys/kernel/random/boot_id), and a later run in the same boot does
 * not read it: the read fails with EINVAL as the kernel's did, and -v and
 * the "not checked" reason say why.
 *
 * This is the memory as the root handle holds it, in memory: the table of
 * refused files and what the root asks of it.  Loading it from the file and
 * writing it back are the node's memories' (state/einval_file.h, which
 * fills a root's memo and its save); the root never reaches up for them. */
#ifndef RD_SYSFS_EINVAL_MEMO_H
#define RD_SYSFS_EINVAL_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#define EINVAL_STATE_MAX_PATHS 200u	/* x 1 KiB: below the file's bound */
#define EINVAL_STATE_MAX_PATH 1024u		/* a sysfs path is well below */
#define EINVAL_MEMO_BOOT_ID 36	/* "xxxxxxxx-xxxx-...", as the kernel prints it */

struct root;

/* The refused files of one boot. */
struct einval_state {
	char **paths;		/* owned, in file order */
	size_t n, cap;		/* cap: room at paths (growbuf) */
};

/* Whether path is held. */
bool einval_state_has(const struct einval_state *s, const char *path);
/* Add path (copied) unless held or full or not a path the file may hold
 * (einval_state_path_ok); 1 added, 0 not, -ENOMEM. */
int einval_state_add(struct einval_state *s, const char *path);
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
	unsigned long skipped;	/* reads not made for it in this run */
	/* write the memory when dirty; failures are r's notes (filled by
	 * state/einval_file.c: root_memo_save calls it) */
	void (*save)(struct root *r, struct einval_memo *m);
};

void einval_memo_free(struct einval_memo **m);
/* Whether the memory holds to a root-relative canonical file path: one of
 * the files it remembers (counters/, counters_ext/, hw_counters/ of an RDMA
 * port; every file with all_paths). */
bool einval_memo_applies(const struct einval_memo *m, const char *path);
/* The read of path is skipped: the kernel refused it earlier this boot. */
bool einval_memo_skips(const struct einval_memo *m, const char *path);
/* Skipped, and refused in an earlier run (not this one). */
bool einval_memo_from_before(const struct einval_memo *m, const char *path);
/* The kernel refused path with EINVAL: remember it (when it applies).
 * 1 remembered anew (m->dirty), -ENOSPC not (the table is full), 0
 * otherwise (not a file it holds, held already, or no memory). */
int einval_memo_refused(struct einval_memo *m, const char *path);

#endif
