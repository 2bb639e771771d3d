/* record --from: files read, checked and made store rows, a few at once
 * (each file is parsed on its own; only the write is one at a time). */
#include "record_read.h"
#include "../fleet/record.h"
#include "../fleet/skim.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Documents bigger than this are not check results. */
#define DOC_MAX (64u << 20)
/* Threads that read at once, at most. */
#define READERS_MAX 8

json_t *record_read_doc(struct doc_buf *b, const char *file, bool slim, time_t *mtime,
			char *why, size_t len)
{
	bool in = strcmp(file, "-") == 0;
	int fd = in ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t used = 0, cap = b->cap;
	char *buf = b->buf;
	json_t *doc = NULL;
	json_error_t jerr;
	struct stat st;

	*mtime = time(NULL);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(why, len, "cannot open it: %s", strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "it is a directory, not a JSON file");
		goto out;
	}
	if (!in && S_ISREG(st.st_mode))
		*mtime = st.st_mtime;
	for (;;) {
		ssize_t n;

		if (used == cap) {
			char *grown;

			if (cap >= DOC_MAX) {
				snprintf(why, len, "it is over %u MiB: not a check document",
					 DOC_MAX >> 20);
				goto out;
			}
			/* at least 64 KiB more, doubling */
			grown = growbuf_reserve(buf, &cap, used + 65536, 1);
			if (!grown) {
				snprintf(why, len, "out of memory");
				goto out;
			}
			buf = grown;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, len, "cannot read it: %s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	if (!used) {
		snprintf(why, len, "it is empty");
		goto out;
	}
	if (slim) {
		char *copy, err[200];
		size_t copy_len;
		int rc = fleet_skim(buf, used, fleet_skim_ingest, &copy, &copy_len, err, sizeof(err));

		if (rc == -ENOMEM) {
			snprintf(why, len, "out of memory");
			goto out;
		}
		if (rc < 0) {
			snprintf(why, len, "not valid JSON at %s%s", err,
				 strstr(err, "premature end") ? " (a truncated file?)" : "");
			goto out;
		}
		doc = json_loadb(copy, copy_len, 0, &jerr);
		free(copy);
		if (!doc)	/* fleet_skim and jansson agree; but say so if not */
			snprintf(why, len, "not valid JSON: %s", jerr.text);
		goto out;
	}
	doc = json_loadb(buf, used, 0, &jerr);
	if (!doc)
		snprintf(why, len, "not valid JSON at line %d column %d: %s%s", jerr.line,
			 jerr.column, jerr.text,
			 json_error_code(&jerr) == json_error_premature_end_of_input ?
			 " (a truncated file?)" : "");
out:
	if (fd >= 0 && !in)
		close(fd);
	b->buf = buf;
	b->cap = cap;
	b->used = doc ? used : 0;
	return doc;
}

/* One file into its slot; -ENOMEM or 0 (a file that is not a document is
 * a slot with why, not an error). */
static int read_one(const char *file, const char *time, struct doc_buf *b,
		    struct record_slot *slot)
{
	char stamp[FLEET_TIME_LEN];
	char *text = NULL;
	bool is_record, is_whole = false;
	time_t mtime;
	json_t *doc, *rec;
	int rc;

	doc = record_read_doc(b, file, true, &mtime, slot->why, sizeof(slot->why));
	if (!doc)
		return 0;
	if (!time && !fleet_time_format(mtime, stamp)) {
		json_decref(doc);
		snprintf(slot->why, sizeof(slot->why),
			 "its modification time is out of range: give --time");
		return 0;
	}
	is_record = json_object_get(doc, "check") != NULL;
	if (is_record && !fleet_record_is_final(doc)) {
		/* to be amended and written again: it needs all its values */
		json_decref(doc);
		doc = json_loadb(b->buf, b->used, 0, NULL);
		if (!doc) {
			snprintf(slot->why, sizeof(slot->why), "not valid JSON");
			return 0;
		}
		is_whole = true;
	}
	rec = fleet_record_from_doc(doc, time ? time : stamp, slot->why, sizeof(slot->why));
	if (!rec)
		return 0;
	/* the text goes in as it came: a check document inside a record, a
	 * record as it is; only an amended record is written again */
	if (!is_record)
		text = fleet_record_text(rec, b->buf, b->used);
	else if (!is_whole)
		text = strndup(b->buf, b->used);
	if (!text && !is_whole) {
		json_decref(rec);
		return -ENOMEM;
	}
	rc = store_row_make(rec, text, &slot->row);
	json_decref(rec);
	slot->ok = rc == 0;
	return rc;
}

struct readers {
	const char *const *files;
	size_t n, first_stdin;
	const char *time;
	struct record_slot *slots;
	size_t budget;
	atomic_size_t next, bytes;
	atomic_bool oom;
};

static void *reader(void *arg)
{
	struct readers *r = arg;
	struct doc_buf b = { 0 };
	size_t i;

	while (!atomic_load(&r->oom) && atomic_load(&r->bytes) < r->budget &&
	       (i = atomic_fetch_add(&r->next, 1)) < r->n) {
		if (strcmp(r->files[i], "-") == 0 && i != r->first_stdin) {
			snprintf(r->slots[i].why, sizeof(r->slots[i].why),
				 "standard input was read already");
			continue;
		}
		if (read_one(r->files[i], r->time, &b, &r->slots[i]) < 0)
			atomic_store(&r->oom, true);
		else if (r->slots[i].ok)
			atomic_fetch_add(&r->bytes, strlen(r->slots[i].row.text) + 1);
	}
	free(b.buf);
	return NULL;
}

int record_read_files(const char *const *files, size_t n, size_t stdin_at, const char *time,
		      size_t budget, struct record_slot *slots, size_t *done)
{
	struct readers r = { .files = files, .n = n, .first_stdin = stdin_at, .time = time,
			     .slots = slots, .budget = budget ? budget : 1 };
	size_t next;
	pthread_t threads[READERS_MAX];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = cpus > 0 ? (size_t)cpus : 1, started = 0;

	atomic_init(&r.next, 0);
	atomic_init(&r.bytes, 0);
	atomic_init(&r.oom, false);
	if (want > READERS_MAX)
		want = READERS_MAX;
	if (want > n)
		want = n;
	/* this thread reads too; a thread that will not start is not needed */
	while (started + 1 < want && pthread_create(&threads[started], NULL, reader, &r) == 0)
		started++;
	reader(&r);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	/* every index taken was read; none past it was */
	next = atomic_load(&r.next);
	*done = next < n ? next : n;
	return atomic_load(&r.oom) ? -ENOMEM : 0;
}
