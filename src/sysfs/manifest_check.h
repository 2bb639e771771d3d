/* A replayed tree against its manifest (manifest.h): which entries that
 * `snapshot` wrote are not there, or not what they were (a file become a
 * directory).  A tree without a manifest (a fixture, an older snapshot,
 * the live system) is read as it always was. */
#ifndef RD_SYSFS_MANIFEST_CHECK_H
#define RD_SYSFS_MANIFEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>

struct root;

struct snapshot_gaps {
	bool manifest;		/* the tree has one */
	char malformed[240];	/* it has one that could not be read: why */
	size_t entries;		/* it lists */
	char **missing;		/* the paths not there, in its order */
	size_t n_missing;
};

/* Fill g for r (nothing for the live root).  0 or -ENOMEM. */
int manifest_check(struct root *r, struct snapshot_gaps *g);
void snapshot_gaps_free(struct snapshot_gaps *g);

#endif
