/* kmsg.*: the NIC/RDMA driver faults the kernel logged since boot
 * (model/kmsg_log.h; the patterns, each cited from the kernel's source, in
 * sysfs/kmsg_patterns.c).  One finding per (id, subject), not per line:
 * the subject is the NIC the line names (its PCI address or netdev), the
 * address itself when no NIC here has it, else the host.  It says how many
 * lines since boot, the last one and its time.  A log that could not be
 * read, or whose bytes hold no record at all, is one "not checked" finding. */
#include "families.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct kmsg_text {
	const char *id, *why, *fix;
};

static const struct kmsg_text texts[] = {
	{ "kmsg.access_reg",
	  "The firmware refused an ACCESS_REG command: a register (port, module, "
	  "PCIe or counter) the driver needs could not be read or set.",
	  "compare the NIC's firmware with the driver (`ethtool -i NETDEV`); update the "
	  "firmware to the release the driver expects" },
	{ "kmsg.aer",
	  "PCIe Advanced Error Reporting logged an error on the NIC or a bridge above "
	  "it: the link drops or corrupts transactions, which stalls or kills RDMA.",
	  "reseat the card and its riser; `lspci -vvv -s ADDR` for the AER status; a "
	  "fatal error needs the slot or card replaced" },
	{ "kmsg.fw_timeout",
	  "A firmware command timed out: the NIC's firmware stopped answering the "
	  "driver, and the command's resources are leaked until a reset.",
	  "collect `devlink health show` and the firmware dump, then `mlxfwreset -d "
	  "ADDR reset` or a cold reboot; update the firmware if it repeats" },
	{ "kmsg.gpu_lost",
	  "A GPU fell off the bus (Xid 79): the driver cannot reach it, so GPUDirect "
	  "RDMA to and from its memory and its NVLinks are gone until the GPU is reset.",
	  "drain the node; `nvidia-smi -q` and the lines before it (power, thermal, "
	  "PCIe AER); reseat or replace the GPU, its riser and power cables, then reboot" },
	{ "kmsg.health",
	  "The driver's health poller found the NIC's firmware dead or in an "
	  "unrecoverable hardware error: the device is gone until it is reset.",
	  "`devlink health show` and `devlink health dump show`, then a reset "
	  "(`mlxfwreset`) or a cold reboot; replace the card if it returns" },
	{ "kmsg.link_flap",
	  "The port's link went down and came back since boot: each flap drops the "
	  "traffic on it and restarts the queue pairs of jobs that use it.",
	  "check the cable and transceiver (`ethtool -m NETDEV`), the switch port's "
	  "log, and the error counters; reseat or replace the cable" },
	{ "kmsg.module_temp",
	  "The transceiver reported high temperature: it shuts down or errors until "
	  "it cools.",
	  "check the airflow and fans; `ethtool -m NETDEV` for the module's "
	  "temperature and thresholds; replace the module if it runs hot" },
	{ "kmsg.pcie_power",
	  "The card detected less power on its PCIe slot than it needs: the "
	  "firmware limits or stops the NIC.",
	  "move the card to a slot that gives its full power, or fix the riser or "
	  "auxiliary power cable; check the server's slot power settings" },
	{ "kmsg.nic_probe",
	  "The NIC's driver failed to bring the card up at probe (mlx5_core): the rail "
	  "it serves never came up, and jobs run with one rail fewer or not at all.",
	  "the lines before it in `dmesg` say why (firmware, capabilities, memory); "
	  "match the firmware to the driver (`mlxfwmanager`), then reload mlx5_core "
	  "or reboot; replace the card if it keeps failing" },
	{ "kmsg.nvlink_error",
	  "The NVIDIA driver reported an NVLink error (Xid 74, or 144-150): the link "
	  "between GPUs retrains or goes down, and NCCL falls back to PCIe and the "
	  "network, or the job fails.",
	  "`nvidia-smi nvlink -s` and `-e` for the link's state and counters; reseat "
	  "the GPU baseboard's connections, run the field diagnostics, and replace the "
	  "part if the errors repeat" },
	{ "kmsg.nvswitch_error",
	  "An NVSwitch reported an error (SXid): NVLink traffic through it stalls, and "
	  "the GPUs' jobs on it fail or fall back to slower paths.",
	  "see the SXid's meaning in NVIDIA's Fabric Manager guide; restart Fabric "
	  "Manager and reset the GPUs and switches (a reboot); replace the baseboard "
	  "if a fatal SXid repeats" },
	{ "kmsg.peermem",
	  "The peer-memory module (nvidia_peermem, or the older nv_peer_mem) could not "
	  "load (a symbol its build expects is missing or of another version): "
	  "GPUDirect RDMA is off and NCCL copies through host memory.",
	  "rebuild nvidia_peermem against this kernel and RDMA stack (the NVIDIA "
	  "driver's DKMS, after MLNX_OFED if it is installed), then `modprobe "
	  "nvidia_peermem`" },
	{ "kmsg.tx_timeout",
	  "The network stack's watchdog or the driver's own reporter found a transmit "
	  "queue stuck: the driver "
	  "resets the queue or the device, which stalls traffic.",
	  "look at the lines around it in `dmesg`; update the driver and firmware; "
	  "a stuck queue that repeats needs the NIC reset or replaced" },
};

static const struct kmsg_text *text_of(const char *id)
{
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!strcmp(texts[i].id, id))
			return &texts[i];
	return NULL;
}

/* bdf a component of the NIC's canonical sysfs directory: the NIC itself
 * or a bridge above it */
static bool on_path(const struct nic *n, const char *bdf)
{
	const char *p = n->pci.sysfs_path, *hit;
	size_t l = strlen(bdf);

	while (p && (hit = strstr(p, bdf))) {
		if ((hit == n->pci.sysfs_path || hit[-1] == '/') && (hit[l] == '/' || !hit[l]))
			return true;
		p = hit + 1;
	}
	return false;
}

/* The subject of a line: the NIC it names, the address itself, or the
 * host.  NULL: an AER line off every NIC's path (another device's). */
static const char *subject_of(const struct inventory *inv, const struct kmsg_fault *f)
{
	bool aer = !strcmp(f->id, "kmsg.aer");

	if (!f->device)
		return aer ? NULL : "host";
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		if (n->has_pci && n->pci.bdf && !strcmp(n->pci.bdf, f->device))
			return n->name;
		for (size_t j = 0; j < n->n_ports; j++)
			if (n->ports[j].netdev && !strcmp(n->ports[j].netdev, f->device))
				return n->name;
	}
	for (size_t i = 0; aer && i < inv->n_nics; i++)
		if (inv->nics[i].has_pci && on_path(&inv->nics[i], f->device))
			return inv->nics[i].name;
	return aer ? NULL : f->device;
}

struct group {
	const char *id, *subject;
	size_t count, downs, ups;
	bool error;
	const struct kmsg_fault *last;
};

static int unreadable(const struct check_ctx *c, struct findings *out, const struct kmsg_log *l)
{
	struct finding *f = check_add(c, out, "kmsg.unreadable", SEV_INFO,
				      "NIC faults that only the kernel log shows (firmware "
				      "timeouts, health, slot power, link flaps) could not be "
				      "looked for: not checked, not found absent.");
	int err = l->err;

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "host");
	finding_set(&f->expected, "the kernel log read");
	if (!err && !l->none_parsed) {
		/* the read stopped at its time bound: the newest records unseen */
		finding_set(&f->observed, "not checked: the read of /dev/kmsg stopped at its time "
			    "bound after %" PRIu64 " records, short of the ring's end: the newer "
			    "records were not looked at", l->read);
		finding_set(&f->fix, "run `check` again; a kernel log that keeps the read past "
			    "its bound is flooded: `dmesg` shows by what");
		return 0;
	}
	if (!err) {
		/* bytes, and not one record in /dev/kmsg's form among them */
		finding_set(&f->observed, "not checked: the kernel log holds %zu record%s and none "
			    "in /dev/kmsg's form (PRIO,SEQ,USEC,FLAGS;MESSAGE): it is damaged "
			    "or not a kernel log", l->unparsed, l->unparsed == 1 ? "" : "s");
		finding_set(&f->fix, "take the snapshot again (`rdmadoctor snapshot`), or run "
			    "`check` on the live machine");
		return 0;
	}
	finding_set(&f->observed, "not checked: /dev/kmsg: %s%s", strerror(-err),
		    err == -EPERM || err == -EACCES ? " (kernel.dmesg_restrict: run as root "
		    "or with CAP_SYSLOG)" : "");
	finding_set(&f->fix, "run rdmadoctor as root or give it CAP_SYSLOG (`sysctl "
		    "kernel.dmesg_restrict` is 1)");
	return 0;
}

static void when_str(char *buf, size_t len, const struct kmsg_log *l, uint64_t usec)
{
	double s = (double)usec / 1e6;
	int n = snprintf(buf, len, "%.6f s after boot", s);

	if (l->boot_wall >= 0 && n > 0 && (size_t)n < len) {
		time_t t = (time_t)(l->boot_wall + s);
		struct tm tm;

		if (gmtime_r(&t, &tm))
			strftime(buf + n, len - (size_t)n, " (%Y-%m-%dT%H:%M:%SZ)", &tm);
	}
}

static int report(const struct check_ctx *c, struct findings *out, const struct kmsg_log *l,
		  const struct group *g)
{
	const struct kmsg_text *t = text_of(g->id);
	struct finding *f;
	char when[96], note[400] = "";

	if (!t)
		return 0;
	/* the first "Link up" of every boot is no flap; a second one is,
	 * with or without the "Link down" between (a carrier lost and found
	 * within one poll prints only the up: tests/check/kmsg_corpus.tsv's
	 * bigstack-oss/cubecos#733 lines) */
	if (!strcmp(g->id, "kmsg.link_flap") && !g->downs && g->ups < 2)
		return 0;
	f = check_add(c, out, g->id, g->error ? SEV_ERROR : SEV_WARN, t->why);
	if (!f)
		return -ENOMEM;
	when_str(when, sizeof(when), l, g->last->usec);
	kmsg_log_note(l, note + 2, sizeof(note) - 3);
	if (note[2]) {
		/* what a bound cut: the counts are of what is left */
		note[0] = ' ';
		note[1] = '(';
		strcat(note, ")");
	}
	finding_set(&f->subject, "%s", g->subject);
	if (!strcmp(g->id, "kmsg.link_flap"))
		finding_set(&f->observed, "%zu link down and %zu link up since boot; last at %s: "
			    "%s%s", g->downs, g->ups, when, g->last->line, note);
	else
		finding_set(&f->observed, "%zu line%s since boot; last at %s: %s%s", g->count,
			    g->count == 1 ? "" : "s", when, g->last->line, note);
	finding_set(&f->expected, "no such kernel message since boot");
	finding_set(&f->fix, "%s", t->fix);
	return 0;
}

int check_kmsg(const struct check_ctx *c, struct findings *out)
{
	const struct kmsg_log *l = c->inv->host.kmsg;
	struct group *g;
	size_t ng = 0;
	int rc = 0;

	if (!l)
		return 0;
	if (l->err || l->none_parsed)
		return unreadable(c, out, l);
	if (l->cut && (rc = unreadable(c, out, l)))
		return rc;
	if (!l->n)
		return 0;
	if (!(g = calloc(l->n, sizeof(*g))))
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		const struct kmsg_fault *f = &l->v[i];
		const char *subj = subject_of(c->inv, f);
		size_t k;

		if (!subj)
			continue;
		for (k = 0; k < ng; k++)
			if (!strcmp(g[k].id, f->id) && !strcmp(g[k].subject, subj))
				break;
		if (k == ng) {
			g[ng].id = f->id;
			g[ng].subject = subj;
			ng++;
		}
		g[k].count++;
		g[k].error |= f->error;
		if (f->link_up)
			g[k].ups++;
		else
			g[k].downs++;
		g[k].last = f;
	}
	for (size_t k = 0; k < ng && rc == 0; k++)
		rc = report(c, out, l, &g[k]);
	free(g);
	return rc;
}
