// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_workload.c - `smapbench workload COMPARISON --census DIR`: what SMAP
 * costs a command, measured in a comparison of runs made with --command
 * and predicted from its census (census/command/census_workload.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "census/command/census_workload.h"
#include "cli/commands.h"
#include "cli/options.h"

static const struct option_def workload_options[] = {
	OPT_TEXT("census", "DIR", struct workload_options, census, "directory",
		 "the census of the command (smapbench census -- sh -c 'CMD')"),
	OPT_TEXT("runs", "DIR", struct workload_options, runs, "directory",
		 "the runs compared, for the module's pair cost (inline -\n"
		 "nopad, this machine's) and whether they were emulated"),
	OPT_TEXT("kernel", "RELEASE", struct workload_options, kernel, "release",
		 "the census's boot of this kernel (default: its only one)"),
	OPT_FLAG("force", struct workload_options, force,
		 "take a census of another command"),
	OPT_FLAG("no-plots", struct workload_options, no_plots,
		 "leave plots/workload.{png,svg} out"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table workload_table = {
	.command = "workload",
	.synopsis = "COMPARISON --census DIR [options]",
	.about =
		"What SMAP costs a command: its row in COMPARISON (compare of SMAP-off runs\n"
		"against SMAP-on runs made with --command), beside its census's pairs times\n"
		"the pair's cost from the module, the series' beta and the census's own\n"
		"figure, each with its interval. Writes workload.csv, workload.md and\n"
		"plots/workload.{png,svg} into COMPARISON.\n",
	.options = workload_options,
	.after = "Exit status: 0 written; 1 a failure here; 2 bad usage or input.\n",
};

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int cmd_workload(int argc, char **argv)
{
	struct workload_options o = { 0 };
	struct option_result r;
	struct workload w;
	char err[2048];
	int rc;

	if (options_parse(&workload_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&workload_table, err);
	if (r.help) {
		options_usage(stdout, &workload_table);
		return 0;
	}
	if (argc - r.first != 1)
		return options_refuse(&workload_table, "needs one COMPARISON directory");
	o.compare = argv[r.first];
	if (!o.census)
		return options_refuse(&workload_table, "needs --census DIR, the census of the command");
	if (!is_dir(o.compare) || !is_dir(o.census) || (o.runs && !is_dir(o.runs))) {
		snprintf(err, sizeof(err), "'%s' is not a directory",
			 !is_dir(o.compare) ? o.compare : !is_dir(o.census) ? o.census : o.runs);
		return options_refuse(&workload_table, err);
	}
	rc = workload_build(&o, &w, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "smapbench workload: %s\n", err);
		return rc == -2 ? EXIT_USAGE : 1;
	}
	if (workload_write(&o, &w, err, sizeof(err))) {
		fprintf(stderr, "smapbench workload: %s\n", err);
		return 1;
	}
	for (int s = 0; s < WORKLOAD_SOURCES; s++)
		printf("%-7s %s\n", workload_source_name(s), w.p[s].verdict);
	printf("workload: %s/workload.md\n", o.compare);
	return 0;
}
