/* A listening rank's door for one round (admit.h): who gets in as the
 * partner.  Every connection's proof is read as it comes, several
 * connections at a time, so that one that
 * says nothing (a probe that holds the port, a stranger on purpose) keeps
 * nobody waiting behind it: the partner's proof, which comes at once, is
 * checked the moment it arrives.  What does not prove the pairing secret
 * is refused, closed and named on stderr; the door stays open for the
 * partner until the round's end. */
#include "admit.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* How long a connection may take to prove the secret: a partner sends its
 * proof as soon as it is connected. */
#define FAB_PROOF_WAIT_S 1.0
/* Connections waiting to prove at once; a newer one pushes the oldest out
 * (the partner, which proves within milliseconds, is seldom the oldest). */
#define FAB_PENDING_MAX 16

struct pending {
	struct bw_session ss;
	double until;				/* bw_now() by which it proves, or goes */
	unsigned char proof[FAB_PROOF_LEN];
	size_t got;				/* bytes of proof read so far */
};

struct door {
	const struct fab_pair_key *k;	/* the partners awaited, n_keys */
	size_t n_keys;
	bool *taken;			/* those already in, n_keys */
	const char *prog;
	struct pending p[FAB_PENDING_MAX];
	size_t n;
};

/* The far end as the log names it: "ADDR port N". */
static void peer_name(const struct bw_session *ss, char *out, size_t n)
{
	struct sockaddr_storage sa;
	socklen_t sl = sizeof(sa);
	char port[NI_MAXSERV] = "?";

	if (getpeername(ss->fd, (struct sockaddr *)&sa, &sl) == 0)
		getnameinfo((struct sockaddr *)&sa, sl, NULL, 0, port, sizeof(port),
			    NI_NUMERICSERV);
	snprintf(out, n, "%s port %s", ss->peer_addr, port);
}

/* The first partner still awaited (for the log line). */
static uint32_t awaited(const struct door *d)
{
	for (size_t i = 0; i < d->n_keys; i++)
		if (!d->taken[i])
			return d->k[i].id.client;
	return d->k[0].id.client;
}

/* Close pending connection i with a line on stderr saying why; the last
 * one takes its place. */
static void refuse(struct door *d, size_t i, bool late, const char *why)
{
	char peer[sizeof(d->p[i].ss.peer_addr) + 16];

	peer_name(&d->p[i].ss, peer, sizeof(peer));
	fprintf(stderr, "%s fabric: rank %u: refused %s connection from %s while waiting for "
		"%s%u: %s\n", d->prog, d->k->id.server, late ? "a late" : "a", peer,
		d->n_keys > 1 ? "one of its partners, rank " : "rank ", awaited(d), why);
	bw_session_close(&d->p[i].ss);
	d->p[i] = d->p[--d->n];
}

/* Take a new connection.  0, or -1 with e set when the listener failed (a
 * connection gone before it was taken is no failure). */
static int take(struct door *d, int lfd, struct bw_err *e)
{
	struct pending *p;
	int rc;

	if (d->n == FAB_PENDING_MAX) {
		size_t oldest = 0;

		for (size_t i = 1; i < d->n; i++)
			if (d->p[i].until < d->p[oldest].until)
				oldest = i;
		refuse(d, oldest, false, "it sent no proof while newer connections came");
	}
	p = &d->p[d->n];
	memset(p, 0, sizeof(*p));
	rc = bw_session_accept(lfd, &p->ss, 0, e);
	if (rc < 0)	/* one gone before it was taken is no failure of the listener */
		return rc == -BW_E_TIMEOUT || rc == -BW_E_AGAIN ? 0 : -1;
	d->n++;
	p->until = bw_now() + FAB_PROOF_WAIT_S;
	return 0;
}

/* Read what pending connection i sent.  1 with *which the key it proved
 * (and was answered); 0: not yet, or it was refused. */
static int hear(struct door *d, size_t i, size_t *which)
{
	struct pending *p = &d->p[i];
	ssize_t n = recv(p->ss.fd, p->proof + p->got, sizeof(p->proof) - p->got, 0);
	unsigned char nonce[FAB_NONCE_LEN], ack[FAB_ACK_LEN];
	struct bw_err we = { "" };
	char why[200] = "no partner is awaited";
	bool late = false, first = true;

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;
	if (n <= 0) {
		refuse(d, i, false, n == 0 ? "it closed before its proof" : strerror(errno));
		return 0;
	}
	p->got += (size_t)n;
	if (p->got < sizeof(p->proof))
		return 0;
	/* the proof of any partner still awaited gets in; a refusal says why
	 * the first one's check failed, as with one partner */
	for (size_t k = 0; k < d->n_keys; k++) {
		char other[sizeof(why)];
		bool l;

		if (d->taken[k])
			continue;
		if (fab_proof_check(d->k[k].secret, &d->k[k].id, p->proof, nonce, &l,
				    first ? why : other, sizeof(why)) == 0) {
			*which = k;
			goto proved;
		}
		late = first ? l : late;
		first = false;
	}
	refuse(d, i, late, why);
	return 0;
proved:
	fab_ack_make(d->k[*which].secret, nonce, &d->k[*which].id, ack);
	if (bw_write_all(p->ss.fd, ack, sizeof(ack), bw_now() + FAB_PROOF_WAIT_S, &we) < 0) {
		refuse(d, i, false, we.msg);
		return 0;
	}
	return 1;
}

/* The door's loop: let in whoever proves a key not yet taken, handing each
 * to in(arg, which, ss), until every key is taken or the deadline.  The
 * number let in, or -1 with e set when the listener failed or nobody came
 * at all. */
static long admit_loop(struct door *d, int lfd, double deadline,
		       void (*in)(void *arg, size_t which, struct bw_session *ss), void *arg,
		       struct bw_err *e)
{
	long got = 0;
	bool failed = false;

	while ((size_t)got < d->n_keys) {
		struct pollfd pfd[FAB_PENDING_MAX + 1];
		double now = bw_now(), wake = deadline;
		size_t n;

		if (now >= deadline) {
			bw_errf(e, "the peer did not connect within the round");
			break;
		}
		for (size_t i = d->n; i-- > 0;)
			if (now >= d->p[i].until)
				refuse(d, i, false, "it sent no proof within a second");
		n = d->n;
		for (size_t i = 0; i < n; i++) {
			pfd[i] = (struct pollfd){ .fd = d->p[i].ss.fd, .events = POLLIN };
			if (d->p[i].until < wake)
				wake = d->p[i].until;
		}
		pfd[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (poll(pfd, n + 1, (int)((wake - now) * 1e3) + 1) < 0 && errno != EINTR) {
			bw_errf(e, "cannot wait for the partner: %s", strerror(errno));
			failed = true;
			break;
		}
		/* the ones already there first; hear() and refuse() move the last
		 * into a freed place, so from the end down (a slot freed by a
		 * partner let in holds one that was already heard of) */
		for (size_t i = n; i-- > 0;) {
			size_t which;

			if (i >= d->n || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (hear(d, i, &which)) {
				struct bw_session ss = d->p[i].ss;

				d->p[i] = d->p[--d->n];
				d->taken[which] = true;
				got++;
				in(arg, which, &ss);
				if ((size_t)got == d->n_keys)
					break;
			}
		}
		if ((size_t)got < d->n_keys && (pfd[n].revents & POLLIN) && take(d, lfd, e) < 0) {
			failed = true;
			break;
		}
	}
	/* the round has its partners, or is over: whoever else waits is not one */
	while (d->n)
		refuse(d, d->n - 1, false, (size_t)got == d->n_keys ?
		       (d->n_keys > 1 ? "the round's partners came first" :
			"the round's partner came first") : "the round is over");
	return failed || got == 0 ? -1 : got;
}

struct one {
	struct bw_session *ss;
};

static void take_one(void *arg, size_t which, struct bw_session *ss)
{
	(void)which;
	*((struct one *)arg)->ss = *ss;
}

int fab_admit(int lfd, const struct fab_pair_key *k, const char *prog, double deadline,
	      struct bw_session *ss, struct bw_err *e)
{
	bool taken = false;
	struct door d = { .k = k, .n_keys = 1, .taken = &taken, .prog = prog };
	struct one o = { ss };

	return admit_loop(&d, lfd, deadline, take_one, &o, e) < 0 ? -1 : 0;
}

long fab_admit_each(int lfd, const struct fab_pair_key *k, size_t n_keys, const char *prog,
		    double deadline, void (*in)(void *arg, size_t which, struct bw_session *ss),
		    void *arg, struct bw_err *e)
{
	bool *taken = calloc(n_keys ? n_keys : 1, sizeof(*taken));
	struct door d = { .k = k, .n_keys = n_keys, .taken = taken, .prog = prog };
	long rc;

	if (!taken) {
		bw_errf(e, "out of memory");
		return -1;
	}
	rc = n_keys ? admit_loop(&d, lfd, deadline, in, arg, e) : 0;
	free(taken);
	return rc;
}
