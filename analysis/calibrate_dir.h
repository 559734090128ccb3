/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calibrate_dir.h - `smapbench calibrate RUN...`: read the runs, estimate
 * the machine's boot variance (analysis/calibrate.h), print it and write
 * calibration.csv; and where compare looks for one by default.
 */
#ifndef SMAPBENCH_CALIBRATE_DIR_H
#define SMAPBENCH_CALIBRATE_DIR_H

#include <stddef.h>

#include "rundata/rundir.h"

#define CALIBRATION_FILE "calibration.csv"

/*
 * Estimate from the runs at paths and write out (NULL: calibration.csv
 * beside the first run). Returns the exit status: 0, or 1 after saying
 * why.
 */
int calibrate_write_runs(const char *who, char *const *paths, size_t count,
			 const char *out);

/*
 * The default calibration of a run: calibration.csv in the directory
 * that holds it, malloc'ed; NULL on no memory.
 */
char *calibration_default_path(const struct run_dir *run);

#endif /* SMAPBENCH_CALIBRATE_DIR_H */
