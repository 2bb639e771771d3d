/* The declarative command layer: one option table per command gives both
 * its parser and its --help, so the help cannot drift from what is
 * accepted (infiniband-diags' ibdiag_process_opts, ethtool's args[]).
 * `rdmadoctor --dump-options` prints every table as JSON, for man pages
 * and shell completion.
 *
 * How a command declares its options
 * ----------------------------------
 * 1. Put what its options set in one struct, e.g.
 *        struct check_args { const char *profile; bool nhc; double window; };
 * 2. Write the table, one row per option, ended by an empty row:
 *        static const struct cmd_opt check_opts[] = {
 *            { "profile", 0, "NAME|FILE", OPT_STRING_AT(struct check_args, profile),
 *              .help = "judge against this profile" },
 *            { "nhc", 0, NULL, OPT_FLAG_AT(struct check_args, nhc),
 *              .help = "Slurm NHC mode: one line when unhealthy" },
 *            { "window", 0, "S", OPT_SECONDS_AT(struct check_args, window, 0.1, 3600),
 *              .help = "read the counters again after S seconds" },
 *            { 0 }
 *        };
 *    The kinds: OPT_FLAG_AT (bool set true), OPT_STRING_AT (const char *,
 *    the value as given; the last one wins), OPT_SECONDS_AT (double
 *    within [min, max]; .flags OPT_WHOLE asks for whole seconds) and
 *    OPT_CALL_AT(fn) for anything else: fn(c, args, value) returns CMD_GO_ON when
 *    the value is taken, or EXIT_USAGE after printing why (repeatable
 *    options, lists, names to validate).  The _AT macros check the
 *    field's type at compile time.
 *    Row fields: .help (one line per '\n'), .needs (the words in
 *    "--x needs ___" when the value is missing or empty: default
 *    "a value"), .flags (OPT_NONEMPTY: an empty value is refused;
 *    OPT_HIDDEN: accepted but left out of --help; OPT_WHOLE).
 * 3. Describe the command:
 *        const struct cmd_spec check_spec = {
 *            .name = "check", .summary = "...", .opts = check_opts,
 *            .about = "the paragraphs --help prints before the options",
 *            .epilog = "exit codes, examples: printed after the options",
 *        };
 *    Operands (words that are not options): .operands names them in the
 *    usage line ("OUTDIR", "[list | show NAME]") and .min_operands /
 *    .max_operands bound their count ("missing OUTDIR", "unexpected
 *    argument 'x'").  .usage, when set, replaces the generated usage
 *    lines (commands with several forms).
 * 4. In cmd_<verb>: struct check_args a = { defaults };
 *        int n, rc = opts_parse(c, &check_spec, argc, argv, &a, &n);
 *        if (rc != CMD_GO_ON) return rc;   // EXIT_OK after --help, EXIT_USAGE
 *    The operands are then argv[1] .. argv[n], in their order.
 * 5. Give the row in src/main.c's command table its spec (last field).
 *
 * What every command then accepts: --opt=value and --opt value, -h and
 * --help, the global options (--root, --json, --color, -q, -v) before or
 * after the command, "--" to end the options, and a "did you mean" for a
 * mistyped option. */
#ifndef RD_OPT_OPTS_H
#define RD_OPT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ctx;

enum opt_type {
	OPT_FLAG,	/* bool: set true */
	OPT_STRING,	/* const char *: the value as given */
	OPT_SECONDS,	/* double: seconds within [min, max] */
	OPT_CALL,	/* call(c, args, value) */
};

enum {
	OPT_NONEMPTY = 1u << 0,	/* an empty value is a usage error */
	OPT_HIDDEN = 1u << 1,	/* accepted, not listed by --help */
	OPT_WHOLE = 1u << 2,	/* OPT_SECONDS: whole seconds only */
};

/* CMD_GO_ON (-1): the value is taken; EXIT_USAGE: refused, after saying why. */
typedef int (*opt_call_fn)(struct ctx *c, void *args, const char *value);

struct cmd_opt {
	const char *name;	/* long form without "--": "window" */
	char short_name;	/* one-letter form ('v'), or 0 */
	const char *arg;	/* the value's name in help ("S"); NULL: a flag */
	enum opt_type type;
	size_t offset;		/* where in the command's args struct */
	double min, max;	/* OPT_SECONDS */
	opt_call_fn call;	/* OPT_CALL */
	const char *help;
	const char *needs;	/* "--x needs ___"; NULL: "a value" */
	unsigned flags;
};

/* The field of type T at offsetof(S, f); a compile error when it is not. */
#define OPT_FIELD_(S, f, T) offsetof(S, f) + 0 * sizeof(_Generic(((S *)0)->f, T: 1))
#define OPT_FLAG_AT(S, f) .type = OPT_FLAG, .offset = OPT_FIELD_(S, f, bool)
#define OPT_STRING_AT(S, f) .type = OPT_STRING, .offset = OPT_FIELD_(S, f, const char *)
#define OPT_SECONDS_AT(S, f, lo, hi) \
	.type = OPT_SECONDS, .offset = OPT_FIELD_(S, f, double), .min = (lo), .max = (hi)
#define OPT_CALL_AT(fn) .type = OPT_CALL, .call = (fn)

struct cmd_spec {
	const char *name;	/* the command word: "check" (its one-line summary
				 * is in the command table's row) */
	const struct cmd_opt *opts;	/* ended by a row with no name; NULL: none */
	const char *operands;	/* in the usage line, after the options */
	int min_operands, max_operands;
	const char *usage;	/* replaces the generated usage lines */
	const char *about;	/* --help, before the options */
	const char *epilog;	/* --help, after the options */
};

/* Parse argv[1..argc-1] of one command (argv[0] is its name) into args
 * and the global options into c.  CMD_GO_ON (-1): go on, with the operands moved to
 * argv[1] .. argv[*n_operands]; EXIT_OK: --help was printed; EXIT_USAGE:
 * refused, after saying why on stderr. */
int opts_parse(struct ctx *c, const struct cmd_spec *spec, int argc, char **argv, void *args,
	       int *n_operands);

/* The global options in front of the command word: *next is set to the
 * first word that is not one (the command, or an option main itself
 * handles: --help, --version).  CMD_GO_ON: go on; EXIT_USAGE: refused (said). */
int opts_parse_global(struct ctx *c, int argc, char **argv, int *next);
/* Say that arg is no option or operand of spec (NULL: of rdmadoctor
 * itself), with a "did you mean" where one is close. */
void opts_say_unknown(struct ctx *c, const struct cmd_spec *spec, const char *arg);
/* The global options' help lines, as --help prints them. */
void opts_print_global(FILE *out);

/* A row of the command table (src/main.c). */
typedef int (*cmd_fn)(struct ctx *c, int argc, char **argv);
struct cmd_row {
	const char *name;
	cmd_fn fn;
	const char *summary;
	const struct cmd_spec *spec;	/* every command has one */
};

/* A number of seconds in [min, max] ("0.5", "60"); false if not. */
bool ctx_parse_seconds(const char *s, double min, double max, double *out);

/* "did you mean": the candidate closest to word (a typo or two, or a
 * prefix of three letters or more), or NULL when none is close. */
const char *opts_nearest(const char *word, const char *const *candidates, size_t n);

/* Every command's options and the global ones as one JSON document on
 * out (`rdmadoctor --dump-options`): for man pages and completion.
 * 0, or -1 when it could not be written. */
int opts_dump(FILE *out, const struct cmd_row *rows, size_t n_rows);

#endif
