/* Who can use the RDMA devices (model/access.h): each /dev/infiniband
 * node, whether it is there and with what owner, group and mode, and the
 * memlock limit slurmd hands its jobs.  sys.device_access and
 * sys.job_memlock judge them; these let a dashboard show a node whose udev
 * rules or slurmd unit differ from its neighbours'. */
#include "families.h"

#include <stdio.h>

static bool node_there(const struct dev_node *d)
{
	return d->present == 1 && d->chr;
}

/* Two families, each written whole (the format wants a family's samples
 * together): whether each node is there, then what each there is like. */
static void nodes(struct expo *e, const struct dev_access *a)
{
	struct expo_fam present = { "rdmadoctor_device_node_present", "gauge",
				    "A /dev/infiniband node the RDMA devices need: 1 there (a "
				    "character device), 0 missing or something else sits there",
				    false };
	struct expo_fam info = { "rdmadoctor_device_node_info", "gauge",
				 "A /dev/infiniband node that is there, always 1: its permission "
				 "bits, owner and group (names, else ids) in labels", false };

	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct dev_node *d = &a->nodes[i];
		struct expo_label l[] = { { "node", d->name }, { "device", d->nic ? d->nic : "" } };

		if (d->present >= 0)	/* not known: left out, never 0 */
			expo_fam_sample(e, &present, l, 2, node_there(d) ? 1 : 0);
	}
	for (size_t i = 0; i < a->n_nodes; i++) {
		const struct dev_node *d = &a->nodes[i];
		char mode[8], uid[16], gid[16];

		if (!node_there(d))
			continue;
		snprintf(mode, sizeof(mode), "%04o", d->mode & 07777u);
		snprintf(uid, sizeof(uid), "%u", (unsigned)d->uid);
		snprintf(gid, sizeof(gid), "%u", (unsigned)d->gid);
		struct expo_label l[] = { { "node", d->name }, { "device", d->nic ? d->nic : "" },
					  { "mode", mode }, { "owner", d->owner ? d->owner : uid },
					  { "group", d->group ? d->group : gid } };

		expo_fam_sample(e, &info, l, 5, 1);
	}
}

static double limit_bytes(uint64_t v)
{
	return v == MEMLOCK_INFINITY ? INFINITY : (double)v;
}

/* slurmd's LimitMEMLOCK= (what its jobs inherit before pam_limits), else
 * systemd's DefaultLimitMEMLOCK=; neither set: systemd's built-in default,
 * which depends on its version, is not guessed. */
static void slurmd_memlock(struct expo *e, const struct job_memlock *m)
{
	struct expo_fam f = { "rdmadoctor_slurmd_memlock_bytes", "gauge",
			      "The memlock limit slurmd's systemd unit gives it and its jobs, "
			      "bytes (+Inf unlimited); source is the FILE:LINE that set it", false };
	const struct unit_limit *u = m->slurmd_limit.set ? &m->slurmd_limit :
				     m->manager_default.set ? &m->manager_default : NULL;

	if (m->slurmd != 1 || !u)
		return;
	struct expo_label soft[] = { { "limit", "soft" }, { "source", u->source } };
	struct expo_label hard[] = { { "limit", "hard" }, { "source", u->source } };

	expo_fam_sample(e, &f, soft, 2, limit_bytes(u->soft));
	expo_fam_sample(e, &f, hard, 2, limit_bytes(u->hard));
}

void metrics_access(struct expo *e, const struct inventory *inv)
{
	const struct dev_access *a = inv->host.access;

	if (!a)
		return;
	nodes(e, a);
	slurmd_memlock(e, &a->memlock);
}
