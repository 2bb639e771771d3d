/* Round-robin, quick and file schedules (schedule.h). */
#include "schedule.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fab_schedule_free(struct fab_schedule *s)
{
	for (size_t r = 0; r < s->n_rounds; r++)
		free(s->rounds[r].pairs);
	free(s->rounds);
	s->rounds = NULL;
	s->n_rounds = s->cap_rounds = 0;
}

int fab_schedule_add(struct fab_schedule *s, size_t r, uint32_t a, uint32_t b)
{
	return fab_schedule_add_directed(s, r, a < b ? a : b, a < b ? b : a);
}

int fab_schedule_add_directed(struct fab_schedule *s, size_t r, uint32_t a, uint32_t b)
{
	struct fab_round *rd;
	struct fab_pair *p;

	if (r >= s->n_rounds) {
		struct fab_round *n = growbuf_reserve(s->rounds, &s->cap_rounds, r + 1, sizeof(*n));

		if (!n)
			return -1;
		memset(n + s->n_rounds, 0, (r + 1 - s->n_rounds) * sizeof(*n));
		s->rounds = n;
		s->n_rounds = r + 1;
	}
	rd = &s->rounds[r];
	p = growbuf_reserve(rd->pairs, &rd->cap_pairs, rd->n_pairs + 1, sizeof(*p));
	if (!p)
		return -1;
	rd->pairs = p;
	rd->pairs[rd->n_pairs++] = (struct fab_pair){ a, b };
	return 0;
}

size_t fab_schedule_pairs(const struct fab_schedule *s)
{
	size_t n = 0;

	for (size_t r = 0; r < s->n_rounds; r++)
		n += s->rounds[r].n_pairs;
	return n;
}

int fab_schedule_full(uint32_t n, struct fab_schedule *s)
{
	/* the circle method: node m-1 stays, the others turn one place per
	 * round; for an odd n a phantom node m-1 = n makes its partner sit out */
	uint32_t m = n % 2 ? n + 1 : n;

	memset(s, 0, sizeof(*s));
	if (n < 2)
		return 0;
	for (uint32_t r = 0; r + 1 < m; r++) {
		uint32_t k = m - 1;

		if (k < n && fab_schedule_add(s, r, r, k) < 0)
			goto fail;
		for (uint32_t i = 1; i < m / 2; i++) {
			uint32_t a = (r + i) % (m - 1), b = (r + m - 1 - i) % (m - 1);

			if (fab_schedule_add(s, r, a, b) < 0)
				goto fail;
		}
	}
	return 0;
fail:
	fab_schedule_free(s);
	return -1;
}

int fab_schedule_incast(uint32_t n, uint32_t fan_in, struct fab_schedule *s)
{
	memset(s, 0, sizeof(*s));
	if (n < 2)
		return 0;
	if (fan_in == 0 || fan_in > n - 1)
		fan_in = n - 1;
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t k = 1; k <= fan_in; k++)
			if (fab_schedule_add_directed(s, r, (r + k) % n, r) < 0) {
				fab_schedule_free(s);
				return -1;
			}
	return 0;
}

int fab_schedule_alltoall(uint32_t n, struct fab_schedule *s)
{
	memset(s, 0, sizeof(*s));
	for (uint32_t a = 0; n >= 2 && a < n; a++)
		for (uint32_t b = a + 1; b < n; b++)
			if (fab_schedule_add(s, 0, a, b) < 0) {
				fab_schedule_free(s);
				return -1;
			}
	return 0;
}

int fab_schedule_quick(uint32_t n, struct fab_schedule *s)
{
	uint32_t h = n / 2;

	memset(s, 0, sizeof(*s));
	for (uint32_t i = 0; i < h; i++)
		if (fab_schedule_add(s, 0, i, h + i) < 0)
			goto fail;
	if (n % 2 && n > 1 && fab_schedule_add(s, 1, 0, n - 1) < 0)
		goto fail;
	return 0;
fail:
	fab_schedule_free(s);
	return -1;
}

/* ---- --pairs FILE ---- */

static int node_index(const char *w, size_t len, const char *const *names, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && memcmp(names[i], w, len) == 0)
			return (int)i;
	return -1;
}

/* The next blank-separated word of [*p, end): its start and length. */
static size_t next_word(const char **p, const char *end, const char **w)
{
	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r'))
		(*p)++;
	*w = *p;
	while (*p < end && **p != ' ' && **p != '\t' && **p != '\r')
		(*p)++;
	return (size_t)(*p - *w);
}

static bool in_round(const struct fab_schedule *s, size_t r, uint32_t x)
{
	if (r >= s->n_rounds)
		return false;
	for (size_t i = 0; i < s->rounds[r].n_pairs; i++)
		if (s->rounds[r].pairs[i].a == x || s->rounds[r].pairs[i].b == x)
			return true;
	return false;
}

#define FAB_ROUNDS_MAX 100000u

int fab_schedule_parse(const char *text, size_t len, const char *const *names, uint32_t n,
		       struct fab_schedule *s, char *err, size_t errsz)
{
	const char *p = text, *end = text + len;
	size_t line = 0, n_pairs = 0;

	memset(s, 0, sizeof(*s));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *w[4];
		size_t wl[4], nw = 0;
		int ia, ib;
		unsigned long round;
		char num[16], *numend;

		if (!eol)
			eol = end;
		line++;
		{
			const char *hash = memchr(p, '#', (size_t)(eol - p));
			const char *stop = hash ? hash : eol;

			while (nw < 4 && (wl[nw] = next_word(&p, stop, &w[nw])) > 0)
				nw++;
			p = stop;
		}
		if (nw == 0) {
			p = eol + (eol < end);
			continue;
		}
		if (nw != 3) {
			snprintf(err, errsz, "line %zu: expected ROUND NODE_A NODE_B", line);
			goto fail;
		}
		if (wl[0] >= sizeof(num) || !isdigit((unsigned char)w[0][0])) {
			snprintf(err, errsz, "line %zu: the round is not a number from 1", line);
			goto fail;
		}
		memcpy(num, w[0], wl[0]);
		num[wl[0]] = 0;
		errno = 0;
		round = strtoul(num, &numend, 10);
		if (errno || *numend || round < 1 || round > FAB_ROUNDS_MAX) {
			snprintf(err, errsz, "line %zu: the round is not a number from 1 to %u",
				 line, FAB_ROUNDS_MAX);
			goto fail;
		}
		if (!names) {
			/* the form only: the names are the job's, known later */
			if (wl[1] == wl[2] && memcmp(w[1], w[2], wl[1]) == 0) {
				snprintf(err, errsz, "line %zu: a node cannot test itself", line);
				goto fail;
			}
			n_pairs++;
			p = eol + (eol < end);
			continue;
		}
		ia = node_index(w[1], wl[1], names, n);
		ib = node_index(w[2], wl[2], names, n);
		if (ia < 0 || ib < 0) {
			size_t k = ia < 0 ? 1 : 2;

			snprintf(err, errsz, "line %zu: no node named '%.*s' in this job", line,
				 (int)(wl[k] > 64 ? 64 : wl[k]), w[k]);
			goto fail;
		}
		if (ia == ib) {
			snprintf(err, errsz, "line %zu: a node cannot test itself", line);
			goto fail;
		}
		if (in_round(s, round - 1, (uint32_t)ia) || in_round(s, round - 1, (uint32_t)ib)) {
			snprintf(err, errsz, "line %zu: a node is in round %lu twice", line, round);
			goto fail;
		}
		if (fab_schedule_add(s, round - 1, (uint32_t)ia, (uint32_t)ib) < 0) {
			snprintf(err, errsz, "out of memory");
			goto fail;
		}
		p = eol + (eol < end);
	}
	if (!fab_schedule_pairs(s) && !n_pairs) {
		snprintf(err, errsz, "no pairs in the file");
		goto fail;
	}
	/* rounds the file skipped are not run: close the gaps */
	{
		size_t k = 0;

		for (size_t r = 0; r < s->n_rounds; r++)
			if (s->rounds[r].n_pairs)
				s->rounds[k++] = s->rounds[r];
			else
				free(s->rounds[r].pairs);
		s->n_rounds = k;
	}
	return 0;
fail:
	fab_schedule_free(s);
	return -1;
}
