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
#include "cli/options.h"
#include "run/run.h"

struct worker_options {
	const char *counter, *kmod_counter, *command, *command_log;
};

static const struct option_def worker_options[] = {
	OPT_TEXT("counter", "NAME", struct worker_options, counter, "counter",
		 "the counter of the harness-timed benchmarks"),
	/* "": the module's PMU where there is one (kmod_suite_worker_counter()) */
	{ .name = "kmod-counter", .type = OPTION_TEXT, .value = "NAME",
	  .offset = offsetof(struct worker_options, kmod_counter),
	  .flags = OPTION_EMPTY_OK, .help = "the kmod suite's, or \"\"" },
	OPT_TEXT("command", "CMD", struct worker_options, command, "command",
		 "the command of the run's --command"),
	/* "": its output to /dev/null */
	{ .name = "command-log", .type = OPTION_TEXT, .value = "PATH",
	  .offset = offsetof(struct worker_options, command_log),
	  .flags = OPTION_EMPTY_OK, .help = "where its output goes" },
	OPT_END(),
};

static const struct option_table worker_table = {
	.command = "run-worker",
	.synopsis = "--counter NAME --kmod-counter NAME [--command CMD --command-log PATH]",
	.about = "Started by smapbench run for each repetition.\n",
	.options = worker_options,
};

int cmd_run_worker(int argc, char **argv)
{
	struct worker_options o = { NULL, NULL, NULL, NULL };
	struct option_result r;
	char err[256];

	if (options_parse(&worker_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&worker_table, err);
	if (!o.counter || !o.kmod_counter || r.first < argc)
		return options_refuse(&worker_table, "needs --counter and --kmod-counter, and nothing else");
	return run_worker(o.counter, o.kmod_counter, o.command, o.command_log);
}
