/* The root handle: every file rdmadoctor reads goes through here.
 *
 * A root is a directory that looks like "/" on the machine being examined:
 * "/" itself on a live machine, or a fixture tree / snapshot for replay
 * (hwloc's HWLOC_FSROOT does the same).  Paths given to these functions are
 * relative to the root ("sys/class/infiniband"), never absolute.  Symlinks
 * are resolved by hand inside the root, so a hostile snapshot cannot point
 * a reader outside it.
 *
 * Errors, for every reader (src/sysfs, src/nl, src/eeprom, src/verbs): a
 * function returns 0 or a negative errno and never prints.  A value that
 * cannot be read is "not available" (NA, NULL, NAN in the model); the
 * reason goes into the note list (root_note) so that -v can say why, and
 * the caller carries on.  The one failure a reader passes up is -ENOMEM,
 * and it fails the whole run: a reading with holes that memory made is
 * never taken for the machine's state.  Parsers of outside bytes return
 * -EINVAL (malformed), -EOPNOTSUPP (the kernel said "not supported": an
 * answer, not a failure) or -E2BIG/-EFBIG (past a bound).
 */
#ifndef RD_SYSFS_ROOT_H
#define RD_SYSFS_ROOT_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/exclude.h"

struct tape;
struct stat;
struct pathcache;

struct root_note {
	char *path;	/* root-relative path the note is about */
	char *what;	/* "malformed: ..." or strerror text */
};

struct root {
	int fd;			/* O_PATH directory of the root */
	char *dir;		/* as the user gave it, for messages */
	bool live;		/* the root is "/": live-only data may be queried */
	bool no_openat2;	/* kernel older than 5.6 */
	struct pathcache *dirs;	/* directory path -> canonical path */
	struct pathcache *files; /* canonical file -> content or errno, so no
				  * file is read twice (root_forget_files) */
	struct tape *tape;	/* what was read, when snapshot records it */
	unsigned long opens;	/* files opened, for the benchmark */
	struct root_note *notes;
	size_t n_notes, cap_notes;
	struct pathcache *noted; /* "path\nwhat" of each note, so each is kept once */
	/* the site file's exclude = (model/exclude.h), owned: devices the
	 * readers leave at their name and PCI address (root_exclude) */
	struct exclude_list exclude;
	/* live only: the counter files the kernel refused with EINVAL earlier
	 * this boot, not read again (einval_memo.h); NULL: none kept.  Given
	 * by the layer above (state/einval_file.h), never loaded here */
	struct einval_memo *memo;
};

/* Largest file we accept: sysfs attributes are one page, /proc/modules a
 * few tens of KiB.  Anything longer is malformed, not data (and every file
 * read stays cached for the run, so this also bounds memory per file). */
#define ROOT_MAX_FILE (256u << 10)

int root_open(struct root *r, const char *dir);
/* Take the site file's exclude = rules (moved; l is left empty): the
 * readers leave the devices they match at their name and PCI address.
 * Freed by root_close. */
void root_exclude(struct root *r, struct exclude_list *l);
/* Write what the live root learnt of files the kernel refuses with EINVAL
 * (einval_memo.h) for the next run of this boot, when it was given a memo
 * (state/einval_file.h loads it and fills its save); a failure is a note. */
void root_memo_save(struct root *r);
/* Whether a read of dir/name is not to be made: the kernel refused it
 * with EINVAL earlier this boot. */
bool root_refused_before(struct root *r, const char *dir, const char *name);
/* Forget what was read, so that the next read of a counter sees it anew.
 * 0, or -ENOMEM: the caller must fail, since the old values would read
 * as counters that did not change. */
int root_forget_files(struct root *r) __attribute__((warn_unused_result));
/* Close what root_open opened and leave the handle closed.  Safe on a
 * handle root_open failed on or closed already, and on a zeroed one (whose
 * fd 0 is stdin, not its own). */
void root_close(struct root *r);

/* Turn on recording of every file, symlink and directory the readers touch
 * (for `snapshot`). */
int root_record(struct root *r);

/* Read a text attribute.  On success *out is a malloc'd string with all
 * trailing whitespace removed (sysfs_emit adds one newline; some files end
 * in two, or in blanks; tolerate none). */
int root_read(struct root *r, const char *path, char **out);
int root_readf(struct root *r, char **out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read a binary file (PCI config space): at most cap bytes into buf, *len
 * what was read.  Recorded on the tape byte for byte; not cached (the text
 * cache holds strings), so a second call reads the file again.  A file
 * longer than cap gives its first cap bytes. */
int root_read_bin(struct root *r, const char *path, void *buf, size_t cap, size_t *len);
/* A whole binary file of 1 to max bytes (a .ko, a library), sized by its
 * stat, into *buf (malloc'd; NULL on failure): 0, -EFBIG (empty or over
 * max), -ENOMEM or -errno. */
int root_read_whole(struct root *r, const char *path, size_t max, unsigned char **buf,
		    size_t *len);

/* Resolve every symlink in path inside the root; *out is the canonical
 * root-relative path ("sys/devices/pci0000:17/..."). */
int root_resolve(struct root *r, const char *path, char **out);

/* Target of one symlink, as stored (e.g. "../../../bus/pci/drivers/nvidia"). */
int root_readlink(struct root *r, const char *path, char **out);

/* Entries of a directory (no "." or ".."), sorted by strverscmp so that
 * "ports/10" follows "ports/9".  Free with root_free_list. */
int root_list(struct root *r, const char *path, char ***names, size_t *n);
void root_free_list(char **names, size_t n);

bool root_exists(struct root *r, const char *path);
/* lstat of a path inside the root, its symlinks on the way resolved there:
 * 0 or a negative errno.  *canon (may be NULL): the root-relative path
 * found, malloc'd.  Like root_access, for live device nodes. */
int root_stat(struct root *r, const char *path, struct stat *st, char **canon);
bool root_is_dir(struct root *r, const char *path);

/* faccessat(mode) of a path inside the root, its own symlinks resolved
 * there: 0, -ENOENT when absent, -EACCES when refused; with want_chr,
 * -ENODEV for anything but a character device.  For live device nodes
 * (/dev/infiniband/uverbsN): nothing is recorded for them but symlinks on
 * the way, so callers write what they learnt into the snapshot themselves. */
int root_access(struct root *r, const char *path, bool want_chr, int mode);

/* Record why a value was not used; shown under -v.  The same note on the
 * same path (a bridge above both a GPU and a NIC) is kept once. */
void root_note(struct root *r, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
