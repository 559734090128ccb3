// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plot.c - `smapbench plot RUN`: PNG and SVG plots of a run in
 * RUN/plots/ (analysis/plots.h).
 */
#include <stdio.h>
#include <string.h>

#include "analysis/plots.h"
#include "cli/commands.h"

static void plot_usage(FILE *f)
{
	fputs("usage: smapbench plot RUN\n"
	      "\n"
	      "Renders RUN's results into RUN/plots/ (PNG and SVG, and the .dat\n"
	      "files they were drawn from): cost per op by variant, copy size\n"
	      "sweep, signal frame, sample distributions, syscall suite.\n"
	      "Needs gnuplot; RUN/plots/ is replaced only when every plot rendered,\n"
	      "and only when smapbench wrote it (a plots/ holding other files is\n"
	      "left alone).\n",
	      f);
}

int cmd_plot(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		plot_usage(stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		if (argc < 2)
			fprintf(stderr, "smapbench plot: needs a run directory\n\n");
		else if (argv[1][0] == '-')
			fprintf(stderr, "smapbench plot: unknown option '%s'\n\n",
				argv[1]);
		else
			fprintf(stderr, "smapbench plot: takes one run, got %d "
				"arguments\n\n", argc - 1);
		plot_usage(stderr);
		return EXIT_USAGE;
	}
	return plots_render_run("plot", argv[1]);
}
