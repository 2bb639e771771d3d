/* bw_door_* (door.h). */
#include "door.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void *doorman(void *arg)
{
	struct bw_door *d = arg;

	bw_lobby_busy(d->lobby, d->stop[0], &d->until_ms);
	return NULL;
}

int bw_door_open(struct bw_door *d, struct bw_err *e)
{
	d->running = false;
	if (pipe2(d->stop, O_CLOEXEC) < 0) {
		bw_errf(e, "cannot make the doorman's pipe: %s", strerror(errno));
		return -1;
	}
	if (pthread_create(&d->th, NULL, doorman, d) != 0) {
		close(d->stop[0]);
		close(d->stop[1]);
		bw_errf(e, "cannot start the doorman's thread");
		return -1;
	}
	d->running = true;
	return 0;
}

void bw_door_busy_until(struct bw_door *d, double until)
{
	atomic_store(&d->until_ms, (long long)(until * 1e3));
}

void bw_door_shut(struct bw_door *d)
{
	if (!d->running)
		return;
	/* a byte on the pipe wakes the doorman, which then ends */
	while (write(d->stop[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(d->th, NULL);
	close(d->stop[0]);
	close(d->stop[1]);
	d->running = false;
}
