/* The boot id under a root (boot_id.h). */
#include "boot_id.h"
#include "einval_state.h"
#include "root.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int boot_id_read(struct root *r, char out[BOOT_ID_LEN + 1])
{
	char *text = NULL;
	int rc = root_read(r, BOOT_ID_PATH, &text);

	if (rc < 0)
		return rc;
	/* the kernel's form: 36 characters of lowercase hex and dashes */
	if (!einval_state_boot_id_ok(text, strlen(text))) {
		free(text);
		return -EINVAL;
	}
	memcpy(out, text, BOOT_ID_LEN + 1);
	free(text);
	return 0;
}
