// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run_worker.c - `smapbench run-worker --counter NAME --kmod-counter
 * NAME`: one repetition of a `smapbench run`, in a process of its own
 * (measure/runner.h says why). Started by smapbench run, which writes
 * the schedule to its standard input and reads the samples from its
 * standard output; not meant to be typed.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "run/run.h"

static int usage(void)
{
	fprintf(stderr, "usage: smapbench run-worker --counter NAME --kmod-counter NAME\n"
			"(started by smapbench run for each repetition)\n");
	return EXIT_USAGE;
}

int cmd_run_worker(int argc, char **argv)
{
	const char *counter = NULL, *kmod_counter = NULL;

	for (int i = 1; i < argc; i += 2) {
		const char **to = !strcmp(argv[i], "--counter") ? &counter :
				  !strcmp(argv[i], "--kmod-counter") ?
				  &kmod_counter : NULL;

		if (!to || i + 1 >= argc)
			return usage();
		*to = argv[i + 1];
	}
	if (!counter || !kmod_counter)
		return usage();
	return run_worker(counter, kmod_counter);
}
