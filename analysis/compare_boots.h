/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_boots.h - a comparison of sides: A1,A2,... against B1,B2,...,
 * the runs of a side grouped into boots by their context boot_id (runs
 * of a side without one are one boot), the boots counted, not the runs.
 *
 * Per row and side, each run j gives ybar_j, the mean of its log
 * repetition medians, and w_j = s_j^2 / r_j; a boot's figure is the mean
 * of its runs' ybar, a side's the mean of its boots'. With three or more
 * boots a side (sum(m - 1) >= COMPARE_MIN_DESIGN_DF), the boots' figures
 * are their own calibration: they are split (analysis/calibrate.h,
 * boot_split()) into the shift every row of a boot shares, C on
 * sum(m - 1) df, and each row's own part, O_k, moderated toward the
 * rows' pooled one, and
 *
 *   se^2 = (C + O~_k) (1 / m_A + 1 / m_B)
 *
 * the within-run noise being part of both. With fewer, a calibration of
 * the design's level gives C and O_k instead, each side's runs adding
 * their own sampling; without one the same split gives the intervals and
 * the verdicts are withheld. When every run of both sides is of one boot,
 * the runs are the units and the same split is of what differs between
 * invocations. With one run a side, compare_stats.h's interval.
 */
#ifndef SMAPBENCH_COMPARE_BOOTS_H
#define SMAPBENCH_COMPARE_BOOTS_H

#include <stddef.h>

#include "analysis/compare_stats.h"
#include "analysis/parallel.h"
#include "rundata/rundir.h"

/*
 * The design into set: boots_a, boots_b (by boot_id) and same_boot
 * (every run of both sides has one boot_id); then whether it can keep
 * the verdicts' promise: with one boot a side and no calibration of
 * boots (set->model NULL), or one run a side in one boot and no
 * calibration of invocations, it cannot, and set->withheld says why and
 * set->boots_needed what would do. A calibration of the other level is
 * dropped, and said. set->boot_source follows.
 */
void compare_design(const struct run_dir *const *a, size_t na,
		    const struct run_dir *const *b, size_t nb,
		    struct compare_settings *set);

/*
 * The boots a side from which a comparison without a calibration keeps
 * its promises in every world of tests/unit/test_simulation.c; and the
 * runs a side in one boot that estimate what invocations differ by.
 */
#define COMPARE_BOOTS_NEEDED 3
#define COMPARE_RUNS_NEEDED 3
/*
 * Without a calibration, the verdicts need this many degrees of freedom
 * between the units of the sides, sum(m - 1): 3 a side.
 */
#define COMPARE_MIN_DESIGN_DF 4

/*
 * Recompute every row of res (paired on a[0], b[0]) over all the runs:
 * centers, delta, the parts of se^2 and the raw interval, then the
 * verdicts. A row that some run lacks, or with fewer than 3 repetitions
 * or a value <= 0 in a run, keeps its one-run figures; *kept counts
 * them. Settings' boot_estimate_sd, boot_df and boot_common_sd get the
 * runs' pooled estimate when they have one. 0, or -1 on no memory.
 */
int compare_boots_rows(struct compare_result *res,
		       const struct run_dir *const *a, size_t na,
		       const struct run_dir *const *b, size_t nb,
		       struct compare_settings *set, size_t *kept);

/*
 * The rows of a comparison whose design is in set (compare_design(), and
 * the calibration's model, if any): the rows of a[0] and b[0]
 * (compare_runs_with(), on threads threads with progress), all runs'
 * figures (compare_boots_rows()), the rows net of sound negative
 * controls and the verdicts (analysis/compare_controls.h). set gets the
 * runs' estimate of the boot variance, if they give one. 0, or -1 on no
 * memory.
 */
int compare_sides_rows(const struct run_dir *const *a, size_t na,
		       const struct run_dir *const *b, size_t nb,
		       struct compare_settings *set, unsigned threads,
		       parallel_progress_fn progress, void *progress_arg,
		       struct compare_result *out, size_t *kept);
/*
 * A whole comparison of the sides, as `compare` makes it: the design
 * (compare_design()), then compare_sides_rows(). 0, or -1 on no memory.
 */
int compare_sides(const struct run_dir *const *a, size_t na,
		  const struct run_dir *const *b, size_t nb,
		  struct compare_settings *set, unsigned threads,
		  parallel_progress_fn progress, void *progress_arg,
		  struct compare_result *out, size_t *kept);

#endif /* SMAPBENCH_COMPARE_BOOTS_H */
