/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - descriptive statistics of benchmark samples.
 *
 * Everything works on plain arrays of doubles. Functions whose name ends
 * in _sorted need their input sorted ascending (stats_sort()); the others
 * take any order and do not modify their input.
 *
 * The primitives (sorting, quantiles, seeded resampling) are meant for
 * reuse by comparison code: a bootstrap CI of a difference of medians
 * needs stats_rng_*() and stats_resample().
 *
 * Conventions:
 *  - quantiles interpolate linearly between order statistics
 *    (Hyndman & Fan type 7, the default of R and of most spreadsheets);
 *  - stddev is the sample standard deviation (divisor n - 1), 0 for n < 2;
 *  - MAD is the raw median absolute deviation (not scaled by 1.4826);
 *  - an outlier is a sample whose modified Z-score
 *    0.6745 * |x - median| / MAD exceeds STATS_OUTLIER_Z (Iglewicz and
 *    Hoaglin); when MAD is 0 no sample is an outlier;
 *  - the bootstrap CI of the median is the percentile interval of
 *    STATS_BOOTSTRAP_RESAMPLES medians of resamples drawn with
 *    replacement, from a xoshiro256** generator seeded through
 *    splitmix64, so a given seed always gives the same interval.
 */
#ifndef SMAPBENCH_STATS_H
#define SMAPBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_OUTLIER_Z			3.5
#define STATS_BOOTSTRAP_RESAMPLES	2000
#define STATS_CI_LEVEL			0.95
#define STATS_DEFAULT_SEED		0x5eedULL

/* Seeded pseudo-random numbers: xoshiro256** with a splitmix64 seed. */
struct stats_rng {
	uint64_t s[4];
};

void stats_rng_seed(struct stats_rng *rng, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *rng);
/* Uniform integer in [0, bound), without modulo bias; bound > 0. */
uint64_t stats_rng_below(struct stats_rng *rng, uint64_t bound);
/*
 * The same draws for a bound used many times, with its two divisions
 * done once: x % bound by a multiply and at most two corrections.
 */
struct stats_bound {
	uint64_t bound;
	uint64_t limit;		/* draws at or above are rejected */
	uint64_t inverse;	/* floor((2^64 - 1) / bound) */
};

void stats_bound_init(struct stats_bound *b, uint64_t bound);
uint64_t stats_rng_below_bound(struct stats_rng *rng,
			       const struct stats_bound *b);
/* Uniform double in [0, 1). */
double stats_rng_double(struct stats_rng *rng);
/* Fisher-Yates shuffle of n indices. */
void stats_shuffle(struct stats_rng *rng, size_t *index, size_t n);

/* Sort ascending in place. */
void stats_sort(double *v, size_t n);
/* Type 7 quantile, q in [0, 1]; NAN for n == 0. */
double stats_quantile_sorted(const double *sorted, size_t n, double q);
double stats_median_sorted(const double *sorted, size_t n);
/* Median of unsorted data (copies; returns NAN on n == 0 or no memory). */
double stats_median(const double *v, size_t n);
double stats_mean(const double *v, size_t n);
double stats_stddev(const double *v, size_t n);
/* Raw MAD about the median of the sorted data. */
double stats_mad_sorted(const double *sorted, size_t n);
/* Samples with modified Z-score above z (sorted input, its median, MAD). */
size_t stats_outliers_sorted(const double *sorted, size_t n, double z);
/* Draw n values from v with replacement into out. */
void stats_resample(struct stats_rng *rng, const double *v, size_t n,
		    double *out);
/*
 * Medians of bootstrap resamples, fast: stats_resampler_median() draws n
 * values from v with replacement through exactly the generator calls
 * stats_resample() makes, and returns the median stats_median_sorted()
 * would give for the sorted draw, bit for bit, without sorting it. Only
 * the draws in a band of v's order statistics around the middle are
 * kept, counted per position of the band (which holds the resample's
 * middle but for a chance of about 1e-4; then the draw is repeated in
 * full from the saved generator state). O(n) per resample instead of
 * O(n log n).
 */
struct stats_resampler {
	const double *values;
	size_t n;
	size_t middle;		/* index of the lower middle order statistic */
	double frac;		/* type 7 weight of the upper one */
	size_t low, width;	/* the band: these positions of values sorted */
	unsigned char *where;	/* per value, twice over: 1 below the band, 2 in it,
				 * 0 above */
	uint32_t *offset;	/* per value: its position in the band */
	double *band;		/* the band's values, ascending */
	uint32_t *count;	/* per band position: draws there */
	uint32_t *kept_index;	/* n slots: draws in the band */
	double *kept;		/* n slots: a full draw, when one is needed */
	struct stats_bound draw;	/* indices 0 .. n - 1 */
	size_t redraws;		/* resamples whose middle fell outside the band */
};

/* 0, or -1 on n == 0, n > 2^31 - 1 or no memory. v must outlive it. */
int stats_resampler_init(struct stats_resampler *r, const double *v,
			 size_t n);
/* The same with a band of middle -+ halfwidth order statistics (tests). */
int stats_resampler_init_band(struct stats_resampler *r, const double *v,
			      size_t n, size_t halfwidth);
double stats_resampler_median(struct stats_resampler *r,
			      struct stats_rng *rng);
void stats_resampler_free(struct stats_resampler *r);
/*
 * Percentile bootstrap CI of the median: resamples medians at confidence
 * level (e.g. 0.95). Returns 0, or -1 on n == 0 or no memory.
 */
int stats_bootstrap_median_ci(const double *v, size_t n, unsigned resamples,
			      double level, uint64_t seed,
			      double *low, double *high);

struct stats_summary {
	size_t n;
	double min, max, mean, stddev, median, mad, cv, p5, p95;
	double ci_low, ci_high;
	size_t outliers;
};

/*
 * Student's t distribution with df degrees of freedom: its CDF, exact for
 * whole df (a closed form), else from the incomplete beta function; and
 * its quantile, by bisection on the CDF to the last bit. NAN outside
 * 0 < p < 1 or for df <= 0.
 */
double stats_student_cdf(double t, double df);
double stats_student_quantile(double p, double df);

/* All of the above at once (default resamples, level, z). 0 or -1. */
int stats_summarize(const double *v, size_t n, uint64_t seed,
		    struct stats_summary *out);

#endif /* SMAPBENCH_STATS_H */
