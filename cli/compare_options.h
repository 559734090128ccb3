/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_options.h - the command line of `smapbench compare` and of
 * `smapbench report RUN_A RUN_B`, which takes the same options.
 */
#ifndef SMAPBENCH_COMPARE_OPTIONS_H
#define SMAPBENCH_COMPARE_OPTIONS_H

#include "analysis/compare_dir.h"

struct compare_options {
	struct compare_request request;
	int help;		/* --help: usage printed, nothing else to do */
};

/*
 * Parse argv (argv[0] is the command, compare or report). Returns 0, or
 * EXIT_USAGE after printing what is wrong and the usage to stderr.
 */
int compare_parse_options(int argc, char **argv, struct compare_options *o);

#endif /* SMAPBENCH_COMPARE_OPTIONS_H */
