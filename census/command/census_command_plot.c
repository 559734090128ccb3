// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_plot.c - plots/census-sites of a command's census
 * directory: the top functions of the SMAP boots, one series a kernel.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/gnuplot.h"
#include "census/command/census_command_data.h"

/* The SMAP boots, at most max: the plot's series. */
static size_t smap_boots(const struct command_census *cc,
			 const struct command_boot **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cc->nboots && n < max; i++)
		if (!strcmp(cc->boots[i].command->state, "smap"))
			out[n++] = &cc->boots[i];
	return n;
}


/*
 * plots/census-sites.dat: the top functions of the SMAP boots, one
 * column of pairs per kernel. 0, or -1 when there is nothing to plot.
 */
int census_command_write_plot_data(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	unsigned top = o->in->top;
	const struct command_boot *smap[PLOT_SERIES];
	size_t n = smap_boots(cc, smap, PLOT_SERIES), rows = 0;
	char shown[PLOT_ROWS][NAME_LEN];

	if (!n)
		return -1;
	fprintf(f, "function");
	for (size_t k = 0; k < n; k++) {
		fputc(',', f);
		gnuplot_data_string(f, smap[k]->command->kernel, 64);
	}
	fputc('\n', f);
	/* the union of each kernel's top functions, in rank order */
	for (size_t rank = 0; rank < top && rows < PLOT_ROWS; rank++) {
		for (size_t k = 0; k < n && rows < PLOT_ROWS; k++) {
			const struct command_boot *b = smap[k];
			const struct function_count *fn;
			int dup = 0;

			if (rank >= b->nfunctions)
				continue;
			fn = &b->functions[rank];
			if (function_pairs(fn) <= 0)
				continue;
			for (size_t r = 0; r < rows; r++)
				dup |= !strcmp(shown[r], fn->name);
			if (dup)
				continue;
			snprintf(shown[rows++], NAME_LEN, "%s", fn->name);
		}
	}
	for (size_t r = 0; r < rows; r++) {
		gnuplot_data_string(f, shown[r], NAME_LEN);
		for (size_t k = 0; k < n; k++) {
			const struct command_boot *b = smap[k];
			int found = 0;

			for (size_t i = 0; i < b->nfunctions && !found; i++)
				if (!strcmp(b->functions[i].name, shown[r])) {
					fprintf(f, ",%" PRId64, function_pairs(&b->functions[i]));
					found = 1;
				}
			if (!found)
				fprintf(f, ",NaN");
		}
		fputc('\n', f);
	}
	return ferror(f) || !rows ? -1 : 0;
}

int census_command_render_plot(const char *dir, const struct outputs *o)
{
	const struct command_boot *smap[PLOT_SERIES];
	size_t series = smap_boots(o->cc, smap, PLOT_SERIES);
	struct gnuplot gp;
	char settings[4096] = "", plots[PATH_MAX + 64], title[600];
	int rc;

	if (gnuplot_find(&gp, "census"))
		return -1;
	snprintf(title, sizeof(title), "STAC/CLAC pairs above the baseline per kernel function: %.500s",
		 o->command);
	gnuplot_set_string(settings, sizeof(settings), "title", title);
	gnuplot_set_string(settings, sizeof(settings), "context",
			   "counted by the census plugin in QEMU TCG, -cpu max, SMAP boots (docs/census.md)");
	gnuplot_set_number(settings, sizeof(settings), "nseries", (double)series);
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	rc = gnuplot_draw(&gp, "census", "census-sites.gp", plots, "census-sites",
			  settings);
	gnuplot_free(&gp);
	return rc;
}

