#include "npu_read.h"
#include "hccn_conf.h"
#include "hccn_parse.h"
#include "npu_smi_health.h"
#include "npu_smi_parse.h"
#include "npu_smi_table.h"
#include "tool_run.h"
#include "../sysfs/attr.h"
#include "../sysfs/fetch.h"
#include "../sysfs/pci.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PCI_VENDOR_HUAWEI 0x19e5

/* -mtu is not on every driver: a call that does not answer is not named */
static bool option_optional(const char *name)
{
	return strcmp(name, "mtu") == 0;
}

/* The tool calls of one run, made on the first live fetch that needs one
 * of them (all at once: in parallel across NPUs).  A replay never asks. */
struct batch {
	struct tool_job *jobs;
	size_t n;
	bool ran;
};

struct fetch_arg {
	struct batch *b;
	size_t job;
};

static int fetch_job(void *arg, void **data, size_t *len)
{
	struct fetch_arg *a = arg;
	struct tool_job *j = &a->b->jobs[a->job];

	if (!a->b->ran) {
		a->b->ran = true;
		if (tool_run_all(a->b->jobs, a->b->n, tool_timeout_ms()) == -ENOMEM)
			return -ENOMEM;
	}
	if (j->err)
		return j->err;
	*data = j->out;
	*len = j->len;
	j->out = NULL;
	return 0;
}

static int fetch_status(void *arg, void **data, size_t *len)
{
	const struct tool_job *j = arg;
	char *s;
	int n = asprintf(&s, "%d\n", j->status);

	if (n < 0)
		return -ENOMEM;
	*data = s;
	*len = (size_t)n;
	return 0;
}

/* Why a call gave nothing, in words. */
static void why_text(char *buf, size_t len, int err)
{
	switch (-err) {
	case ETIMEDOUT:
		snprintf(buf, len, "timed out: killed at the time limit");
		break;
	case ENOPKG:
		snprintf(buf, len, "not installed: not in PATH, /usr/local/Ascend/driver/tools "
			 "or /usr/local/bin");
		break;
	case ECANCELED:
		snprintf(buf, len, "not run: an earlier call for this NPU timed out");
		break;
	case ENOENT:
		snprintf(buf, len, "not in the snapshot");
		break;
	case EFBIG:
		snprintf(buf, len, "more output than any answer of this tool");
		break;
	default:
		snprintf(buf, len, "%s", strerror(-err));
		break;
	}
}

/* "exit status 1: Get link status failed" (the first line of its stdout) */
static void status_text(char *buf, size_t len, int status, const char *out, size_t olen)
{
	size_t n = 0;

	while (n < olen && n < 100 && out[n] != '\n' && out[n] != '\r')
		n++;
	while (n && isspace((unsigned char)out[n - 1]))
		n--;
	snprintf(buf, len, "exit status %d%s%.*s", status, n ? ": " : "", (int)n, out);
	for (char *c = buf; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

/* One call through root_fetch: *data the stdout (0), *status its exit
 * status (from <key>.rc, 0 when there is none), or a negative errno. */
static int call(struct root *r, const char *kind, const char *key, struct batch *b, size_t job,
		char **data, size_t *len, int *status)
{
	struct fetch_arg a = { b, job };
	char *rckey, *rctext = NULL;
	size_t rclen;
	int rc;

	*status = 0;
	rc = root_fetch(r, kind, key, TOOL_MAX_OUTPUT, fetch_job, &a, (void **)data, len);
	if (rc < 0)
		return rc;
	/* the exit status is kept only when it says something: live, a file
	 * is written for a failed call alone; a replay looks for one always */
	if (r->live && b->jobs[job].status == 0)
		return 0;
	if (asprintf(&rckey, "%s.rc", key) < 0)
		return -ENOMEM;
	rc = root_fetch(r, kind, rckey, 64, fetch_status, &b->jobs[job], (void **)&rctext, &rclen);
	free(rckey);
	if (rc == -ENOMEM)
		return rc;
	if (rc == 0) {
		char *end;
		long v = strtol(rctext, &end, 10);

		*status = (end == rctext || v < 0 || v > 255) ? 255 : (int)v;
	}
	free(rctext);
	return 0;
}

static int add_failure(struct npu_failure **v, size_t *n, size_t *cap,
		       const struct tool_job *j, const char *why)
{
	char *text = tool_job_text(j);
	int rc;

	if (!text)
		return -ENOMEM;
	rc = npu_failure_add(v, n, cap, text, why);
	free(text);
	return rc;
}

/* A call of one NPU that gave no bytes (rc < 0, not -ENOMEM).  A failure
 * fetch.h does not note is a replay's call the snapshot holds no record
 * of: the snapshot was taken before this reader asked it, so the value is
 * not checked, not failed.  A call that failed on the machine left its
 * errno (or its output and exit status) in the snapshot and stays named
 * as a failure. */
static int no_answer(struct root *r, struct npu *npu, const struct tool_job *j, int rc)
{
	char why[200];

	if (!fetch_failure_noted(r, rc))
		return add_failure(&npu->unrecorded, &npu->n_unrecorded, &npu->cap_unrecorded, j,
				   "not in the snapshot");
	why_text(why, sizeof(why), rc);
	return add_failure(&npu->failures, &npu->n_failures, &npu->cap_failures, j, why);
}

static bool want_npu(struct root *r, const char *link)
{
	int64_t vendor = attr_hex(r, link, "vendor");
	int64_t device = vendor == PCI_VENDOR_HUAWEI ? attr_hex(r, link, "device") : NA;

	return !IS_NA(device) && npu_model_name((uint64_t)vendor, (uint64_t)device);
}

/* "0000:61:00.0" and "61:00.0" name the same function. */
static bool same_bdf(const char *bus_info, const char *bdf)
{
	size_t n = strlen(bus_info);

	if (n == 7 && strlen(bdf) == 12 && strncmp(bdf, "0000:", 5) == 0)
		return strcasecmp(bus_info, bdf + 5) == 0;
	return strcasecmp(bus_info, bdf) == 0;
}

struct npu_calls {
	char id[24];
	char card[24], die[24];	/* a die's NPU ID and Chip ID, for npu-smi */
	char chip[24];		/* its Chip ID, for the health query */
	size_t first;	/* index of its board job; its health job and the hccn jobs follow */
};

#define JOBS_BEFORE_HCCN 2	/* board, health */

static int list_npus(struct root *r, struct npu_inventory *ni, struct npu_smi_chip **rows,
		     size_t *n_rows, struct npu_smi_list_cols *cols)
{
	struct tool_job job = { .tool = "npu-smi", .args = { "info", "-m" } };
	struct batch b = { &job, 1, false };
	char *data = NULL, why[200], layout[160];
	size_t len;
	int status, rc = call(r, "npu-smi", "info-m", &b, 0, &data, &len, &status);

	*rows = NULL;
	*n_rows = 0;
	*cols = (struct npu_smi_list_cols){ false, false, false };
	free(job.out);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		why_text(why, sizeof(why), rc);
		return add_failure(&ni->failures, &ni->n_failures, &ni->cap_failures, &job, why);
	}
	rc = npu_smi_parse_list(data, len, rows, n_rows, cols, layout, sizeof(layout));
	if (rc == -EPROTO || (rc == 0 && (status != 0 || !*n_rows))) {
		if (status)
			status_text(why, sizeof(why), status, data, len);
		else if (rc == -EPROTO)
			snprintf(why, sizeof(why), "output not understood: %s", layout);
		else
			snprintf(why, sizeof(why), "no NPU listed");
		rc = add_failure(&ni->failures, &ni->n_failures, &ni->cap_failures, &job, why);
	}
	free(data);
	return rc;
}

/* The NPUs npu-smi lists, sorted by id.  On a listing of one chip per NPU,
 * one per NPU ID (the rows of a chip without a logic id, the MCU, are not
 * NPUs).  On a listing with a Chip Phy-ID column (two-die NPUs; the
 * Ascend 950's, which has no Chip Logic ID column), one per chip with a
 * Phy-ID: hccn_tool takes that id, and each die has its own port. */
static int make_npus(struct npu_inventory *ni, const struct npu_smi_chip *rows, size_t n_rows,
		     const struct npu_smi_list_cols *cols)
{
	bool per_die = cols->phy;
	size_t cap = ni->n;	/* room for at least what is there */

	for (size_t i = 0; i < n_rows; i++) {
		int64_t id = per_die ? rows[i].phy_id : rows[i].npu_id;
		bool seen = false;
		struct npu *g;

		if ((cols->logic && IS_NA(rows[i].logic_id)) || IS_NA(id))
			continue;
		for (size_t k = 0; k < ni->n && !seen; k++)
			seen = ni->v[k].id == id;
		if (seen)
			continue;
		g = growbuf_reserve(ni->v, &cap, ni->n + 1, sizeof(*g));
		if (!g)
			return -ENOMEM;
		ni->v = g;
		g = &ni->v[ni->n++];
		memset(g, 0, sizeof(*g));
		npu_port_init(&g->port);
		g->id = id;
		g->card = per_die ? rows[i].npu_id : NA;
		g->die = per_die ? rows[i].chip_id : NA;
		g->chip = rows[i].chip_id;
		g->temp_c = g->power_w = NAN;
		if (!(g->chip_name = strdup(rows[i].name)))
			return -ENOMEM;
	}
	for (size_t i = 1; i < ni->n; i++)
		for (size_t k = i; k > 0 && ni->v[k - 1].id > ni->v[k].id; k--) {
			struct npu t = ni->v[k];

			ni->v[k] = ni->v[k - 1];
			ni->v[k - 1] = t;
		}
	return 0;
}

static int build_jobs(struct npu_inventory *ni, struct npu_calls *calls, struct batch *b)
{
	size_t per = JOBS_BEFORE_HCCN + hccn_n_options;

	b->n = ni->n * per;
	b->jobs = calloc(b->n ? b->n : 1, sizeof(*b->jobs));
	if (!b->jobs)
		return -ENOMEM;
	for (size_t i = 0; i < ni->n; i++) {
		struct npu_calls *c = &calls[i];
		struct tool_job *j = &b->jobs[i * per];

		snprintf(c->id, sizeof(c->id), "%lld", (long long)ni->v[i].id);
		snprintf(c->chip, sizeof(c->chip), "%lld", (long long)ni->v[i].chip);
		c->first = i * per;
		if (IS_NA(ni->v[i].card)) {
			*j = (struct tool_job){ .tool = "npu-smi", .lane = i,
						.args = { "info", "-i", c->id, "-t", "board" } };
		} else {
			/* a die: npu-smi takes the NPU ID and the Chip ID */
			snprintf(c->card, sizeof(c->card), "%lld", (long long)ni->v[i].card);
			snprintf(c->die, sizeof(c->die), "%lld", (long long)ni->v[i].die);
			*j = (struct tool_job){ .tool = "npu-smi", .lane = i,
						.args = { "info", "-t", "board", "-i", c->card,
							  "-c", c->die } };
		}
		/* npu-smi's NPU ID: the card of a die, else the id */
		j[1] = (struct tool_job){ .tool = "npu-smi", .lane = i,
					  .args = { "info", "-t", "health", "-i",
						    IS_NA(ni->v[i].card) ? c->id : c->card,
						    "-c", c->chip } };
		for (size_t o = 0; o < hccn_n_options; o++)
			j[JOBS_BEFORE_HCCN + o] = (struct tool_job){ .tool = "hccn_tool", .lane = i,
						      .args = { "-i", c->id, hccn_options[o].flag,
								"-g" } };
	}
	return 0;
}

static int read_board(struct root *r, struct npu *npu, const struct npu_calls *c,
		      struct batch *b, struct pci_func *pci, size_t n_pci, bool *used)
{
	struct tool_job *j = &b->jobs[c->first];
	struct npu_smi_board board = { 0 };
	char key[64], *data = NULL, why[200];
	size_t len;
	int status, rc;
	unsigned long dev;

	if (IS_NA(npu->card))
		snprintf(key, sizeof(key), "board-%s", c->id);
	else
		snprintf(key, sizeof(key), "board-%s-%s", c->card, c->die);
	rc = call(r, "npu-smi", key, b, c->first, &data, &len, &status);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		return no_answer(r, npu, j, rc);
	rc = npu_smi_parse_board(data, len, &board);
	if (rc == -ENOMEM) {
		free(data);
		return rc;
	}
	if (rc < 0 || status != 0) {
		status_text(why, sizeof(why), status, data, len);
		rc = add_failure(&npu->failures, &npu->n_failures, &npu->cap_failures, j,
				 status ? why : "no board information");
	}
	free(data);
	npu->bus_info = board.bus_info;
	npu->fw_version = board.fw_version;
	npu->sw_version = board.sw_version;
	npu->pci_device_id = board.pci_device_id;
	for (size_t i = 0; npu->bus_info && i < n_pci && !npu->pci; i++) {
		if (used[i] || !same_bdf(npu->bus_info, pci[i].bdf))
			continue;
		used[i] = true;
		if (!(npu->pci = malloc(sizeof(*npu->pci))))
			return -ENOMEM;
		*npu->pci = pci[i];
		npu->has_pci = true;
		if (!IS_NA(pci[i].device))
			npu->model = npu_model_name((uint64_t)pci[i].vendor, (uint64_t)pci[i].device);
	}
	/* no PCI function (a replay without sysfs): the board's own device id */
	if (!npu->model && npu->pci_device_id) {
		char *end;

		errno = 0;
		dev = strtoul(npu->pci_device_id, &end, 16);
		if (!errno && !*end)
			npu->model = npu_model_name(PCI_VENDOR_HUAWEI, dev);
	}
	return rc;
}

/* `npu-smi info -t health -i N -c C`: the chip's health and its error
 * codes, over what the table said (which has no codes). */
static int read_health(struct root *r, struct npu *npu, const struct npu_calls *c,
		       struct batch *b)
{
	size_t ji = c->first + 1;
	struct tool_job *j = &b->jobs[ji];
	struct npu_smi_health h = { 0 };
	char key[80], *data = NULL, why[200];
	size_t len;
	int status, rc;

	snprintf(key, sizeof(key), "health-%s-%s", IS_NA(npu->card) ? c->id : c->card, c->chip);
	rc = call(r, "npu-smi", key, b, ji, &data, &len, &status);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		return no_answer(r, npu, j, rc);
	rc = npu_smi_parse_health(data, len, &h);
	if (rc == 0) {
		free(npu->health);
		npu->health = h.status;
		npu->health_code = h.code;
		npu->health_info = h.info;
	} else if (rc != -ENOMEM) {
		if (status)
			status_text(why, sizeof(why), status, data, len);
		else
			snprintf(why, sizeof(why), "no Health Status in its output");
		rc = add_failure(&npu->failures, &npu->n_failures, &npu->cap_failures, j, why);
	}
	free(data);
	return rc;
}

/* The table row of one NPU (of one die on A3): its NPU ID and Chip ID. */
static const struct npu_smi_row *row_of(const struct npu *npu, const struct npu_smi_row *rows,
					size_t n)
{
	int64_t card = IS_NA(npu->card) ? npu->id : npu->card;

	for (size_t i = 0; i < n; i++)
		if (rows[i].npu_id == card && rows[i].chip_id == npu->chip)
			return &rows[i];
	return NULL;
}

/* `npu-smi info`, one call for the machine: each NPU's health, power and
 * temperature.  What cannot be read leaves ni->table_why, so the health
 * is "not checked" with the reason, never taken for OK. */
static int read_table(struct root *r, struct npu_inventory *ni)
{
	struct tool_job job = { .tool = "npu-smi", .args = { "info" } };
	struct batch b = { &job, 1, false };
	struct npu_smi_row *rows = NULL;
	char *data = NULL, why[200], layout[160];
	size_t len, n = 0;
	int status, rc = call(r, "npu-smi", "info", &b, 0, &data, &len, &status);

	free(job.out);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		if (fetch_failure_noted(r, rc))
			why_text(why, sizeof(why), rc);
		else
			snprintf(why, sizeof(why), "not in the snapshot (taken before this "
				 "reader existed)");
	} else {
		rc = npu_smi_parse_table(data, len, &rows, &n, layout, sizeof(layout));
		if (rc == -EPROTO)
			snprintf(why, sizeof(why), "output not understood: %s", layout);
		else if (rc == 0 && status)
			status_text(why, sizeof(why), status, data, len);
	}
	free(data);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0 || status) {
		npu_smi_rows_free(rows, n);
		return (ni->table_why = strdup(why)) ? 0 : -ENOMEM;
	}
	for (size_t i = 0; i < ni->n; i++) {
		const struct npu_smi_row *row = row_of(&ni->v[i], rows, n);

		if (!row)
			continue;
		ni->v[i].temp_c = row->temp_c;
		ni->v[i].power_w = row->power_w;
		if (row->health && !(ni->v[i].health = strdup(row->health))) {
			rc = -ENOMEM;
			break;
		}
	}
	npu_smi_rows_free(rows, n);
	return rc;
}

static int read_port(struct root *r, struct npu *npu, const struct npu_calls *c,
		     struct batch *b)
{
	for (size_t o = 0; o < hccn_n_options; o++) {
		const struct hccn_option *opt = &hccn_options[o];
		size_t ji = c->first + JOBS_BEFORE_HCCN + o;
		struct tool_job *j = &b->jobs[ji];
		char key[300], *data = NULL, why[200];
		size_t len;
		int status, rc, prc;

		snprintf(key, sizeof(key), "%s/%s", c->id, opt->name);
		rc = call(r, "hccn", key, b, ji, &data, &len, &status);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0) {
			rc = option_optional(opt->name) ? 0 : no_answer(r, npu, j, rc);
			if (rc < 0)
				return rc;
			continue;
		}
		prc = opt->parse(data, len, &npu->port);
		if (prc == -ENOMEM) {
			free(data);
			return prc;
		}
		if (prc == 0) {
			npu->port_read = true;
		} else if (!option_optional(opt->name)) {
			/* an answer that is understood is kept whatever the exit
			 * status; one that is not is named */
			if (status)
				status_text(why, sizeof(why), status, data, len);
			else
				snprintf(why, sizeof(why), "output not understood");
			if (add_failure(&npu->failures, &npu->n_failures, &npu->cap_failures, j, why) < 0) {
				free(data);
				return -ENOMEM;
			}
		}
		free(data);
	}
	return 0;
}

/* Whether to ask npu-smi at all: when an NPU PCI function is there, and
 * also when npu-smi is installed (live) or was asked (replay) without one,
 * so that an NPU whose PCI id is newer than this program's table is still
 * read.  A machine with neither asks nothing and records nothing. */
static bool ask_tools(struct root *r, size_t n_pci)
{
	if (n_pci)
		return true;
	if (!r->live)
		return root_exists(r, FETCH_DIR "/npu-smi/info-m") ||
		       root_exists(r, FETCH_DIR "/npu-smi/info-m.errno");
	return tool_path("npu-smi") != NULL;
}

int npu_read(struct root *r, struct npu_inventory *ni)
{
	struct pci_func *pci = NULL;
	struct npu_smi_chip *rows = NULL;
	struct npu_calls *calls = NULL;
	struct batch b = { 0 };
	char *conf = NULL;
	struct npu_smi_list_cols cols;
	bool *used = NULL;
	size_t n_pci = 0, n_rows = 0, cap;
	int rc;

	memset(ni, 0, sizeof(*ni));
	rc = pci_read_wanted(r, want_npu, &pci, &n_pci);
	ni->n_pci = n_pci;
	if (rc < 0 || !ask_tools(r, n_pci))
		goto out;
	rc = list_npus(r, ni, &rows, &n_rows, &cols);
	if (rc == 0)
		rc = make_npus(ni, rows, n_rows, &cols);
	if (rc == 0 && ni->n)
		rc = read_table(r, ni);
	npu_smi_chips_free(rows, n_rows);
	used = calloc(n_pci ? n_pci : 1, sizeof(*used));
	calls = calloc(ni->n ? ni->n : 1, sizeof(*calls));
	if (rc == 0 && (!used || !calls))
		rc = -ENOMEM;
	if (rc == 0)
		rc = build_jobs(ni, calls, &b);
	for (size_t i = 0; rc == 0 && i < ni->n; i++) {
		rc = read_board(r, &ni->v[i], &calls[i], &b, pci, n_pci, used);
		if (rc == 0)
			rc = read_health(r, &ni->v[i], &calls[i], &b);
		if (rc == 0)
			rc = read_port(r, &ni->v[i], &calls[i], &b);
	}
	if (rc == 0 && geteuid() != 0 && r->live)
		root_note(r, "hccn", "not running as root: hccn_tool and npu-smi need root, "
			  "and what they could not read is named in the inventory");
	if (rc == 0) {
		int crc = root_read(r, "etc/hccn.conf", &conf);

		ni->conf_read = crc == 0;
		if (crc == -ENOMEM)
			rc = crc;
		for (size_t i = 0; rc == 0 && conf && i < ni->n; i++)
			if (hccn_conf_plan(conf, strlen(conf), ni->v[i].id, &ni->v[i].plan) == -ENOMEM)
				rc = -ENOMEM;
	}
	/* the NPU functions no npu-smi id names */
	cap = ni->n_unmapped;	/* room for at least what is there */
	for (size_t i = 0; rc == 0 && i < n_pci; i++) {
		struct pci_func *g;

		if (used && used[i])
			continue;
		g = growbuf_reserve(ni->unmapped, &cap, ni->n_unmapped + 1, sizeof(*g));
		if (!g) {
			rc = -ENOMEM;
			break;
		}
		ni->unmapped = g;
		g[ni->n_unmapped++] = pci[i];
		if (used)
			used[i] = true;
	}
out:
	for (size_t i = 0; i < n_pci; i++)
		if (!used || !used[i])
			pci_func_free(&pci[i]);
	free(pci);
	free(used);
	free(calls);
	if (b.jobs)
		tool_jobs_free(b.jobs, b.n);
	free(conf);
	return rc;
}
