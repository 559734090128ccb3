// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plan.c - `smapbench plan RUN RUN...`: how many boots, and how many
 * repetitions a boot, a boot series needs for a precision, in the least
 * time (analysis/series_plan.h), from runs of one SMAP state over two or
 * more boots (analysis/series_plan_runs.h).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/run_input.h"
#include "analysis/series_plan_runs.h"
#include "cli/commands.h"

#define DEFAULT_PRECISION 0.01
#define DEFAULT_MAX_BOOTS 64		/* what run-bench.sh --boots takes */
#define MAX_BOOTS 1000
#define DEFAULT_MAX_REPETITIONS 100
#define MAX_REPETITIONS 10000		/* smapbench run's limit */
#define MAX_INVOCATIONS 64
/*
 * What a series step costs on a machine that loads the module, on paper
 * (docs/boot-series.md, "How long a series takes"): a boot is kexec and
 * settling; an invocation is run-bench.sh's build check, the module's
 * build and load, and smapbench's start, context and sizing; the end is
 * the comparisons, the report and the kexec back to the original command
 * line.
 */
#define DEFAULT_BOOT_SECONDS 90
#define DEFAULT_INVOCATION_SECONDS 40
#define DEFAULT_SERIES_SECONDS 60

static void plan_usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench plan [OPTIONS] RUN RUN...\n"
		"\n"
		"The boot series that reaches a precision in the least time: how many boots,\n"
		"invocations a boot and repetitions (Kalibera and Jones's design for nested\n"
		"random effects; docs/boot-series.md). The variance between boots and between\n"
		"repetitions come from RUN..., runs of one SMAP state over two or more boots,\n"
		"as smapbench calibrate takes them.\n"
		"\n"
		"  --precision P          the 95%% interval of SMAP on - off within +-P on each\n"
		"                         row: 1%% or 0.01 (default 1%%)\n"
		"  --rows REGEX           the rows it must hold for, a POSIX extended regular\n"
		"                         expression (default: the headline rows)\n"
		"  --max-boots N          boots at most, both states (default %d, as --boots)\n"
		"  --max-invocations N    invocations a boot at most (default 1)\n"
		"  --max-repetitions N    repetitions an invocation at most (default %d)\n"
		"  --boot-seconds S       a boot's fixed cost, kexec and settling (default %d)\n"
		"  --invocation-seconds S an invocation's: start, module, sizing (default %d)\n"
		"  --repetition-seconds S one repetition of what the runs ran (default: their\n"
		"                         timed samples, which leave the harness's own time out)\n"
		"  --series-seconds S     the end: comparisons, the kexec back (default %d)\n"
		"\n"
		"Exit status: 0 a plan; 1 the runs cannot be read or calibrated, or no plan\n"
		"within --max-boots (said, with the boots it needs); 2 bad usage.\n",
		DEFAULT_MAX_BOOTS, DEFAULT_MAX_REPETITIONS, DEFAULT_BOOT_SECONDS,
		DEFAULT_INVOCATION_SECONDS, DEFAULT_SERIES_SECONDS);
}

static int bad(const char *option, const char *value, const char *what)
{
	fprintf(stderr, "smapbench plan: %s '%s': %s\n(see smapbench plan --help)\n",
		option, value, what);
	return EXIT_USAGE;
}

/* A number in [low, high]; "P%" is P / 100 when percent. */
static int number_in(const char *text, double low, double high, int percent,
		     double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	if (percent && end != text && !strcmp(end, "%")) {
		*v /= 100;
		end++;
	}
	return !errno && end != text && !*end && isfinite(*v) && *v >= low &&
	       *v <= high ? 0 : -1;
}

static int whole_in(const char *text, unsigned low, unsigned high, unsigned *v)
{
	double x;

	if (number_in(text, low, high, 0, &x) || x != floor(x))
		return -1;
	*v = (unsigned)x;
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "precision", required_argument, NULL, 'p' },
		{ "rows", required_argument, NULL, 'r' },
		{ "max-boots", required_argument, NULL, 'b' },
		{ "max-invocations", required_argument, NULL, 'k' },
		{ "max-repetitions", required_argument, NULL, 'n' },
		{ "boot-seconds", required_argument, NULL, 'B' },
		{ "invocation-seconds", required_argument, NULL, 'I' },
		{ "repetition-seconds", required_argument, NULL, 'R' },
		{ "series-seconds", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct series_plan_request req = {
		.half_width = DEFAULT_PRECISION, .level = 0.95,
		.max_boots = DEFAULT_MAX_BOOTS, .max_invocations = 1,
		.min_repetitions = 3, .max_repetitions = DEFAULT_MAX_REPETITIONS,
		.cost = { .boot = DEFAULT_BOOT_SECONDS,
			  .invocation = DEFAULT_INVOCATION_SECONDS,
			  .repetition = NAN, .series = DEFAULT_SERIES_SECONDS },
	};
	const char *sources[4] = {
		"assumed: kexec and settling; --boot-seconds",
		"assumed: start, module, sizing; --invocation-seconds",
		"the runs' timed samples, a lower bound; --repetition-seconds",
		"assumed: comparisons, the kexec back; --series-seconds",
	};
	const char *rows = NULL;
	struct series_plan_inputs in;
	struct series_plan plan;
	struct run_dir *runs = NULL;
	const struct run_dir **view = NULL;
	char err[1024], option[32];
	size_t count, loaded = 0;
	int c, long_index, rc = 1;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, &long_index)) != -1) {
		switch (c) {
		case 'p':
			if (number_in(optarg, 1e-5, 0.5, 1, &req.half_width) ||
			    !(req.half_width > 0))
				return bad("--precision", optarg,
					   "not a share from 0.001% to 50%, as 1% or 0.01");
			break;
		case 'r':
			rows = optarg;
			break;
		case 'b':
			if (whole_in(optarg, 2, MAX_BOOTS, &req.max_boots))
				return bad("--max-boots", optarg, "not a whole number from 2 to 1000");
			break;
		case 'k':
			if (whole_in(optarg, 1, MAX_INVOCATIONS, &req.max_invocations))
				return bad("--max-invocations", optarg,
					   "not a whole number from 1 to 64");
			break;
		case 'n':
			if (whole_in(optarg, 3, MAX_REPETITIONS, &req.max_repetitions))
				return bad("--max-repetitions", optarg,
					   "not a whole number from 3 to 10000");
			break;
		case 'B':
		case 'I':
		case 'R':
		case 'S': {
			double *to = c == 'B' ? &req.cost.boot : c == 'I' ? &req.cost.invocation :
				     c == 'R' ? &req.cost.repetition : &req.cost.series;
			int i = c == 'B' ? 0 : c == 'I' ? 1 : c == 'R' ? 2 : 3;

			/* the option's name: argv holds its value, or both with '=' */
			snprintf(option, sizeof(option), "--%s", longopts[long_index].name);
			if (number_in(optarg, c == 'R' ? 1e-6 : 0, 1e6, 0, to))
				return bad(option, optarg, c == 'R' ?
					   "not a number of seconds above 0, at most 1000000" :
					   "not a number of seconds from 0 to 1000000");
			sources[i] = "given";
			break;
		}
		case 'h':
			plan_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "smapbench plan: %s needs a value\n\n", argv[optind - 1]);
			plan_usage(stderr);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "smapbench plan: unknown option '%s'\n\n", argv[optind - 1]);
			plan_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "smapbench plan: needs two or more runs, of two or more boots of one SMAP state\n\n");
		plan_usage(stderr);
		return EXIT_USAGE;
	}
	count = (size_t)(argc - optind);
	runs = calloc(count, sizeof(*runs));
	view = calloc(count, sizeof(*view));
	if (!runs || !view) {
		fprintf(stderr, "smapbench plan: out of memory\n");
		goto out;
	}
	for (; loaded < count; loaded++) {
		if (run_input_load("plan", argv[optind + (int)loaded],
				   "a plan needs run directories with context.csv",
				   &runs[loaded]))
			goto out;
		view[loaded] = &runs[loaded];
	}
	if (series_plan_from_runs(view, count, rows, &in, err, sizeof(err))) {
		fprintf(stderr, "smapbench plan: %s\n", err);
		goto out;
	}
	if (isnan(req.cost.repetition))
		req.cost.repetition = in.repetition_seconds;
	req.rows = in.rows;
	req.row_count = in.count;
	if (!(req.cost.repetition > 0)) {
		fprintf(stderr, "smapbench plan: the runs give no repetition time (no results.csv with iterations and median_ns): give --repetition-seconds\n");
	} else if (series_plan_make(&req, &plan)) {
		fprintf(stderr, "smapbench plan: these components and limits cannot be planned\n");
	} else {
		series_plan_print(stdout, &in, &req, &plan, sources);
		rc = plan.feasible ? 0 : 1;
	}
	series_plan_inputs_free(&in);
out:
	for (size_t i = 0; i < loaded; i++)
		rundir_free(&runs[i]);
	free(runs);
	free(view);
	return rc;
}
