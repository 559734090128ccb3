/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - is run B faster, slower or the same as run A?
 *
 * The unit of inference is the repetition: each one has its own sizing,
 * warm-up and place in the interleaved order, and its samples share
 * whatever state it ran in (frequency, cache and page placement), so
 * samples of one repetition are not independent draws. Per benchmark:
 *
 *   center    per side, the mean of the repetition medians: the median
 *             makes each repetition robust to an odd sample, the mean
 *             weighs every repetition the same, however many samples
 *   delta     center_b - center_a, in the unit and in ns, and relative
 *             to center_a
 *   CI        of delta, at level 1 - alpha, from a hierarchical
 *             bootstrap (compare_hierarchical_ci())
 *   p         two-sided permutation test of delta on the repetition
 *             medians, exact when the splits are few enough
 *   q         Benjamini-Hochberg adjusted p over every row with a p
 *
 * Verdicts (compare_assign_verdicts()):
 *
 *   faster/slower  the CI excludes 0 and q <= alpha
 *   same           the whole CI lies within +-margin * |center_a|
 *   inconclusive   neither: the data cannot tell
 *   unknown        a side has fewer than COMPARE_MIN_REPETITIONS
 *                  repetitions (or no values at all)
 *
 * A permutation test over r + r repetitions cannot give p below
 * 2 / C(2r, r): 0.1 for 3 + 3, 0.029 for 4 + 4, 0.0079 for 5 + 5, so
 * faster/slower needs at least 4 repetitions a side at alpha 0.05.
 */
#ifndef SMAPBENCH_COMPARE_H
#define SMAPBENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/parallel.h"
#include "rundata/rundir.h"

#define COMPARE_DEFAULT_ALPHA	0.05
#define COMPARE_DEFAULT_MARGIN	0.02	/* of center_a, for "same" */
#define COMPARE_DEFAULT_RESAMPLES 10000	/* outer (repetition) resamples */
#define COMPARE_MIN_RESAMPLES	1000	/* fewer: the tails are a few draws */
#define COMPARE_INNER_RESAMPLES	256	/* per repetition, of its samples */
#define COMPARE_EXACT_SPLITS	20000	/* more: Monte-Carlo permutations */
#define COMPARE_PERMUTATIONS	20000
#define COMPARE_MIN_REPETITIONS	3
#define COMPARE_DEFAULT_SEED	0x5eedULL
#define COMPARE_MIN_VALUES	3	/* for the within-run bootstrap CIs */

/* What a comparison was asked for; recorded with its result. */
struct compare_settings {
	double alpha;		/* CI level 1 - alpha, FDR level alpha */
	double margin;		/* equivalence margin, a fraction of center_a */
	unsigned resamples;	/* outer bootstrap resamples */
	uint64_t seed;
};

/* The defaults above. */
struct compare_settings compare_default_settings(void);

/*
 * Percentile bootstrap CI, at level, of
 *     scale_b * median(b) - scale_a * median(a)
 * with a and b resampled independently as if every value were
 * independent; resamples draws from seed. For within-run tables.
 * Returns 0, or -1 when a side is empty or memory runs out.
 */
int compare_bootstrap_diff(const double *a, size_t na, double scale_a,
			   const double *b, size_t nb, double scale_b,
			   unsigned resamples, double level, uint64_t seed,
			   double *low, double *high);

/*
 * Values grouped by repetition: group g holds values[start[g] ..
 * start[g + 1]). compare_group() builds one from values and a
 * repetition index per value (NULL: each value its own repetition).
 */
struct compare_groups {
	double *values;		/* reordered by repetition */
	size_t *start;		/* count + 1 entries */
	size_t count;		/* repetitions */
	double *medians;	/* per repetition */
};

int compare_group(const double *values, const unsigned long *repetition,
		  size_t n, struct compare_groups *out);
void compare_groups_free(struct compare_groups *g);
/* Mean of the repetition medians. */
double compare_center(const struct compare_groups *g);

/*
 * Hierarchical bootstrap CI of center(b) - center(a), at level: each
 * resample draws a's and b's repetitions with replacement and, for each
 * drawn repetition, a median of its samples drawn with replacement
 * (from COMPARE_INNER_RESAMPLES such medians made beforehand, so a
 * resample costs O(repetitions), not O(samples)). With few repetitions
 * the percentile interval is too narrow (the bootstrap variance of a
 * mean of r clusters is (r - 1) / r of the true one, and its tails are
 * normal where Student's t holds), so the interval is Hesterberg's
 * expanded percentile interval: the quantiles at alpha' / 2 and
 * 1 - alpha' / 2, with z(alpha' / 2) = sqrt(r / (r - 1)) t(alpha / 2,
 * ra + rb - 2), r the smaller repetition count. Both sides need 2 or
 * more repetitions. Returns 0, or -1 on no memory.
 */
int compare_hierarchical_ci(const struct compare_groups *a,
			    const struct compare_groups *b,
			    unsigned resamples, double level, uint64_t seed,
			    double *low, double *high);
/*
 * The same interval for one side's center alone (a single row that is
 * itself a difference, e.g. bpf overhead): t with r - 1 degrees of
 * freedom. Needs 2 or more repetitions; 0, or -1 on no memory.
 */
int compare_center_ci(const struct compare_groups *g, unsigned resamples,
		      double level, uint64_t seed, double *low, double *high);

/*
 * Two-sided permutation test of mean(b) - mean(a) on per-repetition
 * values: every split of the ra + rb values into ra and rb when there
 * are at most COMPARE_EXACT_SPLITS (exact = 1), else
 * COMPARE_PERMUTATIONS random ones, p = (1 + hits) / (1 + draws).
 */
double compare_permutation_p(const double *a, size_t na, const double *b,
			     size_t nb, uint64_t seed, int *exact);

/* Benjamini-Hochberg q-values of p[0..n), NAN entries skipped (NAN). */
int compare_bh_qvalues(const double *p, size_t n, double *q);

enum compare_verdict {
	COMPARE_SAME,
	COMPARE_FASTER,
	COMPARE_SLOWER,
	COMPARE_INCONCLUSIVE,
	COMPARE_UNKNOWN,
	COMPARE_VERDICTS
};

const char *compare_verdict_name(enum compare_verdict v);

/* One benchmark present in both runs. */
struct compare_row {
	const struct run_bench *a, *b;
	const char *unit;	/* unit of the fields below ("ns" if the runs'
				 * units differed and both convert to ns) */
	size_t na, nb;		/* values (samples) the statistics used */
	size_t reps_a, reps_b;	/* repetitions among them */
	double median_a, median_b;	/* of all values, as the runs report */
	double center_a, center_b;	/* mean of repetition medians */
	double delta;		/* center_b - center_a, in unit */
	double delta_ns;	/* NAN when no conversion is known */
	double relative;	/* delta / center_a */
	double ci_low, ci_high;	/* of delta; NAN when not computed */
	double p;		/* permutation test; NAN when not computed */
	int exact;		/* p from every split */
	double q;		/* BH q-value over the rows; NAN with p */
	enum compare_verdict verdict;
	const char *method;	/* "samples", "repetitions" or "medians" */
};

/*
 * Compare the values of one pair (repetition per value as in
 * compare_group()); fills everything but a, b, unit, delta_ns, and sets
 * q = p and the verdict as for a single row.
 */
int compare_values(const double *a, const unsigned long *rep_a, size_t na,
		   const double *b, const unsigned long *rep_b, size_t nb,
		   const struct compare_settings *set, struct compare_row *row);

/* q-values over the rows, then each row's verdict. */
int compare_assign_verdicts(struct compare_row *rows, size_t count,
			    const struct compare_settings *set);

struct compare_result {
	struct compare_row *rows;	/* in run A's order */
	size_t count;
	const char **only_a, **only_b;	/* names in one run only */
	size_t only_a_count, only_b_count;
};

/* Pair A's and B's benchmarks by name and compare each pair. */
int compare_runs(const struct run_dir *a, const struct run_dir *b,
		 const struct compare_settings *set, struct compare_result *out);
/*
 * The same on threads threads (0: every CPU usable), calling progress
 * (if not NULL) from the calling thread as pairs are done. The result
 * does not depend on threads: each pair is seeded with the seed.
 */
int compare_runs_with(const struct run_dir *a, const struct run_dir *b,
		      const struct compare_settings *set, unsigned threads,
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
