/* The advice's lists (nccl/advice_list.h): variables, warnings and errors
 * grow as the rules add them; port lists are written into a memstream, so
 * no name is ever cut to fit a buffer. */
#include "advice_list.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *advice_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static int add(struct nccl_advice *a, const char *name, char *value, char *why)
{
	struct nccl_var *v = growbuf_reserve(a->v, &a->cap, a->n + 1, sizeof(*a->v));

	if (!v || !why) {
		free(value);
		free(why);
		return -ENOMEM;
	}
	a->v = v;
	a->v[a->n++] = (struct nccl_var){ .name = name, .value = value, .why = why };
	return 0;
}

int advice_set(struct nccl_advice *a, const char *name, char *value, char *why)
{
	if (!value) {
		free(why);
		return -ENOMEM;
	}
	return add(a, name, value, why);
}

int advice_leave(struct nccl_advice *a, const char *name, char *why)
{
	return add(a, name, NULL, why);
}

__attribute__((format(printf, 4, 0)))
static int push(char ***v, size_t *n, size_t *cap, const char *fmt, va_list ap)
{
	char **grown = growbuf_reserve(*v, cap, *n + 1, sizeof(**v));
	char *s;

	if (!grown)
		return -ENOMEM;
	*v = grown;
	if (vasprintf(&s, fmt, ap) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = s;
	return 0;
}

int advice_warn(struct nccl_advice *a, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = push(&a->warnings, &a->n_warnings, &a->cap_warnings, fmt, ap);
	va_end(ap);
	return rc;
}

int advice_error(struct nccl_advice *a, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = push(&a->errors, &a->n_errors, &a->cap_errors, fmt, ap);
	va_end(ap);
	return rc;
}

bool advice_rail_up(const struct nccl_port *p)
{
	return p->role == ROLE_RAIL && p->up == 1;
}

char *advice_ports(const struct nccl_facts *f, bool (*keep)(const struct nccl_port *),
		   const char *sep)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	bool first = true;

	if (!m)
		return NULL;
	for (size_t i = 0; i < f->n_ports; i++) {
		if (!keep(&f->ports[i]))
			continue;
		fprintf(m, "%s%s:%d", first ? "" : sep, f->ports[i].dev, f->ports[i].port);
		first = false;
	}
	if (fclose(m) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

void nccl_advice_free(struct nccl_advice *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].value);
		free(a->v[i].why);
	}
	free(a->v);
	for (size_t i = 0; i < a->n_warnings; i++)
		free(a->warnings[i]);
	free(a->warnings);
	for (size_t i = 0; i < a->n_errors; i++)
		free(a->errors[i]);
	free(a->errors);
	memset(a, 0, sizeof(*a));
	a->library = NULL;
}
