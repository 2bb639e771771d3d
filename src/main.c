/* rdmadoctor: global options and the command table; nothing else. */
#include "cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RD_VERSION
#define RD_VERSION "0.0.0"
#endif

static const struct command {
	const char *name;
	cmd_fn fn;
	const char *summary;
} commands[] = {
	{ "check", cmd_check, "inventory judged against a profile: findings, verdict, exit code" },
	{ "inventory", cmd_inventory, "what is here: NICs, ports, PCIe path, netdevs, GIDs, counters, GPUs" },
	{ "gids", cmd_gids, "RoCE/IB GID table (what show_gids prints, plus the recommended index)" },
	{ "topo", cmd_topo, "GPU x NIC matrix (PIX, PXB, PHB, NODE, SYS) and each NIC's nearest GPU" },
	{ "snapshot", cmd_snapshot, "capture everything the readers read, for replay with --root DIR" },
	{ "profiles", cmd_profiles, "built-in machine profiles (list, show NAME)" },
	{ "watch", cmd_watch, "counter deltas over a window; flags growing errors and flaps" },
	{ "bw", cmd_bw, "bandwidth test: `bw server` on one host, `bw client HOST` on the other" },
	{ "lat", cmd_lat, "latency test: `lat server` on one host, `lat client HOST` on the other" },
	{ "record", cmd_record, "store this host's check result (or --from FILE.json...) in SQLite" },
	{ "fleet", cmd_fleet, "the stored fleet: ls, show HOST, diff, report --html FILE" },
	{ "fabric", cmd_fabric, "every pair of nodes on every rail, under srun or mpirun (PMIx)" },
	{ "serve", cmd_serve, "Prometheus exporter over HTTP (loopback unless told otherwise)" },
	{ "ethtool-stats", cmd_ethtool_stats, "debug: one netdev's `ethtool -S` as rdmadoctor reads it" },
};

static void usage(FILE *out)
{
	fputs("usage: rdmadoctor [--root DIR] [--json] [--color=auto|always|never] [-q] [-v]\n"
	      "                  COMMAND [ARGS]\n\n"
	      "Checks, measures and records the RDMA network of a GPU machine.\n\n"
	      "commands:\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\noptions:\n"
	      "  --root DIR  read DIR as if it were / (a snapshot or a fixture tree)\n"
	      "  --json      one JSON document on stdout\n"
	      "  -q          say less on stderr\n"
	      "  -v          say why values are missing or malformed\n"
	      "  --version   print the version\n\n"
	      "exit codes: 0 fine, 1 problems found, 2 usage error, 3 could not run\n"
	      "`rdmadoctor COMMAND --help` explains each command.\n", out);
}

static bool parse_color(const char *v)
{
	return strcmp(v, "auto") == 0 || strcmp(v, "always") == 0 || strcmp(v, "never") == 0;
}

int main(int argc, char **argv)
{
	struct ctx c = { .root_dir = "/", .prog = "rdmadoctor" };
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--root") == 0) {
			if (++i == argc) {
				fputs("rdmadoctor: --root needs a directory\n", stderr);
				return EXIT_USAGE;
			}
			c.root_dir = argv[i];
		} else if (strncmp(a, "--root=", 7) == 0) {
			c.root_dir = a + 7;
		} else if (strcmp(a, "--json") == 0) {
			c.json = true;
		} else if (strncmp(a, "--color=", 8) == 0 && parse_color(a + 8)) {
			c.color = strcmp(a + 8, "always") == 0 ? COLOR_ALWAYS :
				  strcmp(a + 8, "never") == 0 ? COLOR_NEVER : COLOR_AUTO;
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			c.quiet = true;
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			c.verbose = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("rdmadoctor %s\n", RD_VERSION);
			return EXIT_OK;
		} else {
			fprintf(stderr, "rdmadoctor: unknown option '%s'\n\n", a);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!*c.root_dir) {
		fputs("rdmadoctor: --root needs a directory\n", stderr);
		return EXIT_USAGE;
	}
	if (i == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (strcmp(argv[i], commands[k].name) == 0)
			return commands[k].fn(&c, argc - i, argv + i);
	fprintf(stderr, "rdmadoctor: unknown command '%s'\n\n", argv[i]);
	usage(stderr);
	return EXIT_USAGE;
}
