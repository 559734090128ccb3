/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_options.h - the command line of `smapbench census [OPTIONS] --
 * COMMAND` (the census of a command) and of `smapbench census exec`
 * (its guest side).
 */
#ifndef SMAPBENCH_CENSUS_OPTIONS_H
#define SMAPBENCH_CENSUS_OPTIONS_H

#include <stdio.h>

#include "census/command/census_command.h"

/* The usage of the census of a command, for cmd_census's own. */
void census_command_usage(FILE *f);

/*
 * Parse argv (argv[0] is "census"); o->kernels points into argv. 0, 1
 * when --help printed the usage, or EXIT_USAGE after saying what is
 * wrong.
 */
int census_command_parse_options(int argc, char **argv,
				 struct census_command_options *o);

/* The same for `census exec` (argv[0] is "exec"). */
int census_exec_parse_options(int argc, char **argv,
			      struct census_exec_options *o);

#endif /* SMAPBENCH_CENSUS_OPTIONS_H */
