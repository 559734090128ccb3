/* SPDX-License-Identifier: GPL-2.0 */
/* run_options.h - the command line of `smapbench run`. */
#ifndef SMAPBENCH_RUN_OPTIONS_H
#define SMAPBENCH_RUN_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/*
 * Parse argv (argv[0] is "run"). Returns 0, or 2 (EXIT_USAGE) with a
 * one-line message in err naming the offending argument.
 */
int run_parse_options(int argc, char **argv, struct run_options *o,
		      char *err, size_t errlen);
void run_usage(void *file);
/* err said, then the usage, on stderr: EXIT_USAGE. */
int run_refuse(const char *err);

#endif /* SMAPBENCH_RUN_OPTIONS_H */
