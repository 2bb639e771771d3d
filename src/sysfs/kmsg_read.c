#include "sysfs/kmsg_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const struct kmsg_bounds kmsg_bounds_default = {
	KMSG_KEEP_BYTES, KMSG_KEEP_RECORDS, KMSG_READ_SECONDS
};

/* The matched records kept: bytes [head, n) of b, the records' lengths
 * [lhead, ln) of lens, oldest first; the oldest leave when a bound is
 * passed. */
struct keep {
	char *b;
	size_t head, n, cap;
	size_t *lens;
	size_t lhead, ln, lcap;
	size_t bytes;	/* n - head */
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t nc = *cap ? *cap : 4096 / elem;
	void *t;

	if (need <= *cap)
		return 0;
	while (nc < need)
		nc *= 2;
	if (!(t = realloc(*p, nc * elem)))
		return -ENOMEM;
	*p = t;
	*cap = nc;
	return 0;
}

static int keep_push(struct keep *k, const struct kmsg_bounds *bd, const char *rec, size_t rlen,
		     struct kmsg_reading *st)
{
	size_t add = rlen + (rec[rlen - 1] != '\n');

	/* the oldest half gone: move what is left to the front */
	if (k->head && k->head >= k->n / 2) {
		memmove(k->b, k->b + k->head, k->n - k->head);
		k->n -= k->head;
		k->head = 0;
	}
	if (k->lhead && k->lhead >= k->ln / 2) {
		memmove(k->lens, k->lens + k->lhead, (k->ln - k->lhead) * sizeof(*k->lens));
		k->ln -= k->lhead;
		k->lhead = 0;
	}
	if (grow((void **)&k->b, &k->cap, k->n + add + 1, 1) ||
	    grow((void **)&k->lens, &k->lcap, k->ln + 1, sizeof(*k->lens)))
		return -ENOMEM;
	memcpy(k->b + k->n, rec, rlen);
	k->n += rlen;
	if (add > rlen)
		k->b[k->n++] = '\n';
	k->lens[k->ln++] = add;
	k->bytes += add;
	while (k->ln > k->lhead &&
	       (k->bytes > bd->keep_bytes || k->ln - k->lhead > bd->keep_records)) {
		size_t l = k->lens[k->lhead++];

		k->head += l;
		k->bytes -= l;
		st->dropped++;
	}
	return 0;
}

struct reader {
	bool any_facility;
	const struct kmsg_bounds *bd;
	struct kmsg_reading *st;
	struct keep k;
	uint64_t prev_seq;
	bool have_seq;
};

/* One record read: counted, its SEQ followed, kept when it matches. */
static int take(struct reader *rd, const char *rec, size_t rlen)
{
	struct kmsg_reading *st = rd->st;
	struct kmsg_record r;
	int err;

	st->records++;
	if (kmsg_parse_record(rec, rlen, &r)) {
		st->unparsed++;
		return 0;
	}
	if (!rd->have_seq)
		st->first_seq = r.seq;
	else if (r.seq > rd->prev_seq + 1 && rd->prev_seq < UINT64_MAX - 1)
		st->lost += r.seq - rd->prev_seq - 1;	/* -EPIPE: overwritten as we read */
	rd->prev_seq = r.seq;
	rd->have_seq = true;
	if ((r.facility && !rd->any_facility) || !kmsg_match(r.msg, r.msg_len, &err))
		return 0;
	return keep_push(&rd->k, rd->bd, rec, rlen, st);
}

/* The whole records at the front of [buf, buf+have): a record is whole
 * when a line that starts a record (not a " KEY=VALUE" line) follows it;
 * at the end (eof) the rest is.  How many bytes were taken. */
static int take_whole(struct reader *rd, const char *buf, size_t have, bool eof, size_t *used)
{
	const char *p = buf, *end = buf + have;
	int rc = 0;

	*used = 0;
	while (p < end && rc == 0) {
		const char *q = p;

		do {
			const char *e = memchr(q, '\n', (size_t)(end - q));

			q = e ? e + 1 : end;
		} while (q < end && *q == ' ');
		if (q == end && !eof)
			break;
		rc = take(rd, p, (size_t)(q - p));
		p = q;
	}
	*used = (size_t)(p - buf);
	return rc;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int kmsg_read_fd(int fd, bool any_facility, const struct kmsg_bounds *b, char **out,
		 size_t *len, struct kmsg_reading *st)
{
	/* room for one whole record after what is pending: /dev/kmsg refuses
	 * (EINVAL) a read into less than its record */
	char *buf = malloc(2 * KMSG_RECORD_MAX);
	struct reader rd = { any_facility, b, st, { 0 }, 0, false };
	struct timespec t0;
	size_t have = 0, used;
	int rc = 0;

	*out = NULL;
	*len = 0;
	memset(st, 0, sizeof(*st));
	if (!buf)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ssize_t got;

		if (since(&t0) >= b->seconds) {
			st->cut = true;
			break;
		}
		got = read(fd, buf + have, 2 * KMSG_RECORD_MAX - have);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE)	/* overwritten while read: go on */
				continue;
			if (errno != EAGAIN)
				rc = -errno;
			break;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		if ((rc = take_whole(&rd, buf, have, false, &used)))
			break;
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have >= KMSG_RECORD_MAX) {
			/* no record is longer: take it as it is */
			if ((rc = take(&rd, buf, have)))
				break;
			have = 0;
		}
	}
	/* the end: what is pending is whole.  At the time bound a stream may
	 * have stopped inside a record: a last line not ended is left out */
	if (rc == 0 && have && (!st->cut || buf[have - 1] == '\n'))
		rc = take_whole(&rd, buf, have, true, &used);
	free(buf);
	free(rd.k.lens);
	if (rc) {
		free(rd.k.b);
		memset(st, 0, sizeof(*st));
		return rc;
	}
	if (!rd.k.b && !(rd.k.b = calloc(1, 1)))
		return -ENOMEM;
	memmove(rd.k.b, rd.k.b + rd.k.head, rd.k.n - rd.k.head);
	rd.k.n -= rd.k.head;
	rd.k.b[rd.k.n] = '\0';
	*out = rd.k.b;
	*len = rd.k.n;
	return 0;
}

int kmsg_read_matched(const char *path, bool any_facility, char **out, size_t *len,
		      struct kmsg_reading *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc;

	*out = NULL;
	*len = 0;
	memset(st, 0, sizeof(*st));
	if (fd < 0)
		return -errno;
	rc = kmsg_read_fd(fd, any_facility, &kmsg_bounds_default, out, len, st);
	close(fd);
	return rc;
}
