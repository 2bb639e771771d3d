/* fabric --load's rank-to-rank text of port loads (load_wire.h). */
#include "load_wire.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_MAX 1e5		/* Gb/s: ten times any port there is */

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

/* s (n bytes, from a peer) fit to be shown in an error: printable, cut. */
static const char *shown(const char *s, size_t n, char *buf, size_t size)
{
	size_t k = 0;

	for (; k < n && k + 4 < size; k++)
		buf[k] = s[k] >= 0x20 && s[k] <= 0x7e ? s[k] : '?';
	if (k < n && size >= 4) {
		memcpy(buf + k, "...", 3);
		k += 3;
	}
	buf[k] = 0;
	return buf;
}

/* A counter name the judge knows: 0, or -1 with err naming it. */
static int name_ok(const char *s, size_t n, char *err, size_t errsz)
{
	char b[FAB_LOAD_NAME_MAX + 4];

	if (n == 0 || n > FAB_LOAD_NAME_MAX || !printable(s, n) || strlen(s) != n) {
		snprintf(err, errsz, "counter name '%s' is empty, longer than %d bytes or not "
			 "printable", shown(s, n, b, sizeof(b)), FAB_LOAD_NAME_MAX);
		return -1;
	}
	if (strncmp(s, "hw:", 3) != 0 && strncmp(s, "eth:", 4) != 0 &&
	    strncmp(s, "net:", 4) != 0 && strncmp(s, "dcb:", 4) != 0) {
		snprintf(err, errsz, "counter '%s' has no known prefix (hw:, eth:, net:, dcb:)", s);
		return -1;
	}
	if (fab_counter_kind(s, NULL) == FAB_CK_NONE) {
		snprintf(err, errsz, "counter '%s' is not one the load test judges by", s);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A name twice in one port would count its growth twice. */
static int names_unique(const struct fab_cdelta *c, size_t n, char *err, size_t errsz)
{
	const char *names[FAB_LOAD_COUNTERS_MAX];	/* n is checked against it first */

	for (size_t i = 0; i < n; i++)
		names[i] = c[i].name;
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 1; i < n; i++)
		if (strcmp(names[i - 1], names[i]) == 0) {
			snprintf(err, errsz, "counter '%s' given twice in one port", names[i]);
			return -1;
		}
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* One port load per round and rail: two would be judged by the first. */
static int ports_unique(const struct fab_port_load *p, size_t n, char *err, size_t errsz)
{
	uint64_t *k = malloc((n ? n : 1) * sizeof(*k));
	int rc = 0;

	if (!k) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (uint64_t)p[i].round << 32 | p[i].rail;
	qsort(k, n, sizeof(*k), cmp_u64);
	for (size_t i = 1; i < n && !rc; i++)
		if (k[i - 1] == k[i]) {
			snprintf(err, errsz, "two port loads of round %u rail %u",
				 (unsigned)(k[i] >> 32), (unsigned)(k[i] & 0xffffffffu));
			rc = -1;
		}
	free(k);
	return rc;
}

/* ---- encode ---- */

static json_t *counters_json(const struct fab_port_load *p)
{
	json_t *a = json_array();
	char err[160];

	if (!a || p->n > FAB_LOAD_COUNTERS_MAX)
		goto fail;
	for (size_t i = 0; i < p->n; i++) {
		const struct fab_cdelta *c = &p->c[i];
		uint64_t d = c->delta > INT64_MAX ? INT64_MAX : c->delta;

		if (!c->name || name_ok(c->name, strnlen(c->name, FAB_LOAD_NAME_MAX + 1), err,
					sizeof(err)) < 0 ||
		    json_array_append_new(a, json_pack("[s, I, b]", c->name, (json_int_t)d,
						       c->reset)) < 0)
			goto fail;
	}
	if (names_unique(p->c, p->n, err, sizeof(err)) < 0)
		goto fail;
	return a;
fail:
	json_decref(a);
	return NULL;
}

static json_t *port_json(const struct fab_port_load *p)
{
	bool rate = isfinite(p->rate_gbps) && p->rate_gbps >= 0 && p->rate_gbps <= RATE_MAX;
	bool pfc = p->pfc_mask >= 0 && p->pfc_mask <= 255;
	json_t *c = counters_json(p), *o;

	if (!c)
		return NULL;
	o = json_pack("{s:I, s:I, s:o, s:o, s:o}", "round", (json_int_t)p->round, "rail",
		      (json_int_t)p->rail, "rate", rate ? json_real(p->rate_gbps) : json_null(),
		      "pfc", pfc ? json_integer(p->pfc_mask) : json_null(), "c", c);
	if (o && p->unread) {
		char u[FAB_ERROR_MAX + 1];
		size_t n = strnlen(p->unread, FAB_ERROR_MAX);

		for (size_t i = 0; i < n; i++)
			u[i] = p->unread[i] >= 0x20 && p->unread[i] <= 0x7e ? p->unread[i] : '?';
		u[n] = 0;
		if (json_object_set_new(o, "unread", json_string(n ? u : "unknown")) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

char *fab_load_encode(const struct fab_port_load *p, size_t n)
{
	json_t *o = json_object(), *a = json_array();
	char err[160];
	char *s = NULL;

	if (!o || !a || n > FAB_LOAD_PORTS_MAX || ports_unique(p, n, err, sizeof(err)) < 0 ||
	    json_object_set_new(o, "v", json_integer(FAB_LOAD_WIRE_VERSION)) < 0 ||
	    json_object_set(o, "ports", a) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (json_array_append_new(a, port_json(&p[i])) < 0)
			goto out;
	s = json_dumps(o, JSON_COMPACT);
out:
	json_decref(a);
	json_decref(o);
	return s;
}

/* ---- decode ---- */

void fab_load_ports_free(struct fab_load_ports *lp)
{
	free(lp->p);
	free(lp->c);
	free(lp->text);
	memset(lp, 0, sizeof(*lp));
}

static int uint_field(json_t *o, const char *key, uint32_t bound, uint32_t *out, char *err,
		      size_t errsz)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) >= (json_int_t)bound) {
		snprintf(err, errsz, "'%s' is not a number from 0 to %lld", key,
			 (long long)bound - 1);
		return -1;
	}
	*out = (uint32_t)json_integer_value(v);
	return 0;
}

/* What the text will need: counters and bytes of names and texts. */
static int measure(json_t *ports, size_t *n_c, size_t *n_text, char *err, size_t errsz)
{
	size_t i;
	json_t *p;

	*n_c = *n_text = 0;
	json_array_foreach(ports, i, p) {
		json_t *c = json_object_get(p, "c"), *u = json_object_get(p, "unread"), *e;
		size_t k;

		if (!json_is_object(p) || !json_is_array(c) ||
		    json_array_size(c) > FAB_LOAD_COUNTERS_MAX) {
			snprintf(err, errsz, "port %zu is not an object with 'c' an array of at "
				 "most %d counters", i, FAB_LOAD_COUNTERS_MAX);
			return -1;
		}
		*n_c += json_array_size(c);
		if (json_is_string(u))
			*n_text += json_string_length(u) + 1;
		json_array_foreach(c, k, e)
			if (json_is_string(json_array_get(e, 0)))
				*n_text += json_string_length(json_array_get(e, 0)) + 1;
	}
	return 0;
}

/* Copy n bytes of s into the text block at *at. */
static const char *keep(struct fab_load_ports *out, size_t *at, const char *s, size_t n)
{
	char *d = out->text + *at;

	memcpy(d, s, n);
	d[n] = 0;
	*at += n + 1;
	return d;
}

static int counter(json_t *e, struct fab_load_ports *out, size_t *at, struct fab_cdelta *c,
		   char *err, size_t errsz)
{
	json_t *name = json_array_get(e, 0), *d = json_array_get(e, 1), *r = json_array_get(e, 2);

	if (!json_is_array(e) || json_array_size(e) != 3 || !json_is_string(name) ||
	    !json_is_integer(d) || !json_is_boolean(r)) {
		snprintf(err, errsz, "a counter is not [name, delta, reset]");
		return -1;
	}
	if (name_ok(json_string_value(name), json_string_length(name), err, errsz) < 0)
		return -1;
	if (json_integer_value(d) < 0) {
		snprintf(err, errsz, "counter '%s' has a negative delta", json_string_value(name));
		return -1;
	}
	c->name = keep(out, at, json_string_value(name), json_string_length(name));
	c->delta = (uint64_t)json_integer_value(d);
	c->reset = json_is_true(r);
	return 0;
}

static int port(json_t *o, uint32_t self, uint32_t n_rounds, uint32_t n_rails,
		struct fab_load_ports *out, size_t *at_c, size_t *at_text, struct fab_port_load *p,
		char *err, size_t errsz)
{
	json_t *rate = json_object_get(o, "rate"), *pfc = json_object_get(o, "pfc");
	json_t *u = json_object_get(o, "unread"), *c = json_object_get(o, "c"), *e;
	struct fab_cdelta *cs = out->c + *at_c;
	size_t k;

	p->rank = self;
	if (uint_field(o, "round", n_rounds, &p->round, err, errsz) < 0 ||
	    uint_field(o, "rail", n_rails, &p->rail, err, errsz) < 0)
		return -1;
	if (json_is_null(rate) || !rate) {
		p->rate_gbps = NAN;
	} else if (!json_is_number(rate) || !isfinite(json_number_value(rate)) ||
		   json_number_value(rate) < 0 || json_number_value(rate) > RATE_MAX) {
		snprintf(err, errsz, "'rate' is not a rate from 0 to %g Gb/s", RATE_MAX);
		return -1;
	} else {
		p->rate_gbps = json_number_value(rate);
	}
	if (json_is_null(pfc) || !pfc) {
		p->pfc_mask = -1;
	} else if (!json_is_integer(pfc) || json_integer_value(pfc) < 0 ||
		   json_integer_value(pfc) > 255) {
		snprintf(err, errsz, "'pfc' is not a priority mask from 0 to 255");
		return -1;
	} else {
		p->pfc_mask = (int)json_integer_value(pfc);
	}
	if (u) {
		size_t n = json_string_length(u);

		if (!json_is_string(u) || n == 0 || n > FAB_ERROR_MAX ||
		    !printable(json_string_value(u), n) || strlen(json_string_value(u)) != n) {
			snprintf(err, errsz, "'unread' is not 1 to %d bytes of printable text",
				 FAB_ERROR_MAX);
			return -1;
		}
		p->unread = keep(out, at_text, json_string_value(u), n);
	}
	json_array_foreach(c, k, e)
		if (counter(e, out, at_text, &cs[k], err, errsz) < 0)
			return -1;
	p->c = cs;
	p->n = json_array_size(c);
	*at_c += p->n;
	return names_unique(p->c, p->n, err, errsz);
}

int fab_load_decode(const char *text, size_t len, uint32_t self, uint32_t n_rounds,
		    uint32_t n_rails, struct fab_load_ports *out, char *err, size_t errsz)
{
	json_error_t je;
	json_t *o, *ports, *p;
	size_t n, n_c, n_text, at_c = 0, at_text = 0, i;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (len > FAB_WIRE_TEXT_MAX) {
		snprintf(err, errsz, "text of %zu bytes is over the limit", len);
		return -1;
	}
	o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!o || !json_is_object(o)) {
		snprintf(err, errsz, "not a JSON object: %.100s", o ? "" : je.text);
		goto out;
	}
	if (!json_is_integer(json_object_get(o, "v")) ||
	    json_integer_value(json_object_get(o, "v")) != FAB_LOAD_WIRE_VERSION) {
		snprintf(err, errsz, "version is not %d (mixed rdmadoctor versions?)",
			 FAB_LOAD_WIRE_VERSION);
		goto out;
	}
	ports = json_object_get(o, "ports");
	if (!json_is_array(ports) || (n = json_array_size(ports)) > FAB_LOAD_PORTS_MAX) {
		snprintf(err, errsz, "'ports' is not an array of at most %u", FAB_LOAD_PORTS_MAX);
		goto out;
	}
	if (measure(ports, &n_c, &n_text, err, errsz) < 0)
		goto out;
	out->p = calloc(n ? n : 1, sizeof(*out->p));
	out->c = calloc(n_c ? n_c : 1, sizeof(*out->c));
	out->text = malloc(n_text ? n_text : 1);
	if (!out->p || !out->c || !out->text) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	json_array_foreach(ports, i, p)
		if (port(p, self, n_rounds, n_rails, out, &at_c, &at_text, &out->p[i], err,
			 errsz) < 0)
			goto out;
	out->n = n;
	rc = ports_unique(out->p, n, err, errsz);
out:
	if (rc < 0)
		fab_load_ports_free(out);
	json_decref(o);
	return rc;
}
