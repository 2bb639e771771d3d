/* lldpcli's JSON into a table of neighbours (lldp_parse.h). */
#include "lldp_parse.h"
#include "../model/neighbor.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One neighbour as listed, before the neighbours of one port are grouped. */
struct heard {
	const char *ifname;	/* into the JSON document */
	struct neighbor *n;
};

struct ctx {
	struct heard *v;
	size_t n, cap;
	char **err;
};

static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*c->err)
		return -EINVAL;
	va_start(ap, fmt);
	n = vasprintf(c->err, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*c->err = NULL;
		return -ENOMEM;
	}
	return -EINVAL;
}

/* A value as lldpcli writes one: "s", {"value": "s"} (json0, and the
 * "json" of versions before the compact one), or a list of those, of which
 * the first counts.  NULL when none, or empty. */
static const char *text_of(json_t *v)
{
	const char *s;

	if (json_is_array(v))
		v = json_array_get(v, 0);
	if (json_is_object(v))
		v = json_object_get(v, "value");
	s = json_string_value(v);
	return s && *s ? s : NULL;
}

/* An id's type ("mac", "ifname", "local"): {"type": .., "value": ..} or a
 * list of those. */
static const char *type_of(json_t *id)
{
	if (json_is_array(id))
		id = json_array_get(id, 0);
	return json_string_value(json_object_get(id, "type"));
}

static int dup_or_null(char **to, const char *from)
{
	*to = from ? strdup(from) : NULL;
	return from && !*to ? -ENOMEM : 0;
}

/* The chassis's own members, and its system name: the compact "json" keys
 * the chassis by its name ({"leaf-r0": {"id": ..}}) and gives it directly
 * when the switch sent none ({"id": .., "descr": ..}); json0 has a list of
 * one chassis with a "name" member.  An id always has a "value", a chassis
 * body never does: that tells a name from a chassis's only member. */
static json_t *chassis_body(json_t *ch, const char **name)
{
	*name = NULL;
	if (json_is_array(ch))
		ch = json_array_get(ch, 0);
	if (!json_is_object(ch))
		return NULL;
	if (json_object_size(ch) == 1) {
		void *it = json_object_iter(ch);
		json_t *b = json_object_iter_value(it);

		if (json_is_object(b) && !json_object_get(b, "value")) {
			const char *k = json_object_iter_key(it);

			*name = *k ? k : NULL;
			return b;
		}
	}
	*name = text_of(json_object_get(ch, "name"));
	return ch;
}

/* The switch's port: its id when that is an interface name or a locally
 * assigned name (what the switch's own CLI calls the port), else its
 * description (lldpd's own default: the MAC as id, the ifname as
 * description), else the id's value as sent. */
static const char *port_name(json_t *port)
{
	json_t *id = json_object_get(port, "id");
	const char *type = type_of(id), *value = text_of(id);
	const char *descr = text_of(json_object_get(port, "descr"));

	if (value && type && (strcmp(type, "ifname") == 0 || strcmp(type, "local") == 0))
		return value;
	return descr ? descr : value;
}

static int add_heard(struct ctx *c, const char *ifname, json_t *body)
{
	json_t *ch, *port = json_object_get(body, "port");
	const char *system = NULL;
	struct neighbor *n;

	ch = chassis_body(json_object_get(body, "chassis"), &system);
	if (json_is_array(port))
		port = json_array_get(port, 0);
	if (!ch && !json_is_object(port))
		return fail(c, "the neighbour on \"%.64s\" has neither a chassis nor a port", ifname);
	if (!(n = calloc(1, sizeof(*n))))
		return -ENOMEM;
	n->source = NEIGHBOR_SOURCE_LLDPD;
	if (dup_or_null(&n->system, system) ||
	    dup_or_null(&n->chassis_id, ch ? text_of(json_object_get(ch, "id")) : NULL) ||
	    dup_or_null(&n->port, json_is_object(port) ? port_name(port) : NULL)) {
		neighbor_free(n);
		return -ENOMEM;
	}
	if (!n->system && !n->chassis_id && !n->port) {
		neighbor_free(n);
		return fail(c, "the neighbour on \"%.64s\" has no system name, chassis id or port",
			    ifname);
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct heard *v = realloc(c->v, cap * sizeof(*v));

		if (!v) {
			neighbor_free(n);
			return -ENOMEM;
		}
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n].ifname = ifname;
	c->v[c->n++].n = n;
	return 0;
}

/* One interface's neighbour: an object, or (never seen, but nothing in the
 * format forbids it) a list of them. */
static int add_iface(struct ctx *c, const char *ifname, json_t *body)
{
	if (!*ifname)
		return fail(c, "an interface with an empty name");
	if (json_is_object(body))
		return add_heard(c, ifname, body);
	if (!json_is_array(body) || !json_array_size(body))
		return fail(c, "interface \"%.64s\" is not an object", ifname);
	for (size_t i = 0; i < json_array_size(body); i++) {
		json_t *b = json_array_get(body, i);
		int rc = json_is_object(b) ? add_heard(c, ifname, b) :
			 fail(c, "interface \"%.64s\" is not an object", ifname);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* "interface": {"eth0": {..}}, [{"eth0": {..}}, {"eth1": {..}}], or json0's
 * [{"name": "eth0", "chassis": .., "port": ..}]. */
static int walk_ifaces(struct ctx *c, json_t *iface, bool in_list)
{
	const char *key;
	json_t *v;

	if (json_is_array(iface) && !in_list) {
		for (size_t i = 0; i < json_array_size(iface); i++) {
			int rc = walk_ifaces(c, json_array_get(iface, i), true);

			if (rc < 0)
				return rc;
		}
		return 0;
	}
	if (!json_is_object(iface))
		return fail(c, "\"interface\" holds something that is not an object");
	if (json_is_string(json_object_get(iface, "name")))
		return add_iface(c, json_string_value(json_object_get(iface, "name")), iface);
	json_object_foreach(iface, key, v) {
		int rc = add_iface(c, key, v);

		if (rc < 0)
			return rc;
	}
	return 0;
}

static int walk_lldp(struct ctx *c, json_t *lldp)
{
	json_t *iface;

	if (!json_is_object(lldp))
		return fail(c, "\"lldp\" is not an object");
	iface = json_object_get(lldp, "interface");
	return iface ? walk_ifaces(c, iface, false) : 0;
}

static int walk(struct ctx *c, json_t *root)
{
	json_t *lldp = json_object_get(root, "lldp");

	if (!json_is_object(root))
		return fail(c, "not a JSON object");
	if (!lldp)
		return fail(c, "no \"lldp\" member: not `lldpcli -f json show neighbors`");
	if (!json_is_array(lldp))
		return walk_lldp(c, lldp);
	for (size_t i = 0; i < json_array_size(lldp); i++) {	/* json0 */
		int rc = walk_lldp(c, json_array_get(lldp, i));

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* "leaf-r0 port Ethernet1" */
static int describe(const struct neighbor *n, char **out)
{
	const char *who = n->system ? n->system : n->chassis_id ? n->chassis_id : "a switch with no name";

	return asprintf(out, "%s%s%s", who, n->port ? " port " : "", n->port ? n->port : "") < 0 ?
	       -ENOMEM : 0;
}

/* "lldpd heard 2 LLDP neighbours on r0, so its switch port is not known:
 * leaf-a port Ethernet3, leaf-b port Ethernet4" */
static int several_why(const struct heard *v, size_t n, const char *ifname, size_t count,
		       char **why)
{
	char *s;

	if (asprintf(&s, "lldpd heard %zu LLDP neighbours on %s, so its switch port is not known:",
		     count, ifname) < 0)
		return -ENOMEM;
	for (size_t i = 0, k = 0; i < n; i++) {
		char *d, *t;
		int rc;

		if (strcmp(v[i].ifname, ifname) != 0)
			continue;
		if (describe(v[i].n, &d) < 0) {
			free(s);
			return -ENOMEM;
		}
		rc = asprintf(&t, "%s%s %s", s, k++ ? "," : "", d);
		free(d);
		free(s);
		if (rc < 0)
			return -ENOMEM;
		s = t;
	}
	*why = s;
	return 0;
}

/* One entry per interface, in the order lldpd listed them. */
static int group(struct ctx *c, struct lldp_table *t)
{
	if (!c->n)
		return 0;
	if (!(t->v = calloc(c->n, sizeof(*t->v))))
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		struct lldp_entry *e;
		size_t count = 0;

		if (lldp_table_find(t, c->v[i].ifname))
			continue;
		for (size_t j = i; j < c->n; j++)
			count += strcmp(c->v[j].ifname, c->v[i].ifname) == 0;
		e = &t->v[t->n++];
		e->heard = count;
		if (!(e->ifname = strdup(c->v[i].ifname)))
			return -ENOMEM;
		if (count == 1) {
			e->neighbor = c->v[i].n;
			c->v[i].n = NULL;
		} else if (several_why(c->v, c->n, e->ifname, count, &e->why) < 0) {
			return -ENOMEM;
		}
	}
	return 0;
}

int lldp_parse(const char *text, size_t len, struct lldp_table *t, char **err)
{
	struct ctx c = { .err = err };
	json_error_t je;
	json_t *root;
	int rc;

	memset(t, 0, sizeof(*t));
	*err = NULL;
	/* duplicate keys are refused: an interface named twice would lose a
	 * neighbour in silence (lldpd lists a port that hears two as two list
	 * items, never as one object's key twice) */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return fail(&c, "not JSON: %.120s (line %d)", je.text, je.line);
	rc = walk(&c, root);
	if (rc == 0)
		rc = group(&c, t);
	for (size_t i = 0; i < c.n; i++)
		neighbor_free(c.v[i].n);
	free(c.v);
	json_decref(root);
	if (rc < 0)
		lldp_table_free(t);
	return rc;
}

void lldp_table_free(struct lldp_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].ifname);
		neighbor_free(t->v[i].neighbor);
		free(t->v[i].why);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const struct lldp_entry *lldp_table_find(const struct lldp_table *t, const char *ifname)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].ifname && strcmp(t->v[i].ifname, ifname) == 0)
			return &t->v[i];
	return NULL;
}
