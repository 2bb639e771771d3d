/* Replace a file whole or not at all: the new text is written to a hidden
 * file beside it (".NAME.XXXXXX": directory watchers such as NFD's skip
 * dot files), made durable, then renamed over it, so a reader sees the old
 * file or the new one, never half of one.  The file gets the mode any new
 * file would under the umask. */
#ifndef RD_STATE_FILE_REPLACE_H
#define RD_STATE_FILE_REPLACE_H

#include <stdio.h>
#include <sys/types.h>

/* Writes the text; 0, or a negative errno. */
typedef int (*file_writer_fn)(FILE *out, void *arg);

/* 0, or a negative errno (the temporary file removed); *stage says what
 * failed: "create a file beside" or "write". */
int file_replace(const char *path, file_writer_fn write, void *arg, const char **stage);
/* The same with the file's mode given (the EINVAL memo's 0644). */
int file_replace_mode(const char *path, mode_t mode, file_writer_fn write, void *arg,
		      const char **stage);

#endif
