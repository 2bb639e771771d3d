/* The printers of access_out.h. */
#include "access_out.h"
#include "json_scalar.h"
#include "text_printf.h"

#include <inttypes.h>
#include <string.h>

static void perm_text(unsigned perm, char out[4])
{
	out[0] = perm & 4 ? 'r' : '-';
	out[1] = perm & 2 ? 'w' : '-';
	out[2] = perm & 1 ? 'x' : '-';
	out[3] = '\0';
}

/* getfacl's words: "user:1000:rw-", "mask::rw-". */
static void acl_text(const struct acl_entry *e, char *buf, size_t len)
{
	char p[4];
	const char *tag = e->tag == ACL_TAG_USER_OBJ || e->tag == ACL_TAG_USER ? "user" :
			  e->tag == ACL_TAG_GROUP_OBJ || e->tag == ACL_TAG_GROUP ? "group" :
			  e->tag == ACL_TAG_MASK ? "mask" : "other";

	perm_text(e->perm, p);
	if (e->tag == ACL_TAG_USER || e->tag == ACL_TAG_GROUP)
		snprintf(buf, len, "%s:%" PRIu32 ":%s", tag, e->id, p);
	else
		snprintf(buf, len, "%s::%s", tag, p);
}

static json_t *node_json(const struct dev_node *d)
{
	bool there = d->present == 1;
	char mode[8];
	json_t *acl = json_null();

	snprintf(mode, sizeof(mode), "%04o", d->mode & 07777);
	if (there && d->has_acl >= 0) {
		acl = json_array();
		for (size_t i = 0; d->has_acl > 0 && i < d->n_acl; i++) {
			char t[48];

			acl_text(&d->acl[i], t, sizeof(t));
			json_array_append_new(acl, json_string(t));
		}
	}
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", d->name,
			 "nic", json_string_or_null(d->nic),
			 "port", d->port ? json_integer(d->port) : json_null(),
			 "present", d->present < 0 ? json_null() : json_boolean(d->present),
			 "char_device", there ? json_boolean(d->chr) : json_null(),
			 "mode", there ? json_string(mode) : json_null(),
			 "uid", there ? json_integer(d->uid) : json_null(),
			 "gid", there ? json_integer(d->gid) : json_null(),
			 "owner", json_string_or_null(there ? d->owner : NULL),
			 "group", json_string_or_null(there ? d->group : NULL),
			 "acl", acl,
			 "why", json_string_or_null(d->present < 0 ? d->why : NULL));
}

static json_t *bytes_json(uint64_t b)
{
	return b == MEMLOCK_INFINITY || b > INT64_MAX ? json_null() : json_integer((json_int_t)b);
}

static json_t *limit_json(const struct unit_limit *l)
{
	if (!l->set)
		return json_null();
	return json_pack("{s:o, s:b, s:o, s:b, s:s}",
			 "soft_bytes", bytes_json(l->soft),
			 "soft_unlimited", l->soft == MEMLOCK_INFINITY,
			 "hard_bytes", bytes_json(l->hard),
			 "hard_unlimited", l->hard == MEMLOCK_INFINITY,
			 "source", l->source ? l->source : "");
}

static json_t *memlock_json(const struct job_memlock *m)
{
	json_t *lines = json_array();

	for (size_t i = 0; i < m->n_lines; i++) {
		const struct memlock_line *l = &m->lines[i];

		json_array_append_new(lines, json_pack(
			"{s:s, s:i, s:s, s:o, s:o, s:o, s:b}",
			"file", l->file, "line", l->line, "domain", l->domain,
			"type", l->no_limits ? json_null() :
				json_string(l->soft && l->hard ? "-" : l->soft ? "soft" : "hard"),
			"value", l->no_limits ? json_null() : json_string(l->value),
			"bytes", l->no_limits ? json_null() : bytes_json(l->bytes),
			"unlimited", !l->no_limits && l->bytes == MEMLOCK_INFINITY));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:b, s:o, s:o}",
			 "slurmd_unit", json_string_or_null(m->slurmd_unit),
			 "slurmd_unit_readable", m->slurmd < 0 ? json_false() : json_true(),
			 "slurmd_limit", limit_json(&m->slurmd_limit),
			 "systemd_default", limit_json(&m->manager_default),
			 "limits_conf", m->limits_conf,
			 "limits_lines", lines,
			 "unreadable", json_string_or_null(m->unreadable));
}

void access_json_add(json_t *host, const struct dev_access *a)
{
	json_t *nodes;

	if (!host)
		return;
	if (!a) {
		json_object_set_new(host, "device_nodes", json_null());
		json_object_set_new(host, "job_memlock", json_null());
		return;
	}
	nodes = json_array();
	for (size_t i = 0; i < a->n_nodes; i++)
		json_array_append_new(nodes, node_json(&a->nodes[i]));
	json_object_set_new(host, "device_nodes", nodes);
	json_object_set_new(host, "job_memlock", memlock_json(&a->memlock));
}

static void node_text(FILE *out, const struct dev_node *d)
{
	static const char rwx[] = "rwxrwxrwx";
	char bits[10];

	text_printf(out, "%s ", d->name);
	if (d->present == 0) {
		fputs("missing", out);
		return;
	}
	if (d->present < 0) {
		fputs("?", out);
		return;
	}
	for (int i = 0; i < 9; i++)
		bits[i] = d->mode & (1u << (8 - i)) ? rwx[i] : '-';
	bits[9] = '\0';
	text_printf(out, "%c%s%s ", d->chr ? 'c' : '?', bits,
		    d->has_acl > 0 ? "+" : d->has_acl < 0 ? "?" : "");
	if (d->owner)
		text_printf(out, "%s", d->owner);
	else
		text_printf(out, "%" PRIu32, d->uid);
	if (d->group)
		text_printf(out, ":%s", d->group);
	else
		text_printf(out, ":%" PRIu32, d->gid);
}

void access_text_nic(FILE *out, const struct dev_access *a, const char *nic)
{
	size_t shown = 0;

	for (size_t i = 0; a && nic && i < a->n_nodes; i++) {
		if (!a->nodes[i].nic || strcmp(a->nodes[i].nic, nic))
			continue;
		fputs(shown++ ? ", " : "    nodes ", out);
		node_text(out, &a->nodes[i]);
	}
	if (shown)
		fputc('\n', out);
}

static void size_text(FILE *out, uint64_t b)
{
	if (b == MEMLOCK_INFINITY)
		fputs("unlimited", out);
	else if (b && b % 1024 == 0)
		text_printf(out, "%" PRIu64 " KiB", b >> 10);
	else
		text_printf(out, "%" PRIu64 " bytes", b);
}

static void limit_text(FILE *out, const struct unit_limit *l)
{
	size_text(out, l->soft);
	if (l->hard != l->soft) {
		fputs(" soft, ", out);
		size_text(out, l->hard);
		fputs(" hard", out);
	}
	text_printf(out, " (%s)", l->source ? l->source : "?");
}

void access_text_host(FILE *out, const struct dev_access *a)
{
	const struct job_memlock *m;

	if (!a)
		return;
	for (size_t i = 0; i < a->n_nodes; i++)
		if (!a->nodes[i].nic) {
			fputs("  ", out);
			node_text(out, &a->nodes[i]);
			fputc('\n', out);
		}
	m = &a->memlock;
	fputs("  jobs' memlock: slurmd ", out);
	if (m->slurmd == 0) {
		fputs("no unit", out);
	} else if (m->slurmd < 0) {
		fputs("unit not readable", out);
	} else if (m->slurmd_limit.set) {
		limit_text(out, &m->slurmd_limit);
	} else if (m->manager_default.set) {
		fputs("systemd default ", out);
		limit_text(out, &m->manager_default);
	} else {
		text_printf(out, "systemd default (%s sets no LimitMEMLOCK)", m->slurmd_unit);
	}
	fputs("\n  limits.conf", out);
	if (!m->n_lines)
		fputs(" no memlock lines", out);
	for (size_t i = 0; i < m->n_lines; i++) {
		const struct memlock_line *l = &m->lines[i];

		text_printf(out, "%s %s %s", i ? "," : "", l->domain,
			    l->no_limits ? "-" : l->soft && l->hard ? "-" : l->soft ? "soft" : "hard");
		if (!l->no_limits) {
			fputs(" memlock ", out);
			size_text(out, l->bytes);
		}
		text_printf(out, " (%s:%d)", l->file, l->line);
	}
	fputc('\n', out);
}
