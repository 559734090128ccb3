// SPDX-License-Identifier: GPL-2.0
/* run_select.c - benchmarks of a run by their fields; see run_select.h. */
#include "analysis/run_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_is(const struct run_bench *b, const struct bench_key *k)
{
	return !strcmp(b->suite, k->suite) && !strcmp(b->op, k->op) &&
	       !strcmp(b->variant, k->variant) && b->size == k->size &&
	       b->batch == k->batch;
}

const struct run_bench *bench_match(const struct run_dir *run,
				    const struct bench_key *k)
{
	for (size_t i = 0; i < run->count; i++)
		if (bench_is(&run->bench[i], k))
			return &run->bench[i];
	return NULL;
}

const struct run_bench *bench_sibling(const struct run_dir *run,
				      const struct run_bench *b,
				      const char *variant, unsigned long batch)
{
	const struct bench_key k = { b->suite, b->op, variant, b->size, batch };

	return bench_match(run, &k);
}

size_t bench_sweep(const struct run_dir *run, const char *suite,
		   const char *op, const char *variant,
		   const struct run_bench **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < run->count && n < max; i++) {
		const struct run_bench *b = &run->bench[i];
		size_t k;

		if (strcmp(b->suite, suite) || strcmp(b->op, op) ||
		    strcmp(b->variant, variant) || b->batch || !b->size)
			continue;
		for (k = n++; k > 0 && out[k - 1]->size > b->size; k--)
			out[k] = out[k - 1];
		out[k] = b;
	}
	return n;
}

const char *suite_unit(const struct run_dir *const *runs, size_t nruns,
		       const char *suite)
{
	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r]->count; i++)
			if (!strcmp(runs[r]->bench[i].suite, suite))
				return runs[r]->bench[i].unit;
	return "";
}

void run_weight_of(const struct run_dir *run, struct run_weight *w)
{
	const char *reps = rundir_context_or(run, "repetitions", "0");
	char *end;

	w->complete = !rundir_incomplete(run);
	w->quick = !strcmp(rundir_context_or(run, "quick", ""), "1");
	w->repetitions = strtoul(reps, &end, 10);
	if (*end)
		w->repetitions = 0;
	w->date = rundir_context_or(run, "date", "");
}

int run_weight_compare(const struct run_weight *a, const struct run_weight *b,
		       char *why, size_t len)
{
	char buf[96];
	int c = 0;

	if (a->complete != b->complete) {
		c = a->complete ? 1 : -1;
		snprintf(buf, sizeof(buf), "a complete run, not an interrupted one");
	} else if (a->quick != b->quick) {
		c = a->quick ? -1 : 1;
		snprintf(buf, sizeof(buf), "a default or --full run, not a --quick one");
	} else if (a->repetitions != b->repetitions) {
		c = a->repetitions > b->repetitions ? 1 : -1;
		snprintf(buf, sizeof(buf), "more repetitions (%lu, not %lu)",
			 c > 0 ? a->repetitions : b->repetitions,
			 c > 0 ? b->repetitions : a->repetitions);
	} else if (strcmp(a->date, b->date)) {
		/* context dates are ISO 8601: their order is time's */
		c = strcmp(a->date, b->date) > 0 ? 1 : -1;
		snprintf(buf, sizeof(buf), "a newer run");
	} else {
		snprintf(buf, sizeof(buf), "an equal run given first");
	}
	if (why)
		snprintf(why, len, "%s", buf);
	return c;
}
