/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_input.h - reading the runs a command names, with the message a
 * user sees when one cannot be read.
 */
#ifndef SMAPBENCH_RUN_INPUT_H
#define SMAPBENCH_RUN_INPUT_H

#include "rundata/rundir.h"

/*
 * Load the run at path into run: a run directory, or also a Google
 * Benchmark JSON file when needs is NULL (needs says why a directory is
 * needed: "plots need a run directory with results.csv"). Returns 0, or
 * 1 after saying why on stderr as "smapbench WHO: ...".
 */
int run_input_load(const char *who, const char *path, const char *needs,
		   struct run_dir *run);
/*
 * Load two runs (directories or JSON files) at once: a big samples.csv
 * takes seconds. Returns 0, or 1 with what went wrong in messages, a
 * line "smapbench WHO: ..." for each run that failed; then neither run
 * is loaded.
 */
int run_input_load_two(const char *who, const char *path_a,
		       const char *path_b, struct run_dir *a, struct run_dir *b,
		       char *messages, size_t len);

/*
 * A run that is not complete (rundir_incomplete(): an interrupted one)
 * measured fewer repetitions than asked, some benchmarks none: its
 * figures do not stand beside a complete run's. Returns 1 after saying
 * so on stderr as "smapbench WHO: refusing: SIDE ...", or 0: the run is
 * complete, or force was given (then it is said as a warning).
 */
int run_input_check_complete(const char *who, const char *side,
			     const struct run_dir *run, int force);

#endif /* SMAPBENCH_RUN_INPUT_H */
