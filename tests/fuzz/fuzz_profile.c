/* libFuzzer target: any bytes as a profile file.  The parser must refuse
 * them with a line and a message, or accept them; what it accepts must
 * write out as text that reads back and writes out the same again.
 * Built with clang -fsanitize=fuzzer (RD_FUZZ=ON); replay_main.c runs the
 * saved corpus under gcc as an ordinary test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiles/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* profile_write into a malloc'd string, or NULL when out of memory */
static char *written(const struct profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	if (profile_write(f, p) < 0)
		abort();
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile_error err;
	struct profile p, q;
	char *a, *b;
	size_t na, nb;
	int rc;

	rc = profile_parse((const char *)data, size, "fuzz.ini", &p, &err);
	if (rc < 0) {
		if (err.line < 0 || !memchr(err.message, '\0', sizeof(err.message)) ||
		    !err.message[0] || p.name)
			abort();
		return 0;
	}
	if (!p.name)
		abort();
	a = written(&p, &na);
	if (a) {
		if (profile_parse(a, na, "written", &q, &err) != 0)
			abort();
		b = written(&q, &nb);
		if (b && (na != nb || memcmp(a, b, na) != 0))
			abort();
		free(b);
		profile_free(&q);
	}
	free(a);
	profile_free(&p);
	return 0;
}
