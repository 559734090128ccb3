// SPDX-License-Identifier: GPL-2.0
/*
 * plot_dist.c - box plots of the samples of the headline benchmarks
 * (plots/lib/boxes.gp): one panel per benchmark, one box per run.
 */
#include "analysis/plot_select.h"

#include <string.h>

#include "analysis/headline.h"

/*
 * At most 9 panels (3 x 3): the first headline rows every run has
 * samples of. The .dat holds a block per panel of "run value" rows.
 */
int plot_select_dist(struct plot_job *job)
{
	const struct bench_key *headline = headline_benchmarks();
	char names[1024] = "", units[512] = "";
	size_t panels = 0;
	FILE *f = NULL;

	for (size_t h = 0; headline[h].suite && panels < 9; h++) {
		const struct run_bench *b[PLOT_MAX_RUNS] = { 0 };
		const char *name = NULL;
		int any = 1;

		/* every run needs samples: gnuplot cannot draw an empty box */
		for (size_t r = 0; r < job->nruns; r++) {
			b[r] = bench_match(job->runs[r], &headline[h]);
			any &= b[r] && b[r]->count > 0;
			if (b[r] && !name)
				name = b[r]->name;
		}
		if (!any)
			continue;
		if (!f && !(f = plot_dat_open(job, job->name)))
			return -1;
		for (size_t r = 0; r < job->nruns; r++)
			for (size_t k = 0; b[r] && k < b[r]->count; k++)
				fprintf(f, "%zu %.6g\n", r + 1, b[r]->values[k]);
		fputs("\n\n", f);
		plot_word_add(names, sizeof(names), name);
		for (size_t r = 0; r < job->nruns; r++)
			if (b[r]) {
				plot_word_add(units, sizeof(units), b[r]->unit);
				break;
			}
		panels++;
	}
	if (!panels)
		return PLOT_EMPTY;
	if (plot_dat_close(job, f, job->name))
		return -1;
	plot_set_string(job, "names", names);
	plot_set_string(job, "units", units);
	plot_set_number(job, "panels", (double)panels);
	plot_set_number(job, "nseries", (double)job->nruns);
	return PLOT_DRAW;
}
