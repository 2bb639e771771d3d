/* The text of the EINVAL memory (einval_memo.h): which files the kernel
 * refused with EINVAL in one boot.  Pure: bytes in, paths out, and back.
 *
 *   rdmadoctor-einval 1
 *   boot 6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70
 *   sys/devices/pci0000:c0/.../infiniband/mlx5_8/ports/1/hw_counters/np_cnp_sent
 *   ...
 *
 * One root-relative canonical path a line.  The file lives outside the
 * data (/run, tmpfs), so it is read as outside bytes: bounded, every line
 * checked, and a file that is not all right gives no facts at all. */
#ifndef RD_SYSFS_EINVAL_STATE_H
#define RD_SYSFS_EINVAL_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define EINVAL_STATE_MAGIC "rdmadoctor-einval 1"
#define EINVAL_STATE_MAX_TEXT (256u << 10)	/* the file */
#define EINVAL_STATE_MAX_PATHS 200u	/* x 1 KiB: below MAX_TEXT */
#define EINVAL_STATE_MAX_PATH 1024u		/* a sysfs path is well below */
#define EINVAL_STATE_BOOT_ID 36			/* "xxxxxxxx-xxxx-...", as the kernel prints it */

struct einval_state {
	char **paths;		/* owned, in file order */
	size_t n, cap;		/* cap: room at paths (growbuf) */
};

/* Whether text is a boot id as /proc/sys/kernel/random/boot_id gives it
 * (without its newline): 36 characters, lowercase hex and dashes at 8, 13,
 * 18, 23. */
bool einval_state_boot_id_ok(const char *text, size_t len);

/* Parse the file.  0: well formed; *same_boot says whether it is of
 * boot_id, and only then are its paths in out (else out is empty: another
 * boot's refusals are no facts of this one).  -EINVAL: malformed (why
 * filled, out empty); -ENOMEM. */
int einval_state_parse(const char *text, size_t len, const char *boot_id, bool *same_boot,
		       struct einval_state *out, char *why, size_t why_len);
/* The file's text for boot_id and the paths; NULL without memory. */
char *einval_state_format(const struct einval_state *s, const char *boot_id);
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

#endif
