/* The fabric's rank-to-rank texts (wire.h). */
#include "wire.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- endpoint ---- */

char *fab_endpoint_encode(const struct fab_endpoint *ep)
{
	char secret[FAB_SECRET_HEX_LEN + 1];
	json_t *o;
	char *s;

	fab_secret_to_hex(ep->secret, secret);
	o = json_pack("{s:i, s:s, s:s, s:i, s:i, s:s, s:f, s:s}", "v", FAB_WIRE_VERSION, "name",
		      ep->name, "addr", ep->addr, "port", (int)ep->port, "rails", (int)ep->n_rails,
		      "transport", ep->transport, "t0", ep->t0, "secret", secret);
	if (!o)
		return NULL;
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

static int load(const char *text, size_t len, json_t **o, char *err, size_t errsz)
{
	json_error_t je;

	if (len > FAB_WIRE_TEXT_MAX) {
		snprintf(err, errsz, "text of %zu bytes is over the limit", len);
		return -1;
	}
	*o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!*o || !json_is_object(*o)) {
		snprintf(err, errsz, "not a JSON object: %.100s", *o ? "" : je.text);
		json_decref(*o);
		*o = NULL;
		return -1;
	}
	if (json_integer_value(json_object_get(*o, "v")) != FAB_WIRE_VERSION) {
		snprintf(err, errsz, "version is not %d (mixed rdmadoctor versions?)",
			 FAB_WIRE_VERSION);
		json_decref(*o);
		*o = NULL;
		return -1;
	}
	return 0;
}

/* A string field of at most max bytes, printable, copied into out. */
static int str_field(json_t *o, const char *key, size_t max, char *out, char *err, size_t errsz)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	size_t n = json_string_length(v);

	if (!s || n == 0 || n > max) {
		snprintf(err, errsz, "'%s' missing, empty or longer than %zu bytes", key, max);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			snprintf(err, errsz, "'%s' has a control character", key);
			return -1;
		}
	memcpy(out, s, n + 1);
	return 0;
}

static int int_field(json_t *o, const char *key, long long min, long long max, long long *out,
		     char *err, size_t errsz)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
		snprintf(err, errsz, "'%s' is not a number from %lld to %lld", key, min, max);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

int fab_endpoint_decode(const char *text, size_t len, struct fab_endpoint *ep, char *err,
			size_t errsz)
{
	json_t *o;
	long long port, rails;
	json_t *t0;
	char secret[FAB_SECRET_HEX_LEN + 1];
	int rc = -1;

	memset(ep, 0, sizeof(*ep));
	if (load(text, len, &o, err, errsz) < 0)
		return -1;
	if (str_field(o, "name", FAB_NAME_MAX, ep->name, err, errsz) < 0 ||
	    str_field(o, "addr", FAB_ADDR_MAX, ep->addr, err, errsz) < 0 ||
	    str_field(o, "transport", sizeof(ep->transport) - 1, ep->transport, err, errsz) < 0 ||
	    int_field(o, "port", 1, 65535, &port, err, errsz) < 0 ||
	    int_field(o, "rails", 1, 32, &rails, err, errsz) < 0 ||
	    str_field(o, "secret", FAB_SECRET_HEX_LEN, secret, err, errsz) < 0)
		goto out;
	if (fab_secret_from_hex(secret, strlen(secret), ep->secret) < 0) {
		snprintf(err, errsz, "'secret' is not %d hex digits", FAB_SECRET_HEX_LEN);
		goto out;
	}
	if (strcmp(ep->transport, "tcp") != 0 && strcmp(ep->transport, "verbs") != 0) {
		snprintf(err, errsz, "unknown transport");
		goto out;
	}
	t0 = json_object_get(o, "t0");
	if (!json_is_number(t0) || !isfinite(json_number_value(t0)) || json_number_value(t0) < 0) {
		snprintf(err, errsz, "'t0' is not a time");
		goto out;
	}
	ep->port = (uint16_t)port;
	ep->n_rails = (uint32_t)rails;
	ep->t0 = json_number_value(t0);
	rc = 0;
out:
	json_decref(o);
	return rc;
}

/* ---- results ---- */

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

char *fab_results_encode(const struct fab_result *r, size_t n)
{
	json_t *o = json_object(), *a = json_array();
	char *s = NULL;

	if (!o || !a || json_object_set_new(o, "v", json_integer(FAB_WIRE_VERSION)) < 0 ||
	    json_object_set(o, "results", a) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_pack("{s:i, s:i, s:i, s:b, s:o, s:o, s:o}", "round",
				      (int)r[i].round, "b", (int)r[i].b, "rail", (int)r[i].rail,
				      "retest", r[i].retest, "ab", num_or_null(r[i].ab), "ba",
				      num_or_null(r[i].ba), "lat", num_or_null(r[i].lat_usec));

		if (!e || (r[i].error && json_object_set_new(e, "error",
							     json_stringn(r[i].error,
									  strnlen(r[i].error,
										  FAB_ERROR_MAX))) < 0) ||
		    json_array_append_new(a, e) < 0)
			goto out;
	}
	s = json_dumps(o, JSON_COMPACT);
out:
	json_decref(a);
	json_decref(o);
	return s;
}

char *fab_wire_error(const char *msg)
{
	char *s = strndup(msg, FAB_ERROR_MAX);

	for (char *p = s; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

void fab_results_free(struct fab_results *res)
{
	for (size_t i = 0; res->errors && i < res->n; i++)
		free(res->errors[i]);
	free(res->errors);
	free(res->r);
	memset(res, 0, sizeof(*res));
}

static int gbps_field(json_t *e, const char *key, double *out, char *err, size_t errsz)
{
	json_t *v = json_object_get(e, key);

	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0 ||
	    json_number_value(v) > 1e7) {
		snprintf(err, errsz, "'%s' is not a figure", key);
		return -1;
	}
	*out = json_number_value(v);
	return 0;
}

int fab_results_decode(const char *text, size_t len, uint32_t self, uint32_t n_nodes,
		       uint32_t n_rounds, uint32_t n_rails, struct fab_results *out, char *err,
		       size_t errsz)
{
	json_t *o, *a;
	size_t n;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (load(text, len, &o, err, errsz) < 0)
		return -1;
	a = json_object_get(o, "results");
	if (!json_is_array(a) || (n = json_array_size(a)) > FAB_RESULTS_MAX) {
		snprintf(err, errsz, "'results' is not an array of at most %u", FAB_RESULTS_MAX);
		goto out;
	}
	out->r = calloc(n ? n : 1, sizeof(*out->r));
	out->errors = calloc(n ? n : 1, sizeof(char *));
	if (!out->r || !out->errors) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(a, i), *ev, *rt;
		struct fab_result *r = &out->r[i];
		long long round, b, rail;

		out->n = i + 1;
		if (!json_is_object(e) ||
		    int_field(e, "round", 0, (long long)n_rounds - 1, &round, err, errsz) < 0 ||
		    int_field(e, "b", 0, (long long)n_nodes - 1, &b, err, errsz) < 0 ||
		    int_field(e, "rail", 0, (long long)n_rails - 1, &rail, err, errsz) < 0 ||
		    gbps_field(e, "ab", &r->ab, err, errsz) < 0 ||
		    gbps_field(e, "ba", &r->ba, err, errsz) < 0 ||
		    gbps_field(e, "lat", &r->lat_usec, err, errsz) < 0) {
			if (!json_is_object(e))
				snprintf(err, errsz, "a result is not an object");
			goto out;
		}
		if ((uint32_t)b == self) {
			snprintf(err, errsz, "a result of a node with itself");
			goto out;
		}
		rt = json_object_get(e, "retest");
		if (!json_is_boolean(rt)) {
			snprintf(err, errsz, "'retest' is not true or false");
			goto out;
		}
		r->a = self;
		r->b = (uint32_t)b;
		r->rail = (uint32_t)rail;
		r->round = (uint32_t)round;
		r->retest = json_is_true(rt);
		ev = json_object_get(e, "error");
		if (ev) {
			char buf[FAB_ERROR_MAX + 1];

			if (str_field(e, "error", FAB_ERROR_MAX, buf, err, errsz) < 0)
				goto out;
			if (!(out->errors[i] = strdup(buf))) {
				snprintf(err, errsz, "out of memory");
				goto out;
			}
			r->error = out->errors[i];
		}
	}
	out->n = n;
	rc = 0;
out:
	if (rc < 0)
		fab_results_free(out);
	json_decref(o);
	return rc;
}

bool fab_name_printable(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > FAB_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f || s[i] == '#')
			return false;
	return true;
}
