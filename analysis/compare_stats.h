/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_stats.h - is run B faster, slower or the same as run A? The
 * statistics of two runs compared.
 *
 * Log time = mu + delta SMAP + u(boot) + e(repetition). The repetition
 * runs in a process of its own with its own set-up (measure/runner.h),
 * so the spread between repetitions holds what differs from one
 * invocation to the next; what differs from one boot to the next
 * (memory placement, KASLR, the core clock, the host) is the same for
 * every repetition of a run: it is sigma_u, which no spread within a run
 * shows. With one boot a side, u is confounded with what the boots were
 * booted for; only its variance can be put in the interval. Per
 * benchmark:
 *
 *   center    per side, the mean of the repetition medians (the median
 *             makes each repetition robust to an odd sample, the mean
 *             weighs every repetition the same)
 *   delta     center_b - center_a, in the unit and in ns, and relative
 *             to center_a
 *   CI        on the log scale: d = mean log median(B) - mean log
 *             median(A), se^2 = s_A^2 / r_A + s_B^2 / r_B + 2 sigma_u^2,
 *             Satterthwaite degrees of freedom over the three terms (the
 *             last with the calibration's df, none when assumed); the
 *             interval exp(d -+ t se) - 1 is relative_low..relative_high,
 *             and times center_a ci_low..ci_high. Rows with a value <= 0
 *             (differences) are compared on the linear scale, with
 *             sigma_u times |center_a| as the boot term
 *   p         t test of d = 0 with that se and df
 *   q         Benjamini-Hochberg adjusted p over every row with a p
 *
 * sigma_u comes from a calibration (analysis/calibrate.h: same-state
 * runs of two or more boots), or is assumed COMPARE_DEFAULT_BOOT_SD.
 *
 * Verdicts (compare_assign_verdicts()), with M = log(1 + margin), the
 * relevance threshold below which a difference is not worth a verdict:
 *
 *   faster/slower  the whole 1 - alpha CI lies beyond -M or +M, and
 *                  q <= alpha: real, and larger than the threshold
 *   same           an equivalence test (two one-sided t tests at alpha / 2
 *                  each: the 1 - alpha CI within +-M), with at
 *                  least COMPARE_MIN_SAME_REPETITIONS repetitions a side
 *                  and sigma_u estimated: never with sigma_u assumed,
 *                  since an assumption cannot show two boots equal
 *   inconclusive   neither: the data cannot tell
 *   unknown        a side has fewer than COMPARE_MIN_REPETITIONS
 *                  repetitions (or no values at all)
 *
 * docs/interpreting.md gives the simulation behind these choices
 * (tests/unit/test_simulation.c).
 */
#ifndef SMAPBENCH_COMPARE_STATS_H
#define SMAPBENCH_COMPARE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/parallel.h"
#include "measure/stats.h"
#include "rundata/rundir.h"

#define COMPARE_DEFAULT_ALPHA	0.05
#define COMPARE_DEFAULT_MARGIN	0.02	/* of center_a: the relevance threshold */
#define COMPARE_MIN_REPETITIONS	3
/*
 * "same" promises that a difference beyond the margin is missed at most
 * alpha / 2 of the time; the simulation shows where the t interval keeps
 * that promise (docs/interpreting.md).
 */
#define COMPARE_MIN_SAME_REPETITIONS	3

/*
 * sigma_u assumed without a calibration, on the log scale: 2%. Between
 * back-to-back runs of one boot of an idle AMD host, 3 of 13 pairs moved
 * most rows one way by 4.3-7.5%, a pair-difference sd near 2.9%, so
 * sigma_u near 2%; one 100 MHz turbo bin at 4.19 GHz is 2.4%. Two boots
 * differ by at least what two runs of one boot do.
 */
#define COMPARE_DEFAULT_BOOT_SD	0.02

/* Where sigma_u came from. */
enum compare_boot_source {
	COMPARE_BOOT_ASSUMED,		/* COMPARE_DEFAULT_BOOT_SD */
	COMPARE_BOOT_CALIBRATION,	/* a calibration file */
	COMPARE_BOOT_RUNS,		/* the runs of a side, two or more boots */
};

/* What a comparison was asked for; recorded with its result. */
struct compare_settings {
	double alpha;		/* CI level 1 - alpha, FDR level alpha */
	double margin;		/* the relevance threshold, a fraction of center_a */
	double boot_sd;		/* sigma_u, between boots, log scale */
	double boot_df;		/* its degrees of freedom; INFINITY assumed */
	double boot_common_sd;	/* the part every row shares; 0 when unknown */
	enum compare_boot_source boot_source;
	const char *calibration;	/* the file boot_sd came from, or NULL */
};

/* Whether sigma_u was estimated (so that `same` can be called). */
int compare_calibrated(const struct compare_settings *set);

/*
 * An estimate of sigma_u replaces the assumption only with this many
 * degrees of freedom: from a few boots it can come out near 0 by chance
 * (it is floored there), and an interval would then hold no boot
 * variance at all.
 */
#define COMPARE_MIN_BOOT_DF	10

/*
 * Use an estimate of sigma_u (sd, on df degrees of freedom, common the
 * part every row shares) from source in set: 0; or 1 with set untouched
 * when df < COMPARE_MIN_BOOT_DF.
 */
int compare_use_boot_estimate(struct compare_settings *set, double sd,
			      double df, double common,
			      enum compare_boot_source source);

/* The defaults above. */
struct compare_settings compare_default_settings(void);

/*
 * Values by repetition: the median of repetition id[g] is medians[g].
 * compare_group() builds one from values and a repetition index per
 * value (NULL: each value its own repetition).
 */
struct compare_groups {
	size_t count;		/* repetitions */
	double *medians;	/* per repetition */
	uint32_t *id;		/* per repetition, ascending */
};

int compare_group(const double *values, const uint32_t *repetition,
		  size_t n, struct compare_groups *out);
void compare_groups_free(struct compare_groups *g);
/* Mean of the repetition medians. */
double compare_center(const struct compare_groups *g);

/*
 * A run's figure of one benchmark on the log scale: the mean of the logs
 * of its repetition medians, their s^2 / r, r, and the center (mean of the
 * medians). 1 with *f filled; 0 when the benchmark is missing, has fewer
 * than min_repetitions repetitions, or a median at or below 0.
 */
struct compare_log_figure {
	double mean, var, reps, center;
};

int compare_log_figure_of(const struct run_bench *b, size_t min_repetitions,
			  struct compare_log_figure *f);

/*
 * One side's center with its t interval at level (t with count - 1
 * degrees of freedom): for a row that is itself a difference, e.g. the
 * bpf overhead. 0, or -1 with no values.
 */
int compare_center_interval(const struct compare_groups *g, double level,
			    struct stats_interval *out);

/*
 * A within-run figure: per repetition both of a and b ran in, the paired
 * difference scale_b * median(b) - scale_a * median(a); their mean with
 * its t interval over those repetitions (t(r - 1)). Repetitions only one
 * side has are left out. 0, or -1 on no memory or no common repetition.
 */
int compare_paired_interval(const struct compare_groups *a, double scale_a,
			    const struct compare_groups *b, double scale_b,
			    double level, struct stats_interval *out);

/*
 * The same for two benchmarks of one run, from their values: a
 * within-run figure (inline - nopad, kapi - batched) at 1 -
 * COMPARE_DEFAULT_ALPHA, its interval NAN under COMPARE_MIN_REPETITIONS
 * repetitions in common. 0, or -1 on no memory or no repetition in
 * common.
 */
int compare_within_run(const struct run_bench *a, double scale_a,
		       const struct run_bench *b, double scale_b,
		       struct stats_interval *out);

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
	double relative_low, relative_high;	/* of delta / center_a */
	double se;		/* of the log ratio (linear: of delta / |center_a|) */
	double log_ratio;	/* what se is of: mean log B - mean log A (linear:
				 * delta / |center_a|) */
	int linear;		/* compared on the linear scale: a value <= 0 */
	double df;		/* Satterthwaite's degrees of freedom; NAN with the CI */
	double p;		/* t test of no difference; NAN when not computed */
	double q;		/* BH q-value over the rows; NAN with p */
	enum compare_verdict verdict;
	const char *method;	/* "samples", "repetitions" or "medians" */
};

/*
 * Compare the values of one pair (repetition per value as in
 * compare_group()); fills everything but a, b, unit, delta_ns, and sets
 * q = p and the verdict as for a single row.
 */
int compare_values(const double *a, const uint32_t *rep_a, size_t na,
		   const double *b, const uint32_t *rep_b, size_t nb,
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

/* The catalogue's roles: KEY_COMPARISON blocks, KEY_DIFFERS is expected. */
enum compare_field_kind compare_field_kind(const char *key);

/*
 * Lists every context field whose value differs (or that only one run
 * has) into a malloc'ed array *diffs. Returns the number of blocking
 * differences; -1 on no memory. A field missing from one run only
 * (e.g. a JSON file's short context) never blocks.
 */
int compare_contexts(const struct run_dir *a, const struct run_dir *b,
		     struct compare_field_diff **diffs, size_t *count);

#endif /* SMAPBENCH_COMPARE_STATS_H */
