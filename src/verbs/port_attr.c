#include "port_attr.h"
#include "../model/inventory.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <stdlib.h>
#include <string.h>

struct verbs_session {
	struct ibv_device **list;
	int n;
};

struct verbs_session *verbs_open(void)
{
	struct verbs_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->list = ibv_get_device_list(&s->n);
	if (!s->list) {
		free(s);
		return NULL;
	}
	return s;
}

void verbs_close(struct verbs_session *s)
{
	if (!s)
		return;
	ibv_free_device_list(s->list);
	free(s);
}

int64_t verbs_mtu_bytes(int mtu_enum)
{
	if (mtu_enum < IBV_MTU_256 || mtu_enum > IBV_MTU_4096)
		return NA;
	return 128 << mtu_enum;
}

int verbs_query_port(struct verbs_session *s, const char *ibdev, int port,
		     struct verbs_port *out)
{
	struct ibv_port_attr attr;
	struct ibv_context *ctx;
	int rc;

	out->active_mtu = out->max_mtu = NA;
	if (!s)
		return -ENODEV;
	for (int i = 0; i < s->n; i++) {
		if (strcmp(ibv_get_device_name(s->list[i]), ibdev) != 0)
			continue;
		ctx = ibv_open_device(s->list[i]);
		if (!ctx)
			return errno ? -errno : -EIO;
		rc = ibv_query_port(ctx, (uint8_t)port, &attr);
		if (rc == 0) {
			out->active_mtu = verbs_mtu_bytes(attr.active_mtu);
			out->max_mtu = verbs_mtu_bytes(attr.max_mtu);
		}
		ibv_close_device(ctx);
		return rc > 0 ? -rc : rc;
	}
	return -ENODEV;
}
