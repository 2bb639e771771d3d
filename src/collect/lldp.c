/* Neighbours from lldpd (lldp.h). */
#include "lldp.h"
#include "../ascend/tool_run.h"
#include "../sysfs/fetch.h"
#include "../sysfs/lldp_parse.h"
#include "../sysfs/root.h"
#include "../model/inventory.h"
#include "../model/neighbor.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_ethernet(const struct port *p)
{
	return p->link_layer && strcmp(p->link_layer, "Ethernet") == 0;
}

static bool wants_lldpd(const struct port *p)
{
	return is_ethernet(p) && p->netdev && !p->neighbor && !p->neighbor_why;
}

/* The live bytes: lldpcli's stdout when it exits 0.  A non-zero exit is
 * lldpcli failing to reach lldpd (no daemon, or a user lldpd's socket does
 * not admit): -ECONNREFUSED, so a snapshot keeps it as an errno. */
static int fetch_lldpcli(void *arg, void **data, size_t *len)
{
	struct tool_job job = { .tool = "lldpcli", .args = { "-f", "json", "show", "neighbors" } };
	int rc;

	(void)arg;
	rc = tool_run_all(&job, 1, tool_timeout_ms());
	if (rc == 0)
		rc = job.err ? job.err : job.status ? -ECONNREFUSED : 0;
	if (rc == 0) {
		*data = job.out;
		*len = job.len;
		job.out = NULL;
	}
	free(job.out);	/* the job is on the stack: not tool_jobs_free */
	return rc;
}

/* Why no port has a neighbour from lldpd, in words. */
static int fetch_why(const struct root *r, int rc, char **why)
{
	const char *text;
	int n;

	switch (-rc) {
	case ENOPKG:
		text = "lldpcli is not installed (lldpd's client: install lldpd and run it)";
		break;
	case ECONNREFUSED:
		text = "lldpd is not running (lldpcli could not reach it; a user not in group "
		       "_lldpd cannot either)";
		break;
	case ETIMEDOUT:
		text = "lldpcli timed out: killed at the time limit";
		break;
	case EFBIG:
		text = "lldpcli printed more than any neighbour list";
		break;
	case ENOENT:
		text = fetch_failure_noted(r, rc) ? "lldpcli: No such file or directory" :
		       "not in the snapshot";
		break;
	default:
		n = asprintf(why, "lldpcli: %s", strerror(-rc));
		return n < 0 ? -ENOMEM : 0;
	}
	*why = strdup(text);
	return *why ? 0 : -ENOMEM;
}

/* "RoCE LAG: its slaves carry the LLDP, each to its own switch port
 * (ens9f0np0: leaf-a port Ethernet1/1; ens9f1np1: not heard); the bond's
 * neighbour is not judged" */
static int lag_why(const struct port *p, const struct lldp_table *t, bool have_table, char **why)
{
	char *s;

	if (asprintf(&s, "RoCE LAG: its slaves carry the LLDP, each to its own switch port") < 0)
		return -ENOMEM;
	if (have_table) {
		const char *w = p->bond_slaves;
		bool first = true;

		while (*w) {
			size_t n = strcspn(w, " \n");
			char *name = strndup(w, n), *u;
			const struct lldp_entry *e;
			int rc;

			if (!name) {
				free(s);
				return -ENOMEM;
			}
			if (n) {
				e = lldp_table_find(t, name);
				rc = e && e->neighbor ?
				     asprintf(&u, "%s%s%s: %s%s%s", s, first ? " (" : "; ", name,
					      e->neighbor->system ? e->neighbor->system :
					      e->neighbor->chassis_id ? e->neighbor->chassis_id : "?",
					      e->neighbor->port ? " port " : "",
					      e->neighbor->port ? e->neighbor->port : "") :
				     asprintf(&u, "%s%s%s: %s", s, first ? " (" : "; ", name,
					      e ? "several neighbours" : "none heard");
				free(s);
				if (rc < 0) {
					free(name);
					return -ENOMEM;
				}
				s = u;
				first = false;
			}
			free(name);
			w += n;
			w += strspn(w, " \n");
		}
		if (!first) {
			char *u;

			if (asprintf(&u, "%s)", s) < 0) {
				free(s);
				return -ENOMEM;
			}
			free(s);
			s = u;
		}
	}
	if (asprintf(why, "%s; the bond's own neighbour is not judged", s) < 0) {
		free(s);
		return -ENOMEM;
	}
	free(s);
	return 0;
}

/* One port, with the table (have_table) or with why there is none. */
static int set_port(struct port *p, const struct lldp_table *t, bool have_table,
		    const char *fetch_failed)
{
	const struct lldp_entry *e;

	if (p->neighbor || p->neighbor_why)
		return 0;
	if (p->link_layer && strcmp(p->link_layer, "InfiniBand") == 0)
		/* ib_smp.c asks the fabric first; only a nameless device is left */
		p->neighbor_why = strdup("InfiniBand: no LLDP, and no device name to ask the "
					 "fabric with");
	else if (!is_ethernet(p))
		p->neighbor_why = strdup("link layer not known");
	else if (!p->netdev)
		p->neighbor_why = strdup("no netdev: nothing for lldpd to listen on");
	else if (p->bond_slaves)
		return lag_why(p, t, have_table, &p->neighbor_why);
	else if (!have_table)
		p->neighbor_why = strdup(fetch_failed);
	else if (!(e = lldp_table_find(t, p->netdev))) {
		if (asprintf(&p->neighbor_why, "lldpd heard no LLDP neighbour on %s", p->netdev) < 0)
			p->neighbor_why = NULL;
	} else if (e->neighbor) {
		return (p->neighbor = neighbor_dup(e->neighbor)) ? 0 : -ENOMEM;
	} else {
		p->neighbor_why = strdup(e->why);
	}
	return p->neighbor_why ? 0 : -ENOMEM;
}

int lldp_read(struct root *r, struct nic *nics, size_t n_nics)
{
	struct lldp_table t = { 0 };
	bool want = false, have_table = false;
	char *text = NULL, *failed = NULL, *err = NULL;
	size_t len = 0;
	int rc = 0;

	for (size_t i = 0; i < n_nics; i++)
		for (size_t j = 0; j < nics[i].n_ports; j++)
			want |= wants_lldpd(&nics[i].ports[j]);
	if (want) {
		rc = root_fetch(r, LLDP_FETCH_KIND, LLDP_FETCH_KEY, TOOL_MAX_OUTPUT, fetch_lldpcli,
				NULL, (void **)&text, &len);
		if (rc == -ENOMEM)
			return rc;
		if (rc == 0) {
			rc = lldp_parse(text, len, &t, &err);
			if (rc == -ENOMEM)
				goto out;
			if (rc < 0) {
				root_note(r, "lldp", "lldpcli's neighbour list unusable: %s", err);
				if (asprintf(&failed, "lldpcli's output unusable: %s", err) < 0)
					failed = NULL, rc = -ENOMEM;
				else
					rc = 0;
			}
			have_table = rc == 0 && !failed;
		} else {
			if (fetch_failure_noted(r, rc))
				root_note(r, "lldp", "lldpcli -f json show neighbors: %s",
					  strerror(-rc));
			rc = fetch_why(r, rc, &failed);
		}
		if (rc < 0)
			goto out;
	}
	for (size_t i = 0; i < n_nics && rc == 0; i++)
		for (size_t j = 0; j < nics[i].n_ports && rc == 0; j++)
			rc = set_port(&nics[i].ports[j], &t, have_table, failed);
out:
	lldp_table_free(&t);
	free(text);
	free(failed);
	free(err);
	return rc;
}
