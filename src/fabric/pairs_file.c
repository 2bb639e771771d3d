/* --pairs FILE (pairs_file.h). */
#include "pairs_file.h"
#include "schedule.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fab_pairs_read(const char *path, char **text, size_t *len, char *err, size_t errsz)
{
	FILE *f = fopen(path, "re");
	struct fab_schedule form;
	char perr[200];
	size_t cap = 1 << 20;

	if (!f) {
		snprintf(err, errsz, "cannot open --pairs '%s': %s", path, strerror(errno));
		return -1;
	}
	*text = malloc(cap);
	if (*text)
		*len = fread(*text, 1, cap, f);
	if (!*text || ferror(f) || *len == cap) {
		snprintf(err, errsz, "--pairs '%s': %s", path,
			 !*text ? "out of memory" : ferror(f) ? "cannot read it" : "over 1 MiB");
		fclose(f);
		return -1;
	}
	fclose(f);
	if (fab_schedule_parse(*text, *len, NULL, 0, &form, perr, sizeof(perr)) < 0) {
		snprintf(err, errsz, "--pairs '%s': %s", path, perr);
		return -1;
	}
	return 0;
}
