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
 * SMAP-off boot and each row weighed by 1 / its variance from the
 * comparison (repetitions and boots, analysis/compare_stats.h). alpha is
 * the shift all rows share: a boot's (the core clock, the host) is a
 * factor, so it is a fraction of each row's cost, not a constant, which
 * would leave it in beta for the rows with many windows. beta is the
 * cost of a pair. Its
 * interval is t with rows - 2 df, the covariance scaled up by the
 * residuals' mean square when they spread more than the variances say.
 * Set beside the within-boot figure (inline - nopad of get_user 8, per
 * access, analysis/derived.h): two methods that share no data. They
 * disagree when the interval of their difference excludes 0.
 */
#ifndef SMAPBENCH_PAIR_FIT_H
#define SMAPBENCH_PAIR_FIT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare_stats.h"
#include "rundata/rundir.h"

struct pair_fit_point {
	const char *name;
	double base;		/* A's center, in unit: what a common factor scales */
	double windows;		/* per operation, on the SMAP boot */
	double delta, se;	/* in unit */
	double residual;	/* delta - fit */
};

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
	/* inline - nopad within the SMAP boot, per access, in unit */
	double within, within_low, within_high;
	const char *within_name;
	int disagree;		/* the two differ beyond their intervals */
};

/*
 * Fit over the rows of res, the SMAP run being smap (its kernel_release
 * names the census). census_path: a census directory or census.csv;
 * NULL: the first census directory beside smap that has its kernel.
 * 0, also when no fit is possible (fitted 0, why set); -1 on no memory.
 */
int pair_fit_compute(const struct compare_result *res,
		     const struct run_dir *smap, const char *census_path,
		     const struct compare_settings *set, struct pair_fit *out);
/*
 * The weighted least squares of fit->point[0..count) (windows, delta,
 * se): alpha, beta, their se, beta's interval and the residuals. 0, or
 * -1 with fewer than 3 points or one window count only.
 */
int pair_fit_points(struct pair_fit *fit);
void pair_fit_free(struct pair_fit *f);
void pair_fit_print(FILE *f, const struct pair_fit *fit, int markdown);

#endif /* SMAPBENCH_PAIR_FIT_H */
