/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_boots.h - two or more runs a side: A1,A2,... against
 * B1,B2,..., each run a boot of its own (its context boot_id).
 *
 * Per row and side, each run j gives ybar_j, the mean of its log
 * repetition medians, and w_j = s_j^2 / r_j. A side's figure is the mean
 * of its runs' ybar over m runs; its variance (sigma_u^2 + mean w) / m.
 * Then d = figure(B) - figure(A) and
 *
 *   se^2 = (sigma_u^2 + mean w_A) / m_A + (sigma_u^2 + mean w_B) / m_B
 *
 * with Satterthwaite's df over the sigma_u and the w terms. sigma_u is
 * the calibration's when one is given; else, when a side's runs come
 * from two or more boots, estimated from them (analysis/calibrate.h,
 * each side on its own and pooled by degrees of freedom: the runs are
 * their own calibration); else assumed. With one run a side this is
 * compare_values()'s interval.
 */
#ifndef SMAPBENCH_COMPARE_BOOTS_H
#define SMAPBENCH_COMPARE_BOOTS_H

#include <stddef.h>

#include "analysis/compare_stats.h"
#include "rundata/rundir.h"

/*
 * Estimate sigma_u from the runs of each side into set (boot_source
 * COMPARE_BOOT_RUNS) when set is not calibrated and a side has runs of
 * two or more boots; 0 then, 1 when the runs give no estimate (set
 * untouched), -1 on no memory.
 */
int compare_boots_estimate(const struct run_dir *const *a, size_t na,
			   const struct run_dir *const *b, size_t nb,
			   struct compare_settings *set);

/*
 * Recompute every row of res (paired on a[0], b[0]) over all the runs:
 * centers, delta, the interval and test, then the verdicts. A row that
 * some run lacks, or with fewer than 3 repetitions or a value <= 0 in a
 * run, keeps its one-run figures; *kept counts them. 0, or -1 on no
 * memory.
 */
int compare_boots_rows(struct compare_result *res,
		       const struct run_dir *const *a, size_t na,
		       const struct run_dir *const *b, size_t nb,
		       const struct compare_settings *set, size_t *kept);

#endif /* SMAPBENCH_COMPARE_BOOTS_H */
