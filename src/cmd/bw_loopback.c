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
#include "bw_cmd.h"
#include "../check/check.h"
#include "../check/rails.h"
#include "../print/bw_out.h"
#include "../print/text_printf.h"
#include "../profiles/profile.h"

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

struct lb_side {
	uint32_t rail;		/* index into the setup's rails */
	const char *device;
	int port;
	int gid_index;		/* -1: InfiniBand (LID, no GRH) */
	const char *addr;	/* RoCE: the GID's IPv4 address; NULL on InfiniBand */
};

struct lb_pair {
	struct lb_side from, to;
};

struct lb {
	struct ctx *c;
	struct bw_cmd_opts *o;
	struct bw_cmd_setup s;
	struct lb_pair pairs[BW_RAILS_MAX / 2];
	size_t n_pairs;
	char host[BW_HOST_MAX + 1];
};

/* ---- the pairs ---- */

static const struct port *find_port(const struct nic *n, int num)
{
	for (size_t k = 0; k < n->n_ports; k++)
		if (n->ports[k].num == num)
			return &n->ports[k];
	return NULL;
}

/* One side: its rail (NUMA node, rate, CPUs, GPU) and its own address.
 * EXIT_OK, or the exit code after saying why. */
static int add_side(struct lb *L, size_t nic, int port_num, struct lb_side *sd)
{
	const struct nic *n = &L->s.pl.inv.nics[nic];
	const struct port *pt = find_port(n, port_num);
	const struct gid *best = NULL;
	int rc;

	if (!pt) {
		fprintf(stderr, "%s bw: %s has no port %d (see `%s inventory`)\n", L->c->prog,
			n->name, port_num, L->c->prog);
		return EXIT_USAGE;
	}
	rc = bw_cmd_add_rail(&L->s, nic, port_num);
	if (rc != EXIT_OK)
		return rc;
	sd->rail = L->s.n - 1;
	sd->device = n->name;
	sd->port = port_num;
	sd->gid_index = -1;
	sd->addr = NULL;
	if (!pt->link_layer || strcmp(pt->link_layer, "Ethernet") != 0) {
		/* InfiniBand: LID addressing; a --gid-index given is the engine's */
		sd->gid_index = L->o->gid_index;
		return EXIT_OK;
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
			fprintf(stderr, "%s bw: %s port %d has no gid %d (see `%s gids`)\n",
				L->c->prog, n->name, port_num, L->o->gid_index, L->c->prog);
		else
			fprintf(stderr, "%s bw: %s port %d has no RoCE v2 GID of an IPv4 address: "
				"set an address on its netdev%s%s (see `%s gids`)\n", L->c->prog,
				n->name, port_num, pt->netdev ? " " : "", pt->netdev ? pt->netdev : "",
				L->c->prog);
		return EXIT_RUNTIME;
	}
	sd->gid_index = best->index;
	sd->addr = best->ipv4[0] ? best->ipv4 : NULL;
	return EXIT_OK;
}

static int add_pair(struct lb *L, size_t a, int pa, size_t b, int pb)
{
	struct lb_pair *p = &L->pairs[L->n_pairs];
	int rc = add_side(L, a, pa, &p->from);

	if (rc == EXIT_OK)
		rc = add_side(L, b, pb, &p->to);
	if (rc == EXIT_OK)
		L->n_pairs++;
	return rc;
}

/* The pairs named on the command line, --ib-port on both. */
static int named_pairs(struct lb *L)
{
	const struct inventory *inv = &L->s.pl.inv;
	size_t idx[2];
	int rc = EXIT_OK;

	for (int i = 0; i + 1 < L->o->n_lb_names && rc == EXIT_OK; i += 2) {
		for (int j = 0; j < 2; j++) {
			const char *name = L->o->lb_names[i + j];

			for (idx[j] = 0; idx[j] < inv->n_nics; idx[j]++)
				if (strcmp(inv->nics[idx[j]].name, name) == 0)
					break;
			if (idx[j] == inv->n_nics) {
				fprintf(stderr, "%s bw: --loopback: no RDMA device '%s' here (see `%s "
					"inventory`)\n", L->c->prog, name, L->c->prog);
				return EXIT_USAGE;
			}
		}
		rc = add_pair(L, idx[0], L->o->ib_port, idx[1], L->o->ib_port);
	}
	return rc;
}

/* Each rail with its partner: rail i with rail i + n/2 (check/rails.h's
 * numbering, under the roles check would give). */
static int default_pairs(struct lb *L)
{
	const struct inventory *inv = &L->s.pl.inv;
	enum nic_role *roles = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*roles));
	struct rail_port *rp;
	size_t n = 0;
	int rc = EXIT_OK;

	if (!roles) {
		fprintf(stderr, "%s: out of memory\n", L->c->prog);
		return EXIT_RUNTIME;
	}
	check_roles(inv, L->s.pl.profile, L->s.pl.has_site ? &L->s.pl.site : NULL, roles);
	rp = rail_ports(inv, roles, &n);
	free(roles);
	if (n < 2) {
		free(rp);
		fprintf(stderr, "%s bw: --loopback: no rails to pair: this host has %zu rail port%s "
			"under the %s profile; name the pairs (bw --loopback A B)\n", L->c->prog, n,
			n == 1 ? "" : "s", L->s.pl.profile ? L->s.pl.profile->name : "chosen");
		return EXIT_USAGE;
	}
	if (n % 2 && !L->c->quiet)
		fprintf(stderr, "%s bw: --loopback: %zu rails, rail %zu (%s) has no partner and is "
			"left out\n", L->c->prog, n, n - 1, inv->nics[rp[n - 1].nic].name);
	for (size_t i = 0; i < n / 2 && i < BW_RAILS_MAX / 2 && rc == EXIT_OK; i++) {
		const struct rail_port *a = &rp[i], *b = &rp[i + n / 2];

		rc = add_pair(L, a->nic, inv->nics[a->nic].ports[a->port].num, b->nic,
			      inv->nics[b->nic].ports[b->port].num);
	}
	free(rp);
	return rc;
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

static void side_local(const struct lb *L, const struct lb_side *sd, const char *peer,
		       struct bw_local *l)
{
	const struct bw_report_rail *rr = &L->s.rail[sd->rail];

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
static int run_pair(struct lb *L, const struct lb_pair *p, const char *label,
		    struct bw_outcome *outs, size_t *done, struct bw_err *e)
{
	struct bw_cmd_opts *o = L->o;
	char secret[2 * LB_SECRET_BYTES + 1];
	struct lb_server sv = { .lfd = -1, .secret = secret,
				.timeout_ms = (int)(o->timeout_s * 1000) };
	struct bw_session ss = { .fd = -1 };
	struct bw_cmd_progress pg = { .c = L->c, .cmd = label };
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
	 * the user's, bounded only as `bw client` is (bw_cmd_parse) */
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
	if (isatty(STDERR_FILENO) && !L->c->json && !L->c->quiet) {
		ss.progress = bw_cmd_show_progress;
		ss.progress_arg = &pg;
	}
	rails.eng = &bw_verbs_engine;
	rails.n = 1;
	side_local(L, &p->from, p->to.addr, &rails.local[0]);
	rails.local[0].max_run_ms = bw_params_run_bound_ms(&o->p, 0);
	for (size_t k = 0; k < o->n_sizes; k++) {
		struct bw_hello h;

		bw_cmd_hello(o, o->sizes[k], 1, L->host, &h);
		if (bw_params_check(&h.p, 1, NULL, e) < 0)
			goto out;
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		err = bw_session_test(&ss, &h, &rails, &outs[k], e);
		bw_cmd_end_progress(&pg);
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

static json_t *side_json(const struct lb *L, const struct lb_side *sd)
{
	double rate = L->s.rail[sd->rail].rate_gbps;

	return json_pack("{s:s,s:i,s:o,s:o}", "device", sd->device, "port", sd->port, "address",
			 sd->addr ? json_string(sd->addr) : json_null(), "rate_gbps",
			 isnan(rate) ? json_null() : json_real(rate));
}

static double min_rate(double a, double b)
{
	if (isnan(a))
		return b;
	return isnan(b) || a < b ? a : b;
}

/* Judge pair k and print it (text now, JSON into pairs); *worst: the
 * exit code so far. */
static int report_pair(struct lb *L, size_t k, struct bw_outcome *outs, size_t done,
		       const char *error, json_t *pairs, char *reason, size_t reasonsz)
{
	const struct lb_pair *p = &L->pairs[k];
	struct bw_report rep;
	char why[256];
	size_t len = strlen(reason);

	memset(&rep, 0, sizeof(rep));
	rep.p = done ? outs[0].p : L->o->p;
	rep.local_host = rep.remote_host = L->host;
	rep.local_addr = p->from.addr;
	rep.remote_addr = p->to.addr;
	rep.n_rails = 1;
	rep.rails[0] = L->s.rail[p->from.rail];
	rep.outcomes = outs;
	rep.n_outcomes = done;
	rep.error = error;
	bw_cmd_expectation(&rep, L->o, L->s.have_inv ? L->s.pl.profile : NULL,
			   min_rate(L->s.rail[p->from.rail].rate_gbps,
				    L->s.rail[p->to.rail].rate_gbps), why, sizeof(why));
	bw_judge(&rep);
	if (!rep.pass)
		snprintf(reason + len, reasonsz - len, "%spair %zu %s -> %s: %s", len ? "; " : "",
			 k + 1, p->from.device, p->to.device, rep.reason);
	if (L->c->json) {
		json_t *doc = bw_report_to_json(&rep);

		if (!doc || json_object_set_new(doc, "role", json_string("loopback")) ||
		    json_object_set_new(doc, "pair", json_pack("{s:o,s:o}", "from",
							       side_json(L, &p->from), "to",
							       side_json(L, &p->to))) ||
		    json_array_append_new(pairs, doc)) {
			fprintf(stderr, "%s: out of memory\n", L->c->prog);
			return EXIT_RUNTIME;
		}
	} else {
		FILE *out = ctx_open_text(L->c);
		int rc;

		if (!out)
			return EXIT_RUNTIME;
		text_printf(out, " pair %zu of %zu: %s port %d -> %s port %d\n", k + 1, L->n_pairs,
			    p->from.device, p->from.port, p->to.device, p->to.port);
		bw_report_print(out, &rep);
		rc = ctx_close_text(L->c, out);
		if (rc != EXIT_OK)
			return rc;
	}
	return rep.pass ? EXIT_OK : rep.could_not_run ? EXIT_RUNTIME : EXIT_PROBLEMS;
}

/* The worse of two exit codes of a run: could not run, then below. */
static int worse(int a, int b)
{
	if (a == EXIT_RUNTIME || b == EXIT_RUNTIME)
		return EXIT_RUNTIME;
	return a != EXIT_OK ? a : b;
}

static int run_all(struct lb *L)
{
	struct ctx *c = L->c;
	json_t *pairs = c->json ? json_array() : NULL;
	char reason[1024] = "";
	int worst = EXIT_OK;

	if (c->json && !pairs) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	for (size_t k = 0; k < L->n_pairs; k++) {
		const struct lb_pair *p = &L->pairs[k];
		struct bw_outcome *outs = calloc(L->o->n_sizes, sizeof(*outs));
		struct bw_err e = { "" };
		char label[160];
		size_t done = 0;
		int rc;

		if (!outs) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			json_decref(pairs);
			return EXIT_RUNTIME;
		}
		snprintf(label, sizeof(label), "bw %s -> %s", p->from.device, p->to.device);
		if (!c->quiet)
			fprintf(stderr, "%s bw --loopback: pair %zu of %zu: %s port %d (%s) -> %s port "
				"%d (%s)\n", c->prog, k + 1, L->n_pairs, p->from.device,
				p->from.port, p->from.addr ? p->from.addr : "lid", p->to.device,
				p->to.port, p->to.addr ? p->to.addr : "lid");
		rc = run_pair(L, p, label, outs, &done, &e);
		if (rc < 0)
			fprintf(stderr, "%s %s: %s\n", c->prog, label, e.msg);
		rc = report_pair(L, k, outs, done, rc < 0 ? e.msg : NULL, pairs, reason,
				 sizeof(reason));
		worst = worse(worst, rc);
		for (size_t j = 0; j < L->o->n_sizes; j++)
			bw_outcome_free(&outs[j]);
		free(outs);
	}
	if (c->json) {
		json_t *doc = json_pack("{s:i,s:s,s:s,s:o,s:s,s:o}", "schema", BW_SCHEMA, "test",
					"bw", "role", "loopback", "pairs", pairs, "verdict",
					worst == EXIT_OK ? "pass" : worst == EXIT_PROBLEMS ? "fail"
					: "error", "reason",
					reason[0] ? json_string(reason) : json_null());
		int rc;

		if (!doc) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			return EXIT_RUNTIME;
		}
		rc = ctx_emit_json(c, doc);
		if (rc != EXIT_OK)
			return rc;
	} else if (worst != EXIT_OK) {
		fprintf(stderr, "%s bw --loopback: %s\n", c->prog, reason);
	}
	return worst;
}

int bw_cmd_loopback(struct ctx *c, struct bw_cmd_opts *o)
{
	struct lb *L = calloc(1, sizeof(*L));
	int rc;

	if (!L) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	L->c = c;
	L->o = o;
	L->s = (struct bw_cmd_setup){ .c = c, .cmd = "bw", .o = o, .min_rate = NAN };
	rc = bw_cmd_collect(&L->s);
	if (rc != EXIT_OK)
		goto out;
	if (!L->s.pl.inv.n_nics) {
		fprintf(stderr, "%s bw: --loopback: this host has no RDMA device (see `%s "
			"inventory`)\n", c->prog, c->prog);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (o->gpu && !L->s.pl.inv.n_gpus) {
		/* said before any traffic, not per pair by the engine */
		fprintf(stderr, "%s bw: --gpu: this host has no GPU that the inventory sees (is the "
			"driver loaded? see `%s inventory`); run without --gpu for host memory\n",
			c->prog, c->prog);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = o->n_lb_names ? named_pairs(L) : default_pairs(L);
	if (rc != EXIT_OK)
		goto out;
	gethostname(L->host, sizeof(L->host) - 1);
	rc = run_all(L);
out:
	bw_cmd_setup_free(&L->s);
	free(L);
	return rc;
}
