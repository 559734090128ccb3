// SPDX-License-Identifier: GPL-2.0
/* stats.c - descriptive statistics; conventions in stats.h. */
#include "stats.h"

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

struct ranked {
	double value;
	size_t index;
};

static int compare_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->value != y->value)
		return (x->value > y->value) - (x->value < y->value);
	return (x->index > y->index) - (x->index < y->index);
}

double stats_rank(const double *v, size_t n, double *ranks)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	double ties = 0;

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, n, sizeof(*r), compare_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && r[j].value == r[i].value)
			j++;
		/* Positions i..j-1 hold ranks i+1..j: their average. */
		double avg = (double)(i + 1 + j) / 2.0;
		double t = (double)(j - i);

		for (size_t k = i; k < j; k++)
			ranks[r[k].index] = avg;
		ties += t * t * t - t;
		i = j;
	}
	free(r);
	return ties;
}

void stats_resample(struct stats_rng *rng, const double *v, size_t n,
		    double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = v[stats_rng_below(rng, n)];
}

int stats_bootstrap_median_ci(const double *v, size_t n, unsigned resamples,
			      double level, uint64_t seed,
			      double *low, double *high)
{
	struct stats_rng rng;
	double *draw, *medians;

	if (n == 0 || resamples == 0)
		return -1;
	draw = malloc(n * sizeof(*draw));
	medians = malloc(resamples * sizeof(*medians));
	if (!draw || !medians) {
		free(draw);
		free(medians);
		return -1;
	}
	stats_rng_seed(&rng, seed);
	for (unsigned r = 0; r < resamples; r++) {
		stats_resample(&rng, v, n, draw);
		stats_sort(draw, n);
		medians[r] = stats_median_sorted(draw, n);
	}
	stats_sort(medians, resamples);
	*low = stats_quantile_sorted(medians, resamples, (1 - level) / 2);
	*high = stats_quantile_sorted(medians, resamples, 1 - (1 - level) / 2);
	free(draw);
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
