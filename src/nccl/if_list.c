/* NCCL's "^=name:port,..." lists (if_list.h).  The rules are NCCL's own:
 * docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html
 * (NCCL_SOCKET_IFNAME and NCCL_IB_HCA: "^" excludes, "=" matches the
 * exact name, otherwise a prefix), and its src/misc/utils.cc
 * parseStringList/matchIfList: an exact match compares the whole name,
 * a prefix match compares strlen(entry) bytes, a port given as -1 (none
 * written) matches every port, empty entries are skipped. */
#include "if_list.h"

#include <stdio.h>
#include <string.h>

int if_list_parse(const char *value, struct if_list *l, char *err, size_t errsz)
{
	const char *p = value;

	memset(l, 0, sizeof(*l));
	if (*p == '^') {
		l->exclude = true;
		p++;
	}
	if (*p == '=') {
		l->exact = true;
		p++;
	}
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		size_t nlen = colon ? (size_t)(colon - p) : len;
		struct if_entry *e;

		if (len == 0) {
			p++;
			continue;
		}
		if (l->n == IF_LIST_MAX) {
			snprintf(err, errsz, "more than %d names", IF_LIST_MAX);
			return -1;
		}
		if (nlen == 0 || nlen > IF_NAME_MAX) {
			snprintf(err, errsz, "'%.*s': %s", (int)(len > 64 ? 64 : len), p,
				 nlen ? "a name longer than 63 bytes" : "a port without a name");
			return -1;
		}
		e = &l->e[l->n];
		memcpy(e->name, p, nlen);
		e->name[nlen] = '\0';
		e->port = -1;
		if (colon) {
			const char *q = colon + 1, *qend = p + len;
			long port = 0;

			/* NCCL reads the port with atoi: "1x" would be 1 there,
			 * but a job that wrote it meant something else */
			if (q == qend || qend - q > 3)
				goto bad_port;
			for (; q < qend; q++) {
				if (*q < '0' || *q > '9')
					goto bad_port;
				port = port * 10 + (*q - '0');
			}
			if (port < 1 || port > 255)
				goto bad_port;
			e->port = (int)port;
		}
		l->n++;
		p += len;
		if (*p == ',')
			p++;
		continue;
bad_port:
		snprintf(err, errsz, "'%.*s': the port after ':' is not a number from 1 to 255",
			 (int)(len > 64 ? 64 : len), p);
		return -1;
	}
	return 0;
}

bool if_entry_matches(const struct if_entry *e, bool exact, const char *dev, int port)
{
	bool name = exact ? strcmp(dev, e->name) == 0
			  : strncmp(dev, e->name, strlen(e->name)) == 0;

	return name && (e->port < 0 || port < 0 || e->port == port);
}

bool if_list_selects(const struct if_list *l, const char *dev, int port)
{
	bool any = false;

	/* NCCL: an empty list matches everything, so "^" alone excludes
	 * everything */
	if (l->n == 0)
		return !l->exclude;
	for (size_t i = 0; i < l->n && !any; i++)
		any = if_entry_matches(&l->e[i], l->exact, dev, port);
	return any != l->exclude;
}
