/* The EINVAL memory as the root holds it (einval_memo.h). */
#include "einval_memo.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool einval_state_path_ok(const char *path, size_t len)
{
	size_t start = 0;

	if (!len || len > EINVAL_STATE_MAX_PATH || path[0] == '/')
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && path[i] != '/') {
			if (path[i] <= ' ' || path[i] > '~')
				return false;
			continue;
		}
		/* a component is path[start, i) */
		if (i == start || (i - start == 1 && path[start] == '.') ||
		    (i - start == 2 && path[start] == '.' && path[start + 1] == '.'))
			return false;
		start = i + 1;
	}
	return true;
}

void einval_state_free(struct einval_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->paths[i]);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}

bool einval_state_has(const struct einval_state *s, const char *path)
{
	for (size_t i = 0; s && path && i < s->n; i++)
		if (strcmp(s->paths[i], path) == 0)
			return true;
	return false;
}

int einval_state_add(struct einval_state *s, const char *path)
{
	size_t len = strlen(path);
	char **v;

	if (s->n >= EINVAL_STATE_MAX_PATHS || !einval_state_path_ok(path, len) ||
	    einval_state_has(s, path))
		return 0;
	v = growbuf_reserve(s->paths, &s->cap, s->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->paths = v;
	v[s->n] = strndup(path, len);
	if (!v[s->n])
		return -ENOMEM;
	s->n++;
	return 1;
}

void einval_memo_free(struct einval_memo **m)
{
	if (!m || !*m)
		return;
	einval_state_free(&(*m)->st);
	free((*m)->file);
	free(*m);
	*m = NULL;
}

bool einval_memo_applies(const struct einval_memo *m, const char *path)
{
	if (!m || !path)
		return false;
	if (m->all_paths)
		return true;
	return strstr(path, "/infiniband/") && (strstr(path, "/counters/") ||
						strstr(path, "/counters_ext/") ||
						strstr(path, "/hw_counters/"));
}

bool einval_memo_skips(const struct einval_memo *m, const char *path)
{
	return einval_memo_applies(m, path) && einval_state_has(&m->st, path);
}

bool einval_memo_from_before(const struct einval_memo *m, const char *path)
{
	if (!einval_memo_applies(m, path))
		return false;
	for (size_t i = 0; i < m->n_loaded && i < m->st.n; i++)
		if (strcmp(m->st.paths[i], path) == 0)
			return true;
	return false;
}

int einval_memo_refused(struct einval_memo *m, const char *path)
{
	int rc;

	if (!einval_memo_applies(m, path))
		return 0;
	rc = einval_state_add(&m->st, path);
	if (rc > 0) {
		m->dirty = true;
		return 1;
	}
	if (rc == 0 && !einval_state_has(&m->st, path))
		return -ENOSPC;
	return 0;
}
