/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_options.h - the command line of `smapbench compare` and of
 * `smapbench report RUN_A RUN_B`, which takes the same options.
 */
#ifndef SMAPBENCH_COMPARE_OPTIONS_H
#define SMAPBENCH_COMPARE_OPTIONS_H

#include <stdio.h>

#include "analysis/compare_dir.h"

struct compare_options {
	struct compare_request request;
	int help;		/* --help: usage printed, nothing else to do */
	int runs;		/* report: 1 (request.run_a only) or 2 */
};

/*
 * Parse argv (argv[0] is the command, compare or report), splitting each
 * side's list of runs in place. Returns 0, or EXIT_USAGE after printing
 * what is wrong to stderr. compare takes two runs or lists of runs;
 * report one run, without options, or two.
 */
int compare_parse_options(int argc, char **argv, struct compare_options *o);

/*
 * --fail-on's value: a comma-separated list of verdict names
 * ("slower,faster") as a mask of 1 << verdict: 0, or -1 with the first
 * word that is not one in bad.
 */
int compare_verdict_mask(const char *list, unsigned *mask, char *bad,
			 size_t badlen);
/*
 * A side of the command line, "RUN_A1,RUN_A2,...", split in place at its
 * commas into paths (room for COMPARE_MAX_RUNS_A_SIDE): the count, or 0
 * for an empty name or more runs than that.
 */
size_t compare_split_runs(char *list, const char **paths);

/* The usage of compare or report, made from the option table. */
void compare_usage(FILE *f, const char *command);

#endif /* SMAPBENCH_COMPARE_OPTIONS_H */
