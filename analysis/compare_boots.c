// SPDX-License-Identifier: GPL-2.0
/* compare_boots.c - several runs a side; see compare_boots.h. */
#include "analysis/compare_boots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibrate.h"
#include "measure/stats.h"

/* t beyond this many degrees of freedom is the normal */
#define BOOTS_DF_CAP 1e4

/* One side's boot variance from its runs; 0 with bv, 1 when it gives none. */
static int side_variance(const struct run_dir *const *runs, size_t n,
			 struct boot_variance *bv)
{
	struct calibration c;
	char err[512];

	if (n < 2 || calibrate_runs(runs, n, &c, err, sizeof(err)))
		return 1;
	*bv = c.bv;
	bv->row_estimate = NULL;
	calibration_free(&c);
	return 0;
}

int compare_boots_estimate(const struct run_dir *const *a, size_t na,
			   const struct run_dir *const *b, size_t nb,
			   struct compare_settings *set)
{
	struct boot_variance va, vb;
	int ha, hb;
	double df, var;

	if (compare_calibrated(set))
		return 1;
	ha = !side_variance(a, na, &va);
	hb = !side_variance(b, nb, &vb);
	if (!ha && !hb)
		return 1;
	/* pooled by degrees of freedom: both sides hold the same sigma_u */
	df = (ha ? va.df : 0) + (hb ? vb.df : 0);
	var = ((ha ? va.df * va.sd * va.sd : 0) + (hb ? vb.df * vb.sd * vb.sd : 0)) / df;
	if (compare_use_boot_estimate(set, sqrt(var), df,
				      sqrt(((ha ? va.df * va.common_sd * va.common_sd : 0) +
					    (hb ? vb.df * vb.common_sd * vb.common_sd : 0)) / df),
				      COMPARE_BOOT_RUNS)) {
		printf("the runs' boot variance (%.2f%%) has %.1f degrees of "
		       "freedom, fewer than %d: not used\n", 100 * sqrt(var), df,
		       COMPARE_MIN_BOOT_DF);
		return 1;
	}
	return 0;
}

/* A side's figures of one row, all its runs; 0 when one is missing. */
static int side_figures(const struct run_dir *const *runs, size_t n,
			const char *name, struct compare_log_figure *f)
{
	for (size_t j = 0; j < n; j++)
		if (!compare_log_figure_of(rundir_find(runs[j], name),
					   COMPARE_MIN_REPETITIONS, &f[j]))
			return 0;
	return 1;
}

static void side_sums(const struct compare_log_figure *f, size_t n, double *mean,
		      double *w, double *w_df, double *center)
{
	*mean = *w = *w_df = *center = 0;
	for (size_t j = 0; j < n; j++) {
		*mean += f[j].mean / (double)n;
		*w += f[j].var / (double)n;
		*w_df += f[j].reps - 1;
		*center += f[j].center / (double)n;
	}
}

int compare_boots_rows(struct compare_result *res,
		       const struct run_dir *const *a, size_t na,
		       const struct run_dir *const *b, size_t nb,
		       const struct compare_settings *set, size_t *kept)
{
	struct compare_log_figure *fa = calloc(na, sizeof(*fa)), *fb = calloc(nb, sizeof(*fb));
	double u = set->boot_sd * set->boot_sd;

	*kept = 0;
	if (!fa || !fb) {
		free(fa);
		free(fb);
		return -1;
	}
	for (size_t i = 0; i < res->count; i++) {
		struct compare_row *r = &res->rows[i];
		double ma, mb, wa, wb, dfa, dfb, ca, cb, ta, tb, tu, se2, den, t;
		double ns_per_unit = r->delta != 0 ? r->delta_ns / r->delta : NAN;

		if (r->linear || !side_figures(a, na, r->a->name, fa) ||
		    !side_figures(b, nb, r->b->name, fb)) {
			++*kept;
			continue;
		}
		side_sums(fa, na, &ma, &wa, &dfa, &ca);
		side_sums(fb, nb, &mb, &wb, &dfb, &cb);
		ta = wa / (double)na;
		tb = wb / (double)nb;
		tu = u / (double)na + u / (double)nb;
		se2 = ta + tb + tu;
		/* Satterthwaite over the sides' repetitions and sigma_u */
		den = (ta > 0 ? ta * ta / dfa : 0) + (tb > 0 ? tb * tb / dfb : 0) +
		      (tu > 0 && isfinite(set->boot_df) ? tu * tu / set->boot_df : 0);
		r->center_a = ca;
		r->center_b = cb;
		r->delta = cb - ca;
		r->relative = ca != 0 ? r->delta / ca : NAN;
		r->delta_ns = r->delta * ns_per_unit;
		r->reps_a = r->reps_b = 0;
		for (size_t j = 0; j < na; j++)
			r->reps_a += (size_t)fa[j].reps;
		for (size_t j = 0; j < nb; j++)
			r->reps_b += (size_t)fb[j].reps;
		r->log_ratio = mb - ma;
		r->se = sqrt(se2);
		r->df = den > 0 ? fmin(BOOTS_DF_CAP, se2 * se2 / den) : BOOTS_DF_CAP;
		if (r->se > 0) {
			t = stats_student_quantile(1 - set->alpha / 2, r->df);
			r->p = 2 * stats_student_cdf(-fabs(r->log_ratio) / r->se, r->df);
		} else {
			t = 0;
			r->p = r->log_ratio == 0 ? 1 : 0;
		}
		r->q = r->p;
		r->relative_low = expm1(r->log_ratio - t * r->se);
		r->relative_high = expm1(r->log_ratio + t * r->se);
		r->ci_low = ca * r->relative_low;
		r->ci_high = ca * r->relative_high;
	}
	free(fa);
	free(fb);
	return compare_assign_verdicts(res->rows, res->count, set);
}
