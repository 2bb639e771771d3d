/* libFuzzer target: which symlinks a snapshot may write
 * (src/sysfs/tape_link.c).  The input is "PATH\nTARGET".  Whatever the
 * bytes, a link said to stay inside never climbs above the tree when
 * walked from its directory, and a rebased absolute one climbs exactly to
 * the top and then names only what the target named.  Seeds in
 * corpus/tape_link/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/tape_link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Names above the link: the components of path but its last. */
static long depth_of(const char *path)
{
	long n = 0;
	const char *p = path;

	while (*p) {
		size_t len;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		n += len > 0;
		p += len;
	}
	return n > 0 ? n - 1 : 0;
}

/* Walk target from depth: the least depth reached; *end the depth after. */
static long lowest(const char *target, long depth, long *end)
{
	long low = depth;
	const char *p = target;

	while (*p) {
		size_t len;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		if (len == 2 && p[0] == '.' && p[1] == '.')
			depth--;
		else if (len && !(len == 1 && p[0] == '.'))
			depth++;
		low = depth < low ? depth : low;
		p += len;
	}
	*end = depth;
	return low;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *nl, *norm = NULL, *rebased;
	long end;
	int where;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nl = strchr(buf, '\n');
	if (!nl || strlen(buf + size) != 0 || memchr(buf, 0, size)) {
		free(buf);
		return 0;
	}
	*nl = '\0';
	where = tape_link_where(buf, nl + 1, &norm);
	if (where == TAPE_LINK_INSIDE) {
		if (nl[1] == '/' || lowest(nl + 1, depth_of(buf), &end) < 0)
			abort();
	} else if (where == TAPE_LINK_ABSOLUTE) {
		if (strstr(norm, "//") || norm[0] == '/' || lowest(norm, 0, &end) < 0)
			abort();
		rebased = tape_link_rebase(buf, norm);
		if (!rebased || lowest(rebased, depth_of(buf), &end) != 0 ||
		    tape_link_where(buf, rebased, &(char *){ NULL }) != TAPE_LINK_INSIDE)
			abort();
		free(rebased);
		free(norm);
	} else if (where != TAPE_LINK_OUTSIDE) {
		abort();
	}
	free(buf);
	return 0;
}
