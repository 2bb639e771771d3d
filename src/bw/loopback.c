/* bw --loopback: a rail-to-rail test on one host.  For each pair of RDMA
 * devices (A B: A sends), the existing server side runs for B in a thread
 * of this process and the existing client for A in the main thread, over
 * the same control protocol and session code as `bw server` / `bw client`
 * (bw/session.c): nothing of the test is done differently, only both ends
 * are here.  The data path is the NICs': each side uses its own GID (RoCE:
 * the v2 GID of its netdev's IPv4 address, chosen here from the inventory
 * because two NICs of one host may share a subnet, where "the address that
 * reaches the peer" cannot tell them apart) or its LID (InfiniBand), so the
 * packets leave A's port, cross the switch and enter B's, as in a job.
 *
 * The door: a loopback run opens nothing to the network.  The server side
 * listens on 127.0.0.1 only, on a port the kernel picks, and requires a
 * secret made for the pair from getrandom(2) (the same AUTH step as `bw
 * server --token`, bw/token.c, checked before anything is read or
 * allocated for a peer), which only this process knows; a local process
 * that connects first is refused at AUTH like any client without the token
 * and the server side waits on for its own client (a few tries, each
 * bounded by --timeout). */
#include "loopback.h"
#include "expect.h"
#include "progress.h"
#include "why.h"
#include "../check/run.h"
#include "../check/rails.h"
#include "../model/inventory.h"
#include "../profiles/profile.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

/* A loopback server side takes at most this many connections for one pair
 * (its own client, and local strangers refused at AUTH). */
#define LB_ACCEPTS_MAX 4
#define LB_SECRET_BYTES 32

/* ---- the pairs ---- */

static const struct port *find_port(const struct nic *n, int num)
{
	for (size_t k = 0; k < n->n_ports; k++)
		if (n->ports[k].num == num)
			return &n->ports[k];
	return NULL;
}

/* One side: its rail (NUMA node, rate, CPUs, GPU) and its own address. */
static int add_side(struct bw_loopback *L, size_t nic, int port_num, struct bw_lb_side *sd,
		    char *why, size_t whysz)
{
	const struct nic *n = &L->inv->nics[nic];
	const struct port *pt = find_port(n, port_num);
	const struct gid *best = NULL;
	int rc;

	if (!pt)
		return bw_why(-EINVAL, why, whysz, "%s has no port %d (see `%s inventory`)", n->name,
			   port_num, L->prog);
	rc = bw_rails_add(&L->rs, L->r, L->inv, nic, port_num, L->o->gpu, why, whysz);
	if (rc < 0)
		return rc;
	sd->rail = L->rs.n - 1;
	sd->device = n->name;
	sd->port = port_num;
	sd->gid_index = -1;
	sd->addr = NULL;
	if (!pt->link_layer || strcmp(pt->link_layer, "Ethernet") != 0) {
		/* InfiniBand: LID addressing; a --gid-index given is the engine's */
		sd->gid_index = L->o->gid_index;
		return 0;
	}
	for (size_t g = 0; g < pt->n_gids; g++) {
		const struct gid *gd = &pt->gids[g];

		if (L->o->gid_index >= 0 ? gd->index == L->o->gid_index :
		    gd->type && strcmp(gd->type, "RoCE v2") == 0 && gd->ipv4[0] &&
		    (!best || gd->index < best->index))
			best = gd;
	}
	if (!best) {
		if (L->o->gid_index >= 0)
			return bw_why(-EADDRNOTAVAIL, why, whysz, "%s port %d has no gid %d (see `%s "
				   "gids`)", n->name, port_num, L->o->gid_index, L->prog);
		return bw_why(-EADDRNOTAVAIL, why, whysz, "%s port %d has no RoCE v2 GID of an IPv4 "
			   "address: set an address on its netdev%s%s (see `%s gids`)", n->name,
			   port_num, pt->netdev ? " " : "", pt->netdev ? pt->netdev : "", L->prog);
	}
	sd->gid_index = best->index;
	sd->addr = best->ipv4[0] ? best->ipv4 : NULL;
	return 0;
}

static int add_pair(struct bw_loopback *L, size_t a, int pa, size_t b, int pb, char *why,
		    size_t whysz)
{
	struct bw_lb_pair *p = &L->pairs[L->n_pairs];
	int rc = add_side(L, a, pa, &p->from, why, whysz);

	if (rc == 0)
		rc = add_side(L, b, pb, &p->to, why, whysz);
	if (rc == 0)
		L->n_pairs++;
	return rc;
}

/* The pairs named on the command line, --ib-port on both. */
static int named_pairs(struct bw_loopback *L, char *why, size_t whysz)
{
	const struct inventory *inv = L->inv;
	size_t idx[2];
	int rc = 0;

	for (int i = 0; i + 1 < L->o->n_lb_names && rc == 0; i += 2) {
		for (int j = 0; j < 2; j++) {
			const char *name = L->o->lb_names[i + j];

			for (idx[j] = 0; idx[j] < inv->n_nics; idx[j]++)
				if (strcmp(inv->nics[idx[j]].name, name) == 0)
					break;
			if (idx[j] == inv->n_nics)
				return bw_why(-EINVAL, why, whysz, "--loopback: no RDMA device '%s' here "
					   "(see `%s inventory`)", name, L->prog);
		}
		rc = add_pair(L, idx[0], L->o->ib_port, idx[1], L->o->ib_port, why, whysz);
	}
	return rc;
}

/* Each rail with its partner: rail i with rail i + n/2 (check/rails.h's
 * numbering, under the roles check would give). */
static int default_pairs(struct bw_loopback *L, char *why, size_t whysz)
{
	const struct inventory *inv = L->inv;
	enum nic_role *roles = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*roles));
	struct rail_port *rp;
	size_t n = 0;
	int rc = 0;

	if (!roles)
		return bw_why(-ENOMEM, why, whysz, "%s", "out of memory");
	check_roles(inv, L->pr, L->site, roles);
	rp = rail_ports(inv, roles, &n);
	free(roles);
	if (n < 2) {
		free(rp);
		return bw_why(-EINVAL, why, whysz, "--loopback: no rails to pair: this host has %zu "
			   "rail port%s under the %s profile; name the pairs (bw --loopback A B)", n,
			   n == 1 ? "" : "s", L->pr ? L->pr->name : "chosen");
	}
	if (n % 2 && !L->quiet)
		fprintf(L->err, "%s bw: --loopback: %zu rails, rail %zu (%s) has no partner and is "
			"left out\n", L->prog, n, n - 1, inv->nics[rp[n - 1].nic].name);
	for (size_t i = 0; i < n / 2 && i < BW_RAILS_MAX / 2 && rc == 0; i++) {
		const struct rail_port *a = &rp[i], *b = &rp[i + n / 2];

		rc = add_pair(L, a->nic, inv->nics[a->nic].ports[a->port].num, b->nic,
			      inv->nics[b->nic].ports[b->port].num, why, whysz);
	}
	free(rp);
	return rc;
}

int bw_loopback_pairs(struct bw_loopback *L, char *why, size_t whysz)
{
	bw_rails_init(&L->rs);
	L->n_pairs = 0;
	if (!L->inv->n_nics)
		return bw_why(-ENODEV, why, whysz, "--loopback: this host has no RDMA device (see `%s "
			   "inventory`)", L->prog);
	if (L->o->gpu && !L->inv->n_gpus)
		/* said before any traffic, not per pair by the engine */
		return bw_why(-ENODEV, why, whysz, "--gpu: this host has no GPU that the inventory "
			   "sees (is the driver loaded? see `%s inventory`); run without --gpu for "
			   "host memory", L->prog);
	return L->o->n_lb_names ? named_pairs(L, why, whysz) : default_pairs(L, why, whysz);
}

void bw_loopback_free(struct bw_loopback *L)
{
	bw_rails_free(&L->rs);
}

/* ---- one pair: the server side in a thread, the client here ---- */

struct lb_server {
	int lfd;
	const char *secret;
	struct bw_caps caps;
	struct bw_local local;	/* the receiving device's */
	int timeout_ms;
	struct bw_err e;
	int tests;
};

static int lb_setup(void *arg, const struct bw_hello *h, struct bw_rails *r, struct bw_err *e)
{
	struct lb_server *sv = arg;

	if (h->p.transport != BW_TRANSPORT_VERBS || h->n_rails != 1) {
		bw_errf(e, "a loopback server side serves one verbs rail");
		return -1;
	}
	r->eng = &bw_verbs_engine;
	r->n = 1;
	r->local[0] = sv->local;
	r->local[0].max_run_ms = bw_params_run_bound_ms(&h->p, sv->caps.max_duration_ms);
	return 0;
}

static void lb_done(void *arg, const struct bw_hello *h, struct bw_outcome *o)
{
	/* the client reports the pair: it has both sides' figures */
	(void)arg;
	(void)h;
	(void)o;
}

static void *lb_serve(void *arg)
{
	struct lb_server *sv = arg;
	struct bw_server_ops ops = { lb_setup, lb_done, sv, NULL, NULL };

	sv->tests = -1;
	for (int k = 0; k < LB_ACCEPTS_MAX; k++) {
		struct bw_session ss = { .fd = -1 };

		if (bw_session_accept(sv->lfd, &ss, sv->timeout_ms, &sv->e) < 0)
			break;
		ss.timeout_ms = ss.idle_ms = sv->timeout_ms;
		ss.iters_wait_ms = (int)sv->caps.max_duration_ms;
		ss.token = sv->secret;
		sv->tests = bw_session_serve(&ss, &sv->caps, &ops, &sv->e);
		bw_session_close(&ss);
		if (sv->tests != -BW_E_REFUSED)
			break;	/* its own client came (a stranger is refused at AUTH) */
	}
	return NULL;
}

/* A secret for one pair: LB_SECRET_BYTES random bytes in hex. */
static int make_secret(char *out, size_t outsz)
{
	unsigned char b[LB_SECRET_BYTES];

	if (outsz < 2 * sizeof(b) + 1 || getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return -1;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

static void side_local(const struct bw_loopback *L, const struct bw_lb_side *sd, const char *peer,
		       struct bw_local *l)
{
	const struct bw_report_rail *rr = &L->rs.rail[sd->rail];

	*l = (struct bw_local){
		.device = sd->device,
		.ib_port = sd->port,
		.gid_index = sd->gid_index,
		.gpu = rr->gpu,
		.numa_node = rr->numa_node,
		.peer_addr = peer,
		.cpulist = rr->cpulist,
		.peermem = rr->peermem,
	};
}

/* Run every size of the test on pair p: outs[0..*done) filled (free
 * them); 0, or -1 with e saying why the rest did not run. */
static int run_pair(struct bw_loopback *L, const struct bw_lb_pair *p, const char *label,
		    struct bw_outcome *outs, size_t *done, struct bw_err *e)
{
	const struct bw_opts *o = L->o;
	char secret[2 * LB_SECRET_BYTES + 1];
	struct lb_server sv = { .lfd = -1, .secret = secret,
				.timeout_ms = (int)(o->timeout_s * 1000) };
	struct bw_session ss = { .fd = -1 };
	struct bw_progress pg = { .out = L->err, .prog = L->prog, .cmd = label };
	struct bw_rails rails;
	struct sockaddr_storage sa;
	socklen_t sl = sizeof(sa);
	pthread_t th;
	uint16_t port;
	int rc = -1, err;

	*done = 0;
	if (make_secret(secret, sizeof(secret)) < 0) {
		bw_errf(e, "cannot read random bytes for the pair's secret");
		return -1;
	}
	/* 127.0.0.1 only: the control channel never leaves this host */
	sv.lfd = bw_listen("127.0.0.1", 0, LB_ACCEPTS_MAX, e);
	if (sv.lfd < 0)
		return -1;
	if (getsockname(sv.lfd, (struct sockaddr *)&sa, &sl) != 0 || sa.ss_family != AF_INET) {
		bw_errf(e, "cannot read the loopback listener's port");
		close(sv.lfd);
		return -1;
	}
	port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
	bw_caps_defaults(&sv.caps);
	/* the server side is this process's own: the client's options are
	 * the user's, bounded only as `bw client` is (cmd/bw_opts.c) */
	sv.caps.max_size = 1ull << 30;
	sv.caps.max_qps = 65536;
	sv.caps.max_duration_ms = 24u * 3600 * 1000;
	sv.caps.max_memory = 1ull << 40;
	sv.caps.max_rails = 1;
	sv.caps.has_verbs = true;
	side_local(L, &p->to, p->from.addr, &sv.local);
	err = pthread_create(&th, NULL, lb_serve, &sv);
	if (err) {
		bw_errf(e, "cannot start the server side's thread: %s", strerror(err));
		close(sv.lfd);
		return -1;
	}
	ss.token = secret;
	if (bw_session_connect(&ss, "127.0.0.1", port, sv.timeout_ms, e) < 0 ||
	    bw_session_auth(&ss, e) < 0)
		goto out;
	if (L->progress) {
		ss.progress = bw_progress_show;
		ss.progress_arg = &pg;
	}
	rails.eng = &bw_verbs_engine;
	rails.n = 1;
	side_local(L, &p->from, p->to.addr, &rails.local[0]);
	rails.local[0].max_run_ms = bw_params_run_bound_ms(&o->p, 0);
	for (size_t k = 0; k < o->n_sizes; k++) {
		struct bw_hello h;

		bw_opts_hello(o, o->sizes[k], 1, L->host, &h);
		if (bw_params_check(&h.p, 1, NULL, e) < 0)
			goto out;
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		err = bw_session_test(&ss, &h, &rails, &outs[k], e);
		bw_progress_end(&pg);
		if (err < 0)
			goto out;
		(*done)++;
	}
	bw_session_bye(&ss);
	rc = 0;
out:
	bw_session_close(&ss);
	pthread_join(th, NULL);
	close(sv.lfd);
	if (rc == 0 && sv.tests < 0) {
		/* the client finished, the server side did not: say its why */
		bw_errf(e, "the server side on %s: %s", p->to.device, sv.e.msg);
		rc = -1;
	}
	return rc;
}

/* ---- the report ---- */

static double min_rate(double a, double b)
{
	if (isnan(a))
		return b;
	return isnan(b) || a < b ? a : b;
}

/* Judge pair k and hand it to the printer; its verdict. */
static enum bw_lb_verdict report_pair(struct bw_loopback *L, size_t k, struct bw_outcome *outs,
				      size_t done, const char *error)
{
	const struct bw_lb_pair *p = &L->pairs[k];
	struct bw_report rep;
	char why[256];
	size_t len = strlen(L->reason);

	memset(&rep, 0, sizeof(rep));
	rep.p = done ? outs[0].p : L->o->p;
	rep.local_host = rep.remote_host = L->host;
	rep.local_addr = p->from.addr;
	rep.remote_addr = p->to.addr;
	rep.n_rails = 1;
	rep.rails[0] = L->rs.rail[p->from.rail];
	rep.outcomes = outs;
	rep.n_outcomes = done;
	rep.error = error;
	bw_expectation(&rep, L->o->expect_gbps, L->pr,
		       min_rate(L->rs.rail[p->from.rail].rate_gbps,
				L->rs.rail[p->to.rail].rate_gbps), why, sizeof(why));
	bw_judge(&rep);
	if (!rep.pass || rep.no_floor)
		snprintf(L->reason + len, sizeof(L->reason) - len, "%spair %zu %s -> %s: %s",
			 len ? "; " : "", k + 1, p->from.device, p->to.device, rep.reason);
	if (L->pair_done(L->arg, L, k, &rep) < 0)
		return BW_LB_ERROR;
	if (rep.pass)
		return rep.no_floor ? BW_LB_NO_FLOOR : BW_LB_PASS;
	return rep.could_not_run ? BW_LB_ERROR : BW_LB_FAIL;
}

/* The worse of two verdicts: could not run, then below, then not judged. */
static enum bw_lb_verdict worse(enum bw_lb_verdict a, enum bw_lb_verdict b)
{
	return a > b ? a : b;
}

int bw_loopback_run(struct bw_loopback *L)
{
	enum bw_lb_verdict worst = BW_LB_PASS;

	L->reason[0] = 0;
	gethostname(L->host, sizeof(L->host) - 1);
	for (size_t k = 0; k < L->n_pairs; k++) {
		const struct bw_lb_pair *p = &L->pairs[k];
		struct bw_outcome *outs = calloc(L->o->n_sizes, sizeof(*outs));
		struct bw_err e = { "" };
		char label[160];
		size_t done = 0;
		int rc;

		if (!outs)
			return -ENOMEM;
		snprintf(label, sizeof(label), "bw %s -> %s", p->from.device, p->to.device);
		if (!L->quiet)
			fprintf(L->err, "%s bw --loopback: pair %zu of %zu: %s port %d (%s) -> %s port "
				"%d (%s)\n", L->prog, k + 1, L->n_pairs, p->from.device,
				p->from.port, p->from.addr ? p->from.addr : "lid", p->to.device,
				p->to.port, p->to.addr ? p->to.addr : "lid");
		rc = run_pair(L, p, label, outs, &done, &e);
		if (rc < 0)
			fprintf(L->err, "%s %s: %s\n", L->prog, label, e.msg);
		worst = worse(worst, report_pair(L, k, outs, done, rc < 0 ? e.msg : NULL));
		for (size_t j = 0; j < L->o->n_sizes; j++)
			bw_outcome_free(&outs[j]);
		free(outs);
	}
	return (int)worst;
}
