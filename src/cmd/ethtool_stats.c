/* `rdmadoctor ethtool-stats IFNAME`: a debug entry to the ethtool
 * statistics reader (sysfs/ethtool.c, nl/ethtool_stats.c) for any netdev,
 * not only those of RDMA ports: what the inventory's "ethtool_stats" of a
 * port would hold.  tests/nl/test_ethtool_stats.sh compares it with
 * `ethtool -S` on a veth. */
#include "cmd.h"
#include "../opt/opt_parse.h"
#include "../print/ethtool_stats_out.h"
#include "../print/json.h"
#include "../print/text.h"
#include "../state/einval_file.h"
#include "../sysfs/ethtool.h"
#include "../sysfs/link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ethtool_stats_args {
	bool link;
};

static const struct cmd_opt ethtool_stats_opts[] = {
	{ "link", 0, NULL, OPT_FLAG_AT(struct ethtool_stats_args, link),
	  .help = "instead: the link modes and FEC over ethtool netlink\n"
		  "(LINKMODES_GET, FEC_GET: what `ethtool IF` and `ethtool\n"
		  "--show-fec IF` print), as inventory's \"link\" of a port; with\n"
		  "--root from .rdmadoctor/ethtool-nl/IFNAME/{linkmodes,fec}" },
	{ 0 }
};

const struct cmd_spec ethtool_stats_spec = {
	.name = "ethtool-stats",
	.opts = ethtool_stats_opts,
	.operands = "IFNAME",
	.min_operands = 1,
	.max_operands = 1,
	.about =
	"Debugging aid: the ethtool statistics (ETH_SS_STATS, what `ethtool -S`\n"
	"prints) of one netdev, read the way inventory reads those of an RDMA\n"
	"port's netdev (\"ethtool_stats\" in inventory --json).  Live over the\n"
	"SIOCETHTOOL ioctl, no privileges needed; with --root, from the\n"
	"snapshot's .rdmadoctor/ethtool/IFNAME/{strings,stats}.\n"
	"Text: one 'name value' line per statistic, in the driver's order.\n"
	"JSON: {name: value}, or null when the netdev has none.\n",
	.epilog = "Exit 0 when read, 1 when not available (said why on stderr),\n"
		  "2 when there is no such interface.\n",
};

/* Why nothing was read: the reader's last note (all of them under -v,
 * which ctx_print_notes has printed). */
static void say_none(const struct ctx *c, const struct root *r, const char *what,
		     const char *ifname)
{
	if (!c->quiet && !c->verbose)
		ethtool_say_none(c->prog, r->n_notes ? r->notes[r->n_notes - 1].what : NULL, what,
				 ifname);
}

/* --link: the port's "link" of inventory for any netdev */
static int show_link(struct ctx *c, struct root *r, const char *ifname)
{
	struct link_info *l = NULL;
	int rc = link_read(r, ifname, &l);

	if (rc < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	if (c->json && !l)
		rc = puts("null") >= 0 && fflush(stdout) == 0 ? EXIT_PROBLEMS : EXIT_RUNTIME;
	else if (c->json)
		rc = ctx_emit_json(c, link_to_json(l));
	else if (l) {
		text_link(stdout, l);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
	} else {
		rc = EXIT_PROBLEMS;
	}
	if (!l)
		say_none(c, r, "link modes", ifname);
	free(l);
	return rc;
}

int cmd_ethtool_stats(struct ctx *c, int argc, char **argv)
{
	struct ethtool_stats_args a = { 0 };
	const char *ifname;
	struct counter_set set = { 0 };
	struct root r;
	char path[32];	/* sys/class/net/ and a name of at most 15 bytes */
	int n, rc = opts_parse(c, &ethtool_stats_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	ifname = argv[1];
	if (!opt_parse_ifname(ifname)) {
		fprintf(stderr, "%s ethtool-stats: '%s' is not an interface name (1 to 15 "
			"characters, no '/', ':' or spaces; `ip link` lists them)\n", c->prog,
			ifname);
		return EXIT_USAGE;
	}
	if (root_open(&r, c->root_dir) < 0) {
		fprintf(stderr, "%s: cannot open root '%s'\n", c->prog, c->root_dir);
		return EXIT_RUNTIME;
	}
	(void)einval_file_load(&r, NULL, false);
	snprintf(path, sizeof(path), "sys/class/net/%s", ifname);
	if (!root_exists(&r, path)) {
		fprintf(stderr, "%s ethtool-stats: no network interface '%s' under '%s' (`ip "
			"link` lists them)\n", c->prog, ifname, c->root_dir);
		root_close(&r);
		return EXIT_USAGE;
	}
	if (a.link) {
		rc = show_link(c, &r, ifname);
		ctx_print_notes(c, &r);
		root_close(&r);
		return rc;
	}
	rc = ethtool_read_stats(&r, ifname, &set);
	if (rc < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	} else if (c->json && !set.v) {
		/* a document that is not an object: jansson will not dump it */
		rc = puts("null") >= 0 && fflush(stdout) == 0 ? EXIT_PROBLEMS : EXIT_RUNTIME;
	} else if (c->json) {
		rc = ctx_emit_json(c, ethtool_stats_json(&set));
	} else {
		text_ethtool_stats(stdout, &set);
		rc = fflush(stdout) == 0 ? (set.v ? EXIT_OK : EXIT_PROBLEMS) : EXIT_RUNTIME;
	}
	ctx_print_notes(c, &r);
	if (rc == EXIT_PROBLEMS)
		say_none(c, &r, "statistics", ifname);
	counter_set_clear(&set);
	root_close(&r);
	return rc;
}
