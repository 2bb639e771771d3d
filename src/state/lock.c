/* The lock of the node's memories (lock.h). */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int state_lock(const char *path, int wait_s, int *fd_out)
{
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	/* made by another user (root's `clear` beside serve's own user): a
	 * lock needs no write access */
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; tries++) {
		const struct timespec tick = { 0, 50000000L };

		if ((errno != EWOULDBLOCK && errno != EINTR) || tries >= wait_s * 20) {
			int err = -errno;

			close(fd);
			return err;
		}
		nanosleep(&tick, NULL);
	}
	*fd_out = fd;
	return 0;
}
