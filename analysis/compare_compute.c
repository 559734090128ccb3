// SPDX-License-Identifier: GPL-2.0
/*
 * compare_compute.c - the numbers of a comparison, from its plan; see
 * compare_compute.h.
 */
#include "analysis/compare_compute.h"

#include <stdio.h>
#include <string.h>

#include "analysis/compare_boots.h"
#include "analysis/progress.h"

static void show_compared(void *arg, size_t done, size_t total)
{
	const struct compare_plan *plan = arg;

	progress_line(plan->tty, "comparing: %zu/%zu benchmarks", done, total);
}

int compare_compute(const struct compare_plan *plan,
		    struct compare_outcome *out)
{
	const char *name = plan->who;

	memset(out, 0, sizeof(*out));
	out->settings = plan->settings;
	if (compare_sides_rows(plan->side_a, plan->sides.na, plan->side_b,
			       plan->sides.nb, &out->settings, 0, show_compared,
			       (void *)plan, &out->res, &out->kept)) {
		progress_line(plan->tty, "%s", "");
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		return 1;
	}
	progress_line(plan->tty, "%s", "");
	if (!out->res.count) {
		fprintf(stderr, "smapbench %s: no benchmark is in both runs (A "
			"has %zu, B has %zu): names must match exactly, in "
			"units that convert to each other\n", name,
			plan->pair[0]->count, plan->pair[1]->count);
		return 1;
	}
	progress_line(plan->tty, "the pair's cost from the two boots");
	out->have_fit = !pair_fit_compute(&out->res, plan->pair[0],
					  plan->pair[1], plan->req.census,
					  &out->settings, &out->fit);
	out->have_controls = !compare_controls_compute(&out->res, &out->settings,
						       &out->controls);
	progress_line(plan->tty, "within-boot tables of %s", plan->smap->label);
	out->have_tables = !derived_compute(plan->smap, &out->tables);
	progress_line(plan->tty, "%s", "");
	out->fail_on_rows = compare_rows_with(&out->res, plan->req.fail_on,
					      &out->fail_on_first);
	if (compare_words_of(&out->res, &out->settings, &out->words)) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		return 1;
	}
	return 0;
}

void compare_outcome_free(struct compare_outcome *out)
{
	if (out->have_tables)
		derived_free(&out->tables);
	if (out->have_fit)
		pair_fit_free(&out->fit);
	if (out->have_controls)
		compare_controls_free(&out->controls);
	compare_words_free(&out->words);
	compare_result_free(&out->res);
	memset(out, 0, sizeof(*out));
}
