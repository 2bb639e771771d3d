/* The site file's exclude = rules (exclude.h). */
#include "exclude.h"
#include "growbuf.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

int exclude_add(struct exclude_list *l, const char *pattern, size_t len, int line)
{
	struct exclude_rule *v = growbuf_reserve(l->v, &l->cap, l->n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	l->v = v;
	v[l->n].pattern = strndup(pattern, len);
	if (!v[l->n].pattern)
		return -ENOMEM;
	v[l->n].line = line;
	l->n++;
	return 0;
}

const struct exclude_rule *exclude_match(const struct exclude_list *l, const char *name,
					 const char *bdf)
{
	for (size_t i = 0; l && i < l->n; i++) {
		const char *p = l->v[i].pattern;

		if ((name && fnmatch(p, name, 0) == 0) || (bdf && fnmatch(p, bdf, 0) == 0))
			return &l->v[i];
	}
	return NULL;
}

void exclude_move(struct exclude_list *dst, struct exclude_list *src)
{
	exclude_free(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

void exclude_free(struct exclude_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].pattern);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
