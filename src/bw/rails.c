/* Which devices a bw/lat test runs on (bw/rails.h). */
#include "rails.h"
#include "why.h"
#include "../model/inventory.h"
#include "../sysfs/root.h"

#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool bw_rails_device_list_ok(const char *list)
{
	if (strcmp(list, "all") == 0)
		return true;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len > 63 || memchr(p, '/', len))
			return false;
		p += len;
		if (!*p)
			return true;
	}
}

void bw_rails_init(struct bw_rail_set *s)
{
	memset(s, 0, sizeof(*s));
	s->min_rate = NAN;
}

void bw_rails_free(struct bw_rail_set *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->cpulist[i]);
		s->names[i] = s->cpulist[i] = NULL;
	}
}

static const struct port *nic_port(const struct nic *n, int num)
{
	for (size_t k = 0; k < n->n_ports; k++)
		if (n->ports[k].num == num)
			return &n->ports[k];
	return NULL;
}

/* The GPU for a rail: a number as given, or auto: the nearest by topology. */
static void pick_gpu(struct bw_rail_set *s, const struct inventory *inv, const char *g,
		     uint32_t i, size_t nic)
{
	struct bw_report_rail *rr = &s->rail[i];
	int best = -1;
	enum path_type bp = PATH_SYS;

	rr->gpu = -1;
	rr->gpu_path = NULL;
	if (!g)
		return;
	for (size_t a = 0; a < inv->n_affinity; a++) {
		const struct affinity *af = &inv->affinity[a];

		if (af->nic != nic)
			continue;
		if (strcmp(g, "auto") == 0 ? (best < 0 || af->path < bp) :
					     (long)af->gpu == strtol(g, NULL, 10)) {
			best = (int)af->gpu;
			bp = af->path;
		}
	}
	rr->gpu = best >= 0 ? best : (strcmp(g, "auto") == 0 ? 0 : (int)strtol(g, NULL, 10));
	rr->gpu_path = best >= 0 ? path_type_name(bp) : NULL;
}

int bw_rails_add(struct bw_rail_set *s, struct root *r, const struct inventory *inv, size_t k,
		 int port_num, const char *gpu, char *why, size_t whysz)
{
	const struct nic *n = &inv->nics[k];
	const struct port *pt = nic_port(n, port_num);
	struct bw_report_rail *rr = &s->rail[s->n];

	if (s->n >= BW_RAILS_MAX)
		return bw_why(-EINVAL, why, whysz, "more than %d rails", BW_RAILS_MAX);
	s->nic[s->n] = k;
	rr->device = n->name;
	rr->port = port_num;
	rr->numa_node = n->has_pci && !IS_NA(n->pci.numa_node) ? (int)n->pci.numa_node : -1;
	rr->rate_gbps = pt ? pt->rate_gbps : NAN;
	/* the node's CPUs for pinning the rail's threads, and the peer-memory
	 * module for the GPU advice: through the root handle, like every
	 * other fact of this host */
	s->cpulist[s->n] = NULL;
	if (rr->numa_node >= 0 &&
	    root_readf(r, &s->cpulist[s->n], "sys/devices/system/node/node%d/cpulist",
		       rr->numa_node) < 0)
		s->cpulist[s->n] = NULL;
	rr->cpulist = s->cpulist[s->n];
	rr->peermem = !inv->host.modules_known ? BW_PEERMEM_UNKNOWN
		      : inv->host.modules[MOD_NVIDIA_PEERMEM].loaded ? BW_PEERMEM_LOADED
		      : BW_PEERMEM_ABSENT;
	if (!isnan(rr->rate_gbps) && (isnan(s->min_rate) || rr->rate_gbps < s->min_rate))
		s->min_rate = rr->rate_gbps;
	pick_gpu(s, inv, gpu, s->n, k);
	s->n++;
	return 0;
}

int bw_rails_verbs(struct bw_rail_set *s, struct root *r, const struct inventory *inv,
		   const char *list, int ib_port, const char *gpu, const char *prog, char *why,
		   size_t whysz)
{
	int rc = 0;

	if (!inv->n_nics)
		return bw_why(-ENODEV, why, whysz, "%s",
			   "this host has no RDMA device: use --transport tcp");
	if (!list)
		return bw_rails_add(s, r, inv, 0, ib_port, gpu, why, whysz);
	if (strcmp(list, "all") == 0) {
		for (size_t k = 0; k < inv->n_nics && rc == 0; k++)
			rc = bw_rails_add(s, r, inv, k, ib_port, gpu, why, whysz);
		return rc;
	}
	for (const char *p = list; *p && rc == 0;) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < inv->n_nics; k++)
			if (strlen(inv->nics[k].name) == len &&
			    strncmp(inv->nics[k].name, p, len) == 0)
				break;
		if (k == inv->n_nics)
			return bw_why(-ENODEV, why, whysz, "no RDMA device '%.*s' here (see `%s "
				   "inventory`)", (int)len, p, prog);
		rc = bw_rails_add(s, r, inv, k, ib_port, gpu, why, whysz);
		p += len + (p[len] == ',');
	}
	return rc;
}

int bw_rails_tcp(struct bw_rail_set *s, const char *list, const char *gpu, char *why,
		 size_t whysz)
{
	if (gpu)
		return bw_why(-EINVAL, why, whysz, "%s", "the tcp transport has no GPU memory: use "
			   "--transport verbs for --gpu");
	if (list && strcmp(list, "all") == 0)
		return bw_why(-EINVAL, why, whysz, "%s", "--devices all is for the verbs transport; "
			   "with tcp name the network interfaces (--devices eth0,eth1) or use "
			   "--streams");
	if (!list) {
		s->rail[0] = (struct bw_report_rail){ .numa_node = -1, .gpu = -1, .rate_gbps = NAN };
		s->n = 1;
		return 0;
	}
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (s->n >= BW_RAILS_MAX || len == 0 || len >= 16)
			return bw_why(-EINVAL, why, whysz, "bad interface list '%s'", list);
		s->names[s->n] = strndup(p, len);
		if (!s->names[s->n])
			return bw_why(-ENOMEM, why, whysz, "%s", "out of memory");
		if (if_nametoindex(s->names[s->n]) == 0) {
			bw_why(-ENODEV, why, whysz, "no network interface '%s' here (see `ip link`)",
			    s->names[s->n]);
			free(s->names[s->n]);
			s->names[s->n] = NULL;
			return -ENODEV;
		}
		s->rail[s->n] = (struct bw_report_rail){ .device = s->names[s->n], .numa_node = -1,
							 .gpu = -1, .rate_gbps = NAN };
		s->n++;
		p += len + (p[len] == ',');
	}
	return 0;
}

void bw_rails_fill(const struct bw_report_rail *rails, uint32_t n, int ib_port, int gid_index,
		   enum bw_transport t, uint32_t n_rails, const char *peer, struct bw_rails *r)
{
	r->eng = t == BW_TRANSPORT_VERBS ? &bw_verbs_engine : &bw_tcp_engine;
	r->n = n_rails;
	for (uint32_t i = 0; i < n_rails; i++) {
		const struct bw_report_rail *rr = &rails[i % n];

		r->local[i] = (struct bw_local){
			.device = rr->device,
			.ib_port = ib_port,
			.gid_index = gid_index,
			.gpu = rr->gpu,
			.numa_node = rr->numa_node,
			.peer_addr = peer,
			.cpulist = rr->cpulist,
			.peermem = rr->peermem,
		};
	}
}
