// SPDX-License-Identifier: GPL-2.0
/* run_options.c - parsing `smapbench run` arguments; see run_options.h. */
#include "cli/run_options.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "measure/counter.h"
#include "measure/stats.h"
#include "suites/suite.h"

/* Every counter --counter takes: the user-space backends and the module's. */
static int take_counter(const char *value, void *values, char *err,
			size_t errlen)
{
	struct run_options *o = values;

	if (!counter_find(value) && strcmp(value, "kmod-tsc") &&
	    strcmp(value, "kmod-pmu")) {
		snprintf(err, errlen,
			 "--counter: unknown counter '%s' (perf, rdtscp, rdtsc, cpucycles, monotonic, kmod-tsc, kmod-pmu)",
			 value);
		return -1;
	}
	o->counter = value;
	return 0;
}

static const struct option_def run_options[] = {
	OPT_CHOICE("suite", "NAME", struct run_options, suite, suite_run_names,
		   "suite", "all",
		   "the suites to run; none: only the command of --command"),
	OPT_TEXT("filter", "REGEX", struct run_options, filter, "expression",
		 "only benchmarks whose name matches (POSIX ERE)"),
	OPT_TEXT("command", "CMD", struct run_options, command, "command",
		 "also time CMD as a row, command/<its words>-<its sum>:\n"
		 "each operation one 'sh -c CMD' in a fresh process, its\n"
		 "output in the run's command.log; a failure of it fails\n"
		 "the run (exit status 1, the run kept)"),
	OPT_NUMBER("min-time", "S", struct run_options, min_time, 1e-6, 60, 0,
		   "a number of seconds", "0.01",
		   "seconds one sample lasts at least"),
	OPT_WHOLE("repetitions", "N", struct run_options, repetitions, 1, 10000,
		  "an integer", "5", "repetitions, in random order"),
	OPT_WHOLE("samples", "N", struct run_options, samples, 1, 65536,
		  "an integer", "10", "samples per repetition"),
	OPT_CALL("counter", "NAME", take_counter,
		 "perf, rdtscp, rdtsc, cpucycles, monotonic for user-space\n"
		 "timing; kmod-tsc or kmod-pmu for the kmod suite (default:\n"
		 "best available)"),
	OPT_WHOLE("cpu", "N", struct run_options, cpu, 0, 4095, "a CPU number",
		  "the first thread of the last core", "pin to CPU N"),
	OPT_FLAG("no-realtime", struct run_options, no_realtime,
		 "do not run at real-time priority (SCHED_FIFO 1, taken by\n"
		 "default when permitted, so that other tasks cannot preempt\n"
		 "a sample)"),
	OPT_TEXT("out", "DIR", struct run_options, out, "directory name",
		 "where the run directory goes (default ./data)"),
	OPT_TEXT("run-dir-file", "F", struct run_options, run_dir_file,
		 "file name",
		 "write the run directory's absolute path, one line, to F\n"
		 "(for scripts; empty if no run)"),
	OPT_WHOLE("seed", "N", struct run_options, seed, 0, OPTION_WHOLE_MAX,
		  "an unsigned integer", NULL,
		  "seed of the order the benchmarks run in (default: a fresh\n"
		  "one each run, recorded in context.csv)"),
	OPT_FLAG("quick", struct run_options, quick,
		 "a short run: --min-time 0.002 --repetitions 3 --samples 5\n"
		 "unless given, and fewer sizes"),
	OPT_FLAG("full", struct run_options, full,
		 "every size of every sweep (the default runs fewer bpf sizes\n"
		 "to stay near 2 minutes; docs/harness.md)"),
	OPT_FLAG("list", struct run_options, list,
		 "list the benchmarks and whether they can run"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table run_table = {
	.command = "run",
	.synopsis = "[options]",
	.options = run_options,
	.after = "The run directory's path is the last line printed on stdout\n"
		 "(\"run directory: PATH\"), for people; scripts use --run-dir-file.\n",
};

void run_usage(void *file)
{
	options_usage(file, &run_table);
}

int run_refuse(const char *err)
{
	return options_refuse(&run_table, err);
}

/* What the options say together: 0, or EXIT_USAGE and why. */
static int settle_options(struct run_options *o, const struct option_result *r,
			  char *err, size_t errlen)
{
	/* kmod-* counters time the module's loops: no other suite has any */
	if (o->counter && !strncmp(o->counter, "kmod-", 5) &&
	    strcmp(o->suite, "kmod") && strcmp(o->suite, "all")) {
		snprintf(err, errlen,
			 "--counter %s times the kmod suite only, and --suite %s has "
			 "none of it (use --suite kmod or all, or a user-space counter)",
			 o->counter, o->suite);
		return EXIT_USAGE;
	}
	if (!strcmp(o->suite, "none") && !o->command) {
		snprintf(err, errlen, "--suite none runs nothing without --command CMD");
		return EXIT_USAGE;
	}
	if (o->quick && o->full) {
		snprintf(err, errlen, "--full and --quick: choose one sweep");
		return EXIT_USAGE;
	}
	/* --quick's defaults give way to what the user gave */
	if (o->quick) {
		if (!options_given(&run_table, r, "min-time"))
			o->min_time = 0.002;
		if (!options_given(&run_table, r, "repetitions"))
			o->repetitions = 3;
		if (!options_given(&run_table, r, "samples"))
			o->samples = 5;
	}
	return 0;
}

int run_parse_options(int argc, char **argv, struct run_options *o,
		      char *err, size_t errlen)
{
	struct option_result r;

	memset(o, 0, sizeof(*o));
	o->suite = "all";
	o->min_time = 0.01;
	o->repetitions = 5;
	o->samples = 10;
	o->cpu = -1;
	o->out = "data";
	/* a fresh order each run unless --seed fixes one; context.csv records it */
	o->seed = stats_random_seed();

	if (options_parse(&run_table, argc, argv, o, &r, err, errlen))
		return EXIT_USAGE;
	o->help = r.help;
	if (r.first < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[r.first]);
		return EXIT_USAGE;
	}
	return settle_options(o, &r, err, errlen);
}
