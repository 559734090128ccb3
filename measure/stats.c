// SPDX-License-Identifier: GPL-2.0
/* stats.c - descriptive statistics; conventions in stats.h. */
#include "measure/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void stats_rng_seed(struct stats_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t stats_rng_next(struct stats_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t stats_rng_below(struct stats_rng *rng, uint64_t bound)
{
	/* Reject the top partial range so every value is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t x;

	do
		x = stats_rng_next(rng);
	while (x >= limit);
	return x % bound;
}

double stats_rng_double(struct stats_rng *rng)
{
	return (double)(stats_rng_next(rng) >> 11) * 0x1.0p-53;
}

void stats_shuffle(struct stats_rng *rng, size_t *index, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = stats_rng_below(rng, i);
		size_t t = index[i - 1];

		index[i - 1] = index[j];
		index[j] = t;
	}
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), compare_double);
}

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	double frac = h - (double)lo;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double stats_median_sorted(const double *sorted, size_t n)
{
	return stats_quantile_sorted(sorted, n, 0.5);
}

double stats_median(const double *v, size_t n)
{
	double *copy, m;

	if (n == 0)
		return NAN;
	if (stats_sorted_by_repetition(v, NULL, n))
		return stats_median_sorted(v, n);
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return NAN;
	memcpy(copy, v, n * sizeof(*copy));
	stats_sort(copy, n);
	m = stats_median_sorted(copy, n);
	free(copy);
	return m;
}

double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_stddev(const double *v, size_t n)
{
	double mean, ss = 0;

	if (n < 2)
		return 0;
	mean = stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

double stats_mad_sorted(const double *sorted, size_t n)
{
	double *dev, median, mad;

	if (n == 0)
		return NAN;
	dev = malloc(n * sizeof(*dev));
	if (!dev)
		return NAN;
	median = stats_median_sorted(sorted, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(sorted[i] - median);
	stats_sort(dev, n);
	mad = stats_median_sorted(dev, n);
	free(dev);
	return mad;
}

size_t stats_outliers_sorted(const double *sorted, size_t n, double z)
{
	double median, mad;
	size_t count = 0;

	if (n == 0)
		return 0;
	median = stats_median_sorted(sorted, n);
	mad = stats_mad_sorted(sorted, n);
	if (!(mad > 0))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (0.6745 * fabs(sorted[i] - median) / mad > z)
			count++;
	return count;
}

int stats_summarize(const double *v, size_t n, struct stats_summary *out)
{
	double *sorted;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n == 0)
		return -1;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, v, n * sizeof(*sorted));
	stats_sort(sorted, n);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->mean = stats_mean(sorted, n);
	out->stddev = stats_stddev(sorted, n);
	out->median = stats_median_sorted(sorted, n);
	out->mad = stats_mad_sorted(sorted, n);
	out->cv = out->mean != 0 ? out->stddev / out->mean : 0;
	out->p5 = stats_quantile_sorted(sorted, n, 0.05);
	out->p95 = stats_quantile_sorted(sorted, n, 0.95);
	out->outliers = stats_outliers_sorted(sorted, n, STATS_OUTLIER_Z);
	free(sorted);
	return 0;
}

/* ------------------------------------------------ Student's t */

/*
 * The regularized incomplete beta I_x(a, b) by its continued fraction
 * (modified Lentz; Numerical Recipes 6.4), to the last bits.
 */
static double incomplete_beta(double x, double a, double b)
{
	const double tiny = 1e-300;
	double front, c = 1, d, f;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	/* the fraction converges fast only below the mean a / (a + b) */
	if (x > (a + 1) / (a + b + 2))
		return 1 - incomplete_beta(1 - x, b, a);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x)) / a;
	d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= 500; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ?
				-(a + m) * (a + b + m) * x /
				((a + 2 * m) * (a + 2 * m + 1)) :
				m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

			d = 1 + num * d;
			d = fabs(d) < tiny ? tiny : d;
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1 / d;
			f *= c * d;
			if (odd && fabs(c * d - 1) < 1e-15)
				return front * f;
		}
	}
	return front * f;
}

double stats_student_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	/*
	 * P(T < -|t|) = I_x(df / 2, 1 / 2) / 2 with x = df / (df + t^2),
	 * taken directly, so a small tail keeps its digits (a p of 1e-19
	 * is not 1 - (1 - 1e-19)).
	 */
	tail = incomplete_beta(df / (df + t * t), df / 2, 0.5) / 2;
	return t < 0 ? tail : 1 - tail;
}

double stats_f_upper(double f, double df1, double df2)
{
	if (!(df1 > 0) || !(df2 > 0) || isnan(f))
		return NAN;
	if (f <= 0)
		return 1;
	/* the normal's place: df beyond the cap are the cap's */
	df2 = fmin(df2, 1e4);
	return incomplete_beta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2);
}

double stats_student_quantile(double p, double df)
{
	double lo = 0, hi = 1, x, log_norm;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -stats_student_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (stats_student_cdf(hi, df) < p && hi < 1e300) {
		lo = hi;
		hi *= 2;
	}
	/*
	 * Newton's method on the CDF with the density, kept inside the
	 * bracket by bisection where a step would leave it: the CDF is
	 * monotone, so it converges to the last bits in a few steps.
	 */
	log_norm = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);
	x = lo + (hi - lo) / 2;
	for (int i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
		double f = stats_student_cdf(x, df) - p, next;
		double density = exp(log_norm - (df + 1) / 2 * log1p(x * x / df));

		if (f == 0)
			return x;
		if (f < 0)
			lo = x;
		else
			hi = x;
		next = x - f / density;
		if (!(next > lo && next < hi))
			next = lo + (hi - lo) / 2;
		if (fabs(next - x) <= 1e-15 * x)
			return next;
		x = next;
	}
	return x;
}

/* ------------------------------------------------ repetitions */

/* Does (rep[i], v[i]) come before (rep[j], v[j])? */
static int pair_before(const double *v, const uint32_t *rep, size_t i,
		       size_t j)
{
	if (rep && rep[i] != rep[j])
		return rep[i] < rep[j];
	return v[i] < v[j];
}

int stats_sorted_by_repetition(const double *v, const uint32_t *rep,
			       size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (pair_before(v, rep, i, i - 1))
			return 0;
	return 1;
}

static void pair_swap(double *v, uint32_t *rep, size_t i, size_t j)
{
	double t = v[i];

	v[i] = v[j];
	v[j] = t;
	if (rep) {
		uint32_t r = rep[i];

		rep[i] = rep[j];
		rep[j] = r;
	}
}

/* Restore the max-heap below root, the heap being [0, n). */
static void sift_down(double *v, uint32_t *rep, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && pair_before(v, rep, child, child + 1))
			child++;
		if (!pair_before(v, rep, root, child))
			return;
		pair_swap(v, rep, root, child);
	}
}

void stats_sort_by_repetition(double *v, uint32_t *rep, size_t n)
{
	if (stats_sorted_by_repetition(v, rep, n))
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, rep, i, n);
	for (size_t end = n; end-- > 1;) {
		pair_swap(v, rep, 0, end);
		sift_down(v, rep, 0, end);
	}
}

/* Type 7 at 0.5 of m ascending values: the middle one, or the mean of two. */
static double middle(const double *sorted, size_t m)
{
	return m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
}

struct keyed_value {
	uint32_t rep;
	double v;
};

static int by_rep_then_value(const void *x, const void *y)
{
	const struct keyed_value *a = x, *b = y;

	if (a->rep != b->rep)
		return a->rep < b->rep ? -1 : 1;
	return (a->v > b->v) - (a->v < b->v);
}

size_t stats_repetition_medians(const double *v, const uint32_t *rep,
				size_t n, double *medians, uint32_t *ids)
{
	struct keyed_value *k;
	size_t count = 0;

	if (!n)
		return 0;
	if (!rep) {
		for (size_t i = 0; i < n; i++) {
			medians[i] = v[i];
			if (ids)
				ids[i] = (uint32_t)i;
		}
		return n;
	}
	if (stats_sorted_by_repetition(v, rep, n)) {
		for (size_t i = 0, end; i < n; i = end) {
			for (end = i + 1; end < n && rep[end] == rep[i]; end++)
				;
			medians[count] = middle(v + i, end - i);
			if (ids)
				ids[count] = rep[i];
			count++;
		}
		return count;
	}
	k = malloc(n * sizeof(*k));
	if (!k)
		return (size_t)-1;
	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed_value){ rep[i], v[i] };
	/* one sort groups the repetitions and orders each one's values */
	qsort(k, n, sizeof(*k), by_rep_then_value);
	for (size_t i = 0, start = 0; i < n; i = start) {
		size_t m = 0;

		while (start < n && k[start].rep == k[i].rep)
			start++;
		m = start - i;
		/* type 7 at 0.5: the middle one, or the mean of the two */
		medians[count] = m % 2 ? k[i + m / 2].v :
				 (k[i + m / 2 - 1].v + k[i + m / 2].v) / 2;
		if (ids)
			ids[count] = k[i].rep;
		count++;
	}
	free(k);
	return count;
}

/* ------------------------------------------------ intervals of means */

static void no_interval(struct stats_interval *out)
{
	out->low = out->high = out->se = out->df = out->p = NAN;
}

int stats_mean_interval(const double *v, size_t n, double level,
			struct stats_interval *out)
{
	memset(out, 0, sizeof(*out));
	no_interval(out);
	out->n = n;
	out->estimate = n ? stats_mean(v, n) : NAN;
	if (n == 0)
		return -1;
	if (n < 2)
		return 0;
	out->df = (double)(n - 1);
	out->se = stats_stddev(v, n) / sqrt((double)n);
	double half = stats_student_quantile((1 + level) / 2, out->df) * out->se;

	out->low = out->estimate - half;
	out->high = out->estimate + half;
	return 0;
}

int stats_welch_interval(const double *a, size_t na, const double *b,
			 size_t nb, double level, struct stats_interval *out)
{
	double va, vb, half;

	memset(out, 0, sizeof(*out));
	no_interval(out);
	out->n = na + nb;
	if (!na || !nb) {
		out->estimate = NAN;
		return -1;
	}
	out->estimate = stats_mean(b, nb) - stats_mean(a, na);
	if (na < 2 || nb < 2)
		return 0;
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	va = va * va / (double)na;
	vb = vb * vb / (double)nb;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		/* no spread on either side: the difference is what it is */
		out->low = out->high = out->estimate;
		out->df = (double)(na + nb - 2);
		out->p = out->estimate == 0 ? 1 : 0;
		return 0;
	}
	/* Welch-Satterthwaite; a side without spread adds no term */
	out->df = (va + vb) * (va + vb) /
		  ((va ? va * va / (double)(na - 1) : 0) +
		   (vb ? vb * vb / (double)(nb - 1) : 0));
	half = stats_student_quantile((1 + level) / 2, out->df) * out->se;
	out->low = out->estimate - half;
	out->high = out->estimate + half;
	out->p = 2 * stats_student_cdf(-fabs(out->estimate) / out->se, out->df);
	return 0;
}

/* t's degrees of freedom are capped here: beyond, t is the normal. */
#define STATS_DF_CAP 1e4

int stats_welch_extra_interval(const double *a, size_t na, const double *b,
			       size_t nb, double extra_var, double extra_df,
			       double level, struct stats_interval *out)
{
	double va, vb, denom, half;

	if (stats_welch_interval(a, na, b, nb, level, out) || na < 2 || nb < 2)
		return na && nb ? 0 : -1;
	if (!(extra_var > 0))
		return 0;
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	va = va * va / (double)na;
	vb = vb * vb / (double)nb;
	out->se = sqrt(va + vb + extra_var);
	/* Satterthwaite over three terms; a known variance adds no term */
	denom = (va ? va * va / (double)(na - 1) : 0) +
		(vb ? vb * vb / (double)(nb - 1) : 0) +
		(isfinite(extra_df) && extra_df > 0 ?
		 extra_var * extra_var / extra_df : 0);
	out->df = denom > 0 ? (va + vb + extra_var) * (va + vb + extra_var) / denom
			    : STATS_DF_CAP;
	if (out->df > STATS_DF_CAP)
		out->df = STATS_DF_CAP;
	half = stats_student_quantile((1 + level) / 2, out->df) * out->se;
	out->low = out->estimate - half;
	out->high = out->estimate + half;
	out->p = 2 * stats_student_cdf(-fabs(out->estimate) / out->se, out->df);
	return 0;
}

uint64_t stats_random_seed(void)
{
	uint64_t seed = 0;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), 0) == (ssize_t)sizeof(seed))
		return seed;
	/* no entropy source: the clock and the process still differ per run */
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^
	       (uint64_t)getpid() << 32;
}

/* ------------------------------------------- moderated variances */

/*
 * Digamma and its derivatives for x > 0: the recurrence moves x above
 * 10, where the asymptotic series is good to about 1e-14.
 */
double stats_digamma(double x)
{
	double r = 0, f;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r -= 1 / x;
	f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 -
		    f * (1.0 / 132)))));
}

double stats_trigamma(double x)
{
	double r = 0, f;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r += 1 / (x * x);
	f = 1 / (x * x);
	return r + 1 / x + f / 2 +
	       f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 -
		    f * 5.0 / 66))));
}

/* The second derivative of digamma (tetragamma), x > 0. */
static double tetragamma(double x)
{
	double r = 0, f;

	for (; x < 10; x++)
		r -= 2 / (x * x * x);
	f = 1 / (x * x);
	return r - f * (1 + 1 / x) -
	       f * f * (0.5 - f * (1.0 / 6 - f * (1.0 / 6 - f * (3.0 / 10 - f * 5.0 / 6))));
}

double stats_trigamma_inverse(double y)
{
	double x;

	if (!(y > 0))
		return NAN;
	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	/* Newton's method from below: trigamma is convex and decreasing */
	x = 0.5 + 1 / y;
	for (int i = 0; i < 50; i++) {
		double tri = stats_trigamma(x);
		double step = tri * (1 - tri / y) / tetragamma(x);

		x += step;
		if (-step / x < 1e-8)
			break;
	}
	return x;
}

int stats_variance_prior(const double *var, const double *df, size_t n,
			 struct stats_prior *out)
{
	double *e = malloc((n ? n : 1) * sizeof(*e)), *v = NULL;
	double floor_at, mean = 0, spread = 0, expected = 0, total_df = 0;
	size_t m = 0;

	out->var = NAN;
	out->df = 0;
	if (!e)
		return -1;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		free(e);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (isfinite(var[i]) && var[i] >= 0 && df[i] > 0)
			v[m++] = var[i];
	/* a variance of 0 has no logarithm: floored far below the median */
	floor_at = m ? 1e-5 * stats_median(v, m) : 0;
	if (!(floor_at > 0))
		floor_at = 1e-30;
	m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(var[i]) && var[i] >= 0 && df[i] > 0))
			continue;
		/* log s^2 less its expectation for a chi-square on df[i] */
		e[m] = log(fmax(var[i], floor_at)) - stats_digamma(df[i] / 2) +
		       log(df[i] / 2);
		mean += e[m];
		expected += stats_trigamma(df[i] / 2);
		total_df += df[i];
		m++;
	}
	if (m < 2) {
		free(e);
		free(v);
		return 1;
	}
	mean /= (double)m;
	expected /= (double)m;
	for (size_t i = 0; i < m; i++)
		spread += (e[i] - mean) * (e[i] - mean) / (double)(m - 1);
	spread -= expected;
	if (spread > 0) {
		out->df = 2 * stats_trigamma_inverse(spread);
		out->var = exp(mean + stats_digamma(out->df / 2) - log(out->df / 2));
	} else {
		/* the rows differ by no more than chance: one variance */
		out->df = INFINITY;
		out->var = exp(mean);
	}
	/* the prior holds no more information than every row together */
	if (out->df > total_df)
		out->df = total_df;
	free(e);
	free(v);
	return 0;
}

double stats_moderated_variance(double var, double df,
				const struct stats_prior *prior)
{
	if (!(df > 0) || !isfinite(var))
		return prior->var;
	if (!(prior->df > 0) || !isfinite(prior->var))
		return var;
	return (prior->df * prior->var + df * var) / (prior->df + df);
}

int stats_variance_outlier(double var, double df, const struct stats_prior *prior)
{
	if (!(df > 0) || !isfinite(var) || !(prior->df > 0) ||
	    !isfinite(prior->var) || !(var > prior->var))
		return 0;
	return stats_f_upper(var / prior->var, df, prior->df) < STATS_OUTLIER_P;
}
