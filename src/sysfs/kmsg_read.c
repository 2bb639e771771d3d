#include "sysfs/kmsg_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs/kmsg_parse.h"

int kmsg_read_matched(const char *path, bool any_facility, char **out, size_t *len,
		      size_t *seen)
{
	char *buf = malloc(KMSG_RECORD_MAX), *acc = NULL;
	size_t n = 0, cap = 0, total = 0, recs = 0;
	int fd, rc = 0;

	*out = NULL;
	*len = 0;
	*seen = 0;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		free(buf);
		return rc;
	}
	while (recs < KMSG_READ_RECORDS && total < KMSG_READ_CAP) {
		ssize_t got = read(fd, buf, KMSG_RECORD_MAX);
		struct kmsg_record r;
		int err;

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
		total += (size_t)got;
		recs++;
		if (kmsg_parse_record(buf, (size_t)got, &r) ||
		    (r.facility && !any_facility) || !kmsg_match(r.msg, r.msg_len, &err))
			continue;
		if (n + (size_t)got + 2 > cap) {
			size_t nc = cap ? cap * 2 : 4096;
			char *t;

			while (nc < n + (size_t)got + 2)
				nc *= 2;
			t = realloc(acc, nc);
			if (!t) {
				rc = -ENOMEM;
				break;
			}
			acc = t;
			cap = nc;
		}
		memcpy(acc + n, buf, (size_t)got);
		n += (size_t)got;
		if (acc[n - 1] != '\n')
			acc[n++] = '\n';
	}
	close(fd);
	free(buf);
	if (rc) {
		free(acc);
		return rc;
	}
	if (!acc && !(acc = calloc(1, 1)))
		return -ENOMEM;
	acc[n] = '\0';
	*out = acc;
	*len = n;
	*seen = recs;
	return 0;
}
