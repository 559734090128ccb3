/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_compute.h - the second stage of a comparison: everything
 * computed from the plan (analysis/compare_plan.h), which it reads and
 * never changes. The rows of the sides (compare_boots.h: per pair, the
 * statistics of compare_stats.h, over every run of a side, net of sound
 * negative controls), the controls' own figures, the pair's cost from
 * the two boots (pair_fit.h) and the SMAP run's within-boot tables
 * (derived.h). The writers read this and the plan only.
 */
#ifndef SMAPBENCH_COMPARE_COMPUTE_H
#define SMAPBENCH_COMPARE_COMPUTE_H

#include <stddef.h>

#include "analysis/compare_controls.h"
#include "analysis/compare_plan.h"
#include "analysis/compare_stats.h"
#include "analysis/derived.h"
#include "analysis/pair_fit.h"

struct compare_outcome {
	/*
	 * The plan's settings, with the runs' own estimate of the boot
	 * variance where two or more units a side give one: what every
	 * row was computed with, and what the writers say.
	 */
	struct compare_settings settings;
	struct compare_result res;
	struct compare_words words;	/* what the writers say of res */
	size_t kept;		/* rows from the first run of each side only */
	struct compare_controls controls;
	int have_controls;
	struct pair_fit fit;
	int have_fit;
	struct derived tables;	/* of plan->smap */
	int have_tables;
	/* the rows with a verdict --fail-on names, and the first of them */
	size_t fail_on_rows;
	const struct compare_row *fail_on_first;
};

/*
 * Compute the comparison the plan describes into out. 0, or 1 after
 * saying why (no memory, no benchmark in both runs);
 * compare_outcome_free() it whatever it returned.
 */
int compare_compute(const struct compare_plan *plan,
		    struct compare_outcome *out);
void compare_outcome_free(struct compare_outcome *out);

#endif /* SMAPBENCH_COMPARE_COMPUTE_H */
