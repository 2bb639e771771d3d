/* The report page into its file (fleet_html_file.h). */
#include "fleet_html_file.h"
#include "../print/fleet_html.h"
#include "../state/file_replace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct page {
	json_t *records, *diff;
};

static int write_page(FILE *out, void *arg)
{
	const struct page *p = arg;

	return fleet_html_write(out, p->records, p->diff) < 0 ? -EIO : 0;
}

int fleet_html_write_file(const char *file, json_t *records, json_t *diff, char *why,
			  size_t len)
{
	struct page p = { records, diff };
	const char *stage;
	int rc = file_replace(file, write_page, &p, &stage);

	if (rc < 0 && rc != -ENOMEM)
		snprintf(why, len, "cannot %s '%s': %s%s", stage, file, strerror(-rc),
			 strcmp(stage, "write") ? " (is its directory there and writable?)" : "");
	return rc;
}
