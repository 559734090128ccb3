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
		.boot_source = COMPARE_BOOT_ASSUMED,
	};
}

int compare_calibrated(const struct compare_settings *set)
{
	return set->boot_source != COMPARE_BOOT_ASSUMED;
}

int compare_use_boot_estimate(struct compare_settings *set, double sd,
			      double df, double common,
			      enum compare_boot_source source)
{
	if (!(df >= COMPARE_MIN_BOOT_DF))
		return 1;
	set->boot_sd = sd;
	set->boot_df = df;
	set->boot_common_sd = common;
	set->boot_source = source;
	return 0;
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

static enum compare_verdict verdict_of(const struct compare_row *row,
				       const struct compare_settings *set)
{
	size_t reps = row->reps_a < row->reps_b ? row->reps_a : row->reps_b;
	/* the threshold on the scale the interval was computed on */
	double m = row->linear ? set->margin : log1p(set->margin);
	double half;

	if (isnan(row->ci_low) || isnan(row->ci_high) || isnan(row->q))
		return COMPARE_UNKNOWN;
	half = row->se > 0 ? stats_student_quantile(1 - set->alpha / 2, row->df) *
			     row->se : 0;
	/* beyond the threshold, and surviving the false-discovery control */
	if ((row->log_ratio - half > m || row->log_ratio + half < -m) &&
	    row->q <= set->alpha)
		return row->log_ratio < 0 ? COMPARE_FASTER : COMPARE_SLOWER;
	/*
	 * Equivalence by two one-sided tests, each at alpha / 2: d + t se < M
	 * and d - t se > -M, the interval shown within +-M. A difference at
	 * the margin is then called same at most alpha / 2 of the time, as
	 * it is called slower. Only with sigma_u estimated: an assumed boot
	 * variance cannot show two boots alike.
	 */
	if (!compare_calibrated(set) || reps < COMPARE_MIN_SAME_REPETITIONS)
		return COMPARE_INCONCLUSIVE;
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

/* The interval of one pair from its repetition medians; see the header. */
static int interval_of(struct compare_groups *ga, struct compare_groups *gb,
		       const struct compare_settings *set,
		       struct compare_row *row)
{
	double scale = fabs(row->center_a) > 0 ? fabs(row->center_a) : 1;
	double boot_var = 2 * set->boot_sd * set->boot_sd;
	struct stats_interval iv;

	row->linear = !all_positive(ga->medians, ga->count) ||
		      !all_positive(gb->medians, gb->count);
	to_scale(ga->medians, ga->count, row->linear, scale);
	to_scale(gb->medians, gb->count, row->linear, scale);
	if (stats_welch_extra_interval(ga->medians, ga->count, gb->medians,
				       gb->count, boot_var, set->boot_df,
				       1 - set->alpha, &iv))
		return -1;
	row->log_ratio = iv.estimate;
	row->se = iv.se;
	row->df = iv.df;
	row->p = iv.p;
	row->q = row->p;
	if (row->linear) {
		double lo = iv.low * scale, hi = iv.high * scale;

		row->ci_low = lo;
		row->ci_high = hi;
		row->relative_low = row->center_a > 0 ? lo / row->center_a
						      : row->center_a < 0 ? hi / row->center_a : NAN;
		row->relative_high = row->center_a > 0 ? hi / row->center_a
						       : row->center_a < 0 ? lo / row->center_a : NAN;
	} else {
		row->relative_low = expm1(iv.low);
		row->relative_high = expm1(iv.high);
		row->ci_low = row->center_a * row->relative_low;
		row->ci_high = row->center_a * row->relative_high;
	}
	return 0;
}

int compare_values(const double *a, const uint32_t *rep_a, size_t na,
		   const double *b, const uint32_t *rep_b, size_t nb,
		   const struct compare_settings *set, struct compare_row *row)
{
	struct compare_groups ga, gb;
	int rc = -1;

	row->na = na;
	row->nb = nb;
	row->median_a = stats_median(a, na);
	row->median_b = stats_median(b, nb);
	row->ci_low = row->ci_high = row->df = row->p = row->q = NAN;
	row->relative_low = row->relative_high = row->se = row->log_ratio = NAN;
	row->linear = 0;
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
	if (interval_of(&ga, &gb, set, row)) {
		rc = -1;
		goto out;
	}
	row->verdict = verdict_of(row, set);
out:
	compare_groups_free(&ga);
	compare_groups_free(&gb);
	return rc;
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
		rc = compare_values(va, a->repetition, a->count, vb,
				    b->repetition, b->count, set, row);
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
		row->log_ratio = NAN;
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

void compare_result_free(struct compare_result *res)
{
	free(res->rows);
	free(res->only_a);
	free(res->only_b);
	memset(res, 0, sizeof(*res));
}

/* ------------------------------------------------------ context */

const char *const compare_blocking_fields[] = {
	"host", "cpu_model", "cpu_family", "cpu_model_number", "cpu_stepping",
	"microcode", "kernel_release", "counter", "counter_unit", "virt",
	NULL,
};

/* Differ between two boots of one machine by design; prefixes end in _. */
static const char *const expected_fields[] = {
	"date", "cmdline", "smap_", "kmod_smap_", "warnings", "tsc_hz",
	"tsc_hz_hint", "counter_hz", "kmod_tsc_khz", "git_revision", "load_avg",
	"boot_id", "seed",
	/* clearcpuid=smap drops the smap flag; the clock is re-measured */
	"cpu_flags", "cpu_mhz",
};

/*
 * A context value, with what a run written before the key existed meant:
 * before `status`, every run directory written was a complete one.
 */
static const char *context_or_default(const struct run_dir *run,
				      const char *key)
{
	const char *v = rundir_context(run, key);

	return v || strcmp(key, "status") ? v : "complete";
}

enum compare_field_kind compare_field_kind(const char *key)
{
	for (size_t i = 0; compare_blocking_fields[i]; i++)
		if (!strcmp(key, compare_blocking_fields[i]))
			return COMPARE_FIELD_BLOCKING;
	for (size_t i = 0; i < sizeof(expected_fields) / sizeof(*expected_fields); i++) {
		const char *f = expected_fields[i];
		size_t len = strlen(f);

		if (f[len - 1] == '_' ? !strncmp(key, f, len) : !strcmp(key, f))
			return COMPARE_FIELD_EXPECTED;
	}
	return COMPARE_FIELD_INFO;
}

int compare_contexts(const struct run_dir *a, const struct run_dir *b,
		     struct compare_field_diff **diffs, size_t *count)
{
	size_t cap = a->context_count + b->context_count + 1;
	struct compare_field_diff *d = calloc(cap, sizeof(*d));
	int blocking = 0;

	*diffs = d;
	*count = 0;
	if (!d)
		return -1;
	for (size_t i = 0; i < a->context_count; i++) {
		const char *key = a->keys[i];
		const char *vb = context_or_default(b, key);

		if (vb && !strcmp(a->values[i], vb))
			continue;
		d[*count] = (struct compare_field_diff){
			key, a->values[i], vb ? vb : "", compare_field_kind(key)
		};
		if (!vb && d[*count].kind == COMPARE_FIELD_BLOCKING)
			d[*count].kind = COMPARE_FIELD_INFO;
		if (d[*count].kind == COMPARE_FIELD_BLOCKING)
			blocking++;
		(*count)++;
	}
	for (size_t i = 0; i < b->context_count; i++) {
		const char *key = b->keys[i];

		const char *va = context_or_default(a, key);

		if (va && (rundir_context(a, key) || !strcmp(va, b->values[i])))
			continue;
		d[*count] = (struct compare_field_diff){
			key, "", b->values[i], compare_field_kind(key)
		};
		if (d[*count].kind == COMPARE_FIELD_BLOCKING)
			d[*count].kind = COMPARE_FIELD_INFO;
		(*count)++;
	}
	return blocking;
}
