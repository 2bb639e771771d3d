#include "qos.h"
#include "tape.h"
#include "../nl/dcb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A netdev name that can be a file name under .rdmadoctor/dcb/. */
static bool plain_ifname(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 16 && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/* The reply bytes: from the kernel (and onto the tape), or from the
 * snapshot.  0 with *len bytes, or a negative errno (nothing to parse). */
static int get_reply(struct root *r, const char *ifname, const char *path, uint8_t *buf,
		     size_t *len)
{
	int rc;

	if (!r->live)
		return root_read_bin(r, path, buf, DCB_REPLY_MAX, len);
	rc = dcb_query(ifname, buf, DCB_REPLY_MAX, len);
	if (rc < 0) {
		root_note(r, path, "DCB netlink query of %s failed: %s", ifname, strerror(-rc));
		return rc;
	}
	if (r->tape && tape_file(r->tape, path, (const char *)buf, *len) < 0)
		return -ENOMEM;
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
	char path[64];
	uint8_t *buf;
	size_t len = 0;
	struct dcb_info d;
	int rc, prc;

	if (!p->netdev || !p->link_layer || strcmp(p->link_layer, "Ethernet") != 0)
		return 0;
	if (!plain_ifname(p->netdev)) {
		root_note(r, p->netdev, "netdev name unusable for DCB: not queried");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", DCB_SNAPSHOT_DIR, p->netdev);
	buf = malloc(DCB_REPLY_MAX);
	if (!buf)
		return -ENOMEM;
	rc = get_reply(r, p->netdev, path, buf, &len);
	if (rc < 0) {
		free(buf);
		/* no answer, no snapshot file: unknown, no qos from here */
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
