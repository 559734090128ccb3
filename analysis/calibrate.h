/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calibrate.h - how much two boots of one machine differ, per row: from
 * runs of one state over two or more boots (context boot_id), the
 * variance between boots on the log scale, split into a shift every row
 * of a boot shares and each row's own part, the latter moderated toward
 * the rows' pooled one. compare holds them in the interval of every row
 * (analysis/compare_stats.h).
 *
 * Per row k: a run's figure is the mean of its log repetition medians,
 * ybar, with the sampling variance w = s^2 / r its repetitions show; a
 * boot's figure is the mean of its runs' ybar. boot_split() takes the
 * boots' figures apart:
 *
 *   c_b    the shift of boot b: the mean over the rows of each row's
 *          deviation from its own mean; its variance over the boots is
 *          the common part, on boots - 1 degrees of freedom however many
 *          rows there are (one value a boot, as the core clock is)
 *   O_k    each row's variance of its deviations net of c_b: its own
 *          part (sampling included), on (boots - 1)(rows - 1) / rows df
 *
 * The O_k are moderated toward their pooled value by empirical Bayes
 * (measure/stats.h, as limma's moderated t does): a row with boot-level
 * modes of its own keeps its own variance, a quiet row borrows the
 * others' degrees of freedom. What compare needs of a row is how much
 * one run's ybar varies beyond its own w when the run comes from another
 * boot: the common part, plus the row's own
 *
 *   s_k^2 = O~_k + (1 - mean(1 / m_i)) V~_k - mean(w)
 *
 * V_k being the variance between the runs of one boot (runs - boots df,
 * moderated the same way; none with one run a boot), m_i boot i's runs.
 * A row the calibration did not see gets the pooled (prior) value.
 */
#ifndef SMAPBENCH_CALIBRATE_H
#define SMAPBENCH_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare_stats.h"
#include "measure/stats.h"
#include "rundata/rundir.h"

/* Runs that estimate a boot variance need this many repetitions a row. */
#define CALIBRATE_MIN_REPETITIONS 3

/*
 * Boot figures y[k * boots + b] (row k, boot b) split into the shift
 * every row of a boot shares and each row's own part, the boots of a
 * group (group[b] < groups) centred on the group's mean per row: one
 * group for a calibration, two (the sides) for a comparison.
 */
struct boot_split {
	double common, common_df;	/* variance of a boot's shift */
	double *own;		/* per row: its own variance of a boot's figure */
	double own_df;		/* each row's degrees of freedom */
	struct stats_prior prior;	/* the rows' own, pooled (NAN with one row) */
	/*
	 * per row, moderated, on moderated_df: own_df + prior.df, or for a
	 * row far above the prior (stats_variance_outlier()) its own on
	 * own_df
	 */
	double *moderated, *moderated_df;
};

/* 0; -1 on no memory or no degrees of freedom (every group one boot). */
int boot_split(const double *y, size_t rows, size_t boots,
	       const unsigned *group, size_t groups, struct boot_split *out);
void boot_split_free(struct boot_split *s);

struct boot_variance {
	double sd, df;		/* sigma_u, pooled: common and the rows' mean own */
	double common_sd, common_df;	/* of the shift every row shares */
	double row_sd, row_df;	/* a row's own, pooled: for a row not estimated */
	double within_sd;	/* typical sd of a run's ybar from its repetitions */
	/* typical sd of a run's ybar beyond w between runs of one boot; NAN */
	double invocation_sd;
	double *row_estimate;	/* per row, s_k (moderated, floored at 0); may be NULL */
	double row_estimate_df;	/* their degrees of freedom, of a row moderated */
	/*
	 * per row, its own df (those of a row far above the others, kept
	 * unmoderated, are fewer); may be NULL
	 */
	double *row_estimate_dfs;
};

/*
 * From mean[k * runs + j] and var[k * runs + j], row k of run j
 * (rows >= 1), run j of boot boot[j] < boots (boots >= 2, every boot
 * with a run). row_estimate, when not NULL, has room for rows. 0, or
 * -1 on bad input (fewer than 2 boots, an empty boot) or no memory.
 */
int calibrate_boot_variance(const double *mean, const double *var,
			    size_t rows, size_t runs, const unsigned *boot,
			    size_t boots, struct boot_variance *out);

/* A calibration: what calibrate writes and compare reads. */
struct calibration {
	struct boot_variance bv;
	size_t boots, runs, rows;
	/*
	 * Runs all of one boot: each run a unit, and the variance is what
	 * separate invocations differ by (level "invocation"), for
	 * comparisons of runs of one boot; else of boots.
	 */
	int invocation;
	char **row_names;	/* rows used, with bv.row_estimate */
	/* the same for compare: names sorted, each row's own as a variance */
	struct compare_boot_model model;
	/* the context it holds for: the comparison keys, smap_state */
	char **keys, **values;
	size_t context_count;
};

/*
 * Estimate from runs (loaded): one state, one machine, at least two
 * boot_ids, or two or more runs of one boot (invocation). 0, or -1 with
 * why in err. The model is filled too.
 */
int calibrate_runs(const struct run_dir *const *runs, size_t count,
		   struct calibration *out, char *err, size_t errlen);
void calibration_free(struct calibration *c);

/*
 * Write path (docs/schema.md, "calibration.csv", format 2); 0, or -1
 * with errno.
 */
int calibration_write(const char *path, const struct calibration *c);
/*
 * Read what calibration_write() wrote, with its model for compare; 0, or
 * -1 with why in err (a file of format 1, whose rows were pooled
 * completely, among them).
 */
int calibration_read(const char *path, struct calibration *c, char *err,
		     size_t errlen);
/*
 * Whether the calibration holds for run: every blocking context field it
 * records has run's value. 0 when it does, else 1 with the first field
 * that differs in why.
 */
int calibration_mismatch(const struct calibration *c,
			 const struct run_dir *run, char *why, size_t len);
/* The summary calibrate prints. */
void calibration_print(FILE *f, const struct calibration *c);

#endif /* SMAPBENCH_CALIBRATE_H */
