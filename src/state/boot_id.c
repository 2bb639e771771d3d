/* The boot id (boot_id.h). */
#include "boot_id.h"
#include "../sysfs/root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool boot_id_ok(const char *text, size_t len)
{
	if (len != BOOT_ID_LEN)
		return false;
	for (size_t i = 0; i < len; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;
		char c = text[i];

		if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

int boot_id_read(struct root *r, char out[BOOT_ID_LEN + 1])
{
	char *text = NULL;
	int rc = root_read(r, BOOT_ID_PATH, &text);

	if (rc < 0)
		return rc;
	/* the kernel's form: 36 characters of lowercase hex and dashes */
	if (!boot_id_ok(text, strlen(text))) {
		free(text);
		return -EINVAL;
	}
	memcpy(out, text, BOOT_ID_LEN + 1);
	free(text);
	return 0;
}

int boot_id_live(char out[BOOT_ID_LEN + 1])
{
	char buf[64];
	ssize_t got;
	int fd = open("/" BOOT_ID_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 0)
		return -errno;
	while (got && (buf[got - 1] == '\n'))
		got--;
	if (!boot_id_ok(buf, (size_t)got))
		return -EINVAL;
	memcpy(out, buf, BOOT_ID_LEN);
	out[BOOT_ID_LEN] = '\0';
	return 0;
}
