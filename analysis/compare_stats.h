/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_stats.h - is run B faster, slower or the same as run A? The
 * statistics of two runs compared.
 *
 * Log time = mu + delta SMAP + c(boot) + v(boot, row) + e(repetition).
 * The repetition runs in a process of its own with its own set-up
 * (measure/runner.h), so the spread between repetitions holds much of
 * what differs from one invocation to the next; what differs from one
 * boot to the next (memory placement, KASLR, the core clock, the host)
 * is the same for every repetition of a run. Of it, c is a shift every
 * row of a boot shares (the core clock) and v each row's own (a layout
 * mode of that row). With one boot a side they are confounded with what
 * the boots were booted for: only their variance can be put in the
 * interval, and it must be known from elsewhere: a calibration
 * (analysis/calibrate.h), or two or more boots a side, which are their
 * own calibration (analysis/compare_boots.h). Per benchmark:
 *
 *   center    per side, the mean of the repetition medians (the median
 *             makes each repetition robust to an odd sample, the mean
 *             weighs every repetition the same)
 *   delta     center_b - center_a, in the unit and in ns, and relative
 *             to center_a
 *   d         on the log scale: mean log median(B) - mean log median(A)
 *   se^2      its parts, each with its degrees of freedom: the sides'
 *             repetitions s^2 / r (r - 1 df), and for two boots 2 (C +
 *             O_row), C the common part and O_row the row's own (a
 *             calibration's, moderated toward the rows' pooled one);
 *             none when A and B ran in one boot. A boot part estimated
 *             on fewer than COMPARE_MIN_BOOT_DF df that comes out below
 *             the assumption COMPARE_DEFAULT_BOOT_SD is replaced by the
 *             assumption, taken as known: never below the assumption on
 *             little data, and never below the data. Its df are
 *             Satterthwaite's, at most the common part's (a shift every
 *             row shares is one value a boot, whatever the rows).
 *   CI        exp(d -+ t se) - 1 is relative_low..relative_high, and times
 *             center_a ci_low..ci_high. Rows with a value <= 0
 *             (differences) are compared on the linear scale, relative
 *             to |center_a|
 *   p         the test of what a verdict claims: |d| > M, M = log(1 +
 *             margin), two one-sided t tests, the smaller p doubled:
 *             p <= alpha exactly when the 1 - alpha CI lies beyond -M or
 *             +M
 *   q         Benjamini-Hochberg adjusted p over every row with a p
 *
 * Where the rows hold negative controls that are sound
 * (analysis/compare_controls.h), every other row's d, se, CI, p and
 * verdict are net of the controls' change, which the common part C
 * cancels out of.
 *
 * Verdicts (compare_assign_verdicts()):
 *
 *   faster/slower  q <= alpha (so the whole 1 - alpha CI lies beyond -M
 *                  or +M): larger than the threshold, and surviving the
 *                  false-discovery control of the claims made
 *   same           an equivalence test (two one-sided t tests at alpha / 2
 *                  each: the 1 - alpha CI within +-M), with at
 *                  least COMPARE_MIN_SAME_REPETITIONS repetitions a side
 *                  and the boot part estimated: never on the assumption,
 *                  which cannot show two boots alike
 *   inconclusive   neither, or the design withholds verdicts (one boot a
 *                  side and no calibration: how much the boots differ is
 *                  not known; set->withheld says so)
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
 * sigma_u assumed without an estimate, on the log scale: 2%. Between
 * back-to-back runs of one boot of an idle AMD host, 3 of 13 pairs moved
 * most rows one way by 4.3-7.5%, a pair-difference sd near 2.9%, so
 * sigma_u near 2%; one 100 MHz turbo bin at 4.19 GHz is 2.4%. Two boots
 * differ by at least what two runs of one boot do. It is a floor for
 * estimates on few degrees of freedom, and the width of the interval
 * shown where the design withholds its verdicts; other hosts measured
 * 4-6% (docs/interpreting.md), so it decides no verdict alone.
 */
#define COMPARE_DEFAULT_BOOT_SD	0.02

/*
 * An estimate of the boot variance on fewer degrees of freedom than this
 * is not taken below the assumption: from a few boots it comes out near
 * 0 by chance (it is floored there), and Satterthwaite's df would then
 * trust it. An estimate above the assumption is used whatever its df,
 * with a t on them.
 */
#define COMPARE_MIN_BOOT_DF	10

/* Where the boot variance came from. */
enum compare_boot_source {
	COMPARE_BOOT_ASSUMED,		/* COMPARE_DEFAULT_BOOT_SD */
	COMPARE_BOOT_CALIBRATION,	/* a calibration file */
	COMPARE_BOOT_RUNS,		/* the runs of the sides, two or more boots */
	COMPARE_BOOT_NONE,		/* A and B ran in one boot */
};

/* A variance with its degrees of freedom (INFINITY: taken as known). */
struct compare_variance {
	double var, df;
};

/*
 * What a calibration knows of each row's boot variance, on the log
 * scale and beyond a run's own sampling variance (analysis/calibrate.h):
 * the shift every row of a boot shares, and each row's own part,
 * moderated toward the rows' pooled one (prior), which a row it did not
 * see gets.
 */
struct compare_boot_model {
	int invocation;		/* of runs of one boot: what invocations differ by */
	struct compare_variance common;
	struct compare_variance prior;
	size_t count;
	char **names;			/* ascending (strcmp) */
	struct compare_variance *own;	/* per name */
};

/* Row name's own part: its own, or the pooled one. */
struct compare_variance compare_model_own(const struct compare_boot_model *m,
					  const char *name);

/*
 * Whether a calibration holds for the runs compared
 * (analysis/compare_dispersion.h): the rows that should not move, their
 * standardised dispersion about the shift they share, and the factor
 * each row's own variance was multiplied by.
 */
struct compare_dispersion {
	int checked;		/* a calibration was held against the runs */
	int all_rows;		/* A/A by the record: every row; else the controls */
	size_t rows;		/* the rows that should not move, used */
	double statistic, df;	/* their squared normal scores about their shift; rows - 1 */
	double p;		/* P(chi-square on df > statistic) */
	double ratio;		/* their variance over the calibration's (NAN unchecked) */
	double scale, scale_df;	/* each row's own variance times scale (1: none); its df */
};

/* What a comparison was asked for and how it was designed. */
struct compare_settings {
	double alpha;		/* CI level 1 - alpha, FDR level alpha */
	double margin;		/* the relevance threshold, a fraction of center_a */
	double boot_sd;		/* sigma_u assumed: the floor (above) */
	double boot_df;		/* of the estimate in use, for the sentence; INFINITY */
	double boot_common_sd;	/* the estimate's common part; 0 when unknown */
	double boot_estimate_sd;	/* the estimate's pooled sigma_u; NAN */
	enum compare_boot_source boot_source;
	const char *calibration;	/* the file the model came from, or NULL */
	const struct compare_boot_model *model;	/* per row; NULL: none */
	/* the design: runs and boots a side, by boot_id; A and B one boot */
	unsigned runs_a, runs_b, boots_a, boots_b;
	int same_boot;
	/*
	 * The sides differ in nothing the runs record as what a comparison
	 * is of (compare_same_record()): an A/A comparison, every row null.
	 */
	int same_record;
	struct compare_dispersion dispersion;
	/*
	 * Why faster, slower and same are withheld (NULL: they are not),
	 * and the boots a side that would give them.
	 */
	const char *withheld;
	unsigned boots_needed;
};

/* Whether the boot variance is known from data (so that `same` can be called). */
int compare_calibrated(const struct compare_settings *set);

/* The defaults above. */
struct compare_settings compare_default_settings(void);

/*
 * Satterthwaite's degrees of freedom of a sum of variances var[i] on
 * df[i] (INFINITY: known; a variance of 0 adds nothing), at most
 * COMPARE_DF_CAP.
 */
double compare_satterthwaite(const double *var, const double *df, size_t n);
#define COMPARE_DF_CAP	1e4

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
	double p;		/* test of |d| > margin; NAN when not computed */
	double q;		/* BH q-value over the rows; NAN with p */
	enum compare_verdict verdict;
	const char *method;	/* "samples", "repetitions" or "medians" */
	/*
	 * se^2's parts on the log scale (linear: of delta / |center_a|),
	 * each with its df: the sides' repetitions (0 with several boots a
	 * side, where they are in the boot parts), the boots' effects each
	 * row has of its own and the shift every row of a boot shares;
	 * boot_scale is what a boot's variance is multiplied by in d (2 for
	 * one boot a side, 1/m_A + 1/m_B, 0 for one boot in all), of which
	 * side A has boot_share_a; boot_sampling is the sampling variance
	 * inside the boot parts. boot_assumed: the boot parts are the
	 * assumption (no estimate, or one below it on few df).
	 */
	double within_a, within_a_df, within_b, within_b_df;
	double boot_own, boot_own_df, boot_common, boot_common_df;
	double boot_scale, boot_share_a, boot_sampling;
	int boot_assumed;
	double boot_sd;		/* of one boot, as used: sqrt(boot part / scale) */
	/* d, se, df before the controls' change was taken off */
	double raw_log_ratio, raw_se, raw_df;
	int net;		/* d, se, df, CI, p, q, verdict net of the controls' */
};

/*
 * The row's raw figure from raw_log_ratio and the parts of se^2 (the
 * rule above): log_ratio, se, df, boot_sd, boot_assumed and the raw_*
 * fields, then its interval and p (compare_row_interval()).
 */
void compare_row_raw(struct compare_row *row, const struct compare_settings *set);
/* "net" (of the controls' change) or "raw": what the CI and verdict are of. */
const char *compare_row_basis(const struct compare_row *row);
/* The CI fields and p of row's log_ratio, se and df (q = p). */
void compare_row_interval(struct compare_row *row, const struct compare_settings *set);

/*
 * Compare the values of one pair (repetition per value as in
 * compare_group()); fills everything but a, b, unit, delta_ns, and sets
 * q = p and the verdict as for a single row. The row's own boot part is
 * the model's pooled one; compare_runs() gives each row its own.
 */
int compare_values(const double *a, const uint32_t *rep_a, size_t na,
		   const double *b, const uint32_t *rep_b, size_t nb,
		   const struct compare_settings *set, struct compare_row *row);

/*
 * q-values over the rows, then each row's verdict, from each row's
 * log_ratio, se, df and p as they are (raw or net).
 */
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
/* How many rows have a verdict in mask; *first (if not NULL) the first. */
size_t compare_rows_with(const struct compare_result *res, unsigned mask,
			 const struct compare_row **first);

/*
 * What the writers say of a comparison's rows that the statistics
 * decide, decided once with the rows (analysis/compare_compute.c) so
 * that no writer asks: each verdict's name, each row's basis ("net" of
 * the negative controls' change, or "raw") and whether the boot
 * variance is known from data.
 */
struct compare_words {
	const char *verdict[COMPARE_VERDICTS];
	const char **basis;	/* per row of the result, in its order */
	int calibrated;
};

/*
 * The words of res's rows under set into *words: 0, or -1 on no memory;
 * compare_words_free() it whatever it returned.
 */
int compare_words_of(const struct compare_result *res,
		     const struct compare_settings *set,
		     struct compare_words *words);
void compare_words_free(struct compare_words *words);

#endif /* SMAPBENCH_COMPARE_STATS_H */
