/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plots.h - the plots of one run or of two side by side, as a table in
 * the manner of perf bench's: a name, a caption, the gnuplot script that
 * draws it (plots/<script>: titles, labels, colours), the function that
 * selects its data (plot_select.h), and what that function is asked for
 * (the ops of a size sweep, the suite of a delta). Adding a plot is one
 * line of the table in plots.c and one script; a plot of rows no select
 * function picks yet also needs that function.
 */
#ifndef SMAPBENCH_PLOTS_H
#define SMAPBENCH_PLOTS_H

#include <stddef.h>

#include "analysis/plot_job.h"

struct plot {
	const char *name;	/* plots/<name>.png, .svg, .dat */
	const char *caption;	/* what it shows, for report.md */
	const char *script;	/* in plots/ */
	/* Write the .dat, set the variables; PLOT_DRAW, PLOT_EMPTY or -1. */
	int (*select)(struct plot_job *job);
	const char *arg;	/* for select (plot_select.h), or NULL */
};

/* Every plot, in the order report.md shows them; ends with a NULL name. */
extern const struct plot plots[];

/*
 * Render every plot the runs have data for into dir/plots/ (PNG and SVG
 * plus the .dat inputs), replacing an old plots/ only when all rendered
 * and only when smapbench wrote it (atomic_dir.h). One run: variants
 * side by side; two runs: A and B side by side. Returns 0; PLOTS_NONE
 * when the runs have nothing to plot (nothing written); or 1 after
 * saying why on stderr, as "smapbench WHO: ...", leaving no partial
 * plots/ directory.
 */
#define PLOTS_NONE 2
int plots_render(const char *who, const struct run_dir *const *runs,
		 size_t nruns, const char *dir);
/*
 * The same for two runs with compare's result: the delta plots colour
 * each row by its verdict and draw the relevance threshold set uses.
 */
int plots_render_compare(const char *who, const struct run_dir *const *runs,
			 const struct compare_result *res,
			 const struct compare_settings *set, const char *dir);
/* `plot RUN`: RUN/plots/. Returns the exit status, after saying why. */
int plots_render_run(const char *who, const char *path);

#endif /* SMAPBENCH_PLOTS_H */
