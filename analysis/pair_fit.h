/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pair_fit.h - what one STAC/CLAC pair costs as the shipped kernel pays
 * it, from two boots: per syscall and kmod kapi row, its change between
 * the SMAP-off and the SMAP boot in cycles (ns where the run gives no
 * conversion) against the windows it opens per operation on the SMAP
 * boot, counted by a census of that kernel (docs/census.md; the SMAP-off
 * boot opens none):
 *
 *   delta_row = alpha base_row + beta windows_row
 *
 * by weighted least squares, base_row being the row's cost on the
 * SMAP-off boot. Which side is which comes from the runs' smap_state; a
 * comparison of one state with itself (or of unknown states) has no
 * beta. alpha is the shift all rows share: a boot's (the core clock, the
 * host) is a factor, so it is a fraction of each row's cost, not a
 * constant, which would leave it in beta for the rows with many windows.
 *
 * Each row is weighed by 1 / the variance of its delta from its own
 * parts: each side's on the log scale times that side's own center
 * squared (the SMAP side's center is the larger, by the pairs), the
 * shift every row shares left out, as alpha takes the SMAP-off side's.
 * The SMAP side's shift also scales the windows' cost: beta comes out
 * as beta (1 + c_S), so beta's variance holds beta^2 var(c_S) besides
 * the fit's, on the shift's own df. The fit's part is t on rows - 2 df,
 * its covariance scaled up by the residuals' mean square when they
 * spread more than the variances say. Where base and windows move
 * together (variance inflation factor above PAIR_FIT_MAX_VIF) alpha and
 * beta trade places: the fit says so.
 *
 * Set beside the within-boot figure (inline - nopad of get_user 8, per
 * access, analysis/derived.h; its se from its t on repetitions - 1 df):
 * two methods that share no data. They disagree when the interval of
 * their difference excludes 0.
 */
#ifndef SMAPBENCH_PAIR_FIT_H
#define SMAPBENCH_PAIR_FIT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare_stats.h"
#include "rundata/rundir.h"

struct pair_fit_point {
	const char *name;
	double base;		/* the SMAP-off side's center, in unit */
	double windows;		/* per operation, on the SMAP boot */
	double delta, se;	/* SMAP - SMAP-off, in unit; se of its own parts */
	double residual;	/* delta - fit */
};

/* Above this variance inflation factor the fit warns that it cannot part alpha and beta. */
#define PAIR_FIT_MAX_VIF	10

struct pair_fit {
	int fitted;		/* 0: why says why */
	char why[1024];
	char census[512];	/* the census.csv used */
	const char *unit;	/* "cycles" or "ns" */
	size_t count;
	struct pair_fit_point *point;
	double alpha, alpha_se;
	double beta, beta_se, beta_low, beta_high, df;
	double scale;		/* residual mean square factor applied (>= 1) */
	/* the SMAP side's shift every row shares: its variance and df */
	double smap_shift_var, smap_shift_df;
	double vif;		/* variance inflation factor of base and windows */
	int reversed;		/* the SMAP side is A */
	/* inline - nopad within the SMAP boot, per access, in unit */
	double within, within_low, within_high;
	const char *within_name;
	int disagree;		/* the two differ beyond their intervals */
};

/*
 * Fit over the rows of res, the runs being a (side A) and b (side B): the
 * SMAP one of them (smap_state) names the census by its kernel_release.
 * census_path: a census directory or census.csv; NULL: the first census
 * directory beside the SMAP run that has its kernel. 0, also when no fit
 * is possible (fitted 0, why set: no census, one state on both sides, too
 * few rows); -1 on no memory.
 */
int pair_fit_compute(const struct compare_result *res,
		     const struct run_dir *a, const struct run_dir *b,
		     const char *census_path,
		     const struct compare_settings *set, struct pair_fit *out);
/*
 * The fit over the rows of res with windows[i] (NAN: not a fitted row)
 * and scale[i] (the unit of the fit per unit of the row), the SMAP side
 * being B, or A when reversed: the points, then pair_fit_points(). 0,
 * also when no fit is possible (fitted 0, why set); -1 on no memory.
 */
int pair_fit_rows(const struct compare_result *res, const double *windows,
		  const double *scale, int reversed,
		  const struct compare_settings *set, struct pair_fit *out);
/*
 * The weighted least squares of fit->point[0..count) (windows, delta,
 * se) with fit->smap_shift_var: alpha, beta, their se, beta's interval,
 * the residuals and the VIF. 0, or -1 with fewer than 3 points or one
 * window count only.
 */
int pair_fit_points(struct pair_fit *fit);
void pair_fit_free(struct pair_fit *f);
void pair_fit_print(FILE *f, const struct pair_fit *fit, int markdown);

#endif /* SMAPBENCH_PAIR_FIT_H */
