/* Which of the symlinks the readers went through a snapshot may write.
 * A snapshot is a directory someone else will open, with --root or with
 * any other tool: a link in it must lead somewhere in it, never to the
 * opener's /etc or /proc/self, even when the tree it was taken from (a
 * replayed one) holds such links. */
#ifndef RD_SYSFS_TAPE_LINK_H
#define RD_SYSFS_TAPE_LINK_H

enum tape_link_where {
	TAPE_LINK_INSIDE,	/* relative, and stays in the tree: written as it is */
	TAPE_LINK_ABSOLUTE,	/* absolute: the examined machine's "/" is the tree's top */
	TAPE_LINK_OUTSIDE,	/* climbs above the tree, or the form cannot be followed
				 * by a name alone: dropped */
};

/* Where the link at path (canonical, root-relative) to target leads.  A
 * relative target stays inside when it is some ".." (no more than path's
 * directory is deep) and then only names: a ".." after a name would climb
 * from wherever that name, maybe itself a link, led, which no reading of
 * the text alone can tell.  TAPE_LINK_ABSOLUTE sets *norm to the target
 * without its leading "/" and "." parts ("" for the top), a new string;
 * an absolute target with ".." is OUTSIDE for the same reason.  A
 * TAPE_LINK_* or -ENOMEM. */
int tape_link_where(const char *path, const char *target, char **norm);

/* The relative target that leads from path's directory to norm (as
 * tape_link_where gave it): "../../" and norm.  NULL: no memory. */
char *tape_link_rebase(const char *path, const char *norm);

#endif
