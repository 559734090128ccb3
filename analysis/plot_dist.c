// SPDX-License-Identifier: GPL-2.0
/*
 * plot_dist.c - box plots of the samples of the headline benchmarks
 * (plots/lib/boxes.gp): one panel per benchmark, one box per run, all in
 * one unit, each panel's axis clipped at its runs' far fences.
 */
#include "analysis/plot_select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/headline.h"
#include "measure/stats.h"

#define DIST_MAX_PANELS	9
/*
 * Tukey's far fences: samples beyond 3 IQR of the quartiles lie outside
 * the axis, drawn at its edge with their count, so that one slow sample
 * does not flatten every box of its panel.
 */
#define DIST_FENCE_IQR	3.0

/* The far fences of b's values, scaled. 0, or -1 on no memory. */
static int fences(const struct run_bench *b, double scale, double *low,
		  double *high)
{
	double *v = malloc(b->count * sizeof(*v)), q1, q3;

	if (!v)
		return -1;
	for (size_t k = 0; k < b->count; k++)
		v[k] = b->values[k] * scale;
	stats_sort(v, b->count);
	q1 = stats_quantile_sorted(v, b->count, 0.25);
	q3 = stats_quantile_sorted(v, b->count, 0.75);
	/* the axis ends at the last sample inside a fence, not at the fence */
	*low = fmax(v[0], q1 - DIST_FENCE_IQR * (q3 - q1));
	*high = fmin(v[b->count - 1], q3 + DIST_FENCE_IQR * (q3 - q1));
	free(v);
	return 0;
}

/*
 * At most 9 panels (3 x 3): the first headline rows every run has
 * samples of, in ns when every one of them converts, else in the first
 * row's unit with only the rows in it. The .dat holds a block per panel
 * of "run value" rows; ylow and yhigh are each panel's axis, below and
 * above per panel and run the samples beyond it.
 */
int plot_select_dist(struct plot_job *job)
{
	const struct bench_key *headline = headline_benchmarks();
	const struct run_bench *pick[DIST_MAX_PANELS][PLOT_MAX_RUNS];
	char names[1024] = "", ylow[512] = "", yhigh[512] = "";
	char below[512] = "", above[512] = "", num[32];
	const char *unit = "ns";
	size_t panels = 0, candidates = 0;
	int in_ns = 1;
	FILE *f = NULL;

	for (size_t h = 0; headline[h].suite && candidates < DIST_MAX_PANELS; h++) {
		int any = 1;

		/* every run needs samples: gnuplot cannot draw an empty box */
		for (size_t r = 0; r < job->nruns; r++) {
			pick[candidates][r] = bench_match(job->runs[r], &headline[h]);
			any &= pick[candidates][r] && pick[candidates][r]->count > 0;
		}
		if (!any)
			continue;
		for (size_t r = 0; r < job->nruns; r++)
			in_ns &= isfinite(rundir_ns_per_unit(job->runs[r],
						       pick[candidates][r]));
		candidates++;
	}
	if (!candidates)
		return PLOT_EMPTY;
	if (!in_ns)
		unit = pick[0][0]->unit;
	for (size_t c = 0; c < candidates; c++) {
		double scale[PLOT_MAX_RUNS], lo = INFINITY, hi = -INFINITY;
		int same_unit = 1;

		for (size_t r = 0; r < job->nruns; r++) {
			double flo, fhi;

			same_unit &= !strcmp(pick[c][r]->unit, unit);
			scale[r] = in_ns ? rundir_ns_per_unit(job->runs[r], pick[c][r])
				 : 1;
			if (fences(pick[c][r], scale[r], &flo, &fhi))
				goto no_memory;
			lo = fmin(lo, flo);
			hi = fmax(hi, fhi);
		}
		/* one unit per figure: a row in another unit is left out */
		if (!in_ns && !same_unit)
			continue;
		if (!f && !(f = plot_dat_open(job, job->name)))
			return -1;
		for (size_t r = 0; r < job->nruns; r++) {
			size_t n_below = 0, n_above = 0;

			for (size_t k = 0; k < pick[c][r]->count; k++) {
				double v = pick[c][r]->values[k] * scale[r];

				fprintf(f, "%zu %.6g\n", r + 1, v);
				n_below += v < lo;
				n_above += v > hi;
			}
			snprintf(num, sizeof(num), "%zu", n_below);
			plot_word_add(below, sizeof(below), num);
			snprintf(num, sizeof(num), "%zu", n_above);
			plot_word_add(above, sizeof(above), num);
		}
		fputs("\n\n", f);
		snprintf(num, sizeof(num), "%.6g", lo);
		plot_word_add(ylow, sizeof(ylow), num);
		snprintf(num, sizeof(num), "%.6g", hi);
		plot_word_add(yhigh, sizeof(yhigh), num);
		plot_word_add(names, sizeof(names), pick[c][0]->name);
		panels++;
	}
	if (!panels)
		return PLOT_EMPTY;
	if (plot_dat_close(job, f, job->name))
		return -1;
	plot_set_string(job, "names", names);
	plot_set_string(job, "unit", unit);
	plot_set_string(job, "ylow", ylow);
	plot_set_string(job, "yhigh", yhigh);
	plot_set_string(job, "below", below);
	plot_set_string(job, "above", above);
	plot_set_number(job, "fence", DIST_FENCE_IQR);
	plot_set_number(job, "panels", (double)panels);
	plot_set_number(job, "nseries", (double)job->nruns);
	return PLOT_DRAW;
no_memory:
	if (f)
		fclose(f);
	fprintf(stderr, "%s: out of memory\n", job->who);
	return -1;
}
