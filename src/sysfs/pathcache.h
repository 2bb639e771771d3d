/* A small string -> (string, int) map.  The root handle keeps two: the
 * canonical path of each directory already resolved (so that reading 256 GID
 * files resolves their directory once), and the content or errno of each
 * file already read (so that no file is read twice in one run). */
#ifndef RD_SYSFS_PATHCACHE_H
#define RD_SYSFS_PATHCACHE_H

#include <stddef.h>

struct pathcache;

struct pathcache *pathcache_new(void);
void pathcache_free(struct pathcache *c);
/* NULL when absent; *tag (if not NULL) gets the stored int. */
const char *pathcache_get(const struct pathcache *c, const char *key, int *tag);
/* Copies key and value.  Returns 0 or -ENOMEM. */
int pathcache_put(struct pathcache *c, const char *key, const char *value, int tag);
/* The same for bytes that may hold NULs (PCI config space). */
int pathcache_put_bytes(struct pathcache *c, const char *key, const void *value,
			size_t len, int tag);
const char *pathcache_get_bytes(const struct pathcache *c, const char *key, int *tag,
				size_t *len);

#endif
