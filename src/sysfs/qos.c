#include "qos.h"
#include "fetch.h"
#include "../nl/dcb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Live: the raw DCB_CMD_IEEE_GET reply of one netdev. */
static int fetch_dcb(void *arg, void **data, size_t *len)
{
	void *buf = malloc(DCB_REPLY_MAX);
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = dcb_query(arg, buf, DCB_REPLY_MAX, len);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*data = buf;
	return 0;
}

static void fill(struct qos *q, const struct dcb_info *d)
{
	q->dcb_supported = 1;
	q->dcbx = d->dcbx;
	if (d->has_pfc)
		for (int i = 0; i < 8; i++) {
			q->pfc_enabled[i] = (d->pfc_en >> i) & 1;
			/* u64 counters; beyond INT64_MAX is not a count */
			q->pause_tx[i] = d->requests[i] <= INT64_MAX ? (int64_t)d->requests[i] : NA;
			q->pause_rx[i] = d->indications[i] <= INT64_MAX ?
				(int64_t)d->indications[i] : NA;
		}
	if (d->has_ets)
		for (int i = 0; i < 8; i++)
			q->prio_tc[i] = d->prio_tc[i] < 8 ? d->prio_tc[i] : -1;
	if (d->has_app_table) {
		free(q->trust);
		q->trust = strdup(d->trust_dscp ? "dscp" : "pcp");
		if (d->trust_dscp)
			memcpy(q->dscp_to_prio, d->dscp_to_prio, sizeof(q->dscp_to_prio));
	}
}

int qos_read_dcb(struct root *r, struct port *p)
{
	const char *path;
	void *buf;
	size_t len = 0;
	struct dcb_info d;
	int rc, prc;

	if (!p->netdev || !p->link_layer || strcmp(p->link_layer, "Ethernet") != 0)
		return 0;
	if (!fetch_name_ok(p->netdev)) {
		root_note(r, p->netdev, "netdev name unusable for DCB: not queried");
		return 0;
	}
	path = p->netdev;	/* notes name the netdev the query was about */
	rc = root_fetch(r, DCB_FETCH_KIND, p->netdev, DCB_REPLY_MAX, fetch_dcb, p->netdev,
			&buf, &len);
	if (rc < 0) {
		/* no answer, or none recorded: unknown, no qos from here */
		if (fetch_failure_noted(r, rc))
			root_note(r, path, "DCB netlink query of %s failed: %s", p->netdev,
				  strerror(-rc));
		return rc == -ENOMEM ? rc : 0;
	}
	prc = dcb_parse_ieee(buf, len, &d);
	free(buf);
	if (prc < 0 && prc != -EOPNOTSUPP) {
		root_note(r, path, "DCB reply unusable: %s", strerror(-prc));
		return 0;
	}
	if (!p->qos) {
		p->qos = calloc(1, sizeof(*p->qos));
		if (!p->qos)
			return -ENOMEM;
		qos_init(p->qos);
	}
	if (prc == -EOPNOTSUPP) {
		p->qos->dcb_supported = 0;
		root_note(r, path, "%s has no DCB (veth, virtio, a VF): PFC and trust unknown",
			  p->netdev);
		return 0;
	}
	fill(p->qos, &d);
	if (d.has_app_table && !p->qos->trust)
		return -ENOMEM;
	return 0;
}
