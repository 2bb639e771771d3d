/* drv_stack.h: the pure parts (modules.dep lines, sources). */
#include "drv_stack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void drv_stack_free(struct drv_stack *s)
{
	if (!s)
		return;
	free(s->kernel);
	free(s->dep_why);
	free(s->next_kernel);
	free(s->next_why);
	free(s->nvidia_version);
	for (size_t i = 0; i < DRV_COUNT; i++) {
		struct drv_module *m = &s->mods[i];

		free(m->loaded_version);
		free(m->loaded_srcversion);
		free(m->path);
		modinfo_free(&m->disk);
		free(m->disk_why);
		free(m->next_path);
		free(m->next_dkms);
	}
	free(s);
}

const char *drv_source_name(enum drv_source s)
{
	switch (s) {
	case DRV_SRC_INBOX: return "inbox";
	case DRV_SRC_OUT_OF_TREE: return "out-of-tree";
	case DRV_SRC_DKMS: return "dkms";
	default: return "unknown";
	}
}

enum drv_source drv_source_of(const char *path)
{
	if (!path)
		return DRV_SRC_UNKNOWN;
	if (!strncmp(path, "kernel/", 7))
		return DRV_SRC_INBOX;
	if (!strncmp(path, "updates/dkms/", 13) || strstr(path, "/dkms/"))
		return DRV_SRC_DKMS;
	return DRV_SRC_OUT_OF_TREE;	/* updates/, extra/, a vendor's own */
}

static const char *const EXTS[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };

bool drv_path_names(const char *path, size_t len, const char *name)
{
	const char *base = path;
	size_t nl = strlen(name);

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	len -= (size_t)(base - path);
	for (size_t e = 0; e < sizeof(EXTS) / sizeof(EXTS[0]); e++) {
		size_t el = strlen(EXTS[e]);

		if (len != nl + el || memcmp(base + nl, EXTS[e], el))
			continue;
		for (size_t i = 0; i < nl; i++) {
			char a = base[i] == '-' ? '_' : base[i], b = name[i] == '-' ? '_' : name[i];

			if (a != b)
				return false;
		}
		return true;
	}
	return false;
}

const char *drv_compression(const char *path)
{
	size_t l = strlen(path);

	if (l > 6 && !strcmp(path + l - 6, ".ko.xz"))
		return "xz";
	if (l > 7 && !strcmp(path + l - 7, ".ko.zst"))
		return "zst";
	if (l > 6 && !strcmp(path + l - 6, ".ko.gz"))
		return "gz";
	return NULL;
}

int drv_dep_find(const char *text, size_t len, const char *name, char **path)
{
	size_t at = 0;

	*path = NULL;
	while (at < len) {
		const char *line = text + at;
		const char *nl = memchr(line, '\n', len - at);
		size_t ll = nl ? (size_t)(nl - line) : len - at;
		const char *colon = memchr(line, ':', ll);

		if (colon && colon > line && drv_path_names(line, (size_t)(colon - line), name)) {
			if (memchr(line, '\0', (size_t)(colon - line)))
				return 0;
			*path = strndup(line, (size_t)(colon - line));
			return *path ? 0 : -ENOMEM;
		}
		at += ll + 1;
	}
	return 0;
}

bool drv_id_equal(const unsigned char *a, size_t al, const unsigned char *b, size_t bl)
{
	return al == bl && !memcmp(a, b, al);
}

void drv_id_hex(const unsigned char *id, size_t len, char *out)
{
	static const char hx[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = hx[id[i] >> 4];
		out[2 * i + 1] = hx[id[i] & 15];
	}
	out[2 * len] = '\0';
}
