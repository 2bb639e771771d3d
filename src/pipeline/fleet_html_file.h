/* `fleet report --html FILE`: the page written whole or not at all
 * (state/file_replace.h). */
#ifndef RD_PIPELINE_FLEET_HTML_FILE_H
#define RD_PIPELINE_FLEET_HTML_FILE_H

#include <jansson.h>
#include <stddef.h>

/* 0, or file_replace()'s negative errno; but for -ENOMEM, with why:
 * "cannot write 'FILE': ..." (lower case, no full stop). */
int fleet_html_write_file(const char *file, json_t *records, json_t *diff, char *why,
			  size_t len);

#endif
