/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - is run B faster, slower or the same as run A?
 *
 * Per benchmark: both medians, their difference (B - A) in the unit and
 * in nanoseconds, the relative difference, a percentile-bootstrap
 * confidence interval of the difference of medians (level 1 - alpha),
 * a two-sided Mann-Whitney U test, and a verdict:
 *
 *   faster  B's median is lower, p < alpha and the CI excludes 0
 *   slower  B's median is higher, p < alpha and the CI excludes 0
 *   same    otherwise (no significant difference, or the CI holds 0)
 *   unknown too few values on a side for either test (fewer than
 *           COMPARE_MIN_VALUES, e.g. a JSON file with one repetition)
 *
 * Mann-Whitney U: U = number of pairs (a, b) with a > b, ties counting
 * one half. Exact two-sided p from the permutation distribution when
 * there are no ties and both samples hold at most COMPARE_EXACT_MAX
 * values; otherwise the normal approximation with tie correction and a
 * continuity correction of 1/2.
 */
#ifndef SMAPBENCH_COMPARE_H
#define SMAPBENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "parallel.h"
#include "rundir.h"

#define COMPARE_DEFAULT_ALPHA	0.05
#define COMPARE_EXACT_MAX	20
#define COMPARE_MIN_VALUES	3
#define COMPARE_DEFAULT_SEED	0x5eedULL

struct compare_mw {
	double u;	/* pairs with a > b, ties one half */
	double z;	/* normal score (0 for the exact test) */
	double p;	/* two-sided p-value */
	int exact;	/* p from the exact distribution */
};

/* Returns 0, or -1 when a side is empty or memory runs out. */
int compare_mann_whitney(const double *a, size_t na, const double *b,
			 size_t nb, struct compare_mw *out);

/*
 * Percentile bootstrap CI, at level, of
 *     scale_b * median(b) - scale_a * median(a)
 * with a and b resampled independently; resamples draws from seed.
 * Returns 0, or -1 when a side is empty or memory runs out.
 */
int compare_bootstrap_diff(const double *a, size_t na, double scale_a,
			   const double *b, size_t nb, double scale_b,
			   unsigned resamples, double level, uint64_t seed,
			   double *low, double *high);

enum compare_verdict {
	COMPARE_SAME,
	COMPARE_FASTER,
	COMPARE_SLOWER,
	COMPARE_UNKNOWN,
};

const char *compare_verdict_name(enum compare_verdict v);

/* One benchmark present in both runs. */
struct compare_row {
	const struct run_bench *a, *b;
	const char *unit;	/* unit of the fields below ("ns" if the runs'
				 * units differed and both convert to ns) */
	size_t na, nb;		/* values the tests used */
	double median_a, median_b;
	double delta;		/* median_b - median_a, in unit */
	double delta_ns;	/* NAN when no conversion is known */
	double relative;	/* delta / median_a */
	double ci_low, ci_high;	/* of delta; NAN when not computed */
	struct compare_mw mw;	/* mw.p NAN when not computed */
	enum compare_verdict verdict;
	const char *method;	/* "samples", "repetitions" or "medians" */
};

/* Compare the values of one pair; fills everything but a, b, unit. */
int compare_values(const double *a, size_t na, const double *b, size_t nb,
		   double alpha, uint64_t seed, struct compare_row *row);

struct compare_result {
	struct compare_row *rows;	/* in run A's order */
	size_t count;
	const char **only_a, **only_b;	/* names in one run only */
	size_t only_a_count, only_b_count;
};

/* Pair A's and B's benchmarks by name and compare each pair. */
int compare_runs(const struct run_dir *a, const struct run_dir *b,
		 double alpha, uint64_t seed, struct compare_result *out);
/*
 * The same on threads threads (0: every CPU usable), calling progress
 * (if not NULL) from the calling thread as pairs are done. The result
 * does not depend on threads: each pair is seeded with seed.
 */
int compare_runs_with(const struct run_dir *a, const struct run_dir *b,
		      double alpha, uint64_t seed, unsigned threads,
		      parallel_progress_fn progress, void *progress_arg,
		      struct compare_result *out);
void compare_result_free(struct compare_result *res);

/*
 * Context check before comparing. Fields are sorted into three kinds:
 * blocking (another machine, CPU, microcode, kernel, counter or kind of
 * virtualisation: the numbers would not be comparable), expected (differ
 * between a SMAP and a SMAP-off boot by design: command line, SMAP state,
 * date, ...) and informational (everything else, e.g. governor).
 */
enum compare_field_kind {
	COMPARE_FIELD_BLOCKING,
	COMPARE_FIELD_EXPECTED,
	COMPARE_FIELD_INFO,
};

struct compare_field_diff {
	const char *key;
	const char *a, *b;	/* "" when the run did not record it */
	enum compare_field_kind kind;
};

enum compare_field_kind compare_field_kind(const char *key);
/* The blocking fields, NULL-terminated. */
extern const char *const compare_blocking_fields[];

/*
 * Lists every context field whose value differs (or that only one run
 * has) into a malloc'ed array *diffs. Returns the number of blocking
 * differences; -1 on no memory. A field missing from one run only
 * (e.g. a JSON file's short context) never blocks.
 */
int compare_contexts(const struct run_dir *a, const struct run_dir *b,
		     struct compare_field_diff **diffs, size_t *count);

#endif /* SMAPBENCH_COMPARE_H */
