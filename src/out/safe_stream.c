#include "safe_stream.h"

#include <errno.h>
#include <string.h>
#include <sys/types.h>

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
	FILE *under = cookie;
	char chunk[512];

	for (size_t done = 0; done < size;) {
		size_t n = size - done < sizeof(chunk) ? size - done : sizeof(chunk);

		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)buf[done + i];

			chunk[i] = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : (char)c;
		}
		if (fwrite(chunk, 1, n, under) != n)
			return -1;
		done += n;
	}
	return (ssize_t)size;
}

static int safe_close(void *cookie)
{
	return fflush(cookie) == 0 ? 0 : EOF;
}

FILE *safe_stream(FILE *under)
{
	cookie_io_functions_t io = { .write = safe_write, .close = safe_close };

	return fopencookie(under, "w", io);
}
