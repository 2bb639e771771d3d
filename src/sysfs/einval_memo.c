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
	free(s->at);
	memset(s, 0, sizeof(*s));
}

long einval_state_find(const struct einval_state *s, const char *path)
{
	for (size_t i = 0; s && path && i < s->n; i++)
		if (strcmp(s->paths[i], path) == 0)
			return (long)i;
	return -1;
}

bool einval_state_has(const struct einval_state *s, const char *path)
{
	return einval_state_find(s, path) >= 0;
}

int einval_state_add(struct einval_state *s, const char *path, int64_t at)
{
	size_t len = strlen(path);
	int64_t *t;
	char **v;

	if (s->n >= EINVAL_STATE_MAX_PATHS || !einval_state_path_ok(path, len) ||
	    einval_state_has(s, path))
		return 0;
	v = growbuf_reserve(s->paths, &s->cap, s->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->paths = v;
	t = growbuf_reserve(s->at, &s->cap_at, s->n + 1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	s->at = t;
	v[s->n] = strndup(path, len);
	if (!v[s->n])
		return -ENOMEM;
	t[s->n] = at > 0 ? at : 0;
	s->n++;
	return 1;
}

/* Take entry i out, keeping the order. */
static void state_remove(struct einval_state *s, size_t i)
{
	free(s->paths[i]);
	memmove(&s->paths[i], &s->paths[i + 1], (s->n - i - 1) * sizeof(*s->paths));
	memmove(&s->at[i], &s->at[i + 1], (s->n - i - 1) * sizeof(*s->at));
	s->n--;
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

int64_t einval_memo_retry_in(const struct einval_memo *m, const char *path)
{
	long i = einval_memo_applies(m, path) ? einval_state_find(&m->st, path) : -1;
	int64_t due;

	if (i < 0)
		return -1;
	due = m->st.at[i] + EINVAL_MEMO_RETRY_S;
	return due > m->now ? due - m->now : 0;
}

int64_t einval_memo_refused_ago(const struct einval_memo *m, const char *path)
{
	long i = einval_memo_applies(m, path) ? einval_state_find(&m->st, path) : -1;

	if (i < 0 || !m->st.at[i] || m->st.at[i] > m->now)
		return -1;
	return m->now - m->st.at[i];
}

bool einval_memo_skips(const struct einval_memo *m, const char *path)
{
	return einval_memo_retry_in(m, path) > 0;
}

bool einval_memo_read_ok(struct einval_memo *m, const char *path)
{
	long i = einval_memo_applies(m, path) ? einval_state_find(&m->st, path) : -1;

	if (i < 0)
		return false;
	state_remove(&m->st, (size_t)i);
	if ((size_t)i < m->n_loaded)
		m->n_loaded--;
	m->dirty = true;
	return true;
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

	long i;

	if (!einval_memo_applies(m, path))
		return 0;
	i = einval_state_find(&m->st, path);
	if (i >= 0) {
		m->st.at[i] = m->now;
		m->dirty = true;
		return 2;
	}
	rc = einval_state_add(&m->st, path, m->now);
	if (rc > 0) {
		m->dirty = true;
		return 1;
	}
	if (rc == 0 && !einval_state_has(&m->st, path))
		return -ENOSPC;
	return 0;
}
