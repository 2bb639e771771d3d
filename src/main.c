/* rdmadoctor: global options and the command table; nothing else. */
#include "cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RD_VERSION
#define RD_VERSION "0.0.0"
#endif

/* One row per command: name, handler, summary, and its option table
 * (src/opt/opts.h).  Names match exactly. */
static const struct cmd_row commands[] = {
	{ "check", cmd_check, "inventory judged against a profile: findings, verdict, exit code", &check_spec },
	{ "inventory", cmd_inventory, "what is here: NICs, ports, PCIe path, netdevs, GIDs, counters, GPUs", &inventory_spec },
	{ "gids", cmd_gids, "RoCE/IB GID table (what show_gids prints, plus the recommended index)", &gids_spec },
	{ "topo", cmd_topo, "GPU x NIC matrix (PIX, PXB, PHB, NODE, SYS) and each NIC's nearest GPU", &topo_spec },
	{ "snapshot", cmd_snapshot, "capture everything the readers read, for replay with --root DIR", &snapshot_spec },
	{ "profiles", cmd_profiles, "built-in machine profiles (list, show NAME)", &profiles_spec },
	{ "watch", cmd_watch, "counter deltas over a window; flags growing errors and flaps", &watch_spec },
	{ "bw", cmd_bw, "bandwidth test: `bw server` on one host, `bw client HOST` on the other", &bw_spec },
	{ "lat", cmd_lat, "latency test: `lat server` on one host, `lat client HOST` on the other", &lat_spec },
	{ "record", cmd_record, "store this host's check (or --from FILE.json...): SQLite or PostgreSQL", &record_spec },
	{ "fleet", cmd_fleet, "the stored fleet: ls, show HOST, diff, report --html FILE, rm HOST", &fleet_spec },
	{ "fabric", cmd_fabric, "every pair of nodes on every rail, under srun or mpirun (PMIx)", &fabric_spec },
	{ "serve", cmd_serve, "Prometheus exporter over HTTP (loopback unless told otherwise)", &serve_spec },
	{ "clear", cmd_clear, "forget what serve and check --state remember (a flap, a fault), once fixed", &clear_spec },
	{ "nccl", cmd_nccl, "the NCCL (or HCCL) environment a job should set here, each with why", &nccl_spec },
	{ "labels", cmd_labels, "Node Feature Discovery labels: rails up, their rate, GPUDirect, verdict", &labels_spec },
	{ "plan", cmd_plan, "how much network a training job needs per GPU, against this machine", &plan_spec },
	{ "ethtool-stats", cmd_ethtool_stats, "debug: one netdev's `ethtool -S` as rdmadoctor reads it", &ethtool_stats_spec },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fputs("usage: rdmadoctor [global options] COMMAND [ARGS]\n\n"
	      "Checks, measures and records the RDMA network of a GPU machine.\n\n"
	      "commands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fputs("\nglobal options (before or after the command):\n", out);
	opts_print_global(out);
	fputs("  --version           print the version\n\n"
	      "exit codes: 0 fine, 1 problems found, 2 usage error, 3 could not run\n"
	      "`rdmadoctor COMMAND --help` explains each command.\n", out);
}

static void unknown_command(const char *word)
{
	const char *names[N_COMMANDS];
	const char *near;

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	near = opts_nearest(word, names, N_COMMANDS);
	fprintf(stderr, "rdmadoctor: unknown command '%s'", word);
	if (near)
		fprintf(stderr, " (did you mean '%s'?)", near);
	fputs("\n`rdmadoctor --help` lists the commands\n", stderr);
}

int main(int argc, char **argv)
{
	struct ctx c = { .root_dir = "/", .prog = "rdmadoctor" };
	int i, rc = opts_parse_global(&c, argc, argv, &i);

	if (rc >= 0)
		return rc;
	if (i < argc && argv[i][0] == '-' && argv[i][1]) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("rdmadoctor %s\n", RD_VERSION);
			return EXIT_OK;
		}
		/* hidden: every option table as JSON, for man pages and completion */
		if (strcmp(argv[i], "--dump-options") == 0)
			return opts_dump(stdout, commands, N_COMMANDS) == 0 ? EXIT_OK : EXIT_RUNTIME;
		opts_say_unknown(&c, NULL, argv[i]);
		return EXIT_USAGE;
	}
	if (i == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (size_t k = 0; k < N_COMMANDS; k++)
		if (strcmp(argv[i], commands[k].name) == 0)
			return commands[k].fn(&c, argc - i, argv + i);
	unknown_command(argv[i]);
	return EXIT_USAGE;
}
