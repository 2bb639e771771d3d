/* The option tables' parser, --help printer and JSON dump (opts.h). */
#include "opts.h"
#include "../model/nearest.h"
#include "opt_parse.h"
#include "../pipeline/ctx.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int set_color(struct ctx *c, void *args, const char *v)
{
	(void)args;
	if (strcmp(v, "auto") == 0)
		c->color = COLOR_AUTO;
	else if (strcmp(v, "always") == 0)
		c->color = COLOR_ALWAYS;
	else if (strcmp(v, "never") == 0)
		c->color = COLOR_NEVER;
	else {
		fprintf(stderr, "%s: --color '%s': give auto, always or never\n", c->prog, v);
		return EXIT_USAGE;
	}
	return CMD_GO_ON;
}

/* The global options write into struct ctx itself. */
static const struct cmd_opt global_opts[] = {
	{ "root", 0, "DIR", OPT_STRING_AT(struct ctx, root_dir), .flags = OPT_NONEMPTY,
	  .needs = "a directory",
	  .help = "read DIR as if it were / (a snapshot or a fixture tree)" },
	{ "json", 0, NULL, OPT_FLAG_AT(struct ctx, json),
	  .help = "one JSON document on stdout" },
	{ "color", 0, "WHEN", OPT_CALL_AT(set_color),
	  .help = "colour in text: auto (on a terminal, unless NO_COLOR is\n"
		  "set and not empty), always or never" },
	{ "quiet", 'q', NULL, OPT_FLAG_AT(struct ctx, quiet), .help = "say less on stderr" },
	{ "verbose", 'v', NULL, OPT_FLAG_AT(struct ctx, verbose),
	  .help = "say why values are missing or malformed" },
	{ 0 }
};

/* ---- did you mean ---- */

const char *opts_nearest(const char *word, const char *const *candidates, size_t n)
{
	return nearest_name(word, candidates, n);
}

/* ---- parsing ---- */

bool ctx_parse_seconds(const char *s, double min, double max, double *out)
{
	return opt_parse_number(s, min, max, out);
}

static size_t count_opts(const struct cmd_opt *t)
{
	size_t n = 0;

	while (t && t[n].name)
		n++;
	return n;
}

/* The row of table t that arg names ("--name", "--name=v", "-x"); *value
 * points at the "=v" part's value, or NULL. */
static const struct cmd_opt *find_opt(const struct cmd_opt *t, const char *arg,
				      const char **value)
{
	*value = NULL;
	for (size_t i = 0; t && t[i].name; i++) {
		size_t n = strlen(t[i].name);

		if (arg[1] == '-' && strncmp(arg + 2, t[i].name, n) == 0 &&
		    (arg[2 + n] == 0 || arg[2 + n] == '=')) {
			if (arg[2 + n] == '=')
				*value = arg + 3 + n;
			return &t[i];
		}
		if (arg[1] != '-' && t[i].short_name && arg[1] == t[i].short_name && !arg[2])
			return &t[i];
	}
	return NULL;
}

static void say_opt(char *buf, size_t cap, const struct cmd_opt *o, const char *arg)
{
	if (arg[1] != '-')
		snprintf(buf, cap, "-%c", o->short_name);
	else
		snprintf(buf, cap, "--%s", o->name);
}

static int take_value(struct ctx *c, const char *who, const struct cmd_opt *o,
		      const char *spelled, void *dest, const char *v)
{
	char *p = (char *)dest + o->offset;

	if (!v || (!*v && (o->flags & OPT_NONEMPTY))) {
		fprintf(stderr, "%s%s: %s needs %s\n", c->prog, who, spelled,
			o->needs ? o->needs : "a value");
		return EXIT_USAGE;
	}
	switch (o->type) {
	case OPT_STRING:
		memcpy(p, &v, sizeof(v));
		return CMD_GO_ON;
	case OPT_SECONDS: {
		double s;

		if (!ctx_parse_seconds(v, o->min, o->max, &s) ||
		    ((o->flags & OPT_WHOLE) && s != floor(s))) {
			fprintf(stderr, "%s%s: %s '%s': give %sseconds from %g to %g\n", c->prog,
				who, spelled, v, (o->flags & OPT_WHOLE) ? "whole " : "", o->min,
				o->max);
			return EXIT_USAGE;
		}
		memcpy(p, &s, sizeof(s));
		return CMD_GO_ON;
	}
	case OPT_CALL:
		return o->call(c, dest, v);
	case OPT_FLAG:
		break;
	}
	return CMD_GO_ON;
}

/* Every long option name of the command and the global ones, for "did you
 * mean"; the caller frees the array. */
static const char **opt_names(const struct cmd_opt *t, size_t *n)
{
	size_t nt = count_opts(t), ng = count_opts(global_opts), k = 0;
	const char **names = malloc((nt + ng + 1) * sizeof(*names));

	if (!names)
		return NULL;
	for (size_t i = 0; i < nt; i++)
		names[k++] = t[i].name;
	for (size_t i = 0; i < ng; i++)
		names[k++] = global_opts[i].name;
	names[k++] = "help";
	*n = k;
	return names;
}

void opts_say_unknown(struct ctx *c, const struct cmd_spec *spec, const char *arg)
{
	const char *who = spec ? spec->name : NULL;
	const char *hint = NULL;
	size_t n = 0;
	const char **names = arg[0] == '-' && arg[1] == '-' ? opt_names(spec ? spec->opts : NULL,
									&n) : NULL;

	if (names) {
		char word[64];
		const char *eq = strchr(arg + 2, '=');
		size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

		if (len < sizeof(word)) {
			memcpy(word, arg + 2, len);
			word[len] = 0;
			hint = opts_nearest(word, names, n);
		}
	}
	fprintf(stderr, "%s%s%s: unexpected argument '%s'%s", c->prog, who ? " " : "",
		who ? who : "", arg, arg[0] == '-' && arg[1] ? ": unknown option" : "");
	if (hint)
		fprintf(stderr, " (did you mean '--%s'?)", hint);
	fprintf(stderr, "\n`%s %s%s--help` lists the options\n", c->prog, who ? who : "",
		who ? " " : "");
	free(names);
}

static void print_help(const struct cmd_spec *spec, FILE *out);

/* One option at argv[*i]: from the command's table, else the global one. */
static int parse_opt(struct ctx *c, const struct cmd_spec *spec, int argc, char **argv,
		     int *i, void *args)
{
	const char *arg = argv[*i], *v;
	const struct cmd_opt *o = spec ? find_opt(spec->opts, arg, &v) : NULL;
	void *dest = args;
	char who[64], spelled[80];

	if (!o) {
		o = find_opt(global_opts, arg, &v);
		dest = c;
	}
	if (!o) {
		opts_say_unknown(c, spec, arg);
		return EXIT_USAGE;
	}
	snprintf(who, sizeof(who), "%s%s", spec ? " " : "", spec ? spec->name : "");
	say_opt(spelled, sizeof(spelled), o, arg);
	if (o->type == OPT_FLAG) {
		if (v) {
			fprintf(stderr, "%s%s: %s takes no value\n", c->prog, who, spelled);
			return EXIT_USAGE;
		}
		*((bool *)((char *)dest + o->offset)) = true;
		return CMD_GO_ON;
	}
	if (!v && *i + 1 < argc)
		v = argv[++*i];
	return take_value(c, who, o, spelled, dest, v);
}

static bool is_help(const char *a)
{
	return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

int opts_parse(struct ctx *c, const struct cmd_spec *spec, int argc, char **argv, void *args,
	       int *n_operands)
{
	int n = 0;
	bool options = true;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (options && strcmp(a, "--") == 0) {
			options = false;
		} else if (options && is_help(a)) {
			print_help(spec, stdout);
			return EXIT_OK;
		} else if (options && a[0] == '-' && a[1]) {
			int rc = parse_opt(c, spec, argc, argv, &i, args);

			if (rc != CMD_GO_ON)
				return rc;
		} else if (n == spec->max_operands) {
			opts_say_unknown(c, spec, a);
			return EXIT_USAGE;
		} else {
			argv[++n] = argv[i];	/* i >= n: nothing unread is overwritten */
		}
	}
	if (n < spec->min_operands) {
		fprintf(stderr, "%s %s: missing %s\n`%s %s --help` explains it\n", c->prog,
			spec->name, spec->operands ? spec->operands : "an argument", c->prog,
			spec->name);
		return EXIT_USAGE;
	}
	*n_operands = n;
	return CMD_GO_ON;
}

int opts_parse_global(struct ctx *c, int argc, char **argv, int *next)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *v;
		int rc;

		if (!find_opt(global_opts, argv[i], &v))
			break;
		rc = parse_opt(c, NULL, argc, argv, &i, NULL);

		if (rc != CMD_GO_ON)
			return rc;
	}
	*next = i;
	return CMD_GO_ON;
}

/* ---- help ---- */

static int opt_label(char *buf, size_t cap, const struct cmd_opt *o)
{
	char s[8] = "";

	if (o->short_name)
		snprintf(s, sizeof(s), "-%c, ", o->short_name);
	return snprintf(buf, cap, "%s--%s%s%s", s, o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
}

#define HELP_COL 23

static void print_table(FILE *out, const struct cmd_opt *t)
{
	for (size_t i = 0; t && t[i].name; i++) {
		char label[96];
		const char *h = t[i].help ? t[i].help : "";
		int w;

		if (t[i].flags & OPT_HIDDEN)
			continue;
		w = opt_label(label, sizeof(label), &t[i]);
		fprintf(out, "  %s", label);
		if (w + 4 > HELP_COL)
			fprintf(out, "\n%*s", HELP_COL, "");
		else
			fprintf(out, "%*s", HELP_COL - 2 - w, "");
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(out, "%.*s\n%*s", (int)(nl - h), h, HELP_COL, "");
		fprintf(out, "%s\n", h);
	}
}

/* "usage: rdmadoctor [global options] check [--a X] [--b]", wrapped. */
static void print_usage(const struct cmd_spec *spec, FILE *out)
{
	static const char lead[] = "usage: rdmadoctor [global options] ";
	const size_t indent = 17;
	size_t col;

	if (spec->usage) {
		fputs(spec->usage, out);
		return;
	}
	col = (size_t)fprintf(out, "%s%s", lead, spec->name);
	for (size_t i = 0; spec->opts && spec->opts[i].name; i++) {
		char label[96];
		const struct cmd_opt *o = &spec->opts[i];
		int w;

		if (o->flags & OPT_HIDDEN)
			continue;
		w = snprintf(label, sizeof(label), "[--%s%s%s]", o->name, o->arg ? " " : "",
			     o->arg ? o->arg : "");
		if (col + 1 + (size_t)w > 78)
			col = (size_t)fprintf(out, "\n%*s", (int)indent, "") - 1;
		col += (size_t)fprintf(out, " %s", label);
	}
	if (spec->operands) {
		if (col + 1 + strlen(spec->operands) > 78)
			fprintf(out, "\n%*s", (int)indent, "");
		fprintf(out, " %s", spec->operands);
	}
	fputc('\n', out);
}

void opts_print_global(FILE *out)
{
	print_table(out, global_opts);
}

static void print_help(const struct cmd_spec *spec, FILE *out)
{
	print_usage(spec, out);
	if (spec->about)
		fprintf(out, "\n%s", spec->about);
	if (count_opts(spec->opts)) {
		fputs("\noptions:\n", out);
		print_table(out, spec->opts);
	}
	fputs("\nglobal options (before or after the command):\n", out);
	print_table(out, global_opts);
	if (spec->epilog)
		fprintf(out, "\n%s", spec->epilog);
}

/* ---- the dump ---- */

static json_t *opts_json(const struct cmd_opt *t)
{
	json_t *a = json_array();

	for (size_t i = 0; a && t && t[i].name; i++) {
		char s[2] = { t[i].short_name, 0 };
		json_t *o = json_pack("{s:s, s:s?, s:s?, s:s, s:b}", "long", t[i].name, "short",
				      t[i].short_name ? s : NULL, "arg", t[i].arg, "help",
				      t[i].help ? t[i].help : "", "hidden",
				      (t[i].flags & OPT_HIDDEN) != 0);

		if (!o || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int opts_dump(FILE *out, const struct cmd_row *rows, size_t n_rows)
{
	json_t *doc = json_pack("{s:i, s:o, s:[]}", "schema", 1, "global",
				opts_json(global_opts), "commands");
	json_t *cmds = doc ? json_object_get(doc, "commands") : NULL;
	int rc = -1;

	for (size_t i = 0; cmds && i < n_rows; i++) {
		const struct cmd_spec *s = rows[i].spec;
		/* "declared" stays in the document's schema 1: every command
		 * declares its options now */
		json_t *o = json_pack("{s:s, s:s, s:b, s:o?, s:s?}", "name", rows[i].name,
				      "summary", rows[i].summary, "declared", 1,
				      "options", opts_json(s->opts), "operands", s->operands);

		if (!o || json_array_append_new(cmds, o) < 0)
			goto out;
	}
	if (cmds && json_dumpf(doc, out, JSON_INDENT(2)) == 0 && fputc('\n', out) != EOF &&
	    fflush(out) == 0)
		rc = 0;
out:
	json_decref(doc);
	return rc;
}
