/* nfd_labels.h: every value is a number or a word of [a-z0-9.-], so that
 * it is a valid Kubernetes label value as it stands (63 characters at
 * most, alphanumeric at both ends). */
#include "nfd_labels.h"
#include "../check/gpudirect.h"
#include "../check/rails.h"
#include "../model/gid_choice.h"
#include "../model/port_state.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rail_facts {
	size_t up;		/* rail ports ACTIVE and LinkUp */
	double min_gbps;	/* the slowest of them; NAN none known */
	const char *link_layer;	/* "infiniband", "ethernet", "mixed"; NULL none */
	int gid_index;		/* -1: none, or not one for all RoCE rails */
};

static const char *layer_word(const char *ll)
{
	return !ll ? NULL : !strcmp(ll, "InfiniBand") ? "infiniband" :
	       !strcmp(ll, "Ethernet") ? "ethernet" : NULL;
}

static void rails_of(const struct check_report *rep, const struct rail_port *rp, size_t n,
		     struct rail_facts *rf, FILE *out)
{
	bool gid_mixed = false, rate_unknown = false, layer_unknown = false;

	rf->up = 0;
	rf->min_gbps = NAN;
	rf->link_layer = NULL;
	rf->gid_index = -1;
	for (size_t k = 0; k < n; k++) {
		const struct nic *nic = &rep->inv->nics[rp[k].nic];
		const struct port *pt = &nic->ports[rp[k].port];
		const char *ll = layer_word(pt->link_layer);

		if (!port_is_up(pt))
			continue;
		rf->up++;
		if (pt->rate_gbps > 0) {
			if (isnan(rf->min_gbps) || pt->rate_gbps < rf->min_gbps)
				rf->min_gbps = pt->rate_gbps;
			fprintf(out, NFD_LABEL_PREFIX "rail%zu-gbps=%g\n", rp[k].rail, pt->rate_gbps);
		} else {
			rate_unknown = true;
		}
		if (!ll)
			layer_unknown = true;
		else if (rf->link_layer && strcmp(ll, rf->link_layer))
			rf->link_layer = "mixed";
		else if (!rf->link_layer)
			rf->link_layer = ll;
		if (ll && !strcmp(ll, "ethernet")) {
			const struct gid *g = gid_recommended(pt);
			int idx = g ? g->index : -1;

			if (idx < 0 || (rf->gid_index >= 0 && rf->gid_index != idx))
				gid_mixed = true;
			else
				rf->gid_index = idx;
		}
	}
	/* the slowest rail, or the link layer, of rails some of which could
	 * not be read is not known: left out, never taken from the others */
	if (gid_mixed)
		rf->gid_index = -1;
	if (rate_unknown)
		rf->min_gbps = NAN;
	if (layer_unknown)
		rf->link_layer = NULL;
}

/* An Ascend machine's rails are its NPUs' own ports (docs/ascend.md), not
 * RDMA devices: counted the same way, up ones only, Ethernet (RoCE). */
static void npu_rails_of(const struct inventory *inv, struct rail_facts *rf, FILE *out)
{
	bool rate_unknown = false;

	for (size_t i = 0; i < inv->npu.n; i++) {
		const struct npu_port *pt = &inv->npu.v[i].port;

		if (pt->link_up != 1)
			continue;
		rf->up++;
		rf->link_layer = "ethernet";
		if (IS_NA(pt->speed_mbps) || pt->speed_mbps <= 0) {
			rate_unknown = true;
			continue;
		}
		if (isnan(rf->min_gbps) || pt->speed_mbps / 1000.0 < rf->min_gbps)
			rf->min_gbps = pt->speed_mbps / 1000.0;
		/* named by the device id hccn_tool -i takes */
		fprintf(out, NFD_LABEL_PREFIX "rail%lld-gbps=%g\n",
			IS_NA(inv->npu.v[i].id) ? (long long)i : (long long)inv->npu.v[i].id,
			pt->speed_mbps / 1000.0);
	}
	if (rate_unknown)
		rf->min_gbps = NAN;
}

/* "true" GPUs that GPUDirect RDMA can serve, "false" it cannot, as the
 * one judgement (check/gpudirect.c) says for every command; "unknown"
 * what decides it could not be read; NULL no datacenter GPU to speak of. */
static const char *gpudirect(const struct check_report *rep)
{
	struct gd_judgement j;

	gpudirect_judge(rep->inv, &j);
	switch (j.state) {
	case GD_READY:
		return "true";
	case GD_NOT_READY:
		return "false";
	case GD_UNKNOWN:
		return "unknown";
	case GD_NO_GPU:
		break;
	}
	return NULL;
}

int nfd_labels_write(FILE *out, const struct check_report *rep, time_t now, long ttl,
		     const char *version)
{
	size_t n = 0;
	struct rail_port *rp;
	struct rail_facts rf;
	const char *gdr = gpudirect(rep);
	char when[32];
	struct tm tm;

	errno = 0;	/* rail_ports says "none" and "no memory" apart by errno */
	rp = rep->roles ? rail_ports(rep->inv, rep->roles, &n) : NULL;
	if (!rp && errno == ENOMEM)
		return -ENOMEM;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(out, "# written by rdmadoctor %s labels at %s (docs/kubernetes.md)\n",
		version ? version : "", when);
	if (ttl > 0) {
		time_t until = now + ttl;

		gmtime_r(&until, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		/* NFD drops every label below this line after it */
		fprintf(out, "# +expiry-time=%s\n", when);
	}
	fprintf(out, NFD_LABEL_PREFIX "verdict=%s\n", check_verdict(rep->findings));
	fprintf(out, NFD_LABEL_PREFIX "unchecked=%zu\n", check_unchecked(rep->findings));
	rails_of(rep, rp, n, &rf, out);
	if (!rf.up)
		npu_rails_of(rep->inv, &rf, out);
	fprintf(out, NFD_LABEL_PREFIX "rails=%zu\n", rf.up);
	if (!isnan(rf.min_gbps))
		fprintf(out, NFD_LABEL_PREFIX "rail-gbps=%g\n", rf.min_gbps);
	if (rf.link_layer)
		fprintf(out, NFD_LABEL_PREFIX "link-layer=%s\n", rf.link_layer);
	if (rf.gid_index >= 0)
		fprintf(out, NFD_LABEL_PREFIX "roce-gid-index=%d\n", rf.gid_index);
	if (gdr)
		fprintf(out, NFD_LABEL_PREFIX "gpudirect=%s\n", gdr);
	free(rp);
	return 0;
}
