/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_dir.h - `compare RUN_A RUN_B` and `report RUN_A RUN_B`: per
 * benchmark, is B faster, slower or the same as A, by how much, and how
 * sure are we. Three stages: the plan (analysis/compare_plan.h: the
 * runs, their contexts, the calibration and the design, decided once),
 * the numbers (analysis/compare_compute.h), and everything said and
 * written (analysis/compare_output.h): DIR/compare.csv, compare.json,
 * compare-settings.csv (docs/schema.md), DIR/plots/ and, for report,
 * DIR/report.md, DIR being built as a temporary directory and renamed
 * when complete; and on stdout the table and the within-boot tables of
 * the SMAP run. The usual order is A = the SMAP-off boot, B = the SMAP
 * boot: then every delta is what SMAP costs.
 */
#ifndef SMAPBENCH_COMPARE_DIR_H
#define SMAPBENCH_COMPARE_DIR_H

#include "analysis/compare_output.h"	/* COMPARE_EXIT_FAIL_ON */
#include "analysis/compare_plan.h"

/*
 * Returns the exit status: 0; 1 after saying what failed; 2 (EXIT_USAGE)
 * when the output directory is not ours to replace, before any work;
 * COMPARE_EXIT_FAIL_ON when all was written and a row has a verdict of
 * req->fail_on.
 */
int compare_dir_write(const struct compare_request *req);

#endif /* SMAPBENCH_COMPARE_DIR_H */
