/* A small file of our own, read whole (own_file.h). */
#include "own_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int own_file_read(const char *path, size_t max, char **text, size_t *len)
{
	size_t cap = max + 2, n = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *b;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;

		close(fd);
		return err;
	}
	b = malloc(cap);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	while (n < cap - 1) {
		ssize_t got = read(fd, b + n, cap - 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = -errno;

			close(fd);
			free(b);
			return err;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	b[n] = '\0';
	*text = b;
	*len = n;
	return 0;
}
