/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_output.h - the third stage of a comparison: everything it
 * says and writes, from the plan (analysis/compare_plan.h) and the
 * outcome (analysis/compare_compute.h), which it reads and never
 * changes. On stdout how the rows of several runs a side were computed,
 * the table, the pair's fit and the within-boot tables of the SMAP run;
 * into the output directory, built beside it and renamed when complete,
 * compare.csv, compare.json, compare-settings.csv (docs/schema.md), the
 * pair's fit, plots/ and, for report, report.md.
 */
#ifndef SMAPBENCH_COMPARE_OUTPUT_H
#define SMAPBENCH_COMPARE_OUTPUT_H

#include "analysis/compare_compute.h"
#include "analysis/compare_plan.h"

/* --fail-on's status: a row has a verdict asked for; not 1 (error), 2 (usage). */
#define COMPARE_EXIT_FAIL_ON	3

/*
 * Say and write everything. The exit status: 0; 1 after saying what
 * could not be written; COMPARE_EXIT_FAIL_ON when all was written and a
 * row has a verdict of plan->req.fail_on.
 */
int compare_output_write(const struct compare_plan *plan,
			 const struct compare_outcome *out);

/* What the plan finds, said on stdout and stderr as it finds it. */
extern const struct compare_plan_voice compare_console_voice;

#endif /* SMAPBENCH_COMPARE_OUTPUT_H */
