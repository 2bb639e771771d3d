#include "check_out.h"
#include "json.h"
#include "../check/rails.h"
#include "../check/rank.h"
#include "text_wrap.h"
#include "text_printf.h"

#include <stdlib.h>
#include <string.h>

/* What the agent's memory says of a finding (docs/state.md). */
static json_t *latch_to_json(const struct finding *f)
{
	const struct finding_latch *l = &f->latch;

	return json_pack("{s:I, s:I, s:I, s:o, s:b}", "since", (json_int_t)l->since,
			 "last_seen", (json_int_t)l->last, "count", (json_int_t)l->count,
			 "expires", l->expires ? json_integer((json_int_t)l->expires) : json_null(),
			 "remembered", l->remembered);
}

json_t *findings_to_json(const struct findings *fs)
{
	json_t *list = json_array();

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];

		json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
			"id", f->id, "severity", severity_name(f->severity),
			"subject", json_string_or_null(f->subject),
			"observed", json_string_or_null(f->observed),
			"expected", json_string_or_null(f->expected),
			"why", json_string_or_null(f->why),
			"fix", json_string_or_null(f->fix));

		/* only when set, so the common finding stays as it was */
		if (o && f->unchecked)
			json_object_set_new(o, "unchecked", json_true());
		if (o && f->required)
			json_object_set_new(o, "required", json_true());
		if (o && f->accepted)
			json_object_set_new(o, "accepted", json_true());
		if (o && f->waived)
			json_object_set_new(o, "waived", json_true());
		if (o && f->latch.since)
			json_object_set_new(o, "latched", latch_to_json(f));
		json_array_append_new(list, o);
	}
	return list;
}

static const char *const role_names[ROLE_COUNT] = { "rail", "storage" };

/* {"mlx5_0": "rail", "mlx5_8": "storage"}: what each NIC was judged as;
 * a card that would be a rail but for its link layer is neither */
static json_t *roles_to_json(const struct check_report *rep)
{
	json_t *o = json_object();

	for (size_t i = 0; o && rep->roles && i < rep->inv->n_nics; i++)
		if (rep->inv->nics[i].name)
			json_object_set_new(o, rep->inv->nics[i].name,
					    json_string(rep->wrong_link && rep->wrong_link[i]
							? "wrong_link_layer"
							: role_names[rep->roles[i]]));
	return o;
}

/* [{"rail": 0, "device": "mlx5_0", "port": 1, "neighbor": {...} | null}]:
 * the rail ports in the one numbering (check/rails.h), with the switch each
 * reaches, for the fleet to compare hosts by; empty without roles */
static json_t *rails_to_json(const struct check_report *rep)
{
	json_t *list = json_array();
	struct rail_port *rp;
	size_t n;

	if (!list || !rep->roles)
		return list;
	rp = rail_ports(rep->inv, rep->roles, &n);
	for (size_t k = 0; k < n; k++) {
		const struct nic *nic = &rep->inv->nics[rp[k].nic];
		const struct port *pt = &nic->ports[rp[k].port];
		json_t *o = json_pack("{s:I, s:o, s:i, s:o}", "rail", (json_int_t)k,
				      "device", json_string_or_null(nic->name), "port", pt->num,
				      "neighbor", neighbor_to_json(pt->neighbor));

		if (o && !pt->neighbor && pt->neighbor_why)
			json_object_set_new(o, "neighbor_unknown", json_string(pt->neighbor_why));
		json_array_append_new(list, o);
	}
	free(rp);
	return list;
}

json_t *check_to_json(const struct check_report *rep)
{
	json_t *list = findings_to_json(rep->findings);

	return json_pack("{s:i, s:o, s:o, s:o, s:s, s:I, s:o, s:o, s:o, s:o}", "schema",
			 INVENTORY_SCHEMA,
			 "profile", json_string_or_null(rep->profile->name),
			 "profile_reason", json_string_or_null(rep->reason),
			 "profile_source", json_string_or_null(rep->source),
			 "verdict", check_verdict(rep->findings),
			 "unchecked", (json_int_t)check_unchecked(rep->findings),
			 "roles", roles_to_json(rep), "rails", rails_to_json(rep),
			 "findings", list, "inventory", inventory_to_json(rep->inv));
}

/* "mlx5_0 port 1: observed (expected ...)" */
static void nhc_finding(FILE *out, const struct finding *f)
{
	text_put_clean(out, f->subject);
	fputs(": ", out);
	text_put_clean(out, f->observed ? f->observed : "?");
	fputs(" (expected ", out);
	text_put_clean(out, f->expected ? f->expected : "?");
	fputc(')', out);
}

/* No error, but what keeps the verdict from PASS was not seen (a rail
 * whose state could not be read): one UNCHECKED line, exit 0, so that a
 * wrapper can choose to drain on it (contrib/slurm drains by default). */
const struct finding *check_lead_unchecked(const struct findings *fs, size_t *n)
{
	const struct finding *first = NULL;

	*n = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];

		if (!f->unchecked || f->waived || f->severity == SEV_INFO)
			continue;
		/* the more severe, then the one that may cost the most */
		if (!first || f->severity > first->severity ||
		    (f->severity == first->severity && check_rank(f->id) < check_rank(first->id)))
			first = f;
		(*n)++;
	}
	return first;
}

static void nhc_unchecked(FILE *out, const struct findings *fs)
{
	size_t n;
	const struct finding *first = check_lead_unchecked(fs, &n);

	if (!first)
		return;
	text_printf(out, "UNCHECKED: rdmadoctor: %s ", first->id);
	nhc_finding(out, first);
	if (n > 1)
		text_printf(out, " and %zu more not checked", n - 1);
	fputc('\n', out);
}

const struct finding *check_lead_error(const struct findings *fs, size_t *errors)
{
	const struct finding *first = NULL;
	unsigned best = 0;

	/* The drain reason names the error that costs the most bandwidth,
	 * as check/rank.c ranks them: a NIC or port missing or down before
	 * a slow one, PFC or FEC off, optics, and those before a count */
	*errors = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		unsigned r;

		if (f->severity != SEV_ERROR || f->waived)
			continue;
		(*errors)++;
		r = check_rank(f->id);
		if (!first || r < best) {
			first = f;
			best = r;
		}
	}
	return first;
}

void nhc_check(FILE *out, const struct check_report *rep)
{
	size_t errors;
	const struct finding *first = check_lead_error(rep->findings, &errors);

	if (!first) {
		nhc_unchecked(out, rep->findings);
		return;
	}
	/* NHC's own form, so that node-mark-offline and drain reasons work */
	text_printf(out, "ERROR: rdmadoctor: Health check failed: %s ", first->id);
	nhc_finding(out, first);
	if (errors > 1)
		text_printf(out, " and %zu more errors", errors - 1);
	fputc('\n', out);
}
