// SPDX-License-Identifier: GPL-2.0
/* compare.c - two-sample comparison of benchmark runs; see compare.h. */
#include "analysis/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/parallel.h"
#include "measure/stats.h"

/* ------------------------------------------------------ bootstrap */

int compare_bootstrap_diff(const double *a, size_t na, double scale_a,
			   const double *b, size_t nb, double scale_b,
			   unsigned resamples, double level, uint64_t seed,
			   double *low, double *high)
{
	struct stats_resampler draw_a, draw_b;
	struct stats_rng rng;
	double *diffs;

	if (!na || !nb || !resamples)
		return -1;
	diffs = malloc(resamples * sizeof(*diffs));
	if (!diffs || stats_resampler_init(&draw_a, a, na)) {
		free(diffs);
		return -1;
	}
	if (stats_resampler_init(&draw_b, b, nb)) {
		stats_resampler_free(&draw_a);
		free(diffs);
		return -1;
	}
	stats_rng_seed(&rng, seed);
	for (unsigned r = 0; r < resamples; r++) {
		/* a's draws first, then b's, from one generator */
		double median_a = stats_resampler_median(&draw_a, &rng);
		double median_b = stats_resampler_median(&draw_b, &rng);

		diffs[r] = scale_b * median_b - scale_a * median_a;
	}
	stats_sort(diffs, resamples);
	*low = stats_quantile_sorted(diffs, resamples, (1 - level) / 2);
	*high = stats_quantile_sorted(diffs, resamples, 1 - (1 - level) / 2);
	stats_resampler_free(&draw_a);
	stats_resampler_free(&draw_b);
	free(diffs);
	return 0;
}

/* ------------------------------------------------ repetition level */

struct compare_settings compare_default_settings(void)
{
	return (struct compare_settings){
		.alpha = COMPARE_DEFAULT_ALPHA,
		.margin = COMPARE_DEFAULT_MARGIN,
		.resamples = COMPARE_DEFAULT_RESAMPLES,
		.seed = COMPARE_DEFAULT_SEED,
	};
}

struct keyed {
	unsigned long repetition;
	size_t index;
};

static int by_repetition(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->repetition != b->repetition)
		return a->repetition < b->repetition ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

void compare_groups_free(struct compare_groups *g)
{
	free(g->values);
	free(g->start);
	free(g->medians);
	memset(g, 0, sizeof(*g));
}

int compare_group(const double *values, const unsigned long *repetition,
		  size_t n, struct compare_groups *out)
{
	struct keyed *key = malloc((n ? n : 1) * sizeof(*key));
	size_t groups = 0;

	memset(out, 0, sizeof(*out));
	out->values = malloc((n ? n : 1) * sizeof(*out->values));
	out->start = malloc((n + 1) * sizeof(*out->start));
	out->medians = malloc((n ? n : 1) * sizeof(*out->medians));
	if (!key || !out->values || !out->start || !out->medians) {
		free(key);
		compare_groups_free(out);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		key[i] = (struct keyed){ repetition ? repetition[i] : i, i };
	qsort(key, n, sizeof(*key), by_repetition);
	for (size_t i = 0; i < n; i++) {
		if (!i || key[i].repetition != key[i - 1].repetition)
			out->start[groups++] = i;
		out->values[i] = values[key[i].index];
	}
	out->start[groups] = n;
	out->count = groups;
	free(key);
	for (size_t g = 0; g < groups; g++) {
		out->medians[g] = stats_median(out->values + out->start[g],
					       out->start[g + 1] - out->start[g]);
		if (isnan(out->medians[g])) {
			compare_groups_free(out);
			return -1;
		}
	}
	return 0;
}

double compare_center(const struct compare_groups *g)
{
	return g->count ? stats_mean(g->medians, g->count) : NAN;
}

/* Standard normal quantile, by bisection on erfc (exact enough, cheap). */
static double normal_quantile(double p)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / sqrt(2.0)) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Student's t quantile from the normal one (Cornish-Fisher expansion,
 * Abramowitz and Stegun 26.7.5): within 1e-3 of the exact value for
 * df >= 3 at the usual levels, which is all the interval needs; df 1
 * and 2 in closed form.
 */
static double student_quantile(double p, double df)
{
	double z = normal_quantile(p), z2 = z * z;

	/* exact where the expansion is not (3 repetitions: df 2) */
	if (df == 1)
		return tan(M_PI * (p - 0.5));
	if (df == 2)
		return (2 * p - 1) / sqrt(2 * p * (1 - p));
	return z + (z2 + 1) * z / (4 * df) +
	       ((5 * z2 + 16) * z2 + 3) * z / (96 * df * df) +
	       (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / (384 * df * df * df) +
	       ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z /
	       (92160 * df * df * df * df);
}

/* COMPARE_INNER_RESAMPLES bootstrap medians of each repetition's samples. */
static double *inner_medians(const struct compare_groups *g, uint64_t seed)
{
	double *pool = malloc(g->count * COMPARE_INNER_RESAMPLES * sizeof(*pool));
	struct stats_rng rng;

	if (!pool)
		return NULL;
	stats_rng_seed(&rng, seed);
	for (size_t k = 0; k < g->count; k++) {
		struct stats_resampler r;

		if (stats_resampler_init(&r, g->values + g->start[k],
					 g->start[k + 1] - g->start[k])) {
			free(pool);
			return NULL;
		}
		for (unsigned i = 0; i < COMPARE_INNER_RESAMPLES; i++)
			pool[k * COMPARE_INNER_RESAMPLES + i] =
				stats_resampler_median(&r, &rng);
		stats_resampler_free(&r);
	}
	return pool;
}

/* One hierarchical resample of a side's center. */
static double resampled_center(const struct compare_groups *g,
			       const double *pool, struct stats_rng *rng)
{
	double sum = 0;

	for (size_t k = 0; k < g->count; k++) {
		size_t rep = stats_rng_below(rng, g->count);

		sum += pool[rep * COMPARE_INNER_RESAMPLES +
			    stats_rng_below(rng, COMPARE_INNER_RESAMPLES)];
	}
	return sum / (double)g->count;
}

/*
 * The interval of center(b) - center(a), or of center(b) alone when a is
 * NULL (the t quantile then has rb - 1 degrees of freedom).
 */
static int hierarchical_ci(const struct compare_groups *a,
			   const struct compare_groups *b, unsigned resamples,
			   double level, uint64_t seed, double *low,
			   double *high)
{
	double *pool_a = NULL, *pool_b, *diffs, tail, z, r, df;
	struct stats_rng rng;

	if ((a && a->count < 2) || b->count < 2 || !resamples)
		return -1;
	if (a)
		pool_a = inner_medians(a, seed ^ 0xa);
	pool_b = inner_medians(b, seed ^ 0xb);
	diffs = malloc(resamples * sizeof(*diffs));
	if ((a && !pool_a) || !pool_b || !diffs) {
		free(pool_a);
		free(pool_b);
		free(diffs);
		return -1;
	}
	stats_rng_seed(&rng, seed);
	for (unsigned i = 0; i < resamples; i++) {
		double ca = a ? resampled_center(a, pool_a, &rng) : 0;

		diffs[i] = resampled_center(b, pool_b, &rng) - ca;
	}
	stats_sort(diffs, resamples);
	/* Hesterberg's expansion for few clusters (see compare.h). */
	r = (double)(a && a->count < b->count ? a->count : b->count);
	df = a ? (double)(a->count + b->count - 2) : r - 1;
	z = sqrt(r / (r - 1)) * student_quantile(1 - (1 - level) / 2, df);
	tail = 0.5 * erfc(z / sqrt(2.0));
	*low = stats_quantile_sorted(diffs, resamples, tail);
	*high = stats_quantile_sorted(diffs, resamples, 1 - tail);
	free(pool_a);
	free(pool_b);
	free(diffs);
	return 0;
}

int compare_hierarchical_ci(const struct compare_groups *a,
			    const struct compare_groups *b,
			    unsigned resamples, double level, uint64_t seed,
			    double *low, double *high)
{
	return hierarchical_ci(a, b, resamples, level, seed, low, high);
}

int compare_center_ci(const struct compare_groups *g, unsigned resamples,
		      double level, uint64_t seed, double *low, double *high)
{
	return hierarchical_ci(NULL, g, resamples, level, seed, low, high);
}

/* C(n, k) as a double, or INFINITY past limit. */
static double choose(size_t n, size_t k, double limit)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k; i++) {
		c = c * (double)(n - k + i) / (double)i;
		if (c > limit)
			return INFINITY;
	}
	return c;
}

/* |mean of the rest - mean of the na values chosen|, their sum given. */
static inline double split_statistic(double sum, double total, size_t na,
				     size_t nb)
{
	return fabs((total - sum) / (double)nb - sum / (double)na);
}

double compare_permutation_p(const double *a, size_t na, const double *b,
			     size_t nb, uint64_t seed, int *exact)
{
	size_t n = na + nb, *index = NULL;
	double *all, total = 0, observed, tolerance, hits = 0, draws = 0;
	struct stats_rng rng;

	*exact = 0;
	if (!na || !nb)
		return NAN;
	all = malloc(n * sizeof(*all));
	if (!all)
		return NAN;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	for (size_t i = 0; i < n; i++)
		total += all[i];
	observed = fabs(stats_mean(b, nb) - stats_mean(a, na));
	/* the observed split, summed in another order, must count as a hit */
	tolerance = 1e-9 * (observed + fabs(total) / (double)n);
	if (n < 64 && choose(n, na, COMPARE_EXACT_SPLITS) <= COMPARE_EXACT_SPLITS) {
		/* every na-subset as the bits of a word (Gosper's hack) */
		uint64_t set = (UINT64_C(1) << na) - 1, limit = UINT64_C(1) << n;

		while (set < limit) {
			uint64_t c = set & -set, next = set + c;
			double sum = 0;

			for (size_t i = 0; i < n; i++)
				if (set >> i & 1)
					sum += all[i];
			hits += split_statistic(sum, total, na, nb) >=
				observed - tolerance;
			draws++;
			set = (((next ^ set) >> 2) / c) | next;
		}
		*exact = 1;
		free(all);
		return hits / draws;
	}
	index = malloc(n * sizeof(*index));
	if (!index) {
		free(all);
		return NAN;
	}
	stats_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		index[i] = i;
	for (unsigned d = 0; d < COMPARE_PERMUTATIONS; d++) {
		double sum = 0;

		stats_shuffle(&rng, index, n);
		for (size_t i = 0; i < na; i++)
			sum += all[index[i]];
		hits += split_statistic(sum, total, na, nb) >= observed - tolerance;
	}
	draws = COMPARE_PERMUTATIONS;
	free(index);
	free(all);
	/* the observed split counts once: p is never 0 */
	return (1 + hits) / (1 + draws);
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
	double margin = set->margin * fabs(row->center_a);

	if (isnan(row->ci_low) || isnan(row->ci_high) || isnan(row->q))
		return COMPARE_UNKNOWN;
	if ((row->ci_low > 0 || row->ci_high < 0) && row->q <= set->alpha)
		return row->ci_high < 0 ? COMPARE_FASTER : COMPARE_SLOWER;
	if (row->ci_low >= -margin && row->ci_high <= margin)
		return COMPARE_SAME;
	return COMPARE_INCONCLUSIVE;
}

int compare_values(const double *a, const unsigned long *rep_a, size_t na,
		   const double *b, const unsigned long *rep_b, size_t nb,
		   const struct compare_settings *set, struct compare_row *row)
{
	struct compare_groups ga, gb;
	int rc = -1;

	row->na = na;
	row->nb = nb;
	row->median_a = stats_median(a, na);
	row->median_b = stats_median(b, nb);
	row->ci_low = row->ci_high = row->p = row->q = NAN;
	row->exact = 0;
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
	if (ga.count < COMPARE_MIN_REPETITIONS || gb.count < COMPARE_MIN_REPETITIONS) {
		rc = 0;
		goto out;
	}
	if (compare_hierarchical_ci(&ga, &gb, set->resamples, 1 - set->alpha,
				    set->seed, &row->ci_low, &row->ci_high))
		goto out;
	row->p = compare_permutation_p(ga.medians, ga.count, gb.medians,
				       gb.count, set->seed, &row->exact);
	row->q = row->p;
	row->verdict = verdict_of(row, set);
	rc = 0;
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
	p = malloc(count * sizeof(*p));
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
		row->ci_low = row->ci_high = row->p = row->q = NAN;
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
	/* clearcpuid=smap drops the smap flag; the clock is re-measured */
	"cpu_flags", "cpu_mhz",
};

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
		const char *vb = rundir_context(b, key);

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

		if (rundir_context(a, key))
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
