/* The files a command's arguments name, looked at before anything is
 * read or run: a file to read must be there, and the directory a new file
 * is to go in must be there, so that a mistyped path is a usage error
 * (exit 2) said at once, not a failure after the machine was read. */
#ifndef RD_OPT_OPT_FILES_H
#define RD_OPT_OPT_FILES_H

struct ctx;

/* A file cmd will read: "-" (standard input) or a readable file that is
 * not a directory.  CMD_GO_ON, or EXIT_USAGE after saying why
 * ("rdmadoctor record: --bw 'x.json': No such file or directory"). */
int opt_need_file(struct ctx *c, const char *cmd, const char *opt, const char *path);
/* A file or directory cmd will make at path: the directory it goes in
 * must exist.  CMD_GO_ON, or EXIT_USAGE after saying why. */
int opt_need_parent(struct ctx *c, const char *cmd, const char *what, const char *path);

#endif
