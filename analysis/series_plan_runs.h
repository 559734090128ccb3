/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series_plan_runs.h - a series plan's inputs from runs of one SMAP
 * state over two or more boots, the runs `smapbench calibrate` takes:
 * sigma_boot is the calibration's (analysis/calibrate.h), one figure
 * that compare uses for every row; each row's sigma_rep the sd of its
 * log repetition medians, pooled over the runs; a repetition's time the
 * runs' timed samples. Thin on purpose: what the boot-level statistics
 * give may change, this only maps it onto struct series_components.
 *
 * The calibration does not tell the invocations of a boot apart from
 * the boot: sigma_inv is 0 and its variance is in sigma_boot, which
 * makes one invocation a boot the plan.
 */
#ifndef SMAPBENCH_SERIES_PLAN_RUNS_H
#define SMAPBENCH_SERIES_PLAN_RUNS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/series_plan.h"
#include "rundata/rundir.h"

struct series_plan_inputs {
	struct series_components *rows;	/* names point into names */
	char **names;
	size_t count;
	double boot_sd, boot_df;	/* the calibration's */
	size_t runs, boots;
	/*
	 * One repetition of every row of a run, its timed samples and their
	 * warm-up, the mean over the runs: the harness's own time between
	 * samples (process starts, sizing) is not in it.
	 */
	double repetition_seconds;
	/* the same for a whole run, all its repetitions: the mean */
	double run_timed_seconds;
	int headline;			/* rows: the headline rows, by default */
};

/*
 * From runs (loaded), the rows whose names match the POSIX extended
 * regular expression rows (NULL: the headline rows the runs have, else
 * all) among those the calibration used. 0, or -1 with why in err.
 */
int series_plan_from_runs(const struct run_dir *const *runs, size_t count,
			  const char *rows, struct series_plan_inputs *out,
			  char *err, size_t errlen);
void series_plan_inputs_free(struct series_plan_inputs *in);

/*
 * What the plan rests on and what it is, for people: sources[] says
 * where each cost came from (boot, invocation, repetition, series).
 */
void series_plan_print(FILE *f, const struct series_plan_inputs *in,
		       const struct series_plan_request *req,
		       const struct series_plan *p,
		       const char *const sources[4]);

#endif /* SMAPBENCH_SERIES_PLAN_RUNS_H */
