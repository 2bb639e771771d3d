#include "safe_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The stream under it, and the first bytes of a sequence held back until
 * the next ones say whether it is a control (safe_seq() -1): stdio may
 * split a sequence across two writes. */
struct cookie {
	FILE *under;
	unsigned char held[3];
	size_t n_held;
};

struct out {
	char chunk[512];
	size_t n;
};

static int put(struct cookie *k, struct out *o, char c)
{
	if (o->n == sizeof(o->chunk)) {
		if (fwrite(o->chunk, 1, o->n, k->under) != o->n)
			return -1;
		o->n = 0;
	}
	o->chunk[o->n++] = c;
	return 0;
}

/* Pass on what is held and can be told now: a control as one '?' a byte,
 * any other byte as it is; a possible start of a control stays held,
 * unless flush (the stream ends: a sequence cut short is none). */
static int drain(struct cookie *k, struct out *o, bool flush)
{
	while (k->n_held) {
		int bad = safe_seq(k->held, k->n_held, true);

		if (bad < 0 && !flush)
			return 0;
		if (bad <= 0) {
			if (put(k, o, (char)k->held[0]) < 0)
				return -1;
			bad = 1;
		} else {
			for (int j = 0; j < bad; j++)
				if (put(k, o, '?') < 0)
					return -1;
		}
		k->n_held -= (size_t)bad;
		memmove(k->held, k->held + bad, k->n_held);
	}
	return 0;
}

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
	struct cookie *k = cookie;
	struct out o = { .n = 0 };

	for (size_t i = 0; i < size; i++) {
		k->held[k->n_held++] = (unsigned char)buf[i];
		if (drain(k, &o, false) < 0)
			return -1;
	}
	if (o.n && fwrite(o.chunk, 1, o.n, k->under) != o.n)
		return -1;
	return (ssize_t)size;
}

static int safe_close(void *cookie)
{
	struct cookie *k = cookie;
	struct out o = { .n = 0 };
	int rc = 0;

	if (drain(k, &o, true) < 0 || (o.n && fwrite(o.chunk, 1, o.n, k->under) != o.n))
		rc = EOF;
	if (fflush(k->under) != 0)
		rc = EOF;
	free(k);
	return rc;
}

int safe_seq(const unsigned char *p, size_t n, bool keep_newline)
{
	unsigned char c;

	if (!n)
		return 0;
	c = p[0];
	if (c == '\t' || (c == '\n' && keep_newline))
		return 0;
	if (c < 0x20 || c == 0x7f)
		return 1;
	/* C1 controls written as UTF-8 are escape sequences to some
	 * terminals too (U+009B is CSI); U+061C is the Arabic letter mark */
	if (c == 0xc2 || c == 0xd8) {
		if (n < 2)
			return -1;
		if (c == 0xc2)
			return p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
		return p[1] == 0x9c ? 2 : 0;
	}
	/* U+200E, U+200F (marks), U+202A..U+202E (embeddings, overrides),
	 * U+2066..U+2069 (isolates): E2 80 8E/8F/AA..AE, E2 81 A6..A9 */
	if (c == 0xe2) {
		if (n < 2)
			return -1;
		if (p[1] != 0x80 && p[1] != 0x81)
			return 0;
		if (n < 3)
			return -1;
		if (p[1] == 0x80)
			return p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae) ? 3 : 0;
		return p[2] >= 0xa6 && p[2] <= 0xa9 ? 3 : 0;
	}
	return 0;
}

FILE *safe_stream(FILE *under)
{
	cookie_io_functions_t io = { .write = safe_write, .close = safe_close };
	struct cookie *k = calloc(1, sizeof(*k));
	FILE *f;

	if (!k)
		return NULL;
	k->under = under;
	f = fopencookie(k, "w", io);
	if (!f)
		free(k);
	return f;
}
