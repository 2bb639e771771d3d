/* Devices not to read beyond their identity: the site file's `exclude =`
 * (docs/profiles.md, "The site file").  Some NIC functions (the internal
 * ConnectX-7 functions of some B200/GB200 systems) log a kernel error on
 * every counter read; a fleet names them here, and the readers leave them
 * at their RDMA device name and PCI address.  Each rule is an fnmatch(3)
 * pattern matched against the device name and against the PCI address. */
#ifndef RD_MODEL_EXCLUDE_H
#define RD_MODEL_EXCLUDE_H

#include <stddef.h>

struct exclude_rule {
	char *pattern;		/* "mlx5_8", "0000:c1:00.*" */
	int line;		/* in the site file, for messages */
};

struct exclude_list {
	struct exclude_rule *v;	/* in file order */
	size_t n, cap;		/* cap: room at v (growbuf) */
};

/* Add one rule (the pattern copied); 0 or -ENOMEM. */
int exclude_add(struct exclude_list *l, const char *pattern, size_t len, int line);
/* The first rule that matches the device name or its PCI address (either
 * may be NULL); NULL: none, or l NULL. */
const struct exclude_rule *exclude_match(const struct exclude_list *l, const char *name,
					 const char *bdf);
/* Move src's rules into dst (emptied first); src is left empty. */
void exclude_move(struct exclude_list *dst, struct exclude_list *src);
void exclude_free(struct exclude_list *l);

#endif
