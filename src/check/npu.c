/* The NPU RoCE ports of an Ascend machine (docs/ascend.md), judged with
 * the ids that mean the same on a NIC (port.down, port.rate_low,
 * module.dom, link.flaps, counters.errors, roce.pfc, fw.mixed,
 * pcie.link_degraded) and three of their own:
 *   npu.net_health  hccn_tool's net health is not Success or Init (the
 *                   detect address of hccn.conf does not answer)
 *   npu.ip_missing  no address, or not the one /etc/hccn.conf plans
 *   npu.subnets     the profile's subnet plan broken (npu_subnets.c)
 * and npu.unreadable: NPUs whose ports could not be read.  A bonded port
 * is judged per member (roce.pfc names the member); a board without
 * optical commands is module.dom "not supported" (an info); an -ip value
 * that is no address is npu.ip_missing "not checked".  A machine with
 * NPUs and no readable NPU port fails: it is not a machine without RDMA.
 * npu.not_recorded: calls a replayed snapshot never made (it predates the
 * reader), not checked rather than failed. */
#include "families.h"
#include "../model/pcie_link.h"
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define NPU_SUBJECT(f, n) finding_set(&(f)->subject, "npu%lld", (long long)(n)->id)

static int port_down(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	struct finding *f = check_add(c, out, "port.down", SEV_ERROR,
				      "An NPU port that is down carries no collective traffic: "
				      "HCCL jobs on this machine fail or hang at their first "
				      "all-reduce.");

	if (!f)
		return -ENOMEM;
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "link status DOWN");
	finding_set(&f->expected, "UP");
	finding_set(&f->fix,
		    "reseat the cable and module at both ends, then swap them "
		    "(`hccn_tool -i %lld -optical -g`: Rx power and LOS say whether light "
		    "arrives); then check the switch port (`hccn_tool -i %lld -lldp -g` names it); "
		    "`hccn_tool -i %lld -link_stat -g` says when it went down",
		    (long long)n->id, (long long)n->id, (long long)n->id);
	return 0;
}

static int rate_low(const struct check_ctx *c, struct findings *out, const struct npu *n,
		    double want)
{
	struct finding *f = check_add(c, out, "port.rate_low", SEV_ERROR,
				      "An NPU port below its rate caps every collective that "
				      "crosses it, and the slowest port sets the pace of the job.");
	char exp[32];

	if (!f)
		return -ENOMEM;
	check_num_str(exp, sizeof(exp), want);
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "%lld Mb/s", (long long)n->port.speed_mbps);
	finding_set(&f->expected, "%s Gb/s (%lld Mb/s)", exp, (long long)(want * 1000));
	finding_set(&f->fix,
		    "swap the cable and module first (a 25G module caps the port at 25G; "
		    "`hccn_tool -i %lld -optical -g` names it); then check the switch port's "
		    "speed setting (`hccn_tool -i %lld -lldp -g` names the port)",
		    (long long)n->id, (long long)n->id);
	return 0;
}

static bool health_ok(const char *h)
{
	/* Huawei's own exporter counts Init (not yet probed) as healthy */
	return strcasecmp(h, "Success") == 0 || strcasecmp(h, "Init") == 0;
}

static int net_health(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	struct finding *f;

	if (!n->port.net_health || health_ok(n->port.net_health))
		return 0;
	f = check_add(c, out, "npu.net_health", SEV_ERROR,
		      "The NPU pings its detect address to prove its port reaches the "
		      "network; when that fails HCCL's links over this port fail too.");
	if (!f)
		return -ENOMEM;
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "net health status: %s (detect address %s)",
		    n->port.net_health, n->plan.netdetect ? n->plan.netdetect : "not in hccn.conf");
	finding_set(&f->expected, "Success");
	finding_set(&f->fix,
		    "check the detect address answers from this subnet (`hccn_tool -i %lld "
		    "-netdetect -g`; set it with `hccn_tool -i %lld -netdetect -s address "
		    "<gateway>`), then the port's address and the switch's VLAN and routes",
		    (long long)n->id, (long long)n->id);
	return 0;
}

static int ip_missing(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	const struct npu_port *p = &n->port;
	const struct npu_plan *plan = &n->plan;
	bool none = p->ip_unset && !p->ipaddr;
	bool other = !none && p->ipaddr && plan->address && strcmp(p->ipaddr, plan->address) != 0;
	bool mask = !none && !other && p->netmask && plan->netmask &&
		    strcmp(p->netmask, plan->netmask) != 0;
	struct finding *f;

	if (!none && !other && !mask)
		return 0;
	f = check_add(c, out, "npu.ip_missing", SEV_ERROR,
		      "HCCL reaches the other machines' NPUs at the addresses of their "
		      "ports: a port without its planned address is left out of the ring.");
	if (!f)
		return -ENOMEM;
	NPU_SUBJECT(f, n);
	if (none)
		finding_set(&f->observed, "no IP address on the NPU port");
	else
		finding_set(&f->observed, "%s/%s", p->ipaddr, p->netmask ? p->netmask : "?");
	if (plan->address)
		finding_set(&f->expected, "%s/%s (/etc/hccn.conf)", plan->address,
			    plan->netmask ? plan->netmask : "?");
	else
		finding_set(&f->expected, "an IPv4 address (nothing planned in /etc/hccn.conf)");
	finding_set(&f->fix, "`hccn_tool -i %lld -ip -s address %s netmask %s`, and keep "
		    "/etc/hccn.conf saying the same",
		    (long long)n->id, plan->address ? plan->address : "<address>",
		    plan->netmask ? plan->netmask : "<netmask>");
	return 0;
}

/* A value outside the module's own [low, high] (either NAN: not judged). */
static bool outside(double v, const struct npu_thres *t)
{
	return !isnan(v) && ((!isnan(t->low) && v < t->low) || (!isnan(t->high) && v > t->high));
}

static int dom(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	const struct npu_optical *o = n->port.optical;
	struct check_buf obs = { 0 };
	struct finding *f;

	if (!o)
		return 0;
	if (outside(o->temp_c, &o->temp))
		check_buf_printf(&obs, "%stemperature %.4g C", obs.len ? "; " : "", o->temp_c);
	if (outside(o->vcc_mv, &o->vcc))
		check_buf_printf(&obs, "%sVcc %.6g mV", obs.len ? "; " : "", o->vcc_mv);
	/* lanes from 1, as `ethtool -m` and the NIC modules' findings number
	 * them (docs/json/inventory.md); hccn_tool's own key, from 0, is named
	 * so the line can be found in its output */
	for (int i = 0; i < o->n_lanes && i < NPU_LANES; i++) {
		if (outside(o->rx_mw[i], &o->rx_power))
			check_buf_printf(&obs, "%slane %d Rx power %.4g mW (hccn_tool Rx Power%d)",
					 obs.len ? "; " : "", i + 1, o->rx_mw[i], i);
		if (outside(o->tx_mw[i], &o->tx_power))
			check_buf_printf(&obs, "%slane %d Tx power %.4g mW (hccn_tool Tx Power%d)",
					 obs.len ? "; " : "", i + 1, o->tx_mw[i], i);
	}
	if (!IS_NA(o->rx_los) && o->rx_los)
		check_buf_printf(&obs, "%sRx LOS 0x%llx", obs.len ? "; " : "",
				 (unsigned long long)o->rx_los);
	if (!IS_NA(o->tx_los) && o->tx_los)
		check_buf_printf(&obs, "%sTx LOS 0x%llx", obs.len ? "; " : "",
				 (unsigned long long)o->tx_los);
	if (!IS_NA(o->rx_lol) && o->rx_lol)
		check_buf_printf(&obs, "%sRx LOL 0x%llx", obs.len ? "; " : "",
				 (unsigned long long)o->rx_lol);
	if (!obs.len && !obs.nomem)
		return 0;
	f = check_add(c, out, "module.dom", SEV_ERROR,
		      "A transceiver outside its own thresholds (a dirty or bent fibre, a "
		      "dying laser) corrupts packets before the link goes down.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	NPU_SUBJECT(f, n);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "within the module's thresholds (Rx power %.4g-%.4g mW, "
		    "temperature %.4g-%.4g C), no LOS/LOL", o->rx_power.low, o->rx_power.high,
		    o->temp.low, o->temp.high);
	finding_set(&f->fix,
		    "clean the fibre ends and reseat the module; then swap the cable, then the "
		    "module (`hccn_tool -i %lld -optical -g` again after each)",
		    (long long)n->id);
	return 0;
}

#define FLAPS_24H 2	/* link downs within a day that make a flapping port */

static int flaps(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	struct finding *f;

	if (IS_NA(n->port.link_downs_24h) || n->port.link_downs_24h < FLAPS_24H)
		return 0;
	f = check_add(c, out, "link.flaps", SEV_ERROR,
		      "A link that goes down and up again drops every queue pair on it: "
		      "jobs see timeouts and retransmissions long before the port stays down.");
	if (!f)
		return -ENOMEM;
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "%lld link downs in the 24 h before the tool's current time "
		    "(link up count %lld)", (long long)n->port.link_downs_24h,
		    (long long)n->port.link_up_count);
	finding_set(&f->expected, "fewer than %d", FLAPS_24H);
	finding_set(&f->fix,
		    "reseat, then swap the cable and module (`hccn_tool -i %lld -optical -g`: "
		    "Rx power and LOS); then check the switch port's log for the same times "
		    "(`hccn_tool -i %lld -link_stat -g` lists them)",
		    (long long)n->id, (long long)n->id);
	return 0;
}

/* The hccn_tool -stat counters that count errors. */
static const char *const npu_errors[] = { "roce_rx_err_pkt_num", "roce_tx_err_pkt_num",
					  "roce_qp_status_err_num" };

bool check_npu_counter_is_error(const char *name)
{
	for (size_t e = 0; e < sizeof(npu_errors) / sizeof(npu_errors[0]); e++)
		if (strcmp(name, npu_errors[e]) == 0)
			return true;
	return false;
}

static int counter_errors(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	struct check_buf obs = { 0 };
	struct finding *f;

	if (!n->port.stat)
		return 0;
	for (size_t i = 0; i < n->port.stat->n; i++) {
		const struct counter *k = &n->port.stat->v[i];

		if (k->ok && k->value && check_npu_counter_is_error(k->name))
			check_buf_printf(&obs, "%s%s %llu", obs.len ? ", " : "", k->name,
					 (unsigned long long)k->value);
	}
	if (!obs.len && !obs.nomem)
		return 0;
	f = check_add(c, out, "counters.errors", SEV_WARN,
		      "RoCE error packets and queue pairs in error mean retransmissions or "
		      "failed transfers on this port.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	NPU_SUBJECT(f, n);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "0");
	finding_set(&f->fix,
		    "these count since the driver loaded: read `hccn_tool -i %lld -stat -g` "
		    "twice a minute apart under load; growing, check the module (-optical) "
		    "and the switch port's PFC and buffer counters",
		    (long long)n->id);
	return 0;
}

/* PFC of the port, or of one member of a bonded port (member: its name,
 * enabled: its row; NULL and the port's row otherwise). */
static int pfc_one(const struct check_ctx *c, struct findings *out, const struct npu *n,
		   const char *member, const int enabled[8], int prio)
{
	struct check_buf on = { 0 };
	struct finding *f;
	bool known = false;

	for (int i = 0; i < 8; i++)
		known |= enabled[i] >= 0;
	if (!known || enabled[prio] != 0)
		return 0;
	for (int i = 0; i < 8; i++)
		if (enabled[i] == 1)
			check_buf_printf(&on, "%s%d", on.len ? " " : "", i);
	f = check_add(c, out, "roce.pfc", SEV_ERROR,
		      "RoCE needs a lossless priority: without PFC on the priority its "
		      "traffic uses, drops under load turn into go-back-N retransmissions "
		      "and collapsing bandwidth.");
	if (!f) {
		check_buf_free(&on);
		return -ENOMEM;
	}
	if (member)
		finding_set(&f->subject, "npu%lld %s", (long long)n->id, member);
	else
		NPU_SUBJECT(f, n);
	finding_set(&f->observed, "%s%sPFC enabled on priorities: %s", member ? member : "",
		    member ? " (a member of the bonded port): " : "",
		    on.len ? check_buf_str(&on) : "none");
	check_buf_free(&on);
	finding_set(&f->expected, "PFC on priority %d", prio);
	finding_set(&f->fix, "`hccn_tool -i %lld -pfc -s bitmap <bits with %d set>` "
		    "(and the same priority lossless on the switch port)", (long long)n->id, prio);
	return 0;
}

/* A bonded port is judged member by member: one member without PFC on the
 * priority is its own finding, whatever the other does. */
static int pfc(const struct check_ctx *c, struct findings *out, const struct npu *n, int prio)
{
	const struct npu_port *p = &n->port;

	if (!p->n_pfc_members)
		return pfc_one(c, out, n, NULL, p->pfc_enabled, prio);
	for (size_t i = 0; i < p->n_pfc_members; i++)
		CHECK_TRY(pfc_one(c, out, n, p->pfc_members[i].dev, p->pfc_members[i].enabled, prio));
	return 0;
}

/* A board whose ports have no optical commands (hccn_tool says so): the
 * module was not looked at, and cannot be; said once, as an info. */
static int optical_unsupported(const struct check_ctx *c, struct findings *out,
			       const struct npu *n)
{
	struct finding *f;

	if (!n->port.optical_unsupported)
		return 0;
	f = check_add(c, out, "module.dom", SEV_INFO,
		      "hccn_tool reads no transceiver on this board: its optical levels are "
		      "not judged here, which is the board's nature, not a fault.");
	if (!f)
		return -ENOMEM;
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "not supported: `hccn_tool -i %lld -optical -g` says \"This "
		    "device does not support optical cmd.\"", (long long)n->id);
	finding_set(&f->expected, "module thresholds, where the board reads them");
	finding_set(&f->fix, "nothing on this machine; watch the link's errors and flaps "
		    "(`hccn_tool -i %lld -stat -g`, `-link_stat -g`) and the switch side's "
		    "module readings instead", (long long)n->id);
	return 0;
}

/* An address hccn_tool printed that is no address: not a fact, so the
 * address plan was not checked (an info marked unchecked, naming the line). */
static int ip_unchecked(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	const char *bad = n->port.ip_malformed;
	struct finding *f;

	if (!bad)
		return 0;
	f = check_add(c, out, "npu.ip_missing", SEV_INFO,
		      "An address that does not read as one is not known: the port's address "
		      "was not checked, not found right or wrong.");
	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "not checked: `hccn_tool -i %lld -ip -g` printed \"%s\", "
		    "which is not an IPv4 address or netmask", (long long)n->id, bad);
	finding_set(&f->expected, "an IPv4 address and netmask");
	finding_set(&f->fix, "run `hccn_tool -i %lld -ip -g` by hand as root; set the address "
		    "again with `hccn_tool -i %lld -ip -s address <address> netmask <netmask>`",
		    (long long)n->id, (long long)n->id);
	return 0;
}

static int fw_mixed(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	const char *first = NULL;
	struct check_buf obs = { 0 };
	bool mixed = false;
	struct finding *f;

	for (size_t i = 0; i < ni->n; i++) {
		const char *v = ni->v[i].fw_version;

		if (!v)
			continue;
		if (!first)
			first = v;
		else if (strcmp(first, v) != 0)
			mixed = true;
	}
	if (!mixed)
		return 0;
	for (size_t i = 0; i < ni->n; i++)
		if (ni->v[i].fw_version)
			check_buf_printf(&obs, "%snpu%lld %s", obs.len ? ", " : "",
					 (long long)ni->v[i].id, ni->v[i].fw_version);
	f = check_add(c, out, "fw.mixed", SEV_WARN,
		      "NPUs of one machine on different firmware behave differently under "
		      "load and are a sign of an upgrade that did not finish.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	finding_set(&f->subject, "NPUs");
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "one firmware version on every NPU");
	finding_set(&f->fix, "upgrade every NPU to the same firmware with the driver package's "
		    "upgrade tool, then reboot (`npu-smi info -i N -t board` shows it)");
	return 0;
}

static int failures(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	struct check_buf obs = { 0 };
	struct finding *f;

	if (!n->n_failures)
		return 0;
	for (size_t i = 0; i < n->n_failures; i++)
		check_buf_printf(&obs, "%s%s: %s", i ? "; " : "", n->failures[i].call,
				 n->failures[i].why);
	f = check_add(c, out, "npu.unreadable", n->port_read ? SEV_WARN : SEV_ERROR,
		      "What hccn_tool or npu-smi did not answer was not checked; a tool that "
		      "hangs or fails is often the first sign of a sick NPU driver.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	NPU_SUBJECT(f, n);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "every call answers");
	finding_set(&f->fix, "run the call by hand as root; a call that hangs: `npu-smi info` "
		    "and the driver's log (/var/log/npu/), then reload the driver or reboot");
	return 0;
}

/* A snapshot taken before a reader existed holds no reply to its call:
 * nobody looked, which is "not checked" (counted), not a sick NPU. */
static int not_recorded(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	struct check_buf obs = { 0 };
	struct finding *f;

	if (!n->n_unrecorded)
		return 0;
	check_buf_printf(&obs, "not checked: the snapshot holds no ");
	for (size_t i = 0; i < n->n_unrecorded; i++)
		check_buf_printf(&obs, "%s`%s`", i ? ", " : "", n->unrecorded[i].call);
	check_buf_printf(&obs, " reply (taken before this reader existed)");
	f = check_add(c, out, "npu.not_recorded", SEV_INFO,
		      "What a snapshot never asked was not checked, not found right or wrong.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	f->unchecked = true;
	NPU_SUBJECT(f, n);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "every call answered on the machine");
	finding_set(&f->fix, "take a new snapshot with this version (`rdmadoctor snapshot DIR`), "
		    "or run the call by hand as root on the machine");
	return 0;
}

static int none_readable(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	struct check_buf obs = { 0 };
	struct finding *f;

	check_buf_printf(&obs, "%zu Ascend NPU PCI function%s, %zu NPU%s listed by npu-smi, "
			 "no NPU port read", ni->n_pci, ni->n_pci == 1 ? "" : "s", ni->n,
			 ni->n == 1 ? "" : "s");
	for (size_t i = 0; i < ni->n_failures; i++)
		check_buf_printf(&obs, "; %s: %s", ni->failures[i].call, ni->failures[i].why);
	f = check_add(c, out, "npu.unreadable", SEV_ERROR,
		      "On an Ascend machine the network is on the NPUs: without their ports "
		      "nothing of it was checked, and that is not a pass.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	finding_set(&f->subject, "NPUs");
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "every NPU port read with hccn_tool");
	finding_set(&f->fix, "run rdmadoctor as root on the machine, with the Ascend driver "
		    "package installed (hccn_tool and npu-smi in PATH or "
		    "/usr/local/Ascend/driver/tools); `npu-smi info` must list the NPUs");
	return 0;
}

/* NPU functions npu-smi does not list: NPUs the tools cannot reach */
static int unmapped(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	struct check_buf obs = { 0 };
	struct finding *f;

	for (size_t i = 0; i < ni->n_unmapped; i++)
		check_buf_printf(&obs, "%s%s", i ? " " : "", ni->unmapped[i].bdf);
	check_buf_printf(&obs, ": Ascend NPU PCI function%s no npu-smi id names",
			 ni->n_unmapped == 1 ? "" : "s");
	f = check_add(c, out, "npu.unreadable", SEV_ERROR,
		      "An NPU that the driver's tools do not list has no port rdmadoctor can "
		      "read, and HCCL cannot use it either.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	finding_set(&f->subject, "NPUs");
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "every NPU PCI function listed by `npu-smi info -m`");
	finding_set(&f->fix, "`npu-smi info` and the driver's log (/var/log/npu/): an NPU the "
		    "driver did not bring up needs the driver reloaded or the machine rebooted, "
		    "then the NPU reseated or replaced");
	return 0;
}

/* The NPU's own link against what both of its ends can do, as for a NIC
 * (src/model/pcie_link.h). */
static int pcie_degraded(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	const struct pci_func *fn = n->pci;
	const struct pci_func *partner = fn->n_upstream ? &fn->upstream[fn->n_upstream - 1] : NULL;
	const struct pci_link *l = &fn->link;
	struct pci_link reach;
	char have[32], want[32];
	struct finding *f;

	if (!pcie_link_degraded(fn, partner))
		return 0;
	reach = pcie_link_reachable(fn, partner);
	f = check_add(c, out, "pcie.link_degraded", SEV_WARN,
		      "An NPU on a slower or narrower PCIe link than it can do moves host "
		      "data (checkpoints, data loading) slower.");
	if (!f)
		return -ENOMEM;
	check_link_str(have, sizeof(have), l->speed_gts, l->width);
	check_link_str(want, sizeof(want), reach.max_speed_gts, reach.max_width);
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "%s at %s", have, n->pci->bdf);
	finding_set(&f->expected, "%s", want);
	finding_set(&f->fix, "reseat the NPU module, then check the BIOS slot settings");
	return 0;
}

int check_npu(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	const struct npu_spec *spec = c->p ? &c->p->npu : NULL;
	bool any_read = false;

	for (size_t i = 0; i < ni->n; i++) {
		const struct npu *n = &ni->v[i];

		CHECK_TRY(failures(c, out, n));
		CHECK_TRY(not_recorded(c, out, n));
		if (n->pci)
			CHECK_TRY(pcie_degraded(c, out, n));
		if (!n->port_read)
			continue;
		any_read = true;
		if (n->port.link_up == 0)
			CHECK_TRY(port_down(c, out, n));
		else if (n->port.link_up == 1 && spec && spec->rate_gbps > 0 &&
			 !IS_NA(n->port.speed_mbps) &&
			 (double)n->port.speed_mbps < spec->rate_gbps * 1000)
			CHECK_TRY(rate_low(c, out, n, spec->rate_gbps));
		CHECK_TRY(net_health(c, out, n));
		CHECK_TRY(ip_missing(c, out, n));
		CHECK_TRY(ip_unchecked(c, out, n));
		CHECK_TRY(dom(c, out, n));
		CHECK_TRY(optical_unsupported(c, out, n));
		CHECK_TRY(flaps(c, out, n));
		CHECK_TRY(counter_errors(c, out, n));
		if (spec && spec->pfc_priority >= 0)
			CHECK_TRY(pfc(c, out, n, spec->pfc_priority));
	}
	if ((ni->n_pci || ni->n) && !any_read)
		CHECK_TRY(none_readable(c, out));
	else if (ni->n_unmapped)
		CHECK_TRY(unmapped(c, out));
	CHECK_TRY(fw_mixed(c, out));
	CHECK_TRY(check_npu_subnets(c, out));
	return 0;
}
