/* Test-only renderer: records and a diff document from files to the fleet
 * report page, calling the same fleet_html_write() as `rdmadoctor fleet
 * report --html`.  It lets the browser test (test_report.sh) render pages
 * from documents the test builds itself, odd ones included.
 *   usage: render_fleet RECORDS.json DIFF.json|- OUT.html|-
 * Exit 0 ok, 2 usage, 3 could not read or write. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "print/fleet_html.h"

static json_t *load(const char *path)
{
	json_error_t err;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &err);

	if (!doc)
		fprintf(stderr, "render_fleet: cannot read '%s': %s (line %d)\n", path,
			err.text, err.line);
	return doc;
}

int main(int argc, char **argv)
{
	json_t *records, *diff = NULL;
	FILE *out = stdout;
	int rc = 3;

	if (argc != 4) {
		fprintf(stderr, "usage: render_fleet RECORDS.json DIFF.json|- OUT.html|-\n");
		return 2;
	}
	records = load(argv[1]);
	if (!records)
		return 3;
	if (strcmp(argv[2], "-") && !(diff = load(argv[2])))
		goto free_records;
	if (strcmp(argv[3], "-") && !(out = fopen(argv[3], "w"))) {
		perror(argv[3]);
		goto free_diff;
	}
	rc = fleet_html_write(out, records, diff) ? 3 : 0;
	if (out != stdout && fclose(out))
		rc = 3;
	if (rc)
		fprintf(stderr, "render_fleet: cannot write '%s'\n", argv[3]);
free_diff:
	json_decref(diff);
free_records:
	json_decref(records);
	return rc;
}
