/* npu.health: the health npu-smi gives each Ascend NPU (docs/ascend.md).
 * The chip's own alarms (overheating, HBM ECC, a link of the chip, a
 * firmware fault) are what npu-smi's health sums up: an NPU that is not OK
 * fails or slows the job that runs on it, whatever its RoCE port says.
 *   Warning           warn  (Huawei's "general alarm")
 *   Alarm, Critical   error (major, urgent)
 *   UNKNOWN, or none  not checked: npu-smi says the device does not exist
 *                     or has not started, or the health could not be read
 *                     (nor a status npu-smi's reference does not name)
 * with the query's error codes and information as the evidence. */
#include "families.h"

#include <strings.h>

#define NPU_SUBJECT(f, n) finding_set(&(f)->subject, "npu%lld", (long long)(n)->id)

static const char *const why_health =
	"npu-smi's health sums up the NPU's own alarms (temperature, HBM ECC, "
	"its links, firmware): a job on an NPU that is not OK fails or slows down.";

/* The npu-smi options that name this NPU's chip: -i NPU ID -c Chip ID. */
static void npu_smi_ids(const struct npu *n, long long *card, long long *chip)
{
	*card = (long long)(IS_NA(n->card) ? n->id : n->card);
	*chip = (long long)n->chip;
}

static int unhealthy(const struct check_ctx *c, struct findings *out, const struct npu *n,
		     enum severity sev)
{
	struct finding *f = check_add(c, out, "npu.health", sev, why_health);
	long long card, chip;

	if (!f)
		return -ENOMEM;
	npu_smi_ids(n, &card, &chip);
	NPU_SUBJECT(f, n);
	finding_set(&f->observed, "health %s; error code %s; %s", n->health,
		    n->health_code ? n->health_code : "none given",
		    n->health_info ? n->health_info : "no error information");
	finding_set(&f->expected, "OK");
	finding_set(&f->fix,
		    "look up the error code in the product's black-box error code list "
		    "(`npu-smi info -t health -i %lld -c %lld` again, and the device log: "
		    "`msnpureport` or /var/log/npu/); drain the machine, then follow the "
		    "code's action (cooling, reset with `npu-smi set -t reset -i %lld -c %lld`, "
		    "or replace the NPU)", card, chip, card, chip);
	return 0;
}

static int unknown(const struct check_ctx *c, struct findings *out, const struct npu *n)
{
	const char *table = c->inv->npu.table_why;
	struct finding *f = check_add(c, out, "npu.health", SEV_INFO,
				      "An NPU whose health could not be read was not checked, "
				      "not found healthy.");
	long long card, chip;

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	npu_smi_ids(n, &card, &chip);
	NPU_SUBJECT(f, n);
	if (n->health && strcasecmp(n->health, "UNKNOWN") == 0)
		finding_set(&f->observed, "not checked: npu-smi says health %s (the device "
			    "does not exist or has not started)", n->health);
	else if (n->health)
		finding_set(&f->observed, "not checked: npu-smi says health \"%s\", a status "
			    "this version does not know", n->health);
	else
		finding_set(&f->observed, "not checked: no health from `npu-smi info -t health "
			    "-i %lld -c %lld` (npu.unreadable or npu.not_recorded says why) nor "
			    "from `npu-smi info`%s%s", card, chip, table ? ": " : "'s table",
			    table ? table : "");
	finding_set(&f->expected, "OK");
	finding_set(&f->fix, "run `npu-smi info -t health -i %lld -c %lld` as root on the "
		    "machine", card, chip);
	return 0;
}

int check_npu_health(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;

	for (size_t i = 0; i < ni->n; i++) {
		const struct npu *n = &ni->v[i];
		const char *h = n->health;

		if (h && strcasecmp(h, "OK") == 0)
			continue;
		if (h && strcasecmp(h, "Warning") == 0)
			CHECK_TRY(unhealthy(c, out, n, SEV_WARN));
		else if (h && (strcasecmp(h, "Alarm") == 0 || strcasecmp(h, "Critical") == 0))
			CHECK_TRY(unhealthy(c, out, n, SEV_ERROR));
		else
			CHECK_TRY(unknown(c, out, n));
	}
	return 0;
}
