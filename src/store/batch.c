/* Rows waiting for the write (batch.h). */
#include "batch.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void store_tally_count(struct store_tally *t, enum store_put what)
{
	if (what == STORE_NEW)
		t->stored++;
	else if (what == STORE_SEEN)
		t->seen++;
	else
		t->already++;
}

int store_batch_add(struct store_batch *p, struct store_row *row)
{
	struct store_row *grown = growbuf_reserve(p->rows, &p->cap, p->n + 1, sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	p->rows = grown;
	p->rows[p->n] = *row;
	p->bytes += strlen(row->text);
	p->n++;
	memset(row, 0, sizeof(*row));
	return 0;
}

/* By host, then time, then the order given: a host's checks go in oldest
 * first, and two writers whose batches share hosts lock them in the same
 * order (on PostgreSQL, else each could wait for the other). */
static int by_host_time(const void *a, const void *b)
{
	const struct store_row *x = *(struct store_row *const *)a;
	const struct store_row *y = *(struct store_row *const *)b;
	int c = strcmp(x->host, y->host);

	if (!c)
		c = strcmp(x->time, y->time);
	return c ? c : x < y ? -1 : x > y;
}

int store_batch_flush(struct store *s, struct store_batch *p, bool *begun, struct store_tally *t)
{
	/* no memory to sort: in the order given, which is as right */
	struct store_row **order = calloc(p->n ? p->n : 1, sizeof(*order));
	int rc = 0;

	for (size_t i = 0; order && i < p->n; i++)
		order[i] = &p->rows[i];
	if (order)
		qsort(order, p->n, sizeof(*order), by_host_time);
	if (p->n && !*begun) {
		rc = store_begin(s);
		*begun = rc == 0;
	}
	for (size_t i = 0; i < p->n; i++) {
		enum store_put what;

		if (rc == 0)
			rc = store_put_row(s, order ? order[i] : &p->rows[i], &what);
		if (rc == 0)
			store_tally_count(t, what);
	}
	for (size_t i = 0; i < p->n; i++)
		store_row_free(&p->rows[i]);
	free(order);
	p->n = p->bytes = 0;
	return rc;
}

void store_batch_free(struct store_batch *p)
{
	for (size_t i = 0; i < p->n; i++)
		store_row_free(&p->rows[i]);
	free(p->rows);
	memset(p, 0, sizeof(*p));
}
