/* Whether two readings are of one machine and one boot (until_same.h). */
#include "until_same.h"
#include "../state/boot_id.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* path under r, its trailing blanks cut; NULL when it cannot be read
 * (*nomem set when that was for want of memory). */
static char *value(struct root *r, const char *path, bool *nomem)
{
	char *v = NULL;
	int rc = root_read(r, path, &v);

	if (rc == -ENOMEM)
		*nomem = true;
	return rc < 0 ? NULL : v;
}

/* Both known and different: said in why. */
static bool differ(const char *what, const char *a, const char *b, char *why, size_t why_len)
{
	if (!a || !b || !*a || !*b || strcmp(a, b) == 0)
		return false;
	snprintf(why, why_len, "%s '%.80s' in the first reading, '%.80s' in the second", what,
		 a, b);
	return true;
}

int until_same(struct root *first, const struct inventory *inv, struct root *later,
	       char *why, size_t why_len)
{
	char boot_a[BOOT_ID_LEN + 1], boot_b[BOOT_ID_LEN + 1];
	bool nomem = false, diff;
	char *a, *b;
	int ra, rb;

	a = value(first, "proc/sys/kernel/hostname", &nomem);
	b = value(later, "proc/sys/kernel/hostname", &nomem);
	diff = differ("the host name is", a, b, why, why_len);
	free(a);
	free(b);
	if (nomem)
		return -ENOMEM;
	if (diff)
		return 1;
	ra = boot_id_read(first, boot_a);
	rb = boot_id_read(later, boot_b);
	if (ra == -ENOMEM || rb == -ENOMEM)
		return -ENOMEM;
	if (ra == 0 && rb == 0 &&
	    differ("the boot id (a reboot between them) is", boot_a, boot_b, why, why_len))
		return 1;
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		char path[300], what[200];

		if (!n->name || !n->node_guid)
			continue;
		snprintf(path, sizeof(path), "sys/class/infiniband/%.200s/node_guid", n->name);
		b = value(later, path, &nomem);
		snprintf(what, sizeof(what), "%.100s's node GUID (another card) is", n->name);
		diff = differ(what, n->node_guid, b, why, why_len);
		free(b);
		if (nomem)
			return -ENOMEM;
		if (diff)
			return 1;
	}
	return 0;
}
