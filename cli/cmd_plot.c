// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plot.c - `smapbench plot RUN`: PNG and SVG plots of a run in
 * RUN/plots/ (analysis/plots.h).
 */
#include <stdio.h>
#include <string.h>

#include "analysis/plots.h"
#include "cli/commands.h"
#include "cli/options.h"

static const struct option_def plot_options[] = {
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table plot_table = {
	.command = "plot",
	.synopsis = "RUN",
	.about = "Renders RUN's results into RUN/plots/ (PNG and SVG, and the .dat\n"
		 "files they were drawn from): cost per op by variant, copy size\n"
		 "sweep, signal frame, sample distributions, syscall suite.\n"
		 "Needs gnuplot; RUN/plots/ is replaced only when every plot rendered,\n"
		 "and only when smapbench wrote it (a plots/ holding other files is\n"
		 "left alone).\n",
	.options = plot_options,
};

int cmd_plot(int argc, char **argv)
{
	struct option_result r;
	char err[256];

	if (options_parse(&plot_table, argc, argv, NULL, &r, err, sizeof(err)))
		return options_refuse(&plot_table, err);
	if (r.help) {
		options_usage(stdout, &plot_table);
		return 0;
	}
	if (argc - r.first != 1) {
		snprintf(err, sizeof(err), argc == r.first ? "needs a run directory" :
			 "takes one run, got %d arguments", argc - r.first);
		return options_refuse(&plot_table, err);
	}
	return plots_render_run("plot", argv[r.first]);
}
