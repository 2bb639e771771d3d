/* A job's environment as NAME=value assignments (nccl/env.h).  The file
 * form is what a job script or Slurm prolog holds (nccl_env_parse_script
 * skips its commands and `#SBATCH` lines but --export's), read the way sh
 * reads an assignment without running anything: `NAME=value` or `export
 * NAME=value`, single quotes literal, double quotes with \" \\ \$ \`
 * escaped, a backslash outside quotes taking the next byte, `#` after
 * blanks a comment, CRLF or LF.  What sh would expand ($VAR, `cmd`) is
 * refused: the value NCCL sees cannot be known without running the
 * script, and judging the text "$HCAS" would be judging the wrong thing.
 *
 * Bounds (outside bytes): 1 MiB of text, 4096 variables, names of 255
 * bytes, values of 4096; every failure names its line. */
#include "env.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENV_TEXT_MAX (1u << 20)
#define ENV_VARS_MAX 4096
#define ENV_NAME_MAX 255
#define ENV_VALUE_MAX 4096

static void say(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

void nccl_env_free(struct nccl_env *env)
{
	for (size_t i = 0; i < env->n; i++) {
		free(env->v[i].name);
		free(env->v[i].value);
	}
	free(env->v);
	env->v = NULL;
	env->n = env->cap = 0;
	env->skipped = env->n_notes = 0;
}

static struct nccl_env_var *find(const struct nccl_env *env, const char *name, size_t len)
{
	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i].name, name, len) == 0 && env->v[i].name[len] == '\0')
			return &env->v[i];
	return NULL;
}

const char *nccl_env_get(const struct nccl_env *env, const char *name)
{
	struct nccl_env_var *v = find(env, name, strlen(name));

	return v ? v->value : NULL;
}

/* Set name (len bytes) to value (taken over): the last assignment wins,
 * as in sh.  0, 1 (too many variables: value freed), or -ENOMEM. */
static int set(struct nccl_env *env, const char *name, size_t len, char *value, unsigned line)
{
	struct nccl_env_var *v = find(env, name, len);

	if (v) {
		free(v->value);
		v->value = value;
		v->line = line;
		return 0;
	}
	if (env->n >= ENV_VARS_MAX) {
		free(value);
		return 1;
	}
	if (env->n == env->cap) {
		size_t cap = env->cap ? env->cap * 2 : 16;
		struct nccl_env_var *nv = realloc(env->v, cap * sizeof(*nv));

		if (!nv) {
			free(value);
			return -ENOMEM;
		}
		env->v = nv;
		env->cap = cap;
	}
	v = &env->v[env->n];
	v->name = strndup(name, len);
	if (!v->name) {
		free(value);
		return -ENOMEM;
	}
	v->value = value;
	v->line = line;
	env->n++;
	return 0;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

/* The value of one line, from p to end (the line without its newline):
 * into out (ENV_VALUE_MAX + 1 bytes).  NULL, or the reason it is not a
 * value sh would assign as written. */
static const char *value_of(const char *p, const char *end, char *out, size_t *outlen)
{
	size_t n = 0;

#define PUT(ch)                                                                                   \
	do {                                                                                      \
		if (n >= ENV_VALUE_MAX)                                                           \
			return "value longer than 4096 bytes";                                    \
		out[n++] = (ch);                                                                  \
	} while (0)

	while (p < end && !blank(*p)) {
		char c = *p++;

		if (c == '\'') {
			while (p < end && *p != '\'')
				PUT(*p++);
			if (p == end)
				return "single quote not closed on its line";
			p++;
		} else if (c == '"') {
			while (p < end && *p != '"') {
				if (*p == '$' || *p == '`')
					return "a $ or ` that the shell would expand (quote it in "
					       "single quotes, or write the value out)";
				if (*p == '\\' && p + 1 < end &&
				    (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`'))
					p++;
				PUT(*p++);
			}
			if (p == end)
				return "double quote not closed on its line";
			p++;
		} else if (c == '\\') {
			if (p == end)
				return "a backslash at the end of the line (continuation lines "
				       "are not read)";
			PUT(*p++);
		} else if (c == '$' || c == '`') {
			return "a $ or ` that the shell would expand (quote it in single "
			       "quotes, or write the value out)";
		} else if (c == ';' || c == '&' || c == '|' || c == '<' || c == '>' ||
			   c == '(' || c == ')') {
			return "a shell operator in the value (one assignment per line)";
		} else {
			PUT(c);
		}
	}
#undef PUT
	while (p < end && blank(*p))
		p++;
	if (p < end && *p != '#')
		return "more than one word after '=' (quote a value with blanks)";
	*outlen = n;
	return NULL;
}

/* A line a job script may hold that is not read: noted (the first
 * NCCL_ENV_NOTES), counted; 0.  Outside a script, an error: 1, err set. */
static int skip(struct nccl_env *env, bool script, char *err, size_t errsz, unsigned no,
		const char *line, const char *end, const char *why)
{
	int shown = (int)(end - line > 48 ? 48 : end - line);

	if (!script) {
		say(err, errsz, "line %u: %s", no, why);
		return 1;
	}
	if (env->n_notes < NCCL_ENV_NOTES)
		snprintf(env->notes[env->n_notes++], NCCL_ENV_NOTE_MAX, "line %u (%.*s%s): %s", no,
			 shown, line, end - line > 48 ? "..." : "", why);
	env->skipped++;
	return 0;
}

/* Whether p..end is a name sh would assign: a letter or _, then letters,
 * digits or _, at most ENV_NAME_MAX bytes. */
static bool is_name(const char *p, const char *end)
{
	if (p == end || end - p > ENV_NAME_MAX || !name_start(*p))
		return false;
	while (++p < end)
		if (!name_char(*p))
			return false;
	return true;
}

/* `#SBATCH --export=NAME=value,...`: its NAME=value items (ALL, NONE and
 * bare names assign nothing).  0, 1 (too many variables), -ENOMEM. */
static int sbatch_export(const char *p, const char *end, unsigned no, struct nccl_env *env)
{
	static const char opt[] = "--export=";
	const char *q = p;

	while (q + sizeof(opt) - 1 <= end && memcmp(q, opt, sizeof(opt) - 1) != 0)
		q++;
	if (q + sizeof(opt) - 1 > end)
		return 0;
	q += sizeof(opt) - 1;
	while (q < end && !blank(*q)) {
		const char *item = q, *eq, *stop;
		char *value;
		size_t len;
		int rc;

		while (q < end && !blank(*q) && *q != ',')
			q++;
		stop = q;
		if (q < end && *q == ',')
			q++;
		eq = memchr(item, '=', (size_t)(stop - item));
		if (!eq || !is_name(item, eq) || (size_t)(stop - eq - 1) > ENV_VALUE_MAX)
			continue;
		len = (size_t)(eq - item);
		value = strndup(eq + 1, (size_t)(stop - eq - 1));
		if (!value)
			return -ENOMEM;
		rc = set(env, item, len, value, no);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* One line (without its newline and CR).  0 (done), 1 (err set), -ENOMEM.
 * In a script (script) a line that is not read is skipped instead. */
static int line_of(const char *p, const char *end, unsigned no, struct nccl_env *env,
		   char *buf, char *err, size_t errsz, bool script)
{
	const char *line;
	const char *name;
	const char *why;
	size_t len, vlen = 0;
	bool exported = false;
	char *value;
	int rc;

	if (end > p && memchr(p, '\0', (size_t)(end - p))) {
		say(err, errsz, "line %u: a NUL byte: not a text file", no);
		return 1;
	}
	while (p < end && blank(*p))
		p++;
	line = p;
	if (script && end - p >= 7 && memcmp(p, "#SBATCH", 7) == 0) {
		rc = sbatch_export(p + 7, end, no, env);
		if (rc == 1)
			say(err, errsz, "line %u: more than %d variables", no, ENV_VARS_MAX);
		return rc;
	}
	if (p == end || *p == '#')
		return 0;
	if (end - p > 7 && memcmp(p, "export", 6) == 0 && blank(p[6])) {
		p += 7;
		while (p < end && blank(*p))
			p++;
		exported = true;
	}
	name = p;
	if (p == end || !name_start(*p))
		return skip(env, script, err, errsz, no, line, end,
			    "not NAME=value: a name begins with a letter or _");
	while (p < end && name_char(*p))
		p++;
	len = (size_t)(p - name);
	if (len > ENV_NAME_MAX)
		return skip(env, script, err, errsz, no, line, end,
			    "a name longer than 255 bytes");
	if (p == end || blank(*p) || *p == '#') {
		/* `export NAME` exports what is already set: it assigns
		 * nothing, so there is nothing here to read */
		const char *q = p;

		while (q < end && blank(*q))
			q++;
		if (exported && (q == end || *q == '#'))
			return 0;
	}
	if (p == end || *p != '=') {
		char what[120];

		if (script)	/* a command: srun, if, module load, ... */
			return skip(env, script, err, errsz, no, line, end, "not an assignment");
		snprintf(what, sizeof(what), "not NAME=value (no '=' right after the name '%.*s')",
			 (int)(len > 64 ? 64 : len), name);
		return skip(env, script, err, errsz, no, line, end, what);
	}
	why = value_of(p + 1, end, buf, &vlen);
	if (why) {
		char what[200];

		snprintf(what, sizeof(what), "%.*s: %s%s", (int)(len > 64 ? 64 : len), name, why,
			 script ? ": not read" : "");
		return skip(env, script, err, errsz, no, line, end, what);
	}
	value = malloc(vlen + 1);
	if (!value)
		return -ENOMEM;
	memcpy(value, buf, vlen);
	value[vlen] = '\0';
	rc = set(env, name, len, value, no);
	if (rc == 1)
		say(err, errsz, "line %u: more than %d variables", no, ENV_VARS_MAX);
	return rc;
}

static int parse(const char *text, size_t len, struct nccl_env *env, char *err, size_t errsz,
		 bool script)
{
	const char *p = text, *end = text + len;
	char *buf;
	unsigned no = 0;
	int rc = 0;

	memset(env, 0, sizeof(*env));
	say(err, errsz, "%s", "");
	if (len > ENV_TEXT_MAX) {
		say(err, errsz, "more than 1 MiB: not a job script's environment");
		return -1;
	}
	/* the value's bytes, one line at a time: never more than the bound */
	buf = malloc(ENV_VALUE_MAX + 1);
	if (!buf)
		return -ENOMEM;
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *stop = eol;

		no++;
		if (stop > p && stop[-1] == '\r')
			stop--;
		rc = line_of(p, stop, no, env, buf, err, errsz, script);
		p = nl ? nl + 1 : end;
	}
	free(buf);
	if (rc != 0) {
		nccl_env_free(env);
		return rc < 0 ? rc : -1;
	}
	return 0;
}

int nccl_env_parse(const char *text, size_t len, struct nccl_env *env, char *err,
		   size_t errsz)
{
	return parse(text, len, env, err, errsz, false);
}

int nccl_env_parse_script(const char *text, size_t len, struct nccl_env *env, char *err,
			  size_t errsz)
{
	return parse(text, len, env, err, errsz, true);
}

int nccl_env_from(char *const *envp, struct nccl_env *env)
{
	memset(env, 0, sizeof(*env));
	for (size_t i = 0; envp && envp[i]; i++) {
		const char *e = envp[i], *eq = strchr(e, '=');
		char *value;

		if (!eq || (strncmp(e, "NCCL_", 5) != 0 && strncmp(e, "HCCL_", 5) != 0))
			continue;
		value = strdup(eq + 1);
		if (!value) {
			nccl_env_free(env);
			return -ENOMEM;
		}
		/* the environment is this process's own, not outside
		 * bytes: past the file's bound a variable is still kept
		 * (set refuses only beyond 4096 NCCL/HCCL names) */
		if (set(env, e, (size_t)(eq - e), value, 0) < 0) {
			nccl_env_free(env);
			return -ENOMEM;
		}
	}
	return 0;
}
