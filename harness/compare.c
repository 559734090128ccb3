// SPDX-License-Identifier: GPL-2.0
/* compare.c - two-sample comparison of benchmark runs; see compare.h. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "stats.h"

/* ------------------------------------------------------ Mann-Whitney */

/*
 * Exact distribution of U for samples of m and n values without ties:
 * count[u] = arrangements of the m + n ranks giving U = u, from
 *   N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u)
 * (the largest value is either an a, beating all n b's, or a b).
 * Counts stay below C(40, 20) < 2^53, exact in doubles.
 * Returns P(U <= u) and P(U >= u) through lower and upper.
 */
static int exact_tails(size_t m, size_t n, double u, double *lower,
		       double *upper)
{
	size_t umax = m * n, width = umax + 1;
	double *table = calloc((m + 1) * (n + 1) * width, sizeof(*table));
	double total = 0, below = 0, above = 0;

	if (!table)
		return -1;
#define CELL(i, j, k) table[((i) * (n + 1) + (j)) * width + (k)]
	for (size_t i = 0; i <= m; i++) {
		for (size_t j = 0; j <= n; j++) {
			if (i == 0 || j == 0) {
				CELL(i, j, 0) = 1;
				continue;
			}
			for (size_t k = 0; k <= i * j; k++) {
				double v = CELL(i, j - 1, k);

				if (k >= j)
					v += CELL(i - 1, j, k - j);
				CELL(i, j, k) = v;
			}
		}
	}
	for (size_t k = 0; k <= umax; k++) {
		double c = CELL(m, n, k);

		total += c;
		if ((double)k <= u + 1e-9)
			below += c;
		if ((double)k >= u - 1e-9)
			above += c;
	}
#undef CELL
	free(table);
	*lower = below / total;
	*upper = above / total;
	return 0;
}

int compare_mann_whitney(const double *a, size_t na, const double *b,
			 size_t nb, struct compare_mw *out)
{
	size_t n = na + nb;
	double *all, *ranks, ties, rank_a = 0;
	double mu, var, diff;

	if (!na || !nb)
		return -1;
	all = malloc(n * sizeof(*all));
	ranks = malloc(n * sizeof(*ranks));
	if (!all || !ranks)
		goto fail;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	ties = stats_rank(all, n, ranks);
	if (ties < 0)
		goto fail;
	for (size_t i = 0; i < na; i++)
		rank_a += ranks[i];
	free(all);
	free(ranks);
	all = ranks = NULL;

	out->u = rank_a - (double)na * (double)(na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	out->exact = 0;
	out->z = 0;
	if (ties == 0 && na <= COMPARE_EXACT_MAX && nb <= COMPARE_EXACT_MAX) {
		double lower, upper;

		if (exact_tails(na, nb, out->u, &lower, &upper))
			return -1;
		out->p = fmin(1.0, 2 * fmin(lower, upper));
		out->exact = 1;
		return 0;
	}
	var = (double)na * (double)nb / 12 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0) {	/* every value equal */
		out->p = 1;
		return 0;
	}
	diff = fabs(out->u - mu);
	diff = diff > 0.5 ? diff - 0.5 : 0;	/* continuity correction */
	out->z = (out->u >= mu ? diff : -diff) / sqrt(var);
	out->p = erfc(fabs(out->z) / sqrt(2.0));
	return 0;
fail:
	free(all);
	free(ranks);
	return -1;
}

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
	default:
		return "unknown";
	}
}

int compare_values(const double *a, size_t na, const double *b, size_t nb,
		   double alpha, uint64_t seed, struct compare_row *row)
{
	int significant;

	row->na = na;
	row->nb = nb;
	row->median_a = stats_median(a, na);
	row->median_b = stats_median(b, nb);
	row->delta = row->median_b - row->median_a;
	row->relative = row->median_a != 0 ? row->delta / row->median_a : NAN;
	row->ci_low = row->ci_high = NAN;
	row->mw = (struct compare_mw){ .u = NAN, .z = NAN, .p = NAN };
	row->verdict = COMPARE_UNKNOWN;
	if (na < COMPARE_MIN_VALUES || nb < COMPARE_MIN_VALUES)
		return 0;
	if (compare_mann_whitney(a, na, b, nb, &row->mw) ||
	    compare_bootstrap_diff(a, na, 1, b, nb, 1,
				   STATS_BOOTSTRAP_RESAMPLES, 1 - alpha, seed,
				   &row->ci_low, &row->ci_high))
		return -1;
	significant = row->mw.p < alpha &&
		      !(row->ci_low <= 0 && row->ci_high >= 0);
	if (!significant || row->delta == 0)
		row->verdict = COMPARE_SAME;
	else
		row->verdict = row->delta < 0 ? COMPARE_FASTER : COMPARE_SLOWER;
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
			double alpha, uint64_t seed, struct compare_row *row)
{
	double ns_a = rundir_ns_per_unit(ra, a), ns_b = rundir_ns_per_unit(rb, b);
	double scale_a = 1, scale_b = 1, ns_per_unit;
	double *va = NULL, *vb = NULL, med_a, med_b;
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
		rc = compare_values(va, a->count, vb, b->count, alpha, seed, row);
		free(va);
		free(vb);
		if (rc)
			return -1;
		row->method = a->source == RUN_VALUES_SAMPLES &&
			      b->source == RUN_VALUES_SAMPLES ? "samples"
							      : "repetitions";
		/* The runs' own medians, when recorded, are the reference. */
		med_a = isfinite(a->median) ? a->median * scale_a : row->median_a;
		med_b = isfinite(b->median) ? b->median * scale_b : row->median_b;
	} else {
		row->mw = (struct compare_mw){ .u = NAN, .z = NAN, .p = NAN };
		row->ci_low = row->ci_high = NAN;
		row->verdict = COMPARE_UNKNOWN;
		row->method = "medians";
		med_a = a->median * scale_a;
		med_b = b->median * scale_b;
	}
	row->median_a = med_a;
	row->median_b = med_b;
	row->delta = med_b - med_a;
	row->relative = med_a != 0 ? row->delta / med_a : NAN;
	row->delta_ns = row->delta * ns_per_unit;
	return 0;
}

struct compare_jobs {
	const struct run_dir *a, *b;
	double alpha;
	uint64_t seed;
	struct compare_row *rows;
};

static int compare_job(void *arg, size_t i)
{
	struct compare_jobs *j = arg;
	struct compare_row *row = &j->rows[i];

	return compare_pair(j->a, row->a, j->b, row->b, j->alpha, j->seed,
			    row) ? -1 : 0;
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
		      double alpha, uint64_t seed, unsigned threads,
		      parallel_progress_fn progress, void *progress_arg,
		      struct compare_result *out)
{
	struct compare_jobs jobs = { a, b, alpha, seed, NULL };

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
			 threads))
		goto fail;
	return 0;
fail:
	compare_result_free(out);
	return -1;
}

int compare_runs(const struct run_dir *a, const struct run_dir *b,
		 double alpha, uint64_t seed, struct compare_result *out)
{
	return compare_runs_with(a, b, alpha, seed, 0, NULL, NULL, out);
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
