#include "safe_stream.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The stream under it, and a 0xC2 held back until the next byte says
 * whether it starts a C1 control (C2 80..C2 9F): stdio may split the pair
 * across two writes. */
struct cookie {
	FILE *under;
	bool held_c2;
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

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
	struct cookie *k = cookie;
	struct out o = { .n = 0 };

	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		int rc = 0;

		if (k->held_c2) {
			k->held_c2 = false;
			if (safe_control(0xc2, c, true) == 2) {
				if (put(k, &o, '?') < 0 || put(k, &o, '?') < 0)
					return -1;
				continue;
			}
			if (put(k, &o, (char)0xc2) < 0)
				return -1;
		}
		if (c == 0xc2) {
			k->held_c2 = true;
			continue;
		}
		rc = put(k, &o, safe_control(c, 0, true) ? '?' : (char)c);
		if (rc < 0)
			return -1;
	}
	if (o.n && fwrite(o.chunk, 1, o.n, k->under) != o.n)
		return -1;
	return (ssize_t)size;
}

static int safe_close(void *cookie)
{
	struct cookie *k = cookie;
	int rc = 0;

	/* a lone 0xC2 at the very end is no control: pass it on */
	if (k->held_c2 && fputc(0xc2, k->under) == EOF)
		rc = EOF;
	if (fflush(k->under) != 0)
		rc = EOF;
	free(k);
	return rc;
}

int safe_control(unsigned char c, unsigned char next, bool keep_newline)
{
	/* C1 controls written as UTF-8 are escape sequences to some
	 * terminals too (U+009B is CSI) */
	if (c == 0xc2)
		return next >= 0x80 && next <= 0x9f ? 2 : 0;
	if (c == '\t' || (c == '\n' && keep_newline))
		return 0;
	return c < 0x20 || c == 0x7f;
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
