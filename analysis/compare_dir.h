/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_dir.h - `compare RUN_A RUN_B` and `report RUN_A RUN_B`: per
 * benchmark, is B faster, slower or the same as A, by how much, and how
 * sure are we. Writes DIR/compare.csv (docs/schema.md), DIR/plots/ and,
 * for report, DIR/report.md, DIR being built as a temporary directory
 * and renamed when complete, and prints the table and the within-boot
 * tables of the SMAP run. The usual order is A = the SMAP-off boot,
 * B = the SMAP boot: then every delta is what SMAP costs.
 */
#ifndef SMAPBENCH_COMPARE_DIR_H
#define SMAPBENCH_COMPARE_DIR_H

#include "analysis/compare_stats.h"

/* The runs a side may have: RUN_A1,RUN_A2,... */
#define COMPARE_MAX_RUNS_A_SIDE	16

/* What the command line asks (cli/compare_options.c parses it). */
struct compare_request {
	const char *who;		/* the command: compare or report */
	/* each side's runs, run directories or JSON files; the first pairs */
	const char *runs_a[COMPARE_MAX_RUNS_A_SIDE];
	const char *runs_b[COMPARE_MAX_RUNS_A_SIDE];
	size_t na, nb;
	const char *out;		/* NULL: compare-A-vs-B next to A */
	struct compare_settings settings;	/* alpha, margin, seed, ... */
	int force;			/* across machines, kernels, ... too */
	int plots;			/* draw plots/ */
	int report;			/* write report.md */
	const char *calibration;	/* sigma_u from this file */
	int no_calibration;		/* assume sigma_u, read no file */
	const char *census;		/* census of the SMAP kernel, or NULL */
	unsigned fail_on;		/* 1 << verdict: exit COMPARE_EXIT_FAIL_ON
					 * when a row has one of them */
};

/* --fail-on's status: a row has a verdict asked for; not 1 (error), 2 (usage). */
#define COMPARE_EXIT_FAIL_ON	3

/*
 * Returns the exit status: 0; 1 after saying what failed; 2 (EXIT_USAGE)
 * when the output directory is not ours to replace, before any work;
 * COMPARE_EXIT_FAIL_ON when all was written and a row has a verdict of
 * req->fail_on.
 */
int compare_dir_write(const struct compare_request *req);

#endif /* SMAPBENCH_COMPARE_DIR_H */
