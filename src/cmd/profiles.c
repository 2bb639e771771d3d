/* `rdmadoctor profiles`: the built-in machine profiles, and a user's
 * profile file checked and shown with its based_on brought in. */
#include "cmd.h"
#include "../print/json.h"
#include "../print/profile_out.h"
#include "../print/safe_stream.h"
#include "../profiles/profile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct cmd_spec profiles_spec = {
	.name = "profiles",
	.operands = "[list | show NAME|FILE]",
	.max_operands = 2,
	.usage =
	"usage: rdmadoctor [global options] profiles [list]\n"
	"       rdmadoctor [global options] profiles show NAME|FILE\n",
	.about =
	"A profile says what a machine model should have: for its rail (compute\n"
	"fabric) and storage NICs the count, model, link layer, rate, PCIe link,\n"
	"MTU, RoCE QoS, GPUDirect and GPU placement.  `check` judges the machine\n"
	"against one: --profile, else the site file's (/etc/rdmadoctor/rdmadoctor.conf),\n"
	"else a built-in picked by DMI product name, then by GPU model and count\n"
	"(the NICs only choose between variants that expect no less), else\n"
	"`generic`, which judges only what needs no expectation (down ports,\n"
	"degraded PCIe, errors, RoCE v2 GIDs, network per GPU).  docs/profiles.md\n"
	"explains every key.\n"
	"\n"
	"  profiles             list the built-in profiles\n"
	"  profiles show NAME   print a built-in profile in the file format\n"
	"  profiles show FILE   check a profile file and print it with based_on\n"
	"                       resolved; a broken file gives 'FILE:LINE: message'\n"
	"                       and exit code 2 (a built-in NAME wins over a file of\n"
	"                       that name: write ./NAME for the file)\n"
	"\n"
	"Writing your own: an INI file with a [profile] section and a [rail] and a\n"
	"[storage] section for the two NIC roles.  Start from a built-in and\n"
	"override what differs:\n"
	"\n"
	"  # site-h100.ini: our HGX H100 boxes run 400G RoCE, lossless on priority 3\n"
	"  [profile]\n"
	"  name = site-h100\n"
	"  description = HGX H100, 8 x 400G RoCE at MTU 9000\n"
	"  based_on = hgx-8x400g\n"
	"\n"
	"  [rail]\n"
	"  link_layer = Ethernet\n"
	"  mtu = 9000\n"
	"  pfc_priority = 3\n"
	"  trust = dscp\n"
	"  ecn = yes\n"
	"\n"
	"based_on may stand anywhere in [profile]: the built-in is copied first and\n"
	"every key in the file overrides it, whatever the order.  name is required;\n"
	"a key given twice is an error; 'any' leaves a value unjudged.  Comments\n"
	"start with '#' or ';', at the start of a line or after a blank.\n"
	"\n"
	"[profile] keys:\n"
	"  name, description, based_on\n"
	"  match_dmi        DMI product names, comma-separated (case, blanks ignored)\n"
	"  match_gpu        GPU model words, comma-separated (H100, H200)\n"
	"  match_gpu_count  number of GPUs\n"
	"  match_nic        rail NIC models, comma-separated (ConnectX-7)\n"
	"  grace            yes on Grace trays: no PCIe placement rule\n"
	"  fewer_rails      yes: fewer rails than GPUs on purpose (picked only when\n"
	"                   named; a short network per GPU warns)\n"
	"  match_npu        Ascend NPU models, comma-separated (Ascend 910)\n"
	"  match_npu_count  number of NPUs\n"
	"  npu_rate_gbps    NPU RoCE port speed in Gb/s\n"
	"  npu_pfc_priority 0 to 7: PFC on it on every NPU port\n"
	"  npu_subnets      pairs (NPU 0&4, 1&5, 2&6, 3&7) or one (docs/ascend.md)\n"
	"[rail] and [storage] keys:\n"
	"  count            RDMA devices (PCI functions, not cards) of the role\n"
	"  model            NIC model family (ConnectX-7)\n"
	"  link_layer       InfiniBand or Ethernet\n"
	"  rate_gbps        port rate in Gb/s\n"
	"  pcie_gen         1 to 6\n"
	"  pcie_width       1, 2, 4, 8, 16 or 32\n"
	"  pcie_max_read_request  smallest MaxReadReq in bytes (128 to 4096)\n"
	"  pcie_relaxed_ordering  yes: Relaxed Ordering must be on on each NIC\n"
	"  mtu              InfiniBand active MTU, or the smallest RoCE netdev MTU\n"
	"  pfc_priority     0 to 7 (RoCE)\n"
	"  trust            dscp or pcp (RoCE)\n"
	"  ecn              yes, no or any (RoCE)\n"
	"  gpudirect        yes, no or any\n"
	"  gpus_per_nic     most GPUs that may share one NIC\n"
	"  placement        worst acceptable GPU-NIC path: PIX, PXB, PHB, NODE, SYS\n"
	"  bw_floor_gbps    bandwidth test floor per port in Gb/s\n"
	"  gpu_gbps         [rail]: network per GPU the GPUs are built for, Gb/s\n"
	"                   (nic.bandwidth_per_gpu)\n"
	"  distinct_switches [rail]: yes, each rail to a different switch (rail.cabling)\n"
	"Every key with what it means: docs/profiles.md, or `profiles show NAME`.\n"
	"\n"
	"examples:\n"
	"  rdmadoctor profiles\n"
	"  rdmadoctor profiles show dgx-h100 > site.ini\n"
	"  rdmadoctor profiles show ./site-h100.ini\n"
	"  rdmadoctor check --profile ./site-h100.ini\n",
};


static int usage_error(struct ctx *c, const char *what, const char *arg, const char *tail)
{
	fprintf(stderr, "%s profiles: %s%s%s%s%s\n\n%s`%s profiles --help` explains the "
		"profile file format.\n", c->prog, what, arg ? " '" : "", arg ? arg : "",
		arg ? "'" : "", tail, profiles_spec.usage, c->prog);
	return EXIT_USAGE;
}

static int write_failed(struct ctx *c, int err)
{
	fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog, strerror(err));
	return EXIT_RUNTIME;
}

static int list_text(struct ctx *c)
{
	FILE *out = safe_stream(stdout);
	int rc = 0;

	if (!out) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct profile *p = profile_builtin_at(i);

		if (!p) {
			fclose(out);
			fprintf(stderr, "%s: cannot load the built-in profiles: out of memory\n",
				c->prog);
			return EXIT_RUNTIME;
		}
		fprintf(out, "%-20s %s\n", p->name, p->description ? p->description : "");
	}
	if (ferror(out) || fclose(out) != 0 || fflush(stdout) != 0 || ferror(stdout))
		rc = errno ? errno : EIO;
	return rc ? write_failed(c, rc) : EXIT_OK;
}

static int emit(struct ctx *c, json_t *doc)
{
	if (!doc) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	return ctx_emit_json(c, doc);
}

static int list_json(struct ctx *c)
{
	return emit(c, profiles_list_to_json());
}

static int show(struct ctx *c, const struct profile *p)
{
	json_t *doc;
	FILE *out;
	int rc;

	if (c->json) {
		doc = json_object();
		if (doc) {
			json_object_set_new(doc, "schema", json_integer(1));
			json_object_set_new(doc, "profile", profile_to_json(p));
		}
		return emit(c, doc);
	}
	out = safe_stream(stdout);
	if (!out) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	rc = profile_write(out, p) < 0 ? (errno ? errno : EIO) : 0;
	if (ferror(out) || fclose(out) != 0 || fflush(stdout) != 0 || ferror(stdout))
		rc = errno ? errno : EIO;
	return rc ? write_failed(c, rc) : EXIT_OK;
}

/* "FILE:LINE: message", filtered: the file name and the quoted value are
 * the user's bytes, and must not drive the terminal. */
static void print_profile_error(const struct profile_error *err)
{
	FILE *out = safe_stream(stderr);

	if (!out)
		out = stderr;
	if (err->line > 0)
		fprintf(out, "%s:%d: %s\n", err->file, err->line, err->message);
	else
		fprintf(out, "%s: %s\n", err->file, err->message);
	if (out != stderr)
		fclose(out);
}

/* A built-in by name, else a file; nothing runs after a broken one. */
static int show_arg(struct ctx *c, const char *arg)
{
	const struct profile *b = profile_builtin(arg);
	struct profile_error err;
	struct profile p;
	int rc;

	if (b)
		return show(c, b);
	if (profile_builtin_at(0) == NULL) {
		fprintf(stderr, "%s: cannot load the built-in profiles: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	rc = profile_load_file(arg, &p, &err);
	if (rc == -ENOENT && !strchr(arg, '/')) {
		const char *near = profile_builtin_nearest(arg);

		fprintf(stderr, "%s profiles: no built-in profile or file '%s'%s%s%s "
			"(`%s profiles` lists the built-ins)\n", c->prog, arg,
			near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "", c->prog);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		print_profile_error(&err);
		/* a broken profile is the user's input, like a usage error;
		 * a file we cannot read or memory we cannot get is not */
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	rc = show(c, &p);
	profile_free(&p);
	return rc;
}

int cmd_profiles(struct ctx *c, int argc, char **argv)
{
	const char *words[2] = { NULL };
	/* a file whose name starts with '-' is ./-name, or after "--" */
	int n, rc = opts_parse(c, &profiles_spec, argc, argv, NULL, &n);

	if (rc != CMD_GO_ON)
		return rc;
	for (int i = 0; i < n; i++)
		words[i] = argv[i + 1];
	if (n == 0 || (n == 1 && strcmp(words[0], "list") == 0))
		return c->json ? list_json(c) : list_text(c);
	if (strcmp(words[0], "show") != 0) {
		static const char *const verbs[] = { "list", "show" };
		const char *near = opts_nearest(words[0], verbs, 2);

		if (n > 1)
			return usage_error(c, "unexpected argument", words[n - 1], "");
		return usage_error(c, "unknown subcommand", words[0],
				   near && strcmp(near, "show") == 0 ? " (did you mean 'show'?)" :
				   near ? " (did you mean 'list'?)" : " (list or show)");
	}
	if (n == 1)
		return usage_error(c, "show needs a profile NAME or FILE", NULL, "");
	return show_arg(c, words[1]);
}
