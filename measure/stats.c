// SPDX-License-Identifier: GPL-2.0
/* stats.c - descriptive statistics; conventions in stats.h. */
#include "measure/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Inlined into the resampling loops; stats_rng_next() is the same. */
static inline uint64_t rng_next(struct stats_rng *rng)
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

uint64_t stats_rng_next(struct stats_rng *rng)
{
	return rng_next(rng);
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

void stats_bound_init(struct stats_bound *b, uint64_t bound)
{
	b->bound = bound;
	b->limit = UINT64_MAX - UINT64_MAX % bound;
	/* floor(2^64 / bound), so the estimate is at most one short */
	b->inverse = bound == 1 ? UINT64_MAX
		     : UINT64_MAX / bound + !(bound & (bound - 1));
}

static inline uint64_t below_bound(struct stats_rng *rng,
				   const struct stats_bound *b)
{
	uint64_t x, q, rem;

	do
		x = rng_next(rng);
	while (x >= b->limit);
	/* q is floor(x / bound) or one less: correct the remainder */
	q = (uint64_t)(((unsigned __int128)x * b->inverse) >> 64);
	rem = x - q * b->bound;
	rem = rem >= b->bound ? rem - b->bound : rem;
	return rem;
}

uint64_t stats_rng_below_bound(struct stats_rng *rng,
			       const struct stats_bound *b)
{
	return below_bound(rng, b);
}

/*
 * below_bound() without its last correction: x mod bound, or that plus
 * bound. A table of 2 bound entries (the second half a copy of the
 * first) looks it up as well, one compare and move fewer per draw.
 */
static inline uint64_t below_bound_twice(struct stats_rng *rng,
					 const struct stats_bound *b)
{
	uint64_t x;

	do
		x = rng_next(rng);
	while (x >= b->limit);
	return x - (uint64_t)(((unsigned __int128)x * b->inverse) >> 64) * b->bound;
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

void stats_resample(struct stats_rng *rng, const double *v, size_t n,
		    double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = v[stats_rng_below(rng, n)];
}

/* ------------------------------------------------ resample medians */

static inline void swap_double(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/*
 * Reorder v so that v[k] is its k-th smallest value, none before it
 * larger, none after it smaller (quickselect, median-of-three pivots).
 */
static void select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, want = (ptrdiff_t)k;

	while (hi > lo + 16) {
		ptrdiff_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double pivot;

		if (v[mid] < v[lo])
			swap_double(&v[mid], &v[lo]);
		if (v[hi] < v[lo])
			swap_double(&v[hi], &v[lo]);
		if (v[hi] < v[mid])
			swap_double(&v[hi], &v[mid]);
		pivot = v[mid];
		/* Hoare partition: [lo, j] <= pivot <= [i, hi] */
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				swap_double(&v[i], &v[j]);
				i++;
				j--;
			}
		}
		if (want <= j)
			hi = j;
		else if (want >= i)
			lo = i;
		else
			return;	/* between the parts: equal to the pivot */
	}
	for (ptrdiff_t i = lo + 1; i <= hi; i++) {
		double x = v[i];
		ptrdiff_t j = i;

		for (; j > lo && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

struct ranked_value {
	double value;
	uint32_t index;
};

static int by_value_then_index(const void *a, const void *b)
{
	const struct ranked_value *x = a, *y = b;

	if (x->value != y->value)
		return (x->value > y->value) - (x->value < y->value);
	return (x->index > y->index) - (x->index < y->index);
}

int stats_resampler_init_band(struct stats_resampler *r, const double *v,
			      size_t n, size_t halfwidth)
{
	struct ranked_value *sorted;

	memset(r, 0, sizeof(*r));
	if (n == 0 || n > UINT32_MAX / 2)
		return -1;
	r->values = v;
	r->n = n;
	/* stats_quantile_sorted(.., 0.5), term by term */
	double h = (double)(n - 1) * 0.5;

	r->middle = (size_t)floor(h);
	r->frac = h - (double)r->middle;
	/* the band: positions low .. low + width - 1 of v sorted */
	r->low = r->middle > halfwidth ? r->middle - halfwidth : 0;
	r->width = (r->middle + 1 + halfwidth < n ? r->middle + 1 + halfwidth
						  : n - 1) - r->low + 1;
	r->kept = malloc(n * sizeof(*r->kept));
	r->kept_index = malloc(n * sizeof(*r->kept_index));
	r->where = malloc(2 * n);
	r->offset = malloc(n * sizeof(*r->offset));
	r->band = malloc(r->width * sizeof(*r->band));
	r->count = malloc(r->width * sizeof(*r->count));
	sorted = malloc(n * sizeof(*sorted));
	if (!r->kept || !r->kept_index || !r->where || !r->offset || !r->band ||
	    !r->count || !sorted) {
		free(sorted);
		stats_resampler_free(r);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = (struct ranked_value){ v[i], (uint32_t)i };
	qsort(sorted, n, sizeof(*sorted), by_value_then_index);
	/*
	 * Ties are ordered by index, so "below", "in" and "above" the band
	 * follow the order of the values and never split one the wrong way.
	 */
	for (size_t p = 0; p < n; p++) {
		uint32_t i = sorted[p].index;

		r->where[i] = r->where[n + i] =
			p < r->low ? 1 : p < r->low + r->width ? 2 : 0;
		r->offset[i] = (uint32_t)(p - r->low);
		if (p >= r->low && p < r->low + r->width)
			r->band[p - r->low] = sorted[p].value;
	}
	free(sorted);
	stats_bound_init(&r->draw, n);
	return 0;
}

int stats_resampler_init(struct stats_resampler *r, const double *v, size_t n)
{
	/*
	 * 4 standard deviations of the count below the band: a full redraw
	 * about once in 10^4 resamples costs less than a wider band would.
	 */
	return stats_resampler_init_band(r, v, n,
					 (size_t)(2 * sqrt((double)n)) + 8);
}

/* The median from its two order statistics, as stats_median_sorted(). */
static double median_of(const struct stats_resampler *r, double lower,
			double upper)
{
	if (r->middle + 1 >= r->n)	/* n == 1 */
		return lower;
	return lower + r->frac * (upper - lower);
}

/*
 * The median of the draw from the m draws in the band (kept_index), below
 * draws lying under all of them: a count per band position, then the
 * positions of order statistics middle - below and the next.
 */
static double band_median(struct stats_resampler *r, size_t m, size_t below)
{
	size_t k = r->middle - below, seen = 0, p = 0;
	double lower;

	memset(r->count, 0, r->width * sizeof(*r->count));
	for (size_t i = 0; i < m; i++) {
		uint32_t j = r->kept_index[i];

		r->count[r->offset[j < r->n ? j : j - r->n]]++;
	}
	while (seen + r->count[p] <= k)
		seen += r->count[p++];
	lower = r->band[p];
	if (seen + r->count[p] <= k + 1 && r->middle + 1 < r->n) {
		seen += r->count[p++];
		while (!r->count[p])
			p++;
	}
	return median_of(r, lower, r->band[p]);
}

/* The median of the whole draw in kept (the rare full redraw). */
static double full_median(struct stats_resampler *r)
{
	size_t k = r->middle;
	double upper;

	select_kth(r->kept, r->n, k);
	if (k + 1 >= r->n)
		return median_of(r, r->kept[k], r->kept[k]);
	upper = r->kept[k + 1];
	for (size_t i = k + 2; i < r->n; i++)
		if (r->kept[i] < upper)
			upper = r->kept[i];
	return median_of(r, r->kept[k], upper);
}

double stats_resampler_median(struct stats_resampler *r, struct stats_rng *rng)
{
	const double *v = r->values;
	const unsigned char *where = r->where;
	const struct stats_bound bound = r->draw;
	struct stats_rng state = *rng;
	uint32_t *kept_index = r->kept_index, *out = kept_index;
	size_t n = r->n, below = 0, m;
	size_t need = r->middle + 1 < n ? r->middle + 2 : r->middle + 1;

	/*
	 * Per draw only a byte (n of them stay in cache) and no branch to
	 * mispredict: the index is stored always, kept when in the band.
	 */
	for (size_t i = 0; i < n; i++) {
		uint32_t j = (uint32_t)below_bound_twice(&state, &bound);
		unsigned in = where[j];

		below += in & 1;
		*out = j;
		out += in >> 1;
	}
	m = (size_t)(out - kept_index);
	if (below <= r->middle && below + m >= need) {
		*rng = state;
		return band_median(r, m, below);
	}
	/* The middle fell outside the band: the same draw, in full. */
	r->redraws++;
	for (size_t i = 0; i < n; i++)
		r->kept[i] = v[below_bound(rng, &bound)];
	return full_median(r);
}

void stats_resampler_free(struct stats_resampler *r)
{
	free(r->kept);
	free(r->kept_index);
	free(r->where);
	free(r->offset);
	free(r->band);
	free(r->count);
	memset(r, 0, sizeof(*r));
}

int stats_bootstrap_median_ci(const double *v, size_t n, unsigned resamples,
			      double level, uint64_t seed,
			      double *low, double *high)
{
	struct stats_resampler draw;
	struct stats_rng rng;
	double *medians;

	if (n == 0 || resamples == 0)
		return -1;
	medians = malloc(resamples * sizeof(*medians));
	if (!medians || stats_resampler_init(&draw, v, n)) {
		free(medians);
		return -1;
	}
	stats_rng_seed(&rng, seed);
	for (unsigned r = 0; r < resamples; r++)
		medians[r] = stats_resampler_median(&draw, &rng);
	stats_sort(medians, resamples);
	*low = stats_quantile_sorted(medians, resamples, (1 - level) / 2);
	*high = stats_quantile_sorted(medians, resamples, 1 - (1 - level) / 2);
	stats_resampler_free(&draw);
	free(medians);
	return 0;
}

int stats_summarize(const double *v, size_t n, uint64_t seed,
		    struct stats_summary *out)
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
	return stats_bootstrap_median_ci(v, n, STATS_BOOTSTRAP_RESAMPLES,
					 STATS_CI_LEVEL, seed,
					 &out->ci_low, &out->ci_high);
}

/* ------------------------------------------------ Student's t */

/*
 * P(|T| <= t) for integer df, in closed form (Abramowitz and Stegun
 * 26.7.3 and 26.7.4): with theta = atan(t / sqrt(df)), a finite series in
 * cos(theta), exact up to rounding.
 */
static double student_central_integer(double t, unsigned df)
{
	double theta = atan(t / sqrt((double)df));
	double c2 = cos(theta) * cos(theta), s = sin(theta), term, sum;
	unsigned k;

	if (df % 2) {
		if (df == 1)
			return 2 * theta / M_PI;
		/* cos + (2/3) cos^3 + (2*4)/(3*5) cos^5 + ... up to cos^(df-2) */
		term = cos(theta);
		sum = term;
		for (k = 3; k + 2 <= df; k += 2) {
			term *= c2 * (double)(k - 1) / (double)k;
			sum += term;
		}
		return 2 / M_PI * (theta + s * sum);
	}
	/* 1 + (1/2) cos^2 + (1*3)/(2*4) cos^4 + ... up to cos^(df-2) */
	term = 1;
	sum = 1;
	for (k = 2; k + 2 <= df; k += 2) {
		term *= c2 * (double)(k - 1) / (double)k;
		sum += term;
	}
	return s * sum;
}

/*
 * The regularized incomplete beta I_x(a, b) by its continued fraction
 * (modified Lentz), for df that are not whole numbers (Welch's).
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
	double central;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (df == floor(df) && df <= 1e6)
		central = student_central_integer(fabs(t), (unsigned)df);
	else
		central = 1 - incomplete_beta(df / (df + t * t), df / 2, 0.5);
	return t < 0 ? (1 - central) / 2 : (1 + central) / 2;
}

double stats_student_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -stats_student_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (stats_student_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	/* bisection to the last bit: the CDF is monotone, nothing to tune */
	for (int i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (stats_student_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}
