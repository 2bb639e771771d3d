/* A fabric run's rendezvous (rendezvous.h). */
#include "rendezvous.h"
#include "exchange.h"
#include "pmix.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int listen_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -1;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

static int publish_endpoint(struct fab_run *r)
{
	struct fab_endpoint ep = { .t0 = 0 };
	char host[256] = "", *pmix_host = fab_pmix_hostname();
	struct bw_err e = { "" };
	int port;

	const char *name, *addr;

	gethostname(host, sizeof(host) - 1);
	name = r->cf->name ? r->cf->name :
	       pmix_host && fab_name_printable(pmix_host) ? pmix_host : host;
	addr = r->side.bind ? r->side.bind : host;
	if (strlen(name) > FAB_NAME_MAX || strlen(addr) > FAB_ADDR_MAX ||
	    !fab_name_printable(name)) {
		free(pmix_host);
		fab_say(r, "this host's name is not a name of 1 to 64 printable characters: give "
			"--name NAME and --bind ADDR");
		return -1;
	}
	memcpy(ep.name, name, strlen(name) + 1);
	memcpy(ep.addr, addr, strlen(addr) + 1);
	free(pmix_host);
	r->lfd = bw_listen(r->side.bind, 0, 256, &e);
	if (r->lfd < 0) {
		fab_say(r, e.msg);
		return -1;
	}
	port = listen_port(r->lfd);
	if (port <= 0) {
		fab_say(r, "cannot read the listener's port");
		return -1;
	}
	if (fab_secret_new(r->secret) < 0) {
		char msg[200];

		snprintf(msg, sizeof(msg), "cannot read random bytes for the pairing secret: %s",
			 strerror(errno));
		fab_say(r, msg);
		return -1;
	}
	memcpy(ep.secret, r->secret, sizeof(ep.secret));
	ep.port = (uint16_t)port;
	ep.n_rails = r->side.n_rails;
	snprintf(ep.transport, sizeof(ep.transport), "%s", bw_transport_name(r->side.transport));
	return fab_publish(r, FAB_KEY_EP, fab_endpoint_encode(&ep));
}

/* Names as the report gives them: unique (a name twice, as for several
 * ranks on one host, gets ":rank"). */
static int name_nodes(struct fab_run *r)
{
	for (uint32_t i = 0; i < r->size; i++) {
		bool dup = false;

		for (uint32_t k = 0; k < r->size && !dup; k++)
			dup = k != i && r->nodes[k].state != FAB_NODE_NEVER &&
			      r->nodes[i].state != FAB_NODE_NEVER &&
			      strcmp(r->eps[k].name, r->eps[i].name) == 0;
		r->names[i] = malloc(FAB_NAME_MAX + 16);
		if (!r->names[i])
			return -1;
		if (r->nodes[i].state == FAB_NODE_NEVER)
			snprintf(r->names[i], FAB_NAME_MAX + 16, "rank%u", i);
		else if (dup)
			snprintf(r->names[i], FAB_NAME_MAX + 16, "%s:%u", r->eps[i].name, i);
		else
			snprintf(r->names[i], FAB_NAME_MAX + 16, "%s", r->eps[i].name);
		r->nodes[i].name = r->names[i];
	}
	r->named = true;
	return 0;
}

static int gather_endpoints(struct fab_run *r)
{
	char err[256];
	bool tcp = false;

	if (fab_fence_live(r, err, sizeof(err)) < 0) {
		fab_say(r, err);
		return -1;
	}
	for (uint32_t i = 0; i < r->size; i++) {
		char *t = fab_pmix_get(i, FAB_KEY_EP);

		r->nodes[i].rank = i;
		r->nodes[i].state = FAB_NODE_NEVER;
		if (t && fab_endpoint_decode(t, strlen(t), &r->eps[i], err, sizeof(err)) == 0) {
			r->nodes[i].state = FAB_NODE_OK;
			r->nodes[i].n_rails = r->eps[i].n_rails;
			tcp |= strcmp(r->eps[i].transport, "tcp") == 0;
		} else if (t && r->rank == 0) {
			fprintf(r->cf->log, "%s fabric: rank %u's endpoint is broken: %s\n",
				r->cf->prog, i, err);
		}
		free(t);
	}
	/* one transport for all: tcp when any node cannot run verbs */
	if (tcp && r->side.transport == BW_TRANSPORT_VERBS) {
		if (r->cf->transport_set) {
			fab_say(r, "--transport verbs, but some nodes can only run tcp");
			return -1;
		}
		r->side.transport = r->side.p.transport = r->side.lat_p.transport = BW_TRANSPORT_TCP;
		r->side.n_rails = 1;
		for (uint32_t i = 0; i < r->size; i++)
			r->nodes[i].n_rails = 1;
	}
	return name_nodes(r);
}

int fab_meet(struct fab_run *r)
{
	return publish_endpoint(r) < 0 ? -1 : gather_endpoints(r);
}
