/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calibrate.h - how much two boots of one machine differ: sigma_u, the
 * sd between boots on the log scale, from runs of one state over two or
 * more boots (context boot_id). compare holds 2 sigma_u^2 in the
 * interval of every row (analysis/compare_stats.h).
 *
 * Per row k: a run's figure is the mean of its log repetition medians,
 * ybar, with the sampling variance w = s^2 / r its repetitions show.
 * What compare needs is the variance of a run's ybar beyond w when the
 * two runs come from different boots: sigma_u^2 plus any run-to-run
 * variance within a boot. A one-way analysis of variance with the boot
 * as the group gives it:
 *
 *   B_k    the variance between the boots' means (of their runs' ybar)
 *   V_k    the pooled variance of ybar between the runs of one boot
 *          (runs - boots degrees of freedom); with one run a boot, w
 *   s_k^2  = B_k + (1 - mean(1 / m_i)) V_k - mean(w), m_i runs in boot i
 *
 * With one run a boot this is (MS_between - MS_within) / r. One row has
 * boots - 1 degrees of freedom, too few to use alone: the estimate is
 * pooled over the rows (every row shrunk all the way to the mean,
 * floored at 0), on the assumption that a boot moves every row by a
 * similar factor. Rows do not give independent degrees of freedom: a
 * shift common to all rows (the core clock) is one value per boot. So
 * B is split into that common part (boots - 1 df) and the rows' own
 * (boots - 1)(rows - 1) df, and the pooled estimate's df is
 * Satterthwaite's over those parts and V.
 */
#ifndef SMAPBENCH_CALIBRATE_H
#define SMAPBENCH_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>

#include "rundata/rundir.h"

/* Runs that estimate a boot variance need this many repetitions a row. */
#define CALIBRATE_MIN_REPETITIONS 3

struct boot_variance {
	double sd;		/* sigma_u, pooled over the rows */
	double df;		/* its Satterthwaite degrees of freedom */
	double common_sd;	/* of the shift every row shares */
	double row_sd;		/* of each row's own part */
	double within_sd;	/* typical sd of a run's ybar from its repetitions */
	double *row_estimate;	/* per row, s_k (floored at 0); may be NULL */
};

/*
 * From mean[k * runs + j] and var[k * runs + j], row k of run j
 * (rows >= 1), run j of boot boot[j] < boots (boots >= 2, every boot
 * with a run). row_estimate, when not NULL, has room for rows. 0, or
 * -1 on bad input (fewer than 2 boots, an empty boot).
 */
int calibrate_boot_variance(const double *mean, const double *var,
			    size_t rows, size_t runs, const unsigned *boot,
			    size_t boots, struct boot_variance *out);

/* A calibration: what calibrate writes and compare reads. */
struct calibration {
	struct boot_variance bv;
	size_t boots, runs, rows;
	char **row_names;	/* rows used, with bv.row_estimate */
	/* the context it holds for: the comparison keys, smap_state */
	char **keys, **values;
	size_t context_count;
};

/*
 * Estimate from runs (loaded): one state, one machine, at least two
 * boot_ids. 0, or -1 with why in err.
 */
int calibrate_runs(const struct run_dir *const *runs, size_t count,
		   struct calibration *out, char *err, size_t errlen);
void calibration_free(struct calibration *c);

/* Write path (docs/schema.md, "calibration.csv"); 0, or -1 with errno. */
int calibration_write(const char *path, const struct calibration *c);
/* Read what calibration_write() wrote; 0, or -1 with why in err. */
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
