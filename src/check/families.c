/* What every check family shares to build its findings (families.h):
 * check_add, and the growing string for lists of ports and values. */
#include "families.h"
#include "../model/driver_tools.h"
#include "../model/growbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct finding *check_add(const struct check_ctx *c, struct findings *out, const char *id,
			  enum severity sev, const char *why)
{
	(void)c;
	return finding_add(out, id, sev, why);
}

void check_buf_printf(struct check_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (b->nomem)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = n < 0 ? NULL : growbuf_reserve(b->s, &b->cap, b->len + (size_t)n + 1, 1);
	if (!s) {
		b->nomem = true;
		return;
	}
	b->s = s;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *check_buf_str(const struct check_buf *b)
{
	return b->s && !b->nomem ? b->s : "";
}

void check_buf_free(struct check_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->nomem = false;
}

void check_buf_take(struct check_buf *b, char **field)
{
	free(*field);
	*field = NULL;
	if (b->nomem || !b->s) {
		if (!b->nomem)
			*field = strdup("");
		check_buf_free(b);
		return;
	}
	*field = b->s;
	b->s = NULL;
	check_buf_free(b);
}

static const char *bdf_of(const struct nic *n)
{
	return n->pci.bdf ? n->pci.bdf : "<its PCI address>";
}

void check_fw_query(struct check_buf *b, const struct nic *n)
{
	const struct drv_tools *t = drv_tools_of_nic(n);

	if (t->fw == DRV_FW_NONE)
		check_buf_printf(b, "the firmware is %s", t->fw_how);
	else
		check_buf_printf(b, DRV_DEVLINK_INFO, bdf_of(n));
}

void check_fw_update(struct check_buf *b, const struct nic *n)
{
	const struct drv_tools *t = drv_tools_of_nic(n);

	if (t->fw == DRV_FW_DEVLINK)
		check_buf_printf(b, DRV_DEVLINK_FLASH ", then a cold reboot", bdf_of(n));
	else
		check_buf_printf(b, "%s", t->fw_how);
}
