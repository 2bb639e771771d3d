/* The kernel log's faults into the model (kmsg.h). */
#include "kmsg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fetch.h"
#include "kmsg_parse.h"
#include "kmsg_read.h"
#include "root.h"
#include "../model/kmsg_log.h"

static int fetch_faults(void *arg, void **data, size_t *len)
{
	const char *any = getenv("RDMADOCTOR_KMSG_ANY_FACILITY");
	char *out;
	int rc;

	rc = kmsg_read_matched("/dev/kmsg", any && !strcmp(any, "1"), &out, len, arg);
	if (rc == 0)
		*data = out;
	return rc;
}

/* how that read went (kmsg_parse.h), as text */
static int fetch_reading(void *arg, void **data, size_t *len)
{
	char *s = malloc(KMSG_READING_MAX);

	if (!s)
		return -ENOMEM;
	*len = kmsg_reading_format(arg, s);
	*data = s;
	return 0;
}

/* /dev/kmsg's stamps are local_clock(), which runs with CLOCK_MONOTONIC
 * (both stop in suspend): the wall clock at their zero is now's wall time
 * less now's monotonic time. */
static int fetch_boot_time(void *arg, void **data, size_t *len)
{
	struct timespec re, mo;
	char *s;
	int n;

	(void)arg;
	if (clock_gettime(CLOCK_REALTIME, &re) || clock_gettime(CLOCK_MONOTONIC, &mo))
		return -errno;
	n = asprintf(&s, "%.6f\n", (double)(re.tv_sec - mo.tv_sec) +
		     (double)(re.tv_nsec - mo.tv_nsec) / 1e9);
	if (n < 0)
		return -ENOMEM;
	*data = s;
	*len = (size_t)n;
	return 0;
}

static double boot_wall(struct root *r)
{
	void *d = NULL;
	size_t len;
	double v = -1;
	char *end;

	if (root_fetch(r, KMSG_FETCH_KIND, "boot_time", 64, fetch_boot_time, NULL, &d, &len) == 0) {
		v = strtod(d, &end);
		if (end == (char *)d || !isfinite(v) || v < 0)
			v = -1;
	}
	free(d);
	return v;
}

static int add_fault(struct kmsg_log *l, size_t *cap, const struct kmsg_record *rec,
		     const struct kmsg_pattern *pt, int error)
{
	struct kmsg_fault *f;
	char bdf[KMSG_TOKEN_MAX];

	if (l->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct kmsg_fault *t = realloc(l->v, nc * sizeof(*t));

		if (!t)
			return -ENOMEM;
		l->v = t;
		*cap = nc;
	}
	f = &l->v[l->n];
	memset(f, 0, sizeof(*f));
	f->id = pt->id;
	f->error = error;
	f->usec = rec->usec;
	f->link_up = !strcmp(pt->id, "kmsg.link_flap") &&
		     memmem(rec->msg, rec->msg_len, ": Link up", 9);
	if (!(f->line = strndup(rec->msg, rec->msg_len)))
		return -ENOMEM;
	/* the address the line names first: an AER line names the device in
	 * error before DEVICE= (the port that reported it) */
	if (!kmsg_find_bdf(rec->msg, rec->msg_len, bdf))
		memcpy(bdf, rec->device, sizeof(bdf));
	if (!bdf[0] && !strcmp(pt->id, "kmsg.tx_timeout"))
		kmsg_watchdog_netdev(rec->msg, rec->msg_len, bdf);
	if (bdf[0] && !(f->device = strdup(bdf))) {
		free(f->line);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

/* How the read went: live, the reader's own account (st); a replay, the
 * stored one, or nothing known (a snapshot of an older version). */
static void reading(struct root *r, struct kmsg_reading *st, struct kmsg_log *l)
{
	void *d = NULL;
	size_t len;
	int rc = root_fetch(r, KMSG_FETCH_KIND, "reading", KMSG_READING_MAX, fetch_reading, st,
			    &d, &len);

	if (rc == 0 && kmsg_reading_parse(d, len, st) == 0) {
		l->reading_known = true;
		l->read = st->records;
		l->overwritten = st->first_seq;
		l->lost = st->lost;
		l->dropped = st->dropped;
		l->cut = st->cut;
	} else if (rc == 0 || fetch_failure_noted(r, rc)) {
		root_note(r, "dev/kmsg", "how the read went: %s", rc ? strerror(-rc) :
			  "not in its form (records N, unparsed N, ...)");
	}
	free(d);
}

int kmsg_collect(struct root *r, struct kmsg_log **out)
{
	struct kmsg_log *l;
	void *d = NULL;
	size_t len, cap = 0, parsed = 0;
	struct kmsg_reading st;
	const char *p, *end, *rec;
	size_t rlen;
	int rc;

	*out = NULL;
	rc = root_fetch(r, KMSG_FETCH_KIND, "faults", KMSG_KEEP_BYTES,
			fetch_faults, &st, &d, &len);
	if (rc == -ENOMEM)
		return rc;
	if (rc == -ENOENT && !r->live)
		return 0;	/* a tree taken without the kernel log */
	if (!(l = calloc(1, sizeof(*l)))) {
		free(d);
		return -ENOMEM;
	}
	l->boot_wall = -1;
	if (rc) {
		l->err = rc;
		if (fetch_failure_noted(r, rc))
			root_note(r, "dev/kmsg", "%s", strerror(-rc));
		*out = l;
		return 0;
	}
	l->boot_wall = boot_wall(r);
	reading(r, &st, l);
	for (p = d, end = p + len; kmsg_next_record(&p, end, &rec, &rlen);) {
		struct kmsg_record kr;
		const struct kmsg_pattern *pt;
		int error;

		/* the stored bytes are the reader's: parse and match again, so
		 * a tampered snapshot yields nothing the table does not say */
		if (kmsg_parse_record(rec, rlen, &kr)) {
			l->unparsed++;
			continue;
		}
		parsed++;
		if (!(pt = kmsg_match(kr.msg, kr.msg_len, &error)))
			continue;
		if ((rc = add_fault(l, &cap, &kr, pt, error)) < 0) {
			kmsg_log_free(l);
			free(d);
			return rc;
		}
	}
	/* bytes and not one record in them: the log is unknown, not clean */
	l->none_parsed = l->unparsed && !parsed;
	l->kept = parsed;
	free(d);
	*out = l;
	return 0;
}
