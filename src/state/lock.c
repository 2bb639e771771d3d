/* The lock of the node's memories (lock.h). */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int state_lock(const char *path, int wait_s, int *fd_out)
{
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	struct stat st;

	if (fd < 0)
		return -errno;
	/* a lock another user can open, that user can hold: one made 0644
	 * by an older rdmadoctor is made private by its owner */
	if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 077))
		(void)fchmod(fd, 0600);
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
