/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series_plan_phases.h - a series plan's costs as a series measured them,
 * from its phases.csv (rundata/phases_csv.h), for the model of
 * analysis/series_plan.h, T = n (c_boot + c_inv + r c_rep) + c_series
 * with one invocation a boot:
 *
 *   c_boot    the mean over the boots that ran of what came before the
 *             run: boot 1's start, the reboot before each later one
 *             (hand-over and boot), and each boot's check and settling;
 *             so n c_boot is what the measured boots took before their
 *             runs, the start counted as a reboot;
 *   c_inv     the mean over the boots of the run and its recording, less
 *             the part of a run its repetitions take, r c_rep, which the
 *             plan's runs give (their timed samples and warm-ups: what
 *             the plan's c_rep is made of);
 *   c_series  the end step: the comparisons, report.md and the return to
 *             the original command line (when it is recorded yet).
 *
 * The run's part the repetitions take is known only as their timed
 * samples: the harness's own time for each repetition (a process start)
 * is not in it, and one series' runs all have the same repetitions (but
 * a planned series'), so what the repetitions cost beyond their samples
 * cannot be told apart from the fixed cost: it lands in c_inv, and the
 * plan then leans toward more repetitions a boot, by that much. A plan
 * step's own time (the plan phase) is in none of the costs.
 */
#ifndef SMAPBENCH_SERIES_PLAN_PHASES_H
#define SMAPBENCH_SERIES_PLAN_PHASES_H

#include <stddef.h>

#include "rundata/phases_csv.h"

struct series_measured_costs {
	double boot;		/* c_boot; NAN: no boot with check and settle */
	size_t boots;		/* those boots */
	size_t reboots;		/* of them, after a reboot (not boot 1) */
	double run;		/* mean run + record; NAN: no run */
	size_t runs;		/* boots with a run */
	double invocation;	/* c_inv; NAN: no run, or see below */
	/*
	 * Why c_inv is NAN with runs: the runs' timed part unknown, or more
	 * than the mean run (another workload than the plan's runs).
	 */
	int timed_exceeds;
	double series;		/* c_series; NAN: no end step */
	int returned;		/* the end step has the return */
};

/*
 * From p, and timed_run_seconds, the mean part of one of the plan's
 * runs its repetitions take (NAN: unknown), the costs into m (each NAN
 * where p does not give it).
 */
void series_costs_from_phases(const struct phases_csv *p,
			      double timed_run_seconds,
			      struct series_measured_costs *m);

#endif /* SMAPBENCH_SERIES_PLAN_PHASES_H */
