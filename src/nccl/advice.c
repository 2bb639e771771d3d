/* NCCL's variables for this machine (nccl/advice.h), by the rules of
 * docs/nccl.md, in their fixed order: NCCL_IB_HCA, NCCL_IB_GID_INDEX,
 * NCCL_IB_TC and NCCL_IB_SL (nccl/advice_qos.c), NCCL_SOCKET_IFNAME,
 * NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ.  A value is set only where the
 * facts justify it; every other variable is left out with why, because a
 * wrong NCCL setting fails quietly (a rail idle, packets on a lossy
 * priority) where NCCL's own default would have worked. */
#include "advice.h"
#include "advice_list.h"
#include "advice_qos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t rails_up(const struct nccl_facts *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_ports; i++)
		n += advice_rail_up(&f->ports[i]);
	return n;
}

/* Why a port is not in NCCL_IB_HCA; NULL: it is. */
static const char *left_out_why(const struct nccl_port *p)
{
	if (p->own_transport)
		return "own transport (a net plugin drives it, not NCCL's IB)";
	if (p->role == ROLE_STORAGE)
		return "storage";
	if (p->role != ROLE_RAIL)
		return "neither rail nor storage (its link layer)";
	if (p->up == 0)
		return "down";
	if (p->up < 0)
		return "state unknown";
	return NULL;
}

/* "; left out: storage mlx5_4:1, down mlx5_2:1", or "" */
static char *left_out_list(const struct nccl_facts *f)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	bool first = true;

	if (!m)
		return NULL;
	for (size_t i = 0; i < f->n_ports; i++) {
		const struct nccl_port *p = &f->ports[i];
		const char *why = left_out_why(p);

		if (!why)
			continue;
		fprintf(m, "%s%s %s:%d", first ? "; left out: " : ", ", why, p->dev, p->port);
		first = false;
	}
	if (fclose(m) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

static int hca(const struct nccl_facts *f, struct nccl_advice *a)
{
	size_t n = rails_up(f);
	char *out = left_out_list(f), *list;
	int rc;

	if (!out)
		return -ENOMEM;
	if (!n) {
		rc = advice_leave(a, "NCCL_IB_HCA",
				  advice_fmt("%s%s", f->n_ports ? "no compute rail port is up" :
					     "no RDMA port on this machine", out));
		if (rc == 0)
			rc = advice_warn(a, "%s: NCCL would run over TCP sockets (or a storage "
					 "NIC it picks itself); `rdmadoctor check` says why",
					 f->n_ports ? "no compute rail port is up" :
					 "no RDMA port on this machine");
		free(out);
		return rc;
	}
	list = advice_ports(f, advice_rail_up, ",");
	rc = advice_set(a, "NCCL_IB_HCA", list ? advice_fmt("=%s", list) : NULL,
			advice_fmt("the %zu compute rail port%s that %s up, in rail order "
				   "(\"=\": exact names, not prefixes)%s", n, n == 1 ? "" : "s",
				   n == 1 ? "is" : "are", out));
	free(list);
	free(out);
	return rc;
}

static bool roce_rail_up(const struct nccl_port *p)
{
	return advice_rail_up(p) && !p->infiniband;
}

static bool roce_rail_no_gid(const struct nccl_port *p)
{
	return roce_rail_up(p) && p->gid_index < 0;
}

/* "mlx5_0:1 3, mlx5_1:1 5": each RoCE rail's index, for the error */
static char *gid_list(const struct nccl_facts *f)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	bool first = true;

	if (!m)
		return NULL;
	for (size_t i = 0; i < f->n_ports; i++) {
		const struct nccl_port *p = &f->ports[i];

		if (!roce_rail_up(p) || p->gid_index < 0)
			continue;
		fprintf(m, "%s%s:%d %d", first ? "" : ", ", p->dev, p->port, p->gid_index);
		first = false;
	}
	if (fclose(m) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

static int gid_index(const struct nccl_facts *f, struct nccl_advice *a)
{
	const char *name = "NCCL_IB_GID_INDEX";
	size_t roce = 0, none = 0;
	int first = -1;
	bool differ = false;
	char *s;
	int rc;

	for (size_t i = 0; i < f->n_ports; i++) {
		const struct nccl_port *p = &f->ports[i];

		if (!roce_rail_up(p))
			continue;
		roce++;
		if (p->gid_index < 0)
			none++;
		else if (first < 0)
			first = p->gid_index;
		else if (p->gid_index != first)
			differ = true;
	}
	if (!rails_up(f))
		return advice_leave(a, name, advice_fmt("no compute rail port is up"));
	if (!roce)
		return advice_leave(a, name, advice_fmt("InfiniBand: no GID index (NCCL "
							"addresses InfiniBand ports by LID)"));
	if (differ) {
		s = gid_list(f);
		if (!s)
			return -ENOMEM;
		rc = advice_error(a, "the rails' RoCE v2 IPv4 GID indices differ (%s): "
				  "NCCL_IB_GID_INDEX is one number for every rail; give the "
				  "rails the same GID layout (the same addresses configured in "
				  "the same order), see `rdmadoctor gids`", s);
		free(s);
		if (rc == 0)
			rc = advice_leave(a, name, advice_fmt("the rails' RoCE v2 IPv4 GID "
							      "indices differ"));
		if (rc < 0 || !none)
			return rc;
	}
	if (none) {
		s = advice_ports(f, roce_rail_no_gid, ", ");
		if (!s)
			return -ENOMEM;
		rc = advice_warn(a, "no RoCE v2 IPv4 GID on %s (no IPv4 address on its "
				 "netdev?): RoCE v2 cannot route its packets; give the "
				 "netdev its address", s);
		if (rc == 0 && !differ)
			rc = advice_leave(a, name, advice_fmt("no RoCE v2 IPv4 GID on %s", s));
		free(s);
		return rc;
	}
	return advice_set(a, name, advice_fmt("%d", first),
			  advice_fmt("the RoCE v2 IPv4 GID of every up rail (%zu rail%s)", roce,
				     roce == 1 ? "" : "s"));
}

/* Nothing on the machine names the interface the job's hosts reach each
 * other on (the inventory reads no routes), so NCCL's own choice stands. */
static int socket_ifname(struct nccl_advice *a)
{
	return advice_leave(a, "NCCL_SOCKET_IFNAME",
			    advice_fmt("NCCL's default (every interface but lo and docker*, "
				       "InfiniBand ones first) is kept: nothing here names the "
				       "interface the job's hosts reach each other on"));
}

/* GPUDirect RDMA not to be counted on: *why says so (advice_fmt's). */
static bool gdr_not(const struct nccl_facts *f, char **why)
{
	if (!f->n_gpus)
		*why = advice_fmt("no GPU");
	else if (f->gdr_ready == 0)
		*why = advice_fmt("GPUDirect RDMA is not ready (%s: `rdmadoctor check` says %s)",
				  f->gdr_why ? f->gdr_why : "?",
				  f->gdr_cause ? f->gdr_cause : "gdr.missing");
	else if (f->gdr_ready < 0)
		*why = advice_fmt("GPUDirect RDMA could not be confirmed: %s (`rdmadoctor check` "
				  "says %s \"not checked\")",
				  f->gdr_why ? f->gdr_why : "the module list could not be read",
				  f->gdr_cause ? f->gdr_cause : "gdr.missing");
	else
		return false;
	return true;
}

/* NCCL's name of a path as NCCL_NET_GDR_LEVEL takes it: it has no NODE
 * (within one socket, across its host bridges), which PHB covers. */
static const char *level_name(enum path_type t)
{
	switch (t) {
	case PATH_X:
	case PATH_PIX:
		return "PIX";
	case PATH_PXB:
		return "PXB";
	default:
		return "PHB";
	}
}

static int gdr_level(const struct nccl_facts *f, struct nccl_advice *a)
{
	const char *name = "NCCL_NET_GDR_LEVEL";
	const struct nccl_port *worst = NULL;
	char *not;

	if (gdr_not(f, &not))
		return advice_leave(a, name, not);
	if (!rails_up(f))
		return advice_leave(a, name, advice_fmt("no compute rail port is up"));
	for (size_t i = 0; i < f->n_ports; i++) {
		const struct nccl_port *p = &f->ports[i];

		if (!advice_rail_up(p))
			continue;
		if (p->nearest_gpu < 0)
			return advice_leave(a, name, advice_fmt("the PCIe path of %s:%d to a "
								"GPU is unknown", p->dev,
								p->port));
		if (!worst || p->path > worst->path)
			worst = p;
	}
	if (worst->path == PATH_SYS) {
		int rc = advice_warn(a, "%s:%d's nearest GPU (GPU %d) is across the socket "
				     "link (SYS): GPUDirect RDMA there is slow or off; put the "
				     "rail and a GPU under one socket", worst->dev, worst->port,
				     worst->nearest_gpu);

		return rc ? rc : advice_leave(a, name,
					      advice_fmt("%s:%d reaches its nearest GPU only "
							 "across the socket link (SYS)",
							 worst->dev, worst->port));
	}
	return advice_set(a, name, advice_fmt("%s", level_name(worst->path)),
			  advice_fmt("GPUDirect RDMA on every up rail: the farthest, %s:%d, "
				     "is %s from its nearest GPU (GPU %d)", worst->dev,
				     worst->port, path_type_name(worst->path),
				     worst->nearest_gpu));
}

static int gdr_read(const struct nccl_facts *f, struct nccl_advice *a)
{
	char *not;

	if (gdr_not(f, &not))
		return advice_leave(a, "NCCL_NET_GDR_READ", not);
	/* as the level: about the rails the job uses, and there is none */
	if (!rails_up(f))
		return advice_leave(a, "NCCL_NET_GDR_READ",
				    advice_fmt("no compute rail is up for NCCL to read through"));
	return advice_set(a, "NCCL_NET_GDR_READ", advice_fmt("1"),
			  advice_fmt("GPUDirect RDMA is ready%s%s%s: the NIC reads send buffers "
				     "straight from GPU memory", f->gdr_why ? " (" : "",
				     f->gdr_why ? f->gdr_why : "", f->gdr_why ? ")" : ""));
}

/* RCCL's own switch for GPUDirect RDMA: it finds the amdkfd memory peer
 * or DMA-BUF by itself, and forcing it past what it found is, in its own
 * words, for debugging only (ROCm/rccl src/transport/net_ib.cc,
 * RCCL_FORCE_ENABLE_GDRDMA: "Use ONLY for debugging!"). */
static int rccl_force_gdr(const struct nccl_facts *f, struct nccl_advice *a)
{
	return advice_leave(a, "RCCL_FORCE_ENABLE_GDRDMA",
			    advice_fmt("RCCL finds GPUDirect RDMA itself (amdkfd's memory peer "
				       "or DMA-BUF)%s; forcing it is for debugging only",
				       f->gdr_ready == 1 ? " and it is ready here" :
				       ", and forcing it where it is not ready corrupts or "
				       "fails transfers"));
}

/* Set ones first, each part in the rules' order (stable). */
static void set_first(struct nccl_advice *a)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++) {
		struct nccl_var v = a->v[i];

		if (!v.value)
			continue;
		memmove(&a->v[k + 1], &a->v[k], (i - k) * sizeof(*a->v));
		a->v[k++] = v;
	}
}

int nccl_advise(const struct nccl_facts *f, const struct profile *p, struct nccl_advice *a)
{
	int rc = 0;

	memset(a, 0, sizeof(*a));
	/* RCCL takes NCCL's variables as NCCL does: the same advice, named */
	a->library = f->rccl ? "rccl" : "nccl";
	for (size_t i = 0; i < f->n_errors && rc == 0; i++)
		rc = advice_error(a, "%s", f->errors[i]);
	if (rc == 0)
		rc = hca(f, a);
	if (rc == 0)
		rc = gid_index(f, a);
	if (rc == 0)
		rc = advice_qos(f, p, a);
	if (rc == 0)
		rc = socket_ifname(a);
	if (rc == 0)
		rc = gdr_level(f, a);
	if (rc == 0)
		rc = gdr_read(f, a);
	if (rc == 0 && f->rccl)
		rc = rccl_force_gdr(f, a);
	if (rc < 0) {
		nccl_advice_free(a);
		return rc;
	}
	set_first(a);
	return 0;
}
