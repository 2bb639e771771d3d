/* The text of the EINVAL memory (sysfs/einval_memo.h, state/einval_file.h):
 * which files the kernel refused with EINVAL in one boot.  Pure: bytes in, paths out, and back.
 *
 *   rdmadoctor-einval 1
 *   boot 6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70
 *   sys/devices/pci0000:c0/.../infiniband/mlx5_8/ports/1/hw_counters/np_cnp_sent	5230
 *   ...
 *
 * One root-relative canonical path a line, a tab and when the kernel last
 * refused it, in seconds since boot (absent in a file of a version before
 * them: not known, so due for a retry).  The file lives outside the
 * data (/run, tmpfs), so it is read as outside bytes: bounded, every line
 * checked, and a file that is not all right gives no facts at all. */
#ifndef RD_STATE_EINVAL_STATE_H
#define RD_STATE_EINVAL_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "../sysfs/einval_memo.h"	/* the table: struct einval_state */

#define EINVAL_STATE_MAGIC "rdmadoctor-einval 1"
#define EINVAL_STATE_MAX_TEXT (256u << 10)	/* the file */

/* Parse the file.  0: well formed; *same_boot says whether it is of
 * boot_id, and only then are its paths in out (else out is empty: another
 * boot's refusals are no facts of this one).  -EINVAL: malformed (why
 * filled, out empty); -ENOMEM. */
int einval_state_parse(const char *text, size_t len, const char *boot_id, bool *same_boot,
		       struct einval_state *out, char *why, size_t why_len);
/* The file's text for boot_id and the paths; NULL without memory. */
char *einval_state_format(const struct einval_state *s, const char *boot_id);

#endif
