// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - smapbench front end: finds the subcommand in a table and
 * hands it the rest of the command line.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "system/version.h"

static const struct command commands[] = {
	{ "run", "run benchmark suites, write a run directory", cmd_run, 0 },
	{ "info", "print this machine's context, counters and module info", cmd_info, 0 },
	{ "compare", "compare two runs: deltas, CIs with the boot variance, verdicts, plots", cmd_compare, 0 },
	{ "calibrate", "how much two boots differ, from runs of two or more boots", cmd_calibrate, 0 },
	{ "plan", "the boot series that reaches a precision in the least time, from runs", cmd_plan, 0 },
	{ "plot", "render a run's plots (PNG, SVG) into RUN/plots/", cmd_plot, 0 },
	{ "report", "write report.md for a run or a comparison", cmd_report, 0 },
	{ "census", "count STAC/CLAC per operation in QEMU, and check them", cmd_census, 0 },
	{ "workload", "what SMAP costs a command: measured over boots, predicted from its census", cmd_workload, 0 },
	{ "table", "one table of the pair's cost per machine and kernel, from many runs", cmd_table, 0 },
	{ "pack", "one archive of a run, with sizes and SHA-256 sums, to send", cmd_pack, 0 },
	{ "import", "check an archive of a run and place it under data/", cmd_import, 0 },
	{ "run-worker", "one repetition of a run, for smapbench run", cmd_run_worker, 1 },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: smapbench <command> [options]\n"
		   "       smapbench --help | --version\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!commands[i].hidden)
			fprintf(f, "  %-10s %s\n", commands[i].name,
				commands[i].summary);
	fprintf(f, "\n'smapbench <command> --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("smapbench %s (%s)\n", SMAPBENCH_VERSION,
		       SMAPBENCH_GIT_REVISION);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "smapbench: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
