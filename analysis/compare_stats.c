// SPDX-License-Identifier: GPL-2.0
/* compare_stats.c - the statistics of two runs compared; see compare_stats.h. */
#include "analysis/compare_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parallel.h"
#include "measure/stats.h"

/* ------------------------------------------------ repetition level */

struct compare_settings compare_default_settings(void)
{
	return (struct compare_settings){
		.alpha = COMPARE_DEFAULT_ALPHA,
		.margin = COMPARE_DEFAULT_MARGIN,
		.boot_sd = COMPARE_DEFAULT_BOOT_SD,
		.boot_df = INFINITY,
		.boot_estimate_sd = NAN,
		.boot_source = COMPARE_BOOT_ASSUMED,
		.runs_a = 1,
		.runs_b = 1,
		.boots_a = 1,
		.boots_b = 1,
		.dispersion = { .statistic = NAN, .df = NAN, .p = NAN,
				.ratio = NAN, .scale = 1, .scale_df = INFINITY },
	};
}

int compare_calibrated(const struct compare_settings *set)
{
	return set->boot_source != COMPARE_BOOT_ASSUMED;
}

static int by_name(const void *key, const void *name)
{
	return strcmp(key, *(char *const *)name);
}

struct compare_variance compare_model_own(const struct compare_boot_model *m,
					  const char *name)
{
	char **found;

	if (!m->count || !name)
		return m->prior;
	found = bsearch(name, m->names, m->count, sizeof(*m->names), by_name);
	return found ? m->own[found - m->names] : m->prior;
}

double compare_satterthwaite(const double *var, const double *df, size_t n)
{
	double sum = 0, den = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(var[i] > 0))
			continue;
		sum += var[i];
		if (isfinite(df[i]))
			den += var[i] * var[i] / df[i];
	}
	if (!(den > 0))
		return COMPARE_DF_CAP;
	return fmin(COMPARE_DF_CAP, sum * sum / den);
}

void compare_groups_free(struct compare_groups *g)
{
	free(g->medians);
	free(g->id);
	memset(g, 0, sizeof(*g));
}

int compare_group(const double *values, const uint32_t *repetition,
		  size_t n, struct compare_groups *out)
{
	memset(out, 0, sizeof(*out));
	out->medians = malloc((n ? n : 1) * sizeof(*out->medians));
	out->id = malloc((n ? n : 1) * sizeof(*out->id));
	if (out->medians && out->id)
		out->count = stats_repetition_medians(values, repetition, n,
						      out->medians, out->id);
	if (!out->medians || !out->id || out->count == (size_t)-1) {
		compare_groups_free(out);
		return -1;
	}
	return 0;
}

double compare_center(const struct compare_groups *g)
{
	return g->count ? stats_mean(g->medians, g->count) : NAN;
}

int compare_log_figure_of(const struct run_bench *b, size_t min_repetitions,
			  struct compare_log_figure *f)
{
	struct compare_groups g;
	int ok = 0;

	if (!b || !b->count || compare_group(b->values, b->repetition, b->count, &g))
		return 0;
	if (g.count >= min_repetitions) {
		double s;

		f->center = compare_center(&g);
		ok = 1;
		for (size_t i = 0; i < g.count; i++) {
			if (!(g.medians[i] > 0))
				ok = 0;
			else
				g.medians[i] = log(g.medians[i]);
		}
		s = stats_stddev(g.medians, g.count);
		f->mean = stats_mean(g.medians, g.count);
		f->var = s * s / (double)g.count;
		f->reps = (double)g.count;
	}
	compare_groups_free(&g);
	return ok;
}

int compare_center_interval(const struct compare_groups *g, double level,
			    struct stats_interval *out)
{
	return stats_mean_interval(g->medians, g->count, level, out);
}

int compare_paired_interval(const struct compare_groups *a, double scale_a,
			    const struct compare_groups *b, double scale_b,
			    double level, struct stats_interval *out)
{
	double *d = malloc((a->count ? a->count : 1) * sizeof(*d));
	size_t n = 0;
	int rc;

	if (!d)
		return -1;
	/* both id lists ascend: one merge pass pairs them */
	for (size_t i = 0, j = 0; i < a->count && j < b->count;) {
		if (a->id[i] < b->id[j]) {
			i++;
		} else if (b->id[j] < a->id[i]) {
			j++;
		} else {
			d[n++] = scale_b * b->medians[j] - scale_a * a->medians[i];
			i++;
			j++;
		}
	}
	rc = n ? stats_mean_interval(d, n, level, out) : -1;
	free(d);
	return rc;
}

int compare_within_run(const struct run_bench *a, double scale_a,
		       const struct run_bench *b, double scale_b,
		       struct stats_interval *out)
{
	struct compare_groups ga, gb;
	int rc;

	if (compare_group(a->values, a->repetition, a->count, &ga))
		return -1;
	if (compare_group(b->values, b->repetition, b->count, &gb)) {
		compare_groups_free(&ga);
		return -1;
	}
	rc = compare_paired_interval(&ga, scale_a, &gb, scale_b,
				     1 - COMPARE_DEFAULT_ALPHA, out);
	/* as for a comparison: no interval below the minimum repetitions */
	if (!rc && out->n < COMPARE_MIN_REPETITIONS)
		out->low = out->high = NAN;
	compare_groups_free(&ga);
	compare_groups_free(&gb);
	return rc;
}

struct ranked_p {
	double p;
	size_t index;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked_p *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

int compare_bh_qvalues(const double *p, size_t n, double *q)
{
	struct ranked_p *r = malloc((n ? n : 1) * sizeof(*r));
	size_t m = 0;
	double running = 1;

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			r[m++] = (struct ranked_p){ p[i], i };
	}
	qsort(r, m, sizeof(*r), by_p);
	/* q_(i) = min over j >= i of p_(j) m / j */
	for (size_t i = m; i-- > 0;) {
		double v = r[i].p * (double)m / (double)(i + 1);

		running = v < running ? v : running;
		q[r[i].index] = running;
	}
	free(r);
	return 0;
}

/* ------------------------------------------------------ verdicts */

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_SAME:
		return "same";
	case COMPARE_FASTER:
		return "faster";
	case COMPARE_SLOWER:
		return "slower";
	case COMPARE_INCONCLUSIVE:
		return "inconclusive";
	default:
		return "unknown";
	}
}

/* The relevance threshold on the scale the row was compared on. */
static double threshold(const struct compare_row *row,
			const struct compare_settings *set)
{
	return row->linear ? set->margin : log1p(set->margin);
}

const char *compare_row_basis(const struct compare_row *row)
{
	return row->net ? "net" : "raw";
}

void compare_row_interval(struct compare_row *row,
			  const struct compare_settings *set)
{
	double m = threshold(row, set), half, scale = fabs(row->center_a);
	double lo, hi, p_slower, p_faster;

	if (!isfinite(row->se) || !isfinite(row->log_ratio)) {
		row->ci_low = row->ci_high = row->relative_low = NAN;
		row->relative_high = row->p = row->q = NAN;
		return;
	}
	half = row->se > 0 ? stats_student_quantile(1 - set->alpha / 2, row->df) *
			     row->se : 0;
	lo = row->log_ratio - half;
	hi = row->log_ratio + half;
	if (row->linear) {
		scale = scale > 0 ? scale : 1;
		row->ci_low = lo * scale;
		row->ci_high = hi * scale;
		row->relative_low = row->center_a > 0 ? lo : row->center_a < 0 ? -hi : NAN;
		row->relative_high = row->center_a > 0 ? hi : row->center_a < 0 ? -lo : NAN;
	} else {
		row->relative_low = expm1(lo);
		row->relative_high = expm1(hi);
		row->ci_low = row->center_a * row->relative_low;
		row->ci_high = row->center_a * row->relative_high;
	}
	/*
	 * What faster and slower claim: d beyond -M or +M. One-sided t tests
	 * of d <= M and of d >= -M; the smaller p doubled, so that p <= alpha
	 * is the 1 - alpha interval beyond the threshold.
	 */
	if (row->se > 0) {
		p_slower = stats_student_cdf((m - row->log_ratio) / row->se, row->df);
		p_faster = stats_student_cdf((row->log_ratio + m) / row->se, row->df);
		row->p = fmin(1, 2 * fmin(p_slower, p_faster));
	} else {
		row->p = fabs(row->log_ratio) > m ? 0 : 1;
	}
	row->q = row->p;
}

void compare_row_raw(struct compare_row *row, const struct compare_settings *set)
{
	double boot = 0, boot_df = INFINITY;

	row->boot_assumed = 0;
	if (row->boot_scale > 0) {
		double var[2] = { row->boot_own, row->boot_common };
		double df[2] = { row->boot_own_df, row->boot_common_df };
		/* in one boot, runs differ by no boot: no assumption */
		double sd = set->same_boot ? 0 : set->boot_sd;
		double assumed = row->boot_scale * sd * sd + row->boot_sampling;
		int estimated = isfinite(row->boot_own) && isfinite(row->boot_common);

		if (estimated) {
			boot = row->boot_own + row->boot_common;
			boot_df = compare_satterthwaite(var, df, 2);
			/* a shift every row shares is one value a boot */
			if (isfinite(row->boot_common_df))
				boot_df = fmin(boot_df, row->boot_common_df);
		}
		if (!estimated || (!(boot_df >= COMPARE_MIN_BOOT_DF) && boot < assumed)) {
			boot = assumed;
			boot_df = INFINITY;
			row->boot_assumed = 1;
		}
	}
	row->boot_sd = row->boot_scale > 0 ?
		       sqrt(fmax(0, boot - row->boot_sampling) / row->boot_scale) : 0;
	{
		double var[3] = { row->within_a, row->within_b, boot };
		double df[3] = { row->within_a_df, row->within_b_df, boot_df };

		row->se = sqrt(row->within_a + row->within_b + boot);
		row->df = compare_satterthwaite(var, df, 3);
	}
	row->log_ratio = row->raw_log_ratio;
	row->raw_se = row->se;
	row->raw_df = row->df;
	row->net = 0;
	compare_row_interval(row, set);
}

static enum compare_verdict verdict_of(const struct compare_row *row,
				       const struct compare_settings *set)
{
	size_t reps = row->reps_a < row->reps_b ? row->reps_a : row->reps_b;
	double m = threshold(row, set), half;

	if (isnan(row->ci_low) || isnan(row->ci_high) || isnan(row->q))
		return COMPARE_UNKNOWN;
	if (set->withheld)
		return COMPARE_INCONCLUSIVE;
	/*
	 * beyond the threshold, and surviving the false-discovery control;
	 * q >= p, and p <= alpha is the interval beyond the threshold
	 */
	if (row->q <= set->alpha && row->p <= set->alpha)
		return row->log_ratio < 0 ? COMPARE_FASTER : COMPARE_SLOWER;
	/*
	 * Equivalence by two one-sided tests, each at alpha / 2: d + t se < M
	 * and d - t se > -M, the interval shown within +-M. A difference at
	 * the margin is then called same at most alpha / 2 of the time, as
	 * it is called slower. Only with the boot part estimated: an assumed
	 * boot variance cannot show two boots alike.
	 */
	if (row->boot_assumed || reps < COMPARE_MIN_SAME_REPETITIONS)
		return COMPARE_INCONCLUSIVE;
	half = row->se > 0 ? stats_student_quantile(1 - set->alpha / 2, row->df) *
			     row->se : 0;
	if (row->log_ratio - half > -m && row->log_ratio + half < m)
		return COMPARE_SAME;
	return COMPARE_INCONCLUSIVE;
}

/*
 * Repetition medians onto the scale compared: their logs, or (linear)
 * divided by scale. In place.
 */
static void to_scale(double *v, size_t n, int linear, double scale)
{
	for (size_t i = 0; i < n; i++)
		v[i] = linear ? v[i] / scale : log(v[i]);
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/*
 * The boot parts of a row of one run a side: none in one boot; else
 * the model's (own the row's own) times 2, or nothing known (assumed).
 */
static void boot_parts(struct compare_row *row, const struct compare_settings *set,
		       const struct compare_variance *own)
{
	/* in one boot, a calibration of invocations gives what runs differ by */
	row->boot_scale = set->same_boot && !set->model ? 0 : 2;
	row->boot_share_a = 0.5;
	row->boot_sampling = 0;
	row->boot_own = row->boot_common = NAN;
	row->boot_own_df = row->boot_common_df = INFINITY;
	if (!set->model)
		return;
	row->boot_own = 2 * own->var;
	row->boot_own_df = own->df;
	row->boot_common = 2 * set->model->common.var;
	row->boot_common_df = set->model->common.df;
}

/* The interval of one pair from its repetition medians; see the header. */
static int interval_of(struct compare_groups *ga, struct compare_groups *gb,
		       const struct compare_settings *set,
		       const struct compare_variance *own,
		       struct compare_row *row)
{
	double scale = fabs(row->center_a) > 0 ? fabs(row->center_a) : 1, s;

	row->linear = !all_positive(ga->medians, ga->count) ||
		      !all_positive(gb->medians, gb->count);
	to_scale(ga->medians, ga->count, row->linear, scale);
	to_scale(gb->medians, gb->count, row->linear, scale);
	row->raw_log_ratio = stats_mean(gb->medians, gb->count) -
			     stats_mean(ga->medians, ga->count);
	s = stats_stddev(ga->medians, ga->count);
	row->within_a = s * s / (double)ga->count;
	row->within_a_df = (double)ga->count - 1;
	s = stats_stddev(gb->medians, gb->count);
	row->within_b = s * s / (double)gb->count;
	row->within_b_df = (double)gb->count - 1;
	boot_parts(row, set, own);
	compare_row_raw(row, set);
	return 0;
}

/* compare_values() with the row's own boot part. */
static int values_of(const double *a, const uint32_t *rep_a, size_t na,
		     const double *b, const uint32_t *rep_b, size_t nb,
		     const struct compare_settings *set,
		     const struct compare_variance *own, struct compare_row *row)
{
	struct compare_groups ga, gb;
	int rc = -1;

	row->na = na;
	row->nb = nb;
	row->median_a = stats_median(a, na);
	row->median_b = stats_median(b, nb);
	row->ci_low = row->ci_high = row->df = row->p = row->q = NAN;
	row->relative_low = row->relative_high = row->se = row->log_ratio = NAN;
	row->raw_log_ratio = row->raw_se = row->raw_df = row->boot_sd = NAN;
	row->within_a = row->within_b = row->boot_own = row->boot_common = NAN;
	row->linear = 0;
	row->net = 0;
	row->verdict = COMPARE_UNKNOWN;
	if (compare_group(a, rep_a, na, &ga))
		return -1;
	if (compare_group(b, rep_b, nb, &gb)) {
		compare_groups_free(&ga);
		return -1;
	}
	row->reps_a = ga.count;
	row->reps_b = gb.count;
	row->center_a = compare_center(&ga);
	row->center_b = compare_center(&gb);
	row->delta = row->center_b - row->center_a;
	row->relative = row->center_a != 0 ? row->delta / row->center_a : NAN;
	rc = 0;
	if (ga.count < COMPARE_MIN_REPETITIONS || gb.count < COMPARE_MIN_REPETITIONS)
		goto out;
	if (interval_of(&ga, &gb, set, own, row)) {
		rc = -1;
		goto out;
	}
	row->verdict = verdict_of(row, set);
out:
	compare_groups_free(&ga);
	compare_groups_free(&gb);
	return rc;
}

int compare_values(const double *a, const uint32_t *rep_a, size_t na,
		   const double *b, const uint32_t *rep_b, size_t nb,
		   const struct compare_settings *set, struct compare_row *row)
{
	struct compare_variance own = set->model ? set->model->prior
						 : (struct compare_variance){ NAN, INFINITY };

	return values_of(a, rep_a, na, b, rep_b, nb, set, &own, row);
}

int compare_assign_verdicts(struct compare_row *rows, size_t count,
			    const struct compare_settings *set)
{
	double *p, *q;

	if (!count)
		return 0;
	/* calloc: GCC 16 cannot see that the loop below fills every p[i] */
	p = calloc(count, sizeof(*p));
	q = malloc(count * sizeof(*q));
	if (!p || !q) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t i = 0; i < count; i++)
		p[i] = rows[i].p;
	if (compare_bh_qvalues(p, count, q)) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		rows[i].q = q[i];
		rows[i].verdict = verdict_of(&rows[i], set);
	}
	free(p);
	free(q);
	return 0;
}

/* Values of a benchmark in ns (scale > 0) into a new array. */
static double *scaled(const struct run_bench *bench, double scale)
{
	double *v = malloc((bench->count ? bench->count : 1) * sizeof(*v));

	if (v)
		for (size_t i = 0; i < bench->count; i++)
			v[i] = bench->values[i] * scale;
	return v;
}

static int compare_pair(const struct run_dir *ra, const struct run_bench *a,
			const struct run_dir *rb, const struct run_bench *b,
			const struct compare_settings *set,
			struct compare_row *row)
{
	double ns_a = rundir_ns_per_unit(ra, a), ns_b = rundir_ns_per_unit(rb, b);
	double scale_a = 1, scale_b = 1, ns_per_unit;
	double *va = NULL, *vb = NULL;
	struct compare_variance own;
	int rc;

	memset(row, 0, sizeof(*row));
	row->a = a;
	row->b = b;
	row->unit = a->unit;
	ns_per_unit = isfinite(ns_a) && isfinite(ns_b) ? (ns_a + ns_b) / 2 : NAN;
	if (strcmp(a->unit, b->unit)) {
		if (!isfinite(ns_a) || !isfinite(ns_b))
			return 1;	/* not comparable */
		scale_a = ns_a;
		scale_b = ns_b;
		row->unit = "ns";
		ns_per_unit = 1;
	}
	if (a->count && b->count) {
		va = scaled(a, scale_a);
		vb = scaled(b, scale_b);
		if (!va || !vb) {
			free(va);
			free(vb);
			return -1;
		}
		/* JSON: each value is one repetition (repetition index i) */
		own = set->model ? compare_model_own(set->model, a->name)
				 : (struct compare_variance){ NAN, INFINITY };
		rc = values_of(va, a->repetition, a->count, vb, b->repetition,
			       b->count, set, &own, row);
		free(va);
		free(vb);
		if (rc)
			return -1;
		row->method = a->source == RUN_VALUES_SAMPLES &&
			      b->source == RUN_VALUES_SAMPLES ? "samples"
							      : "repetitions";
		/* The runs' own medians, when recorded, are the reference. */
		if (isfinite(a->median))
			row->median_a = a->median * scale_a;
		if (isfinite(b->median))
			row->median_b = b->median * scale_b;
	} else {
		row->ci_low = row->ci_high = row->df = row->p = row->q = NAN;
		row->relative_low = row->relative_high = row->se = NAN;
		row->log_ratio = row->raw_log_ratio = row->raw_se = NAN;
		row->raw_df = row->boot_sd = NAN;
		row->verdict = COMPARE_UNKNOWN;
		row->method = "medians";
		row->median_a = a->median * scale_a;
		row->median_b = b->median * scale_b;
		/* one value a side: the centers are the medians */
		row->center_a = row->median_a;
		row->center_b = row->median_b;
		row->delta = row->center_b - row->center_a;
		row->relative = row->center_a != 0 ? row->delta / row->center_a
						    : NAN;
	}
	row->delta_ns = row->delta * ns_per_unit;
	return 0;
}

struct compare_jobs {
	const struct run_dir *a, *b;
	const struct compare_settings *set;
	struct compare_row *rows;
};

static int compare_job(void *arg, size_t i)
{
	struct compare_jobs *j = arg;
	struct compare_row *row = &j->rows[i];

	return compare_pair(j->a, row->a, j->b, row->b, j->set, row) ? -1 : 0;
}

static size_t compare_weight(void *arg, size_t i)
{
	const struct compare_row *row = &((struct compare_jobs *)arg)->rows[i];

	return row->a->count + row->b->count;
}

/* Whether a's and b's values can be put in one unit. */
static int comparable(const struct run_dir *ra, const struct run_bench *a,
		      const struct run_dir *rb, const struct run_bench *b)
{
	return !strcmp(a->unit, b->unit) ||
	       (isfinite(rundir_ns_per_unit(ra, a)) &&
		isfinite(rundir_ns_per_unit(rb, b)));
}

int compare_runs_with(const struct run_dir *a, const struct run_dir *b,
		      const struct compare_settings *set, unsigned threads,
		      parallel_progress_fn progress, void *progress_arg,
		      struct compare_result *out)
{
	struct compare_jobs jobs = { a, b, set, NULL };

	memset(out, 0, sizeof(*out));
	out->rows = calloc(a->count ? a->count : 1, sizeof(*out->rows));
	out->only_a = calloc(a->count ? a->count : 1, sizeof(*out->only_a));
	out->only_b = calloc(b->count ? b->count : 1, sizeof(*out->only_b));
	if (!out->rows || !out->only_a || !out->only_b)
		goto fail;
	/* Pair by name first; the statistics of the pairs run in parallel. */
	for (size_t i = 0; i < a->count; i++) {
		const struct run_bench *x = &a->bench[i];
		const struct run_bench *y = rundir_find(b, x->name);

		if (y && comparable(a, x, b, y)) {
			out->rows[out->count].a = x;
			out->rows[out->count++].b = y;
		} else {	/* absent in B, or units that do not convert */
			out->only_a[out->only_a_count++] = x->name;
		}
	}
	for (size_t i = 0; i < b->count; i++)
		if (!rundir_find(a, b->bench[i].name))
			out->only_b[out->only_b_count++] = b->bench[i].name;
	jobs.rows = out->rows;
	if (parallel_for(&(struct parallel_jobs){
			 .count = out->count, .run = compare_job,
			 .weight = compare_weight, .arg = &jobs,
			 .progress = progress, .progress_arg = progress_arg },
			 threads) ||
	    compare_assign_verdicts(out->rows, out->count, set))
		goto fail;
	return 0;
fail:
	compare_result_free(out);
	return -1;
}

int compare_runs(const struct run_dir *a, const struct run_dir *b,
		 const struct compare_settings *set, struct compare_result *out)
{
	return compare_runs_with(a, b, set, 0, NULL, NULL, out);
}

size_t compare_rows_with(const struct compare_result *res, unsigned mask,
			 const struct compare_row **first)
{
	size_t n = 0;

	if (first)
		*first = NULL;
	for (size_t i = 0; i < res->count; i++) {
		if (!(mask & (1u << res->rows[i].verdict)))
			continue;
		if (!n++ && first)
			*first = &res->rows[i];
	}
	return n;
}

void compare_result_free(struct compare_result *res)
{
	free(res->rows);
	free(res->only_a);
	free(res->only_b);
	memset(res, 0, sizeof(*res));
}

int compare_words_of(const struct compare_result *res,
		     const struct compare_settings *set,
		     struct compare_words *words)
{
	memset(words, 0, sizeof(*words));
	for (int v = 0; v < COMPARE_VERDICTS; v++)
		words->verdict[v] = compare_verdict_name(v);
	words->calibrated = compare_calibrated(set);
	words->basis = malloc((res->count ? res->count : 1) *
			      sizeof(*words->basis));
	if (!words->basis)
		return -1;
	for (size_t i = 0; i < res->count; i++)
		words->basis[i] = compare_row_basis(&res->rows[i]);
	return 0;
}

void compare_words_free(struct compare_words *words)
{
	free(words->basis);
	memset(words, 0, sizeof(*words));
}
