// SPDX-License-Identifier: GPL-2.0
/*
 * report_console.c - the table a person reads: per benchmark the center
 * per operation (the mean of the repetition medians) with its 95% CI
 * over the repetitions, the spread of the samples (CV, p5..p95) and flags;
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

int report_console(FILE *f, const struct report *r)
{
	size_t width = 9, shown = 0;
	unsigned fewest = 0, most = 0;
	char center[32], lo[32], hi[32], p5[32], p95[32], raw[32], flags[256];

	for (size_t i = 0; i < r->results->count; i++) {
		size_t n = strlen(r->results->items[i].bench->name);

		if (!r->results->items[i].skipped && n > width)
			width = n;
	}
	fprintf(f, "%-*s %10s %21s %6s %21s %14s %s\n", (int)width, "benchmark",
		"center", "95% CI of center", "cv", "p5 .. p95", "raw center",
		"counter flags");
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
		fprintf(f, "%-*s %10s %21s %5.1f%% %21s %14s %s%s%s\n",
			(int)width, res->bench->name, center, ci,
			res->stats.cv * 100, range, raw, res->counter,
			flags[0] ? " " : "", flags);
		shown++;
	}
	if (shown) {
		char reps[32];

		if (fewest == most)
			snprintf(reps, sizeof(reps), "%u", most);
		else
			snprintf(reps, sizeof(reps), "%u to %u", fewest, most);
		fprintf(f, "center: the mean of the %s repetitions' medians; 95%% CI: Student's t over those repetitions (docs/interpreting.md); cv, p5 .. p95: of all samples\n",
			reps);
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
