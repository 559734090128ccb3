// SPDX-License-Identifier: GPL-2.0
/*
 * report_console.c - the table a person reads: per benchmark the center
 * per operation (the mean of the repetition medians) with its 95% CI
 * over the repetitions, the spread of the samples (MAD / median, p5..p95),
 * the count of outliers and flags, with what each shown flag means;
 * skipped benchmarks are grouped by reason so a missing module is one
 * line, not a hundred.
 */
#include "rundata/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void human(char *buf, size_t len, const struct result *res, double v)
{
	/* Time units read best; raw units stay available in the CSV. */
	if (res->hz > 0)
		runner_format_value(buf, len, v * 1e9 / res->hz, "ns");
	else
		runner_format_value(buf, len, v, res->unit);
}

/*
 * What the flags shown mean, so that a reader need not look them up;
 * docs/schema.md has the same definitions. run_flags are the run's own
 * (unpinned, tcg), on every row.
 */
static void flag_legend(FILE *f, unsigned seen, const char *run_flags,
			int any_outliers)
{
	if (run_flags && strstr(run_flags, "tcg"))
		fprintf(f, "tcg: run under QEMU's emulator (TCG): the values are functional only, not what anything costs on hardware\n");
	if (run_flags && strstr(run_flags, "unpinned"))
		fprintf(f, "unpinned: the run could not pin itself to one CPU, so its samples may have moved between CPUs\n");
	if (any_outliers)
		fprintf(f, "outliers: samples with a modified Z-score above %.1f (0.6745 |x - median| / MAD); they raise no flag\n",
			STATS_OUTLIER_Z);
	if (seen & RESULT_NOISY)
		fprintf(f, "noisy: half of the samples lie more than %.0f%% from the median (mad/med above %.0f%%): the bulk is wide, not just a few outliers; the center may move between runs\n",
			RESULT_NOISY_MAD_SHARE * 100, RESULT_NOISY_MAD_SHARE * 100);
	if (seen & RESULT_PREEMPTED)
		fprintf(f, "preempted: more than %.0f%% of the samples saw an involuntary context switch\n",
			RESULT_PREEMPTED_SHARE * 100);
	if (seen & RESULT_CLAMPED)
		fprintf(f, "clamped: a sample could not reach --min-time (or the module cut it): its value rests on fewer operations\n");
}

int report_console(FILE *f, const struct report *r)
{
	size_t width = 9, shown = 0;
	unsigned seen_flags = 0;
	int any_outliers = 0;
	unsigned fewest = 0, most = 0;
	char center[32], lo[32], hi[32], p5[32], p95[32], raw[32], flags[256];

	for (size_t i = 0; i < r->results->count; i++) {
		size_t n = strlen(r->results->items[i].bench->name);

		if (!r->results->items[i].skipped && n > width)
			width = n;
	}
	fprintf(f, "%-*s %10s %21s %7s %21s %8s %14s %s\n", (int)width,
		"benchmark", "center", "95% CI of center", "mad/med", "p5 .. p95",
		"outliers", "raw center", "counter flags");
	for (size_t i = 0; i < r->results->count; i++) {
		const struct result *res = &r->results->items[i];
		char ci[80], range[80];

		if (res->skipped || !res->nsamples)
			continue;
		human(center, sizeof(center), res, res->center.estimate);
		human(lo, sizeof(lo), res, res->center.low);
		human(hi, sizeof(hi), res, res->center.high);
		human(p5, sizeof(p5), res, res->stats.p5);
		human(p95, sizeof(p95), res, res->stats.p95);
		runner_format_value(raw, sizeof(raw), res->center.estimate,
				    res->unit);
		if (!fewest || res->repetitions < fewest)
			fewest = res->repetitions;
		if (res->repetitions > most)
			most = res->repetitions;
		snprintf(ci, sizeof(ci), "%s .. %s", lo, hi);
		snprintf(range, sizeof(range), "%s .. %s", p5, p95);
		report_row_flags(r, res, flags, sizeof(flags));
		seen_flags |= res->flags;
		any_outliers |= res->stats.outliers > 0;
		fprintf(f, "%-*s %10s %21s %6.1f%% %21s %8zu %14s %s%s%s\n",
			(int)width, res->bench->name, center, ci,
			res->stats.mad / fabs(res->stats.median) * 100, range,
			res->stats.outliers, raw, res->counter,
			flags[0] ? " " : "", flags);
		shown++;
	}
	if (shown) {
		char reps[32];

		if (fewest == most)
			snprintf(reps, sizeof(reps), "%u", most);
		else
			snprintf(reps, sizeof(reps), "%u to %u", fewest, most);
		fprintf(f, "center: the mean of the %s repetitions' medians; 95%% CI: Student's t over those repetitions, each a process of its own: not what moves a whole invocation or boot (docs/interpreting.md); mad/med, p5 .. p95, outliers: of all samples\n",
			reps);
		flag_legend(f, seen_flags, r->run_flags, any_outliers);
	}
	/* Skipped: one line per distinct reason. */
	for (size_t i = 0; i < r->results->count; i++) {
		const struct result *res = &r->results->items[i];
		size_t count = 0;
		int seen = 0;

		if (!res->skipped)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = r->results->items[k].skipped &&
			       !strcmp(r->results->items[k].reason, res->reason);
		if (seen)
			continue;
		for (size_t k = i; k < r->results->count; k++)
			count += r->results->items[k].skipped &&
				 !strcmp(r->results->items[k].reason, res->reason);
		if (count == 1)
			fprintf(f, "skipped %s: %s\n", res->bench->name,
				res->reason);
		else
			fprintf(f, "skipped %zu benchmarks (%s, ...): %s\n",
				count, res->bench->name, res->reason);
	}
	if (!shown)
		fprintf(f, "no benchmark ran\n");
	return ferror(f) ? -1 : 0;
}
