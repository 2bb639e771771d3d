/* rail.cabling: each rail port reaches the switch it should, as the switch
 * itself says over LLDP (port->neighbor).  On a rail-optimised fabric rail
 * k of every node goes to leaf k; a node with two cables swapped passes
 * every other check, since traffic still flows through the spine.
 *
 * What is expected comes from the site file (rail_switch = RAIL PATTERN:
 * the switch's system name) and the profile ([rail] distinct_switches =
 * yes: no two rails on one switch).  Without either, nothing is judged and
 * nothing is said.  Rails are numbered as check/rails.h says.
 *
 * One cause, one finding: two rails each on the other's switch are one
 * finding ("swapped"), whose fix is the one swap; a rail on a wrong switch
 * is not also reported as sharing that switch under distinct_switches.  A
 * rail whose neighbour is not known while something is expected of it is
 * "not checked", a warning (as port.down's unread rail), so it cannot
 * pass; a rail that is down is left to port.down. */
#include "families.h"
#include "rails.h"
#include "../model/neighbor.h"
#include "../profiles/site.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char why_cabling[] =
	"On a rail-optimised fabric rail k of every node goes to leaf switch k; a rail "
	"cabled to another switch still carries traffic, through the spine, so nothing "
	"else fails, but every collective that crosses this node runs slower.";

struct rail {
	const struct nic *n;
	const struct port *pt;
	size_t k;		/* the rail's number */
	const char *pattern;	/* rail_switch; NULL: none */
	int line;		/* its line in the site file */
	const char *sw;		/* the switch: its system name, else chassis id; NULL */
	bool wrong;		/* reaches a switch its pattern does not match */
	bool done;		/* a finding names it already */
};

/* "leaf-r3 port Ethernet1", or the switch alone when it sent no port. */
static void reach(struct check_buf *b, const struct rail *r)
{
	const struct neighbor *nb = r->pt->neighbor;

	check_buf_printf(b, "%s", r->sw);
	if (nb->port)
		check_buf_printf(b, " port %s", nb->port);
}

static void port_name(struct check_buf *b, const struct rail *r)
{
	check_buf_printf(b, "%s port %d", r->n->name, r->pt->num);
}

static bool matches(const char *pattern, const char *sw)
{
	return pattern && sw && fnmatch(pattern, sw, 0) == 0;
}

/* A rail whose switch is not known, while one is expected of it. */
static int unchecked(const struct check_ctx *c, struct findings *out, const struct rail *r)
{
	const struct neighbor *nb = r->pt->neighbor;
	const char *dev = r->pt->netdev;
	struct finding *f = check_add(c, out, "rail.cabling", SEV_WARN,
				      "Which switch a rail reaches is known only from what the switch "
				      "announces; a rail whose switch could not be told was not "
				      "checked, not found right.");

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s port %d", r->n->name, r->pt->num);
	if (nb)		/* known, but without the name the pattern is about */
		finding_set(&f->observed, "not checked: the switch sent no system name (chassis "
			    "id %s, port %s)", nb->chassis_id ? nb->chassis_id : "none",
			    nb->port ? nb->port : "none");
	else if (r->pt->neighbor_why)
		finding_set(&f->observed, "not checked: %s", r->pt->neighbor_why);
	else
		finding_set(&f->observed, "not checked: its neighbour was not read (a snapshot "
			    "taken before rdmadoctor read LLDP)");
	if (r->pattern)
		finding_set(&f->expected, "rail %zu on a switch matching %s (site file line %d)",
			    r->k, r->pattern, r->line);
	else
		finding_set(&f->expected, "rail %zu on a switch no other rail reaches ([rail] "
			    "distinct_switches = yes)", r->k);
	if (check_port_is_ib(r->pt))
		finding_set(&f->fix, "rdmadoctor asks the node at the other end of the cable "
			    "by directed-route SMP: load ib_umad and run it as root; `smpquery "
			    "-C %s -P %d nodedesc -D 0,%d` names the switch", r->n->name,
			    r->pt->num, r->pt->num);
	else if (nb)
		finding_set(&f->fix, "have the switch send its system name in LLDP (`lldp "
			    "tlv-select system-name` or its like), then `lldpcli show neighbors "
			    "ports %s`", dev ? dev : "IF");
	else
		finding_set(&f->fix, "run lldpd on the node (`systemctl enable --now lldpd`), "
			    "check the switch port sends LLDP, then `lldpcli show neighbors ports "
			    "%s`", dev ? dev : "IF");
	return 0;
}

/* Rails a and b each on the other's switch: one swap fixes both. */
static int swapped(const struct check_ctx *c, struct findings *out, const struct rail *a,
		   const struct rail *b)
{
	struct check_buf s = { 0 }, o = { 0 }, x = { 0 };
	struct finding *f = check_add(c, out, "rail.cabling", SEV_ERROR, why_cabling);

	if (!f)
		return -ENOMEM;
	port_name(&s, a);
	check_buf_printf(&s, " and ");
	port_name(&s, b);
	check_buf_printf(&o, "rails %zu and %zu swapped: rail %zu (", a->k, b->k, a->k);
	port_name(&o, a);
	check_buf_printf(&o, ") reaches ");
	reach(&o, a);
	check_buf_printf(&o, ", rail %zu's switch; rail %zu (", b->k, b->k);
	port_name(&o, b);
	check_buf_printf(&o, ") reaches ");
	reach(&o, b);
	check_buf_printf(&o, ", rail %zu's switch", a->k);
	check_buf_printf(&x, "swap the cables of ");
	port_name(&x, a);
	check_buf_printf(&x, " and ");
	port_name(&x, b);
	check_buf_printf(&x, " (now on ");
	reach(&x, a);
	check_buf_printf(&x, " and ");
	reach(&x, b);
	check_buf_printf(&x, "), then `%s` shows each on its own rail's switch",
			 check_port_is_ib(a->pt) ? "rdmadoctor inventory" : "lldpcli show neighbors");
	check_buf_take(&s, &f->subject);
	check_buf_take(&o, &f->observed);
	finding_set(&f->expected, "rail %zu on a switch matching %s, rail %zu on one matching "
		    "%s (site file lines %d and %d)", a->k, a->pattern, b->k, b->pattern,
		    a->line, b->line);
	check_buf_take(&x, &f->fix);
	return 0;
}

/* One rail on a switch its pattern does not match; other: the rail whose
 * pattern that switch matches (NULL: none). */
static int misplaced(const struct check_ctx *c, struct findings *out, const struct rail *r,
		     const struct rail *other)
{
	struct check_buf o = { 0 }, x = { 0 };
	struct finding *f = check_add(c, out, "rail.cabling", SEV_ERROR, why_cabling);

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", r->n->name, r->pt->num);
	check_buf_printf(&o, "rail %zu reaches ", r->k);
	reach(&o, r);
	if (other) {
		check_buf_printf(&o, ", rail %zu's switch (", other->k);
		port_name(&o, other);
		check_buf_printf(&o, ", site file line %d: %s)", other->line, other->pattern);
	}
	check_buf_printf(&x, "move the cable of ");
	port_name(&x, r);
	check_buf_printf(&x, " from ");
	reach(&x, r);
	check_buf_printf(&x, " to rail %zu's switch (its name matches %s); if the switch is "
			 "the right one, correct rail_switch in the site file", r->k, r->pattern);
	check_buf_take(&o, &f->observed);
	finding_set(&f->expected, "rail %zu on a switch matching %s (site file line %d)", r->k,
		    r->pattern, r->line);
	check_buf_take(&x, &f->fix);
	return 0;
}

/* distinct_switches: rails v[idx[0..m)] all reach one switch. */
static int shared(const struct check_ctx *c, struct findings *out, const struct rail *v,
		  const size_t *idx, size_t m)
{
	struct check_buf s = { 0 }, o = { 0 }, x = { 0 };
	struct finding *f = check_add(c, out, "rail.cabling", SEV_ERROR, why_cabling);

	if (!f)
		return -ENOMEM;
	check_buf_printf(&o, "rails ");
	for (size_t i = 0; i < m; i++) {
		const char *sep = i == 0 ? "" : i + 1 == m ? " and " : ", ";

		check_buf_printf(&s, "%s", sep);
		port_name(&s, &v[idx[i]]);
		check_buf_printf(&o, "%s%zu", sep, v[idx[i]].k);
	}
	check_buf_printf(&o, " reach one switch, %s (", v[idx[0]].sw);
	for (size_t i = 0; i < m; i++) {
		const struct neighbor *nb = v[idx[i]].pt->neighbor;

		check_buf_printf(&o, "%s", i ? ", " : "");
		port_name(&o, &v[idx[i]]);
		check_buf_printf(&o, " on port %s", nb->port ? nb->port : "?");
	}
	check_buf_printf(&o, ")");
	check_buf_printf(&x, "keep one of them on %s and move the cable of each other to its "
			 "own rail's switch (the one that rail reaches on the other nodes: "
			 "`rdmadoctor fleet diff`); name each rail's switch with rail_switch in the "
			 "site file to have check say which", v[idx[0]].sw);
	check_buf_take(&s, &f->subject);
	check_buf_take(&o, &f->observed);
	finding_set(&f->expected, "each rail on a switch of its own ([rail] distinct_switches "
		    "= yes)");
	check_buf_take(&x, &f->fix);
	return 0;
}

static bool same_switch(const struct rail *a, const struct rail *b)
{
	return a->sw && b->sw && strcasecmp(a->sw, b->sw) == 0;
}

static int judge(const struct check_ctx *c, struct findings *out, struct rail *v, size_t n,
		 bool distinct)
{
	size_t *idx;

	/* two rails each on the other's switch */
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; v[a].wrong && !v[a].done && b < n; b++)
			if (v[b].wrong && !v[b].done && matches(v[a].pattern, v[b].sw) &&
			    matches(v[b].pattern, v[a].sw)) {
				CHECK_TRY(swapped(c, out, &v[a], &v[b]));
				v[a].done = v[b].done = true;
			}
	for (size_t a = 0; a < n; a++) {
		const struct rail *other = NULL;

		if (!v[a].wrong || v[a].done)
			continue;
		for (size_t b = 0; !other && b < n; b++)
			if (b != a && matches(v[b].pattern, v[a].sw))
				other = &v[b];
		CHECK_TRY(misplaced(c, out, &v[a], other));
		v[a].done = true;
	}
	if (!distinct)
		return 0;
	idx = malloc(n * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	/* each switch once, at its first rail not reported already */
	for (size_t a = 0; a < n; a++) {
		size_t m = 0;
		bool first = true;
		int rc;

		for (size_t b = 0; b < a && first; b++)
			first = v[b].done || !same_switch(&v[a], &v[b]);
		if (v[a].done || !v[a].sw || !first)
			continue;
		for (size_t b = a; b < n; b++)
			if (!v[b].done && same_switch(&v[a], &v[b]))
				idx[m++] = b;
		if (m < 2)
			continue;
		rc = shared(c, out, v, idx, m);
		if (rc < 0) {
			free(idx);
			return rc;
		}
	}
	free(idx);
	return 0;
}

int check_rail_cabling(const struct check_ctx *c, struct findings *out)
{
	const struct role_spec *rs = c->p ? &c->p->role[ROLE_RAIL] : NULL;
	bool distinct = rs && rs->defined && rs->distinct_switches == 1;
	struct rail_port *rp;
	struct rail *v;
	size_t n, m = 0;
	int rc = 0;

	if (!distinct && !(c->site && c->site->n_rail_switch))
		return 0;
	errno = 0;
	rp = rail_ports(c->inv, c->roles, &n);
	if (!rp)
		return errno == ENOMEM ? -ENOMEM : 0;
	v = calloc(n, sizeof(*v));
	if (!v) {
		free(rp);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n && !rc; k++) {
		struct rail *r = &v[m];
		const struct neighbor *nb;

		memset(r, 0, sizeof(*r));
		r->n = &c->inv->nics[rp[k].nic];
		r->pt = &r->n->ports[rp[k].port];
		r->k = k;
		r->pattern = site_rail_switch(c->site, k, r->n->name, &r->line);
		nb = r->pt->neighbor;
		/* nothing expected of it, or down: port.down says that */
		if ((!r->pattern && !distinct) || port_link(r->pt) == PORT_LINK_DOWN)
			continue;
		r->sw = nb ? nb->system ? nb->system : r->pattern ? NULL : nb->chassis_id : NULL;
		if (!r->sw) {
			rc = unchecked(c, out, r);
			continue;
		}
		r->wrong = r->pattern && !matches(r->pattern, r->sw);
		m++;
	}
	if (!rc)
		rc = judge(c, out, v, m, distinct);
	free(v);
	free(rp);
	return rc;
}
