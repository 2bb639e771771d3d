/* A snapshot's manifest: what `snapshot` wrote, so that a replay can tell
 * a whole snapshot from a cut one (a half-extracted tar, a copy that ran
 * out of disk: dangling class links, devices without their files), which
 * would otherwise be judged as a broken machine.  docs/snapshot.md:
 *
 *   rdmadoctor-manifest 1
 *   entries 3
 *   l sys/class/infiniband/mlx5_0
 *   f sys/devices/pci0000:15/.../infiniband/mlx5_0/node_guid
 *   e sys/devices/.../gid_attrs/types/5
 *
 * One entry a line: its kind (f a file, l a symlink, d a directory, e a
 * refused read: a directory with its .errno marker), a space and its
 * root-relative path.  `entries` is how many lines follow.  The file is
 * outside bytes (a tree from anywhere): bounded, every line checked, and
 * one that is not all right gives nothing. */
#ifndef RD_SYSFS_MANIFEST_H
#define RD_SYSFS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#define MANIFEST_FILE "rdmadoctor-manifest"
#define MANIFEST_MAGIC "rdmadoctor-manifest 1"
#define MANIFEST_MAX_TEXT (64u << 20)
#define MANIFEST_MAX_ENTRIES 1000000u
#define MANIFEST_MAX_PATH 4096u

struct manifest_entry {
	char kind;	/* 'f', 'l', 'd', 'e' */
	char *path;
};

struct manifest {
	struct manifest_entry *v;
	size_t n, cap;
};

/* 0, or -EINVAL (why filled, out empty), -ENOMEM. */
int manifest_parse(const char *text, size_t len, struct manifest *out, char *why,
		   size_t why_len);
/* Add an entry (path copied); 0, -EINVAL (a path the file cannot hold:
 * left out), -ENOMEM. */
int manifest_add(struct manifest *m, char kind, const char *path);
/* The file's text; NULL without memory. */
char *manifest_format(const struct manifest *m);
void manifest_free(struct manifest *m);
/* A path the file may hold: relative, no empty, "." or ".." component, no
 * newline, at most MANIFEST_MAX_PATH bytes. */
bool manifest_path_ok(const char *p, size_t n);

#endif
