/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_dispersion.h - whether a calibration holds for the runs
 * compared, judged on the comparison's own rows that should not move.
 *
 * A calibration (analysis/calibrate.h) says how much each row of a run
 * varies beyond the shift every row shares. It was measured on other
 * runs; if the machine changed since (another job started, the host got
 * busier), the runs compared vary more, each row its own way, and every
 * interval built on the calibration is too narrow while saying nothing.
 * The rows that should not move tell: with d_r a row's change on the log
 * scale and v_r its own variance as the comparison takes it (its
 * repetitions and its own boot part, compare_row_own(), on df_r), about
 * their weighted mean m (the shift they share; weights 1 / v_r), each
 * t_r = (d_r - m) / sqrt(v_r) is a t on df_r, taken to the normal deviate
 * z_r of the same tail (a t's square is on average df / (df - 2), not 1:
 * rows of 5 repetitions a side would look a third too wide), and
 *
 *   X2 = sum z_r^2  ~  chi-square on n - 1 df
 *
 * when the calibration holds. Which rows should not move:
 *
 *   - the negative controls, always (analysis/compare_controls.h);
 *   - every row when the sides differ in nothing the runs record of what
 *     a comparison is of (compare_same_record()): an A/A comparison.
 *     Runs that differ in a recorded key are compared for that
 *     difference, and their rows may move by it.
 *
 * Where X2 lies beyond the chi-square's 1 - COMPARE_DISPERSION_ALPHA
 * (99%) point, the runs vary phi times what the calibration says: the factor
 * that, dividing every v_r, brings X2 to its mean n - 1 (with variances
 * known, X2 / (n - 1)). Each row's own parts (its repetitions and its own
 * boot part; not the shared shift, which the controls net out) are
 * multiplied by phi, quasi-likelihood style, each part's df combined with
 * phi's n - 1 (1 / df' = 1 / df + 1 / (n - 1)), which carries into the t
 * quantile. Below that point the calibration is kept as it is: phi is
 * then mostly sampling noise, and widening by it costs power for
 * nothing (in tests/unit/test_simulation.c, max(1, phi) always took the
 * power at 3 times the margin from 30-36% to 19-22% where the
 * calibration holds; the 95% point cost up to 1.2 points, the 99% point
 * at most 0.2). docs/interpreting.md gives the numbers.
 */
#ifndef SMAPBENCH_COMPARE_DISPERSION_H
#define SMAPBENCH_COMPARE_DISPERSION_H

#include <stddef.h>

#include "analysis/compare_stats.h"
#include "rundata/rundir.h"

/*
 * The upper tail of the null rows' chi-square past which a calibration is
 * taken not to hold for the runs compared.
 */
#define COMPARE_DISPERSION_ALPHA	0.01
/* Rows that should not move needed to judge it (n - 1 >= 2 df). */
#define COMPARE_DISPERSION_MIN_ROWS	3

/*
 * The dispersion of n changes d[i] with variances v[i] (> 0) on df[i]
 * (>= COMPARE_DF_CAP: known) about their weighted mean into out: rows,
 * statistic, df, p, ratio, and the scale it calls for (ratio past
 * COMPARE_DISPERSION_ALPHA, else 1) with its df. 0, or -1 with fewer than
 * COMPARE_DISPERSION_MIN_ROWS or a variance not above 0 (out then says
 * nothing was checked).
 */
int compare_dispersion_of(const double *d, const double *v, const double *df,
			  size_t n, struct compare_dispersion *out);

/*
 * Whether the sides differ in nothing the runs record of what a
 * comparison is of: every run of both sides with one value (or none) of
 * each comparison key (rundata/catalogue.h, KEY_COMPARISON: the machine,
 * kernel, counter, command), and one SMAP state, kernel build
 * (kernel_version) and kernel command line, every run recording its
 * SMAP state. 1 when they do not differ.
 */
int compare_same_record(const struct run_dir *const *a, size_t na,
			const struct run_dir *const *b, size_t nb);

/*
 * Hold the calibration in set (boot_source COMPARE_BOOT_CALIBRATION;
 * nothing otherwise) against res's raw rows: set->dispersion, and where
 * it does not hold, every row's own parts scaled and its raw interval
 * recomputed (compare_row_raw()). Before the rows are netted of the
 * controls. 0, or -1 on no memory.
 */
int compare_dispersion_check(struct compare_result *res,
			     struct compare_settings *set);

#endif /* SMAPBENCH_COMPARE_DISPERSION_H */
