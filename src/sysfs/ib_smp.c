/* InfiniBand neighbours by directed-route SMP (ib_smp.h). */
#include "ib_smp.h"
#include "fetch.h"
#include "ib_smp_parse.h"
#include "root.h"
#include "../model/inventory.h"
#include "../model/neighbor.h"

#include <infiniband/umad.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

/* The kernel resends an unanswered SMP RETRIES times, SEND_TIMEOUT_MS
 * apart; the wait for the reply covers them all with room to spare. */
#define SEND_TIMEOUT_MS 300
#define RETRIES 2
#define RECV_TIMEOUT_MS (SEND_TIMEOUT_MS * (RETRIES + 1) + 500)
#define PHYS_LINK_UP 5	/* sysfs phys_state "5: LinkUp" */

static uint64_t next_tid(void)
{
	static uint64_t seq;

	/* the high 32 bits are the kernel's (agent id); ours the low ones */
	return ((uint64_t)getpid() << 16 ^ ++seq) & 0xffffffffu;
}

/* One Get of attr, its reply into out (IB_MAD_SIZE bytes). */
static int ask_one(int fd, int agent, void *umad, int port, uint16_t attr, uint8_t *out)
{
	uint8_t *mad = umad_get_mad(umad);
	uint64_t tid = next_tid();
	int len, rc;

	memset(umad, 0, umad_size());
	ib_smp_build_get(mad, attr, (uint8_t)port, tid);
	/* directed route from this port: the permissive LID, QP0 */
	umad_set_addr(umad, 0xffff, 0, 0, 0);
	if ((rc = umad_send(fd, agent, umad, IB_MAD_SIZE, SEND_TIMEOUT_MS, RETRIES)) < 0)
		return rc < -1 ? rc : -EIO;
	/* a stray reply (another TID) is skipped; the wait stays bounded */
	for (int tries = 0; tries < 4; tries++) {
		len = IB_MAD_SIZE;
		rc = umad_recv(fd, umad, &len, RECV_TIMEOUT_MS);
		if (rc < 0)
			return rc == -ETIMEDOUT || errno == ETIMEDOUT ? -ETIMEDOUT : -EIO;
		if (umad_status(umad))
			return umad_status(umad) == ETIMEDOUT ? -ETIMEDOUT : -EIO;
		mad = umad_get_mad(umad);
		if (len < IB_MAD_SIZE)
			return -EPROTO;
		/* the kernel's agent id took the TID's high half */
		if ((((uint64_t)mad[12] << 24 | (uint64_t)mad[13] << 16 | (uint64_t)mad[14] << 8 |
		      mad[15]) & 0xffffffffu) != tid)
			continue;
		memcpy(out, mad, IB_MAD_SIZE);
		return 0;
	}
	return -EPROTO;
}

/* A small sysfs file's first line, through open(2) and opendir(3) as
 * libibumad itself reads them (so that an LD_PRELOADed umad2sim sees the
 * same tree); false when absent. */
static bool read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* The port's umad device (/sys/class/infiniband_mad/umadN with ibdev CA and
 * port PORT) before libibumad is asked, so that a host without ib_umad, or
 * a CA without it, is told in words rather than by libibumad's warnings
 * on stderr: 0, -ENODEV none, -EACCES /dev/infiniband/umadN not ours. */
static int find_umad(const char *ca, int port)
{
	DIR *d = opendir("/sys/class/infiniband_mad");
	struct dirent *e;
	char path[PATH_MAX], val[64];
	int rc = -ENODEV;

	if (!d)
		return -ENODEV;
	while (rc == -ENODEV && (e = readdir(d))) {
		if (strncmp(e->d_name, "umad", 4) != 0 || strlen(e->d_name) > 64)
			continue;
		snprintf(path, sizeof(path), "/sys/class/infiniband_mad/%s/ibdev", e->d_name);
		if (!read_line(path, val, sizeof(val)) || strcmp(val, ca) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/class/infiniband_mad/%s/port", e->d_name);
		if (!read_line(path, val, sizeof(val)) || atoi(val) != port)
			continue;
		snprintf(path, sizeof(path), "/dev/infiniband/%s", e->d_name);
		rc = access(path, R_OK | W_OK) == 0 || errno == ENOENT ? 0 : -EACCES;
	}
	closedir(d);
	return rc;
}

int ib_smp_ask(const char *ca, int port, void **data, size_t *len)
{
	uint8_t *out;
	void *umad;
	int fd, agent, rc;

	*data = NULL;
	*len = 0;
	if (port < 1 || port > 254)
		return -EINVAL;
	if ((rc = find_umad(ca, port)) < 0)
		return rc;
	umad_init();
	if ((fd = umad_open_port(ca, port)) < 0)
		return fd == -ENODEV || fd == -ENOENT || fd == -EINVAL ? -ENODEV : -EIO;
	agent = umad_register(fd, IB_SMI_DIRECT_CLASS, 1, 0, NULL);
	if (agent < 0) {
		umad_close_port(fd);
		return -EIO;
	}
	umad = umad_alloc(1, umad_size() + IB_MAD_SIZE);
	out = malloc(IB_SMP_ANSWER_SIZE);
	if (!umad || !out)
		rc = -ENOMEM;
	else if ((rc = ask_one(fd, agent, umad, port, IB_ATTR_NODE_INFO, out)) == 0)
		rc = ask_one(fd, agent, umad, port, IB_ATTR_NODE_DESC, out + IB_MAD_SIZE);
	if (umad)
		umad_free(umad);
	umad_unregister(fd, agent);
	umad_close_port(fd);
	if (rc < 0) {
		free(out);
		return rc;
	}
	*data = out;
	*len = IB_SMP_ANSWER_SIZE;
	return 0;
}

struct smp_arg {
	const char *ca;
	int port;
};

static int fetch_smp(void *arg, void **data, size_t *len)
{
	const struct smp_arg *a = arg;

	return ib_smp_ask(a->ca, a->port, data, len);
}

static int fetch_why(const struct root *r, int rc, const char *ca, int port, char **why)
{
	const char *text;
	int n;

	switch (-rc) {
	case ENODEV:
		n = asprintf(why, "no umad device for %s port %d (load ib_umad to ask the fabric)",
			     ca, port);
		return n < 0 ? (*why = NULL, -ENOMEM) : 0;
	case EACCES:
		n = asprintf(why, "no permission to use the umad device of %s port %d "
			     "(/dev/infiniband/umad*: usually root only)", ca, port);
		return n < 0 ? (*why = NULL, -ENOMEM) : 0;
	case EIO:
		n = asprintf(why, "libibumad could not open or use %s port %d", ca, port);
		return n < 0 ? (*why = NULL, -ENOMEM) : 0;
	case ETIMEDOUT:
		text = "no answer from the other end of the cable (directed-route SMP timed out)";
		break;
	case EPROTO:
		text = "the answer to the directed-route SMP was not ours";
		break;
	case ENOENT:
		if (!fetch_failure_noted(r, rc)) {
			text = "not in the snapshot";
			break;
		}
		/* fall through */
	default:
		n = asprintf(why, "directed-route SMP: %s", strerror(-rc));
		return n < 0 ? (*why = NULL, -ENOMEM) : 0;
	}
	*why = strdup(text);
	return *why ? 0 : -ENOMEM;
}

static int read_port(struct root *r, const struct nic *nic, struct port *p)
{
	struct smp_arg a = { nic->name, p->num };
	char key[300];
	void *bytes = NULL;
	size_t len = 0;
	int rc;

	if (!IS_NA(p->phys_state) && p->phys_state != PHYS_LINK_UP) {
		p->neighbor_why = strdup("the physical link is down: nothing at the other end "
					 "to ask");
		return p->neighbor_why ? 0 : -ENOMEM;
	}
	if (snprintf(key, sizeof(key), "%s/%d", nic->name, p->num) >= (int)sizeof(key) ||
	    !fetch_key_ok(key)) {
		p->neighbor_why = strdup("the device's name cannot be a snapshot key");
		return p->neighbor_why ? 0 : -ENOMEM;
	}
	rc = root_fetch(r, IB_SMP_FETCH_KIND, key, IB_SMP_ANSWER_SIZE, fetch_smp, &a, &bytes,
			&len);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		if (fetch_failure_noted(r, rc))
			root_note(r, "ibsmp", "%s port %d: directed-route SMP: %s", nic->name,
				  p->num, strerror(-rc));
		return fetch_why(r, rc, nic->name, p->num, &p->neighbor_why);
	}
	rc = ib_smp_parse(bytes, len, &p->neighbor, &p->neighbor_why);
	free(bytes);
	if (rc == -EINVAL)
		root_note(r, "ibsmp", "%s port %d: %s", nic->name, p->num, p->neighbor_why);
	return rc == -ENOMEM ? rc : 0;
}

int ib_smp_read(struct root *r, struct nic *nics, size_t n_nics)
{
	int rc = 0;

	for (size_t i = 0; i < n_nics && rc == 0; i++)
		for (size_t j = 0; j < nics[i].n_ports && rc == 0; j++) {
			struct port *p = &nics[i].ports[j];

			if (p->neighbor || p->neighbor_why || !p->link_layer ||
			    strcmp(p->link_layer, "InfiniBand") != 0 || !nics[i].name)
				continue;
			rc = read_port(r, &nics[i], p);
		}
	return rc;
}
