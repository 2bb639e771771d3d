#include "attr.h"
#include "parse.h"
#include "../model/inventory.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_attr(struct root *r, const char *dir, const char *name, int *err)
{
	char *text = NULL;
	int rc = *dir ? root_readf(r, &text, "%s/%s", dir, name)
		      : root_read(r, name, &text);

	if (rc < 0 && rc != -ENOENT)
		root_note(r, dir, "cannot read '%s': %s", name, strerror(-rc));
	if (err)
		*err = rc < 0 ? rc : 0;
	return rc < 0 ? NULL : text;
}

static void malformed(struct root *r, const char *dir, const char *name,
		      const char *text, const char *expected)
{
	root_note(r, dir, "malformed '%s': \"%.40s\" (expected %s)", name, text,
		  expected);
}

int64_t attr_s64(struct root *r, const char *dir, const char *name)
{
	char *text = read_attr(r, dir, name, NULL);
	int64_t v;

	if (!text)
		return NA;
	if (parse_s64(text, &v) < 0 || v == NA) {
		malformed(r, dir, name, text, "a decimal integer");
		v = NA;
	}
	free(text);
	return v;
}

int64_t attr_hex(struct root *r, const char *dir, const char *name)
{
	char *text = read_attr(r, dir, name, NULL);
	uint64_t v;
	int64_t out = NA;

	if (!text)
		return NA;
	if (parse_hex(text, &v) < 0 || v > INT64_MAX)
		malformed(r, dir, name, text, "a hex number like 0x15b3");
	else
		out = (int64_t)v;
	free(text);
	return out;
}

double attr_pcie_speed(struct root *r, const char *dir, const char *name)
{
	char *text = read_attr(r, dir, name, NULL);
	double v = NAN;

	if (!text)
		return NAN;
	/* "Unknown" is what the kernel prints for a link it cannot decode:
	 * not available, but not malformed either. */
	if (parse_pcie_speed(text, &v) < 0) {
		if (strncmp(text, "Unknown", 7) != 0)
			malformed(r, dir, name, text, "like \"16.0 GT/s PCIe\"");
		v = NAN;
	}
	free(text);
	return v;
}

char *attr_str(struct root *r, const char *dir, const char *name)
{
	return read_attr(r, dir, name, NULL);
}

char *attr_str_why(struct root *r, const char *dir, const char *name, char **why)
{
	int err, n;
	char *text = read_attr(r, dir, name, &err);

	*why = NULL;
	if (text)
		return text;
	if (err == -ENOENT) {
		n = asprintf(why, "no file '%s'", name);
	} else if (err == -EINVAL && root_refused_before(r, dir, name)) {
		n = asprintf(why, "the kernel refused it with EINVAL earlier this boot (%s/%s); "
			     "not read again", dir, name);
	} else
		n = asprintf(why, "cannot read '%s': %s", name, strerror(-err));
	if (n < 0)
		*why = NULL;
	return NULL;
}

char *attr_link_name(struct root *r, const char *dir, const char *name)
{
	char *path, *target, *base;
	int rc;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	rc = root_readlink(r, path, &target);
	free(path);
	if (rc < 0)
		return NULL;
	base = strrchr(target, '/');
	base = strdup(base ? base + 1 : target);
	free(target);
	return base;
}
