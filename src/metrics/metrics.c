/* The whole exposition: the server, the host, then NICs, ports, counters
 * and the check. */
#include "metrics.h"
#include "families.h"

#include <errno.h>
#include <stdio.h>

static void server(struct expo *e, const struct metrics_report *rep)
{
	struct expo_label build[] = { { "version", rep->version },
				      { "libmicrohttpd", rep->http_version } };
	struct expo_fam info = { "rdmadoctor_build_info", "gauge",
				 "rdmadoctor serving these metrics, always 1: versions in labels", false };
	struct expo_fam ok = { "rdmadoctor_refresh_success", "gauge",
			       "1 when the last reading of the machine worked, else 0 "
			       "(the other rdmadoctor_ metrics are then absent)", false };
	struct expo_fam n = { "rdmadoctor_refreshes_total", "counter",
			      "Readings of the machine since the server started", false };
	struct expo_fam failed = { "rdmadoctor_refresh_failures_total", "counter",
				   "Readings of the machine that failed since the server started", false };

	expo_fam_sample(e, &info, build, 2, 1);
	expo_fam_sample(e, &ok, NULL, 0, rep->inv != NULL);
	expo_fam_sample_u64(e, &n, NULL, 0, rep->refreshes);
	expo_fam_sample_u64(e, &failed, NULL, 0, rep->refresh_failures);
}

/* The host's libibverbs, when there is one (driver.userspace judges it). */
static void verbs_info(struct expo *e, const struct verbs_user *u)
{
	struct expo_fam f = { "rdmadoctor_verbs_info", "gauge",
			      "The host's libibverbs, always 1: its file, rdma-core release, "
			      "highest IBVERBS_1.N set, provider ABI and the kernel's uverbs ABI "
			      "in labels (empty: unknown)", false };
	char set[16] = "", pabi[16] = "", abi[16] = "";

	if (!u || !u->library)
		return;
	if (u->verbs_minor >= 0)
		snprintf(set, sizeof(set), "1.%d", u->verbs_minor);
	if (u->pabi >= 0)
		snprintf(pabi, sizeof(pabi), "%d", u->pabi);
	if (u->uverbs_abi >= 0)
		snprintf(abi, sizeof(abi), "%d", u->uverbs_abi);
	struct expo_label l[] = { { "library", u->library }, { "rdma_core", u->release },
				  { "verbs_set", set }, { "private_abi", pabi },
				  { "uverbs_abi", abi } };

	expo_fam_sample(e, &f, l, sizeof(l) / sizeof(l[0]), 1);
}

static void reading(struct expo *e, const struct metrics_report *rep)
{
	struct expo_fam took = { "rdmadoctor_refresh_duration_seconds", "gauge",
				 "How long the last reading and check of the machine took, seconds", false };
	struct expo_fam when = { "rdmadoctor_last_check_timestamp_seconds", "gauge",
				 "When the machine was last read and checked, unix seconds", false };
	struct expo_fam host = { "rdmadoctor_host_info", "gauge",
				 "The machine, always 1: host name, kernel and DMI product in labels", false };
	const struct host *h = &rep->inv->host;
	struct expo_label l[] = { { "hostname", h->hostname }, { "kernel", h->kernel },
				  { "dmi_product", h->dmi_product } };

	expo_fam_sample(e, &took, NULL, 0, rep->refresh_seconds);
	expo_fam_sample(e, &when, NULL, 0, rep->check_time);
	expo_fam_sample(e, &host, l, 3, 1);
	verbs_info(e, h->verbs_user);
}

int metrics_render(const struct metrics_report *rep, struct expo *e)
{
	server(e, rep);
	if (rep->inv) {
		reading(e, rep);
		metrics_nics(e, rep->inv);
		metrics_ports(e, rep->inv);
		metrics_modules(e, rep->inv);
		metrics_fec(e, rep->inv);
		metrics_access(e, rep->inv);
		metrics_driver_stack(e, rep->inv);
		metrics_npus(e, rep->inv);
		if (metrics_counters(e, rep->inv) < 0)
			e->failed = true;
		if (rep->findings)
			metrics_findings(e, rep->findings, rep->profile, rep->inv);
	}
	return expo_failed(e) ? -ENOMEM : 0;
}
