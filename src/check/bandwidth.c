/* nic.bandwidth_per_gpu: the rails' total port rate shared by the GPUs,
 * against what the machine (the profile's gpu_gbps, else that of the design
 * profile_pick gives this machine) or else the GPU class
 * (profiles/gpu_class.h) is built for.  Below half is an error, below the
 * figure a warning; a profile that has fewer rails than GPUs on purpose
 * (fewer_rails) only warns, so the shortfall still shows where it is
 * accepted.  Every profile judges it, generic too: eight A800 sharing two
 * 100G ports is the pitfall no other id names.  A rail port that trained
 * below its role's rate counts at that rate: port.rate_low is its finding. */
#include "families.h"
#include "../profiles/gpu_class.h"

#include <math.h>
#include <stdio.h>

static const char why[] =
	"Between machines every gradient and activation crosses the rails: when each GPU "
	"gets less network than its class is built for, multi-node training waits on the "
	"network (GPU utilisation fell by nearly half with 2 x 100G for 8 A800).";

static double rail_gbps(const struct profile *p)
{
	return p && p->role[ROLE_RAIL].defined ? p->role[ROLE_RAIL].gpu_gbps : 0;
}

/* What the machine is built for, per GPU, and whose figure it is: the
 * profile's; else that of the design check would pick for this machine
 * (so a budget build named by --profile is measured against the board it
 * is a budget build of: one machine, one figure); else the GPU class's. */
static double expected_gbps(const struct check_ctx *c, const char **whose, char *buf,
			    size_t len)
{
	const struct profile *design;

	if (rail_gbps(c->p) > 0) {
		*whose = "the profile";
		return rail_gbps(c->p);
	}
	design = profile_pick(c->inv, NULL, NULL, 0);
	if (rail_gbps(design) > 0) {
		snprintf(buf, len, "this machine's design (%s)", design->name);
		*whose = buf;
		return rail_gbps(design);
	}
	*whose = "this GPU class";
	return gpu_class_gbps_max(c->inv);
}

/* "; if this machine is that budget build on purpose, ..." when the GPUs
 * and NICs fit a built-in budget profile other than the one judging. */
static void budget_note(const struct check_ctx *c, struct check_buf *fix)
{
	const struct profile *b = c->p && c->p->fewer_rails ? NULL : profile_budget_fit(c->inv);

	if (!b)
		return;
	check_buf_printf(fix, "; its GPUs and NICs fit the budget build %s: if it is built "
			 "that way on purpose, judge it under that profile (`rdmadoctor check "
			 "--profile %s`, or `profile = %s` in /etc/rdmadoctor/rdmadoctor.conf)",
			 b->name, b->name, b->name);
}

/* The rails' total rate over ports that are up; *unknown counts rail
 * ports whose rate could not be read, *unseen those whose state could not
 * be (port.down says each). */
static double rails_gbps(const struct check_ctx *c, size_t *rails, size_t *unknown,
			 size_t *unseen)
{
	const struct inventory *inv = c->inv;
	double total = 0;

	*rails = *unknown = *unseen = 0;
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct role_spec *rs;
		bool counted = false;

		if (!check_is_rail(c, i) || check_nic_is_software(n))
			continue;
		if (n->excluded) {
			(*unseen)++;	/* not read: nic.excluded says so, once */
			continue;
		}
		rs = check_role_spec(c, i);
		for (size_t p = 0; p < n->n_ports; p++) {
			const struct port *pt = &n->ports[p];

			if (port_link(pt) == PORT_LINK_UNKNOWN)
				(*unseen)++;
			if (!check_port_up(pt))
				continue;
			if (isnan(pt->rate_gbps)) {
				(*unknown)++;
				continue;
			}
			/* a port that trained below its role's rate is
			 * port.rate_low's (or port.width_low's) finding, whose
			 * fix gets the rate back: one cause, one finding, so
			 * it counts here at the rate it is built for */
			total += rs && rs->rate_gbps > pt->rate_gbps ? rs->rate_gbps
								    : pt->rate_gbps;
			counted = true;
		}
		*rails += counted;
	}
	return total;
}

static bool wrong_links(const struct check_ctx *c)
{
	for (size_t i = 0; i < c->inv->n_nics; i++)
		if (check_wrong_link(c, i))
			return true;
	return false;
}

int check_bandwidth(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	const char *whose = "";
	char s_total[32], s_per[32], s_want[32], s_missing[32], design[96];
	double want = expected_gbps(c, &whose, design, sizeof(design)), total, per_gpu, missing;
	struct check_buf fix = { 0 };
	size_t rails, unknown, unseen, more;
	enum severity sev;
	struct finding *f;

	if (!inv->n_gpus || want <= 0)
		return 0;
	total = rails_gbps(c, &rails, &unknown, &unseen);
	per_gpu = total / (double)inv->n_gpus;
	/* a rail whose state is unknown may make up the difference; its own
	 * port.down "not checked" says so, once.  So may a card in the wrong
	 * link layer, which port.link_layer names */
	if ((unseen || wrong_links(c)) && per_gpu < want)
		return 0;
	if (unknown && per_gpu < want) {
		/* the ports whose rate is unknown might make up the difference */
		f = check_add(c, out, "nic.bandwidth_per_gpu", SEV_INFO, why);
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->subject, "%zu GPUs", inv->n_gpus);
		finding_set(&f->observed, "not checked: the rate of %zu rail port%s is unknown "
			    "(its rate file names no rate this tool knows)", unknown,
			    unknown == 1 ? "" : "s");
		check_num_str(s_want, sizeof(s_want), want);
		finding_set(&f->expected, "%s Gb/s per GPU", s_want);
		finding_set(&f->fix, "read `cat /sys/class/infiniband/*/ports/*/rate` and "
			    "`ibstatus`; the port's rate string is what this check needs");
		return 0;
	}
	if (per_gpu >= want)
		return 0;
	sev = per_gpu < want / 2 ? SEV_ERROR : SEV_WARN;
	if (c->p && c->p->fewer_rails)
		sev = SEV_WARN;
	f = check_add(c, out, "nic.bandwidth_per_gpu", sev, why);
	if (!f)
		return -ENOMEM;
	check_num_str(s_total, sizeof(s_total), total);
	check_num_str(s_per, sizeof(s_per), per_gpu);
	check_num_str(s_want, sizeof(s_want), want);
	missing = want * (double)inv->n_gpus - total;
	check_num_str(s_missing, sizeof(s_missing), missing);
	more = (size_t)ceil(missing / want - 1e-9);
	finding_set(&f->subject, "%zu GPUs", inv->n_gpus);
	if (!rails)
		finding_set(&f->observed, "%zu GPUs and no RDMA rail port up: no network between "
			    "machines for them", inv->n_gpus);
	else
		finding_set(&f->observed, "%zu GPUs share %s Gb/s: %s Gb/s per GPU where %s is "
			    "built for %s; multi-node training waits on the network",
			    inv->n_gpus, s_total, s_per, whose, s_want);
	finding_set(&f->expected, "%s Gb/s per GPU (%s Gb/s of rails for %zu GPUs)", s_want,
		    (check_num_str(s_total, sizeof(s_total), want * (double)inv->n_gpus), s_total),
		    inv->n_gpus);
	check_buf_printf(&fix,
			 "add %s Gb/s of rails: %zu more %s Gb/s NIC port%s, one per GPU in a slot "
			 "under that GPU's PCIe switch (the machine's slot map names them); check "
			 "first that no rail card is missing or down (rdmadoctor inventory shows "
			 "them)", s_missing, more, s_want, more == 1 ? "" : "s");
	budget_note(c, &fix);
	check_buf_take(&fix, &f->fix);
	return 0;
}
