/* Which devices a bw/lat test runs on: the inventory's RDMA devices (one
 * rail each, with its NUMA node, port rate and nearest GPU) for verbs, or
 * network interfaces named on the command line for tcp. */
#include "bw_cmd.h"
#include "../profiles/profile.h"

#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bw_cmd_floor(const struct profile *pr, double min_rate, double *gbps, char *why,
		 size_t whysz)
{
	double floor = pr ? pr->role[ROLE_RAIL].bw_floor_gbps : 0;

	if (floor > 0) {
		*gbps = floor;
		snprintf(why, whysz, "the %s profile's bw_floor_gbps of %g Gb/s, at sizes of 64 KiB "
			 "and up", pr->name, floor);
		return 1;
	}
	if (!isnan(min_rate) && min_rate > 0) {
		*gbps = 0.9 * min_rate;
		snprintf(why, whysz, "90%% of the %g Gb/s port rate, at sizes of 64 KiB and up",
			 min_rate);
		return 1;
	}
	return 0;
}

int bw_cmd_collect(struct bw_cmd_setup *s)
{
	if (s->collected)	/* once: a failure is said once */
		return s->collect_rc;
	s->collected = true;
	s->collect_rc = pipeline_collect(s->c, s->cmd, &s->pl, false);
	if (s->collect_rc == EXIT_OK)
		s->collect_rc = pipeline_choose(s->c, &s->pl, NULL);
	s->have_inv = s->collect_rc == EXIT_OK;
	return s->collect_rc;
}

void bw_cmd_setup_free(struct bw_cmd_setup *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->cpulist[i]);
	}
	if (s->collected)
		pipeline_free(&s->pl);
	s->collected = s->have_inv = false;
}

static const struct port *nic_port(const struct nic *n, int num)
{
	for (size_t k = 0; k < n->n_ports; k++)
		if (n->ports[k].num == num)
			return &n->ports[k];
	return NULL;
}

/* The GPU for a rail: a number as given, or auto: the nearest by topology. */
static void pick_gpu(struct bw_cmd_setup *s, uint32_t i, size_t nic)
{
	struct bw_report_rail *rr = &s->rail[i];
	const char *g = s->o->gpu;
	int best = -1;
	enum path_type bp = PATH_SYS;

	rr->gpu = -1;
	rr->gpu_path = NULL;
	if (!g)
		return;
	for (size_t a = 0; a < s->pl.inv.n_affinity; a++) {
		const struct affinity *af = &s->pl.inv.affinity[a];

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

int bw_cmd_add_rail(struct bw_cmd_setup *s, size_t k, int port_num)
{
	const struct nic *n = &s->pl.inv.nics[k];
	const struct port *pt = nic_port(n, port_num);
	struct bw_report_rail *rr = &s->rail[s->n];

	if (s->n >= BW_RAILS_MAX) {
		fprintf(stderr, "%s %s: more than %d rails\n", s->c->prog, s->cmd, BW_RAILS_MAX);
		return EXIT_USAGE;
	}
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
	    root_readf(&s->pl.r, &s->cpulist[s->n], "sys/devices/system/node/node%d/cpulist",
		       rr->numa_node) < 0)
		s->cpulist[s->n] = NULL;
	rr->cpulist = s->cpulist[s->n];
	rr->peermem = !s->pl.inv.host.modules_known ? BW_PEERMEM_UNKNOWN
		      : s->pl.inv.host.modules[MOD_NVIDIA_PEERMEM].loaded ? BW_PEERMEM_LOADED
		      : BW_PEERMEM_ABSENT;
	if (!isnan(rr->rate_gbps) && (isnan(s->min_rate) || rr->rate_gbps < s->min_rate))
		s->min_rate = rr->rate_gbps;
	pick_gpu(s, s->n, k);
	s->n++;
	return EXIT_OK;
}

static int add_nic(struct bw_cmd_setup *s, size_t k)
{
	return bw_cmd_add_rail(s, k, s->o->ib_port);
}

/* The verbs rails from --device / --devices, or the first device. */
int bw_cmd_verbs_rails(struct bw_cmd_setup *s)
{
	const char *list = s->o->devices ? s->o->devices : s->o->device;
	int rc = bw_cmd_collect(s);

	if (rc != EXIT_OK)
		return rc;
	if (!s->pl.inv.n_nics) {
		fprintf(stderr, "%s %s: this host has no RDMA device: use --transport tcp\n",
			s->c->prog, s->cmd);
		return EXIT_RUNTIME;
	}
	if (!list)
		return add_nic(s, 0);
	if (strcmp(list, "all") == 0) {
		for (size_t k = 0; k < s->pl.inv.n_nics && rc == EXIT_OK; k++)
			rc = add_nic(s, k);
		return rc;
	}
	for (const char *p = list; *p && rc == EXIT_OK;) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < s->pl.inv.n_nics; k++)
			if (strlen(s->pl.inv.nics[k].name) == len &&
			    strncmp(s->pl.inv.nics[k].name, p, len) == 0)
				break;
		if (k == s->pl.inv.n_nics) {
			fprintf(stderr, "%s %s: no RDMA device '%.*s' here (see `%s inventory`)\n",
				s->c->prog, s->cmd, (int)len, p, s->c->prog);
			return EXIT_RUNTIME;
		}
		rc = add_nic(s, k);
		p += len + (p[len] == ',');
	}
	return rc;
}

/* tcp: one rail, or one per netdev of --device / --devices (bound to it). */
int bw_cmd_tcp_rails(struct bw_cmd_setup *s)
{
	const char *list = s->o->devices ? s->o->devices : s->o->device;

	if (s->o->gpu) {
		fprintf(stderr, "%s %s: the tcp transport has no GPU memory: use --transport verbs "
			"for --gpu\n", s->c->prog, s->cmd);
		return EXIT_USAGE;
	}
	if (list && strcmp(list, "all") == 0) {
		fprintf(stderr, "%s %s: --devices all is for the verbs transport; with tcp name "
			"the network interfaces (--devices eth0,eth1) or use --streams\n",
			s->c->prog, s->cmd);
		return EXIT_USAGE;
	}
	if (!list) {
		s->rail[0] = (struct bw_report_rail){ .numa_node = -1, .gpu = -1, .rate_gbps = NAN };
		s->n = 1;
		return EXIT_OK;
	}
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (s->n >= BW_RAILS_MAX || len == 0 || len >= 16) {
			fprintf(stderr, "%s %s: bad interface list '%s'\n", s->c->prog, s->cmd,
				list);
			return EXIT_USAGE;
		}
		s->names[s->n] = strndup(p, len);
		if (!s->names[s->n]) {
			fprintf(stderr, "%s %s: out of memory\n", s->c->prog, s->cmd);
			return EXIT_RUNTIME;
		}
		if (if_nametoindex(s->names[s->n]) == 0) {
			fprintf(stderr, "%s %s: no network interface '%s' here (see `ip link`)\n",
				s->c->prog, s->cmd, s->names[s->n]);
			free(s->names[s->n]);
			s->names[s->n] = NULL;
			return EXIT_RUNTIME;
		}
		s->rail[s->n] = (struct bw_report_rail){ .device = s->names[s->n], .numa_node = -1, .gpu = -1,
						    .rate_gbps = NAN };
		s->n++;
		p += len + (p[len] == ',');
	}
	return EXIT_OK;
}

void bw_cmd_fill_locals(const struct bw_cmd_opts *o, const struct bw_report_rail *rails, uint32_t n,
			enum bw_transport t, uint32_t n_rails, const char *peer, struct bw_rails *r)
{
	r->eng = t == BW_TRANSPORT_VERBS ? &bw_verbs_engine : &bw_tcp_engine;
	r->n = n_rails;
	for (uint32_t i = 0; i < n_rails; i++) {
		const struct bw_report_rail *rr = &rails[i % n];

		r->local[i] = (struct bw_local){
			.device = rr->device,
			.ib_port = o->ib_port,
			.gid_index = o->gid_index,
			.gpu = rr->gpu,
			.numa_node = rr->numa_node,
			.peer_addr = peer,
			.cpulist = rr->cpulist,
			.peermem = rr->peermem,
		};
	}
}
