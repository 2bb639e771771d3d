/* The EINVAL memo on disk (sysfs/einval_memo.h holds it in memory): the
 * files the kernel refused with EINVAL this boot, kept in
 * /run/rdmadoctor/einval (tmpfs: gone at reboot) under the running
 * kernel's boot id (boot_id.h), in einval_state.h's text.
 *
 * The file is outside data: read bounded (own_file.h), a malformed one
 * gives no facts (and is rewritten), replaced whole (file_replace.h), and
 * a /run that cannot be written only costs a note.  RDMADOCTOR_RUN_DIR
 * names another directory (tests). */
#ifndef RD_STATE_EINVAL_FILE_H
#define RD_STATE_EINVAL_FILE_H

#include <stdbool.h>

#define EINVAL_MEMO_DIR "/run/rdmadoctor"
#define EINVAL_MEMO_FILE "einval"

struct root;

/* Give the live root r the memory in dir (NULL: $RDMADOCTOR_RUN_DIR, else
 * EINVAL_MEMO_DIR), loaded, for every file when all_paths (tests of the
 * reader on a real file the kernel refuses), replacing any it had; the
 * root then writes it back at root_memo_save.  Problems go to r's notes.
 * 0, or -ENODEV (not live, or no boot id: nothing is remembered then) or
 * -ENOMEM. */
int einval_file_load(struct root *r, const char *dir, bool all_paths);

#endif
