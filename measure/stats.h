/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - descriptive statistics of benchmark samples.
 *
 * Everything works on plain arrays of doubles. Functions whose name ends
 * in _sorted need their input sorted ascending (stats_sort()); the others
 * take any order and do not modify their input.
 *
 * Inference works on repetitions, not samples: stats_repetition_medians()
 * makes one value per repetition, and the intervals are Student's t over
 * those (stats_mean_interval(), stats_welch_interval()).
 *
 * Conventions:
 *  - quantiles interpolate linearly between order statistics
 *    (Hyndman & Fan type 7, the default of R and of most spreadsheets);
 *  - stddev is the sample standard deviation (divisor n - 1), 0 for n < 2;
 *  - MAD is the raw median absolute deviation (not scaled by 1.4826);
 *  - an outlier is a sample whose modified Z-score
 *    0.6745 * |x - median| / MAD exceeds STATS_OUTLIER_Z (Iglewicz and
 *    Hoaglin); when MAD is 0 no sample is an outlier;
 *  - random numbers (the run's order) come from a xoshiro256**
 *    generator seeded through splitmix64: a seed gives one order.
 */
#ifndef SMAPBENCH_STATS_H
#define SMAPBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_OUTLIER_Z			3.5
#define STATS_CI_LEVEL			0.95
#define STATS_DEFAULT_SEED		0x5eedULL

/* Seeded pseudo-random numbers: xoshiro256** with a splitmix64 seed. */
struct stats_rng {
	uint64_t s[4];
};

void stats_rng_seed(struct stats_rng *rng, uint64_t seed);
/*
 * A fresh seed for a run's order (getrandom, else the clock and the
 * process id): runs differ in their order unless --seed fixes it.
 */
uint64_t stats_random_seed(void);
uint64_t stats_rng_next(struct stats_rng *rng);
/* Uniform integer in [0, bound), without modulo bias; bound > 0. */
uint64_t stats_rng_below(struct stats_rng *rng, uint64_t bound);
/* Uniform double in [0, 1). */
double stats_rng_double(struct stats_rng *rng);
/* Fisher-Yates shuffle of n indices. */
void stats_shuffle(struct stats_rng *rng, size_t *index, size_t n);

/* Sort ascending in place. */
void stats_sort(double *v, size_t n);
/* Type 7 quantile, q in [0, 1]; NAN for n == 0. */
double stats_quantile_sorted(const double *sorted, size_t n, double q);
double stats_median_sorted(const double *sorted, size_t n);
/*
 * Median of data in any order (copies what is not sorted already; NAN
 * on n == 0 or no memory).
 */
double stats_median(const double *v, size_t n);
double stats_mean(const double *v, size_t n);
double stats_stddev(const double *v, size_t n);
/* Raw MAD about the median of the sorted data. */
double stats_mad_sorted(const double *sorted, size_t n);
/* Samples with modified Z-score above z (sorted input, its median, MAD). */
size_t stats_outliers_sorted(const double *sorted, size_t n, double z);
/* The spread of a set of samples: what they look like, not an inference. */
struct stats_summary {
	size_t n;
	double min, max, mean, stddev, median, mad, cv, p5, p95;
	size_t outliers;
};

/*
 * Student's t distribution with df degrees of freedom (whole or not, as
 * Welch's are): its CDF from the regularized incomplete beta function,
 * small tails to full relative precision; its quantile by bisection on
 * the CDF to the last bit. NAN outside 0 < p < 1 or for df <= 0.
 */
double stats_student_cdf(double t, double df);
double stats_student_quantile(double p, double df);
/*
 * P(F > f) for Snedecor's F on df1 and df2 degrees of freedom (df2
 * beyond 1e4 taken as 1e4); NAN for df <= 0.
 */
double stats_f_upper(double f, double df1, double df2);

/* All of the above at once (z = STATS_OUTLIER_Z). 0 or -1. */
int stats_summarize(const double *v, size_t n, struct stats_summary *out);

/*
 * Whether (rep[i], v[i]) ascend: grouped by repetition in ascending
 * order, each one's values ascending (rep NULL: v ascends).
 */
int stats_sorted_by_repetition(const double *v, const uint32_t *rep,
			       size_t n);
/*
 * Sort v and rep together in place into that order (rep NULL: v alone).
 * A heapsort: O(n log n) whatever the input, and no memory besides the
 * arrays (qsort may take a buffer as large as them).
 */
void stats_sort_by_repetition(double *v, uint32_t *rep, size_t n);

/*
 * The median of each repetition's values, v[i] being of repetition
 * rep[i] (NULL: every value a repetition of its own), in ascending order
 * of repetition, into medians and ids (room for one per repetition, at
 * most n; ids may be NULL). Returns the number of
 * repetitions; 0 for n == 0, (size_t)-1 on no memory. Input sorted as
 * stats_sorted_by_repetition() says is read where it is; other input is
 * copied and sorted (24 bytes a value).
 */
size_t stats_repetition_medians(const double *v, const uint32_t *rep,
				size_t n, double *medians, uint32_t *ids);

/*
 * An estimate with its interval at some level: a mean, or a difference
 * of two means, of independent values (repetition medians, or paired
 * differences of them). low and high are NAN with fewer than 2 values
 * a side; values without spread give a zero-width interval.
 */
struct stats_interval {
	double estimate;
	double low, high;
	double se;		/* standard error of the estimate */
	double df;		/* degrees of freedom of its t */
	double p;		/* two-sided p of estimate = 0 (Welch only) */
	size_t n;		/* values (both sides for Welch) */
};

/*
 * The mean of n values and its Student t interval at level:
 * mean -+ t((1 + level) / 2, n - 1) sd / sqrt(n). Exact for normal
 * values, whatever their spread, and close for means of few medians
 * (docs/interpreting.md gives the coverage the simulation measures).
 * 0, or -1 on n == 0 (estimate NAN).
 */
int stats_mean_interval(const double *v, size_t n, double level,
			struct stats_interval *out);

/*
 * mean(b) - mean(a) with Welch's interval: se = sqrt(sa^2 / na +
 * sb^2 / nb) and the Welch-Satterthwaite degrees of freedom, so unequal
 * spreads do not borrow precision from each other; p is Welch's two-sided
 * t test of no difference. 0, or -1 when a side is empty.
 */
int stats_welch_interval(const double *a, size_t na, const double *b,
			 size_t nb, double level, struct stats_interval *out);

/*
 * The same with one more independent variance in the difference,
 * extra_var, estimated with extra_df degrees of freedom (INFINITY: a
 * value taken as known): se = sqrt(sa^2 / na + sb^2 / nb + extra_var),
 * Satterthwaite degrees of freedom over the three terms. Two boots'
 * effects are such a term: 2 sigma_u^2 (analysis/compare_stats.h).
 */
int stats_welch_extra_interval(const double *a, size_t na, const double *b,
			       size_t nb, double extra_var, double extra_df,
			       double level, struct stats_interval *out);

/*
 * The digamma function and its derivative (trigamma), x > 0, and the
 * inverse of trigamma, y > 0: what the moderation below needs. NAN
 * outside their domains.
 */
double stats_digamma(double x);
double stats_trigamma(double x);
double stats_trigamma_inverse(double y);

/*
 * Variances moderated toward a common one, by empirical Bayes (Smyth
 * 2004, limma's squeezeVar): n sample variances var[i], each on df[i]
 * degrees of freedom, are taken as drawn around a prior, a scaled
 * inverse chi-square of var on df degrees of freedom, fitted to them by
 * the moments of their logarithms. Each row's moderated variance is
 * (df var + df_i var_i) / (df + df_i) on df + df_i degrees of freedom:
 * a row near the others borrows their degrees of freedom, a row far
 * from them (a spread of log variances wider than chance makes df small)
 * keeps its own. df is INFINITY when the rows differ by no more than
 * chance, and never above the sum of the rows' df.
 */
struct stats_prior {
	double var, df;
};

/*
 * Fit the prior over the entries with df[i] > 0 and a finite var[i] >=
 * 0. 0; 1 with fewer than two such entries (var NAN, df 0); -1 on no
 * memory.
 */
int stats_variance_prior(const double *var, const double *df, size_t n,
			 struct stats_prior *out);
/* A variance on df degrees of freedom moderated toward the prior. */
double stats_moderated_variance(double var, double df,
				const struct stats_prior *prior);
/*
 * Whether a variance on df degrees of freedom is not one of the prior's:
 * above it by more than an F on df and the prior's df lets it be, at
 * STATS_OUTLIER_P. Such a row keeps its own variance and df (as limma's
 * robust moderation gives an outlying row no prior df): a row with a
 * mode of its own is not shrunk toward the quiet rows.
 */
#define STATS_OUTLIER_P	0.01
int stats_variance_outlier(double var, double df, const struct stats_prior *prior);

#endif /* SMAPBENCH_STATS_H */
