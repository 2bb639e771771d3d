/* Which taped symlinks a snapshot may write (tape_link.h). */
#include "tape_link.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* How many names deep path's directory is: "sys/class/x" is 2. */
static size_t dir_depth(const char *path)
{
	size_t depth = 0;

	for (const char *s = path; *s; s++)
		if (*s == '/' && s[1] && s[1] != '/')
			depth++;
	return path[0] == '/' ? depth - (depth > 0) : depth;
}

/* The next component of *p ("" at the end), its length in *len; *p moves
 * past it and the slashes after. */
static const char *next_part(const char **p, size_t *len)
{
	const char *part;

	*p += strspn(*p, "/");
	part = *p;
	*len = strcspn(part, "/");
	*p += *len;
	return part;
}

static bool is_dot(const char *part, size_t len)
{
	return len == 1 && part[0] == '.';
}

static bool is_dotdot(const char *part, size_t len)
{
	return len == 2 && part[0] == '.' && part[1] == '.';
}

/* Relative: some "..", no more than depth, then names ("." anywhere). */
static bool relative_inside(const char *target, size_t depth)
{
	const char *p = target;
	bool named = false;
	size_t ups = 0, len;

	for (const char *part = next_part(&p, &len); len; part = next_part(&p, &len)) {
		if (is_dot(part, len))
			continue;
		if (is_dotdot(part, len)) {
			if (named || ++ups > depth)
				return false;
			continue;
		}
		named = true;
	}
	return true;
}

/* Absolute: names and "." only; *norm gets the names joined by "/". */
static int absolute_norm(const char *target, char **norm)
{
	char *out = malloc(strlen(target) + 1), *o = out;
	const char *p = target;
	size_t len;

	if (!out)
		return -ENOMEM;
	for (const char *part = next_part(&p, &len); len; part = next_part(&p, &len)) {
		if (is_dot(part, len))
			continue;
		if (is_dotdot(part, len)) {
			free(out);
			return TAPE_LINK_OUTSIDE;
		}
		if (o != out)
			*o++ = '/';
		memcpy(o, part, len);
		o += len;
	}
	*o = '\0';
	*norm = out;
	return TAPE_LINK_ABSOLUTE;
}

int tape_link_where(const char *path, const char *target, char **norm)
{
	if (!target[0])
		return TAPE_LINK_OUTSIDE;	/* the kernel refuses to follow it */
	if (target[0] == '/')
		return absolute_norm(target, norm);
	return relative_inside(target, dir_depth(path)) ? TAPE_LINK_INSIDE : TAPE_LINK_OUTSIDE;
}

char *tape_link_rebase(const char *path, const char *norm)
{
	size_t depth = dir_depth(path), len = strlen(norm);
	char *out = malloc(3 * depth + len + 2), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < depth; i++, o += 3)
		memcpy(o, "../", 3);
	if (len)
		memcpy(o, norm, len + 1);
	else if (depth)
		o[-1] = '\0';	/* the top itself: "../.." */
	else
		strcpy(o, ".");
	return out;
}
