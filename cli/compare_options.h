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
 * Parse argv (argv[0] is the command, compare or report). Returns 0, or
 * EXIT_USAGE after printing what is wrong to stderr. compare takes two
 * runs; report one, without options, or two.
 */
int compare_parse_options(int argc, char **argv, struct compare_options *o);

/* The usage of compare or report, made from the option table. */
void compare_usage(FILE *f, const char *command);

#endif /* SMAPBENCH_COMPARE_OPTIONS_H */
