// SPDX-License-Identifier: GPL-2.0
/*
 * compare_dispersion.c - whether a calibration holds for the runs
 * compared; see compare_dispersion.h.
 */
#include "analysis/compare_dispersion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_controls.h"
#include "measure/stats.h"
#include "rundata/catalogue.h"

static void unchecked(struct compare_dispersion *out)
{
	*out = (struct compare_dispersion){
		.statistic = NAN, .df = NAN, .p = NAN, .ratio = NAN,
		.scale = 1, .scale_df = INFINITY,
	};
}

/*
 * z with P(Z > z) = q, 0 < q <= 1/2: Abramowitz and Stegun 26.2.23
 * (within 4.5e-4), then two Newton steps on erfc.
 */
static double normal_upper_quantile(double q)
{
	double t = sqrt(-2 * log(q)), z;

	z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
		(1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
	for (int i = 0; i < 2; i++)
		z += (0.5 * erfc(z / M_SQRT2) - q) /
		     (exp(-z * z / 2) / sqrt(2 * M_PI));
	return z;
}

/*
 * A t on df as the normal deviate of the same tail: a row's change over
 * its se, whose variance is estimated on df, is a t, not a normal; its
 * square is on average df / (df - 2), not 1, and the sum of the rows'
 * would call a calibration that holds too narrow.
 */
static double normal_score(double t, double df)
{
	double tail;

	if (t == 0)
		return 0;
	tail = df >= COMPARE_DF_CAP ? 0.5 * erfc(fabs(t) / M_SQRT2)
				    : stats_student_cdf(-fabs(t), df);
	tail = fmax(tail, 1e-300);
	return copysign(normal_upper_quantile(tail), t);
}

/* sum z^2 of the rows' changes about mean, their variances times phi */
static double dispersion_at(const double *d, const double *v, const double *df,
			    size_t n, double mean, double phi)
{
	double x2 = 0;

	for (size_t i = 0; i < n; i++) {
		double z = normal_score((d[i] - mean) / sqrt(phi * v[i]), df[i]);

		x2 += z * z;
	}
	return x2;
}

int compare_dispersion_of(const double *d, const double *v, const double *df,
			  size_t n, struct compare_dispersion *out)
{
	double sum_u = 0, mean = 0, lo = log(1e-6), hi = log(1e6);

	unchecked(out);
	if (n < COMPARE_DISPERSION_MIN_ROWS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]) || !isfinite(d[i]) || !(df[i] > 0))
			return -1;
		sum_u += 1 / v[i];
		mean += d[i] / v[i];
	}
	mean /= sum_u;
	out->checked = 1;
	out->rows = n;
	out->df = (double)n - 1;
	out->statistic = dispersion_at(d, v, df, n, mean, 1);
	/* a chi-square on df is df times an F on df and (nearly) infinite df */
	out->p = stats_f_upper(out->statistic / out->df, out->df, 1e4);
	/*
	 * How many times the calibration's variance the rows vary: the
	 * factor that brings their dispersion to its mean, df (with known
	 * variances, statistic / df). It falls as the factor grows.
	 */
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (dispersion_at(d, v, df, n, mean, exp(mid)) > out->df)
			lo = mid;
		else
			hi = mid;
	}
	out->ratio = exp((lo + hi) / 2);
	if (out->ratio > 1 && out->p < COMPARE_DISPERSION_ALPHA) {
		out->scale = out->ratio;
		out->scale_df = out->df;
	}
	return 0;
}

/* Context keys besides the comparison keys that a boot is made for. */
static const char *const boot_keys[] = {
	"smap_state", "kernel_version", "cmdline",
};

static int same_value(const struct run_dir *const *a, size_t na,
		      const struct run_dir *const *b, size_t nb, const char *key)
{
	const char *first = rundir_context_or(a[0], key, "");

	for (size_t j = 1; j < na + nb; j++)
		if (strcmp(first, rundir_context_or(j < na ? a[j] : b[j - na],
						    key, "")))
			return 0;
	return 1;
}

int compare_same_record(const struct run_dir *const *a, size_t na,
			const struct run_dir *const *b, size_t nb)
{
	if (!na || !nb)
		return 0;
	/* runs that do not say their SMAP state say too little */
	for (size_t j = 0; j < na + nb; j++)
		if (!*rundir_context_or(j < na ? a[j] : b[j - na], "smap_state", ""))
			return 0;
	for (size_t i = 0; i < context_key_count; i++)
		if ((context_keys[i].roles & KEY_COMPARISON) &&
		    !same_value(a, na, b, nb, context_keys[i].name))
			return 0;
	for (size_t i = 0; i < sizeof(boot_keys) / sizeof(*boot_keys); i++)
		if (!same_value(a, na, b, nb, boot_keys[i]))
			return 0;
	return 1;
}

/* A row with a raw interval on the log scale. */
static int usable(const struct compare_row *r)
{
	return !r->linear && isfinite(r->raw_se) && isfinite(r->raw_df) &&
	       isfinite(r->raw_log_ratio);
}

/* df of a variance times the scale: var(log) of the two add */
static double scaled_df(double df, double scale_df)
{
	return 1 / (1 / df + 1 / scale_df);
}

/* The row's own parts times the scale, and its raw interval again. */
static void widen(struct compare_row *r, const struct compare_settings *set)
{
	const struct compare_dispersion *s = &set->dispersion;

	r->within_a *= s->scale;
	r->within_a_df = scaled_df(r->within_a_df, s->scale_df);
	r->within_b *= s->scale;
	r->within_b_df = scaled_df(r->within_b_df, s->scale_df);
	r->boot_sampling *= s->scale;
	if (isfinite(r->boot_own)) {
		r->boot_own *= s->scale;
		r->boot_own_df = scaled_df(r->boot_own_df, s->scale_df);
	}
	compare_row_raw(r, set);
}

int compare_dispersion_check(struct compare_result *res,
			     struct compare_settings *set)
{
	double *d, *v, *df;
	size_t n = 0;
	int assumed;

	unchecked(&set->dispersion);
	if (set->boot_source != COMPARE_BOOT_CALIBRATION || !set->model)
		return 0;
	d = calloc(res->count + 1, sizeof(*d));
	v = calloc(res->count + 1, sizeof(*v));
	df = calloc(res->count + 1, sizeof(*df));
	if (!d || !v || !df) {
		free(d);
		free(v);
		free(df);
		return -1;
	}
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		struct compare_variance own;

		if (!usable(r) || !(set->same_record || compare_is_control(r->a)))
			continue;
		own = compare_row_own(r, set, &assumed);
		d[n] = r->raw_log_ratio;
		v[n] = own.var;
		df[n++] = own.df;
	}
	compare_dispersion_of(d, v, df, n, &set->dispersion);
	set->dispersion.all_rows = set->same_record;
	free(d);
	free(v);
	free(df);
	if (set->dispersion.scale > 1)
		for (size_t i = 0; i < res->count; i++)
			if (isfinite(res->rows[i].raw_se))
				widen(&res->rows[i], set);
	return 0;
}
