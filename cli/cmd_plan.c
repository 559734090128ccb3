// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plan.c - `smapbench plan RUN RUN...`: how many boots, and how many
 * repetitions a boot, a boot series needs for a precision, in the least
 * time (analysis/series_plan.h), from runs of one SMAP state over two or
 * more boots (analysis/series_plan_runs.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/run_input.h"
#include "analysis/series_plan_phases.h"
#include "analysis/series_plan_runs.h"
#include "cli/commands.h"
#include "cli/options.h"

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

/* What the table parses into. */
struct plan_options {
	struct series_plan_request req;
	const char *rows;
	const char *phases;
};

/* --precision: a share, "1%" or 0.01, from 0.001% to 50%. */
static int take_precision(const char *value, void *values, char *err,
			  size_t errlen)
{
	struct plan_options *o = values;
	size_t len = strlen(value);
	int percent = len && value[len - 1] == '%';
	char number[64];
	double v;

	snprintf(number, sizeof(number), "%.*s", (int)(len - (size_t)percent), value);
	if (len >= sizeof(number) ||
	    parse_number(number, 0, percent ? 1e-3 : 1e-5, percent ? 50 : 0.5, 0,
			 &v, NULL)) {
		snprintf(err, errlen, "--precision '%s' is not a share from 0.001%% to 50%%, as 1%% or 0.01",
			 value);
		return -1;
	}
	o->req.half_width = percent ? v / 100 : v;
	return 0;
}

static const struct option_def plan_options[] = {
	OPT_CALL("precision", "P", take_precision,
		 "the 95% interval of SMAP on - off within +-P on each row:\n"
		 "1% or 0.01 (default 1%)"),
	OPT_TEXT("rows", "REGEX", struct plan_options, rows, "regular expression",
		 "the rows it must hold for, a POSIX extended regular\n"
		 "expression (default: the headline rows)"),
	OPT_WHOLE("max-boots", "N", struct plan_options, req.max_boots, 2,
		  MAX_BOOTS, "a whole number", OPTION_TEXT_OF(DEFAULT_MAX_BOOTS),
		  "boots at most, both states (as --boots)"),
	OPT_WHOLE("max-invocations", "N", struct plan_options,
		  req.max_invocations, 1, MAX_INVOCATIONS, "a whole number", "1",
		  "invocations a boot at most"),
	OPT_WHOLE("max-repetitions", "N", struct plan_options,
		  req.max_repetitions, 3, MAX_REPETITIONS, "a whole number",
		  OPTION_TEXT_OF(DEFAULT_MAX_REPETITIONS),
		  "repetitions an invocation at most"),
	OPT_TEXT("phases", "FILE", struct plan_options, phases, "file",
		 "the costs a boot series measured, its phases.csv: a boot's,\n"
		 "an invocation's and the end's (each option below overrides\n"
		 "its own; what the file does not give stays assumed)"),
	OPT_NUMBER("boot-seconds", "S", struct plan_options, req.cost.boot, 0,
		   1e6, 0, "a number of seconds",
		   OPTION_TEXT_OF(DEFAULT_BOOT_SECONDS),
		   "a boot's fixed cost, kexec and settling"),
	OPT_NUMBER("invocation-seconds", "S", struct plan_options,
		   req.cost.invocation, 0, 1e6, 0, "a number of seconds",
		   OPTION_TEXT_OF(DEFAULT_INVOCATION_SECONDS),
		   "an invocation's: start, module, sizing"),
	OPT_NUMBER("repetition-seconds", "S", struct plan_options,
		   req.cost.repetition, 0, 1e6, OPTION_LOW_OPEN,
		   "a number of seconds", NULL,
		   "one repetition of what the runs ran (default: their timed\n"
		   "samples, which leave the harness's own time out)"),
	OPT_NUMBER("series-seconds", "S", struct plan_options, req.cost.series,
		   0, 1e6, 0, "a number of seconds",
		   OPTION_TEXT_OF(DEFAULT_SERIES_SECONDS),
		   "the end: comparisons, the kexec back"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table plan_table = {
	.command = "plan",
	.synopsis = "[OPTIONS] RUN RUN...",
	.about =
		"The boot series that reaches a precision in the least time: how many boots,\n"
		"invocations a boot and repetitions (Kalibera and Jones's design for nested\n"
		"random effects; docs/boot-series.md). The variance between boots and between\n"
		"repetitions come from RUN..., runs of one SMAP state over two or more boots,\n"
		"as smapbench calibrate takes them. The costs are assumed unless given, or\n"
		"measured by a series (--phases): its mean boot before the run (start or\n"
		"reboot, check, settling), its mean run and recording less the repetitions'\n"
		"timed samples in RUN..., its end.\n",
	.options = plan_options,
	.after =
		"Exit status: 0 a plan; 1 the runs or the phases.csv cannot be read, the runs\n"
		"not calibrated, or no plan within --max-boots (said, with the boots it\n"
		"needs); 2 bad usage.\n",
};

/*
 * The costs phases.csv gives (analysis/series_plan_phases.h) into req,
 * but those given as options, each source saying where it came from;
 * what the file does not give stays assumed, saying why.
 */
static void take_measured(const struct phases_csv *phases,
			  const struct series_plan_inputs *in,
			  const int given[4], struct series_plan_request *req,
			  char measured[3][160], const char *sources[4])
{
	struct series_measured_costs m;

	series_costs_from_phases(phases, in->run_timed_seconds, &m);
	if (!given[0]) {
		if (isfinite(m.boot)) {
			req->cost.boot = m.boot;
			snprintf(measured[0], 160, "measured: phases.csv, %zu boot%s (%zu after a reboot): start or reboot, check, settle",
				 m.boots, m.boots == 1 ? "" : "s", m.reboots);
		} else {
			snprintf(measured[0], 160, "assumed (phases.csv has no boot): kexec and settling; --boot-seconds");
		}
		sources[0] = measured[0];
	}
	if (!given[1]) {
		if (isfinite(m.invocation)) {
			req->cost.invocation = m.invocation;
			snprintf(measured[1], 160, "measured: phases.csv, %zu run%s of %.1f s less the runs' timed %.1f s",
				 m.runs, m.runs == 1 ? "" : "s", m.run, in->run_timed_seconds);
		} else if (m.timed_exceeds) {
			snprintf(measured[1], 160, "assumed (phases.csv's runs, %.1f s, are shorter than these runs' timed %.1f s: other runs); --invocation-seconds",
				 m.run, in->run_timed_seconds);
		} else {
			snprintf(measured[1], 160, "assumed (%s): start, module, sizing; --invocation-seconds",
				 m.runs ? "no timed samples in the runs" : "phases.csv has no run");
		}
		sources[1] = measured[1];
	}
	if (!given[3]) {
		if (isfinite(m.series)) {
			req->cost.series = m.series;
			snprintf(measured[2], 160, "measured: phases.csv's end: comparisons%s",
				 m.returned ? ", the return" : " (the return not recorded yet)");
		} else {
			snprintf(measured[2], 160, "assumed (phases.csv has no end): comparisons, the kexec back; --series-seconds");
		}
		sources[3] = measured[2];
	}
}

int cmd_plan(int argc, char **argv)
{
	/* the cost options, in the order of series_plan_print()'s sources */
	static const char *const cost_options[4] = {
		"boot-seconds", "invocation-seconds", "repetition-seconds",
		"series-seconds",
	};
	struct plan_options o = {
		.req = {
			.half_width = DEFAULT_PRECISION, .level = 0.95,
			.max_boots = DEFAULT_MAX_BOOTS, .max_invocations = 1,
			.min_repetitions = 3,
			.max_repetitions = DEFAULT_MAX_REPETITIONS,
			.cost = { .boot = DEFAULT_BOOT_SECONDS,
				  .invocation = DEFAULT_INVOCATION_SECONDS,
				  .repetition = NAN,
				  .series = DEFAULT_SERIES_SECONDS },
		},
	};
	struct series_plan_request *req = &o.req;
	const char *sources[4] = {
		"assumed: kexec and settling; --boot-seconds",
		"assumed: start, module, sizing; --invocation-seconds",
		"the runs' timed samples, a lower bound; --repetition-seconds",
		"assumed: comparisons, the kexec back; --series-seconds",
	};
	int given[4] = { 0 };
	char measured[3][160];
	struct phases_csv phases = { 0 };
	struct option_result r;
	struct series_plan_inputs in;
	struct series_plan plan;
	struct run_dir *runs = NULL;
	const struct run_dir **view = NULL;
	char err[1024];
	size_t count, loaded = 0;
	int rc = 1;

	if (options_parse(&plan_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&plan_table, err);
	if (r.help) {
		options_usage(stdout, &plan_table);
		return 0;
	}
	for (size_t i = 0; i < 4; i++)
		if ((given[i] = options_given(&plan_table, &r, cost_options[i])))
			sources[i] = "given";
	if (argc - r.first < 2)
		return options_refuse(&plan_table,
				      "needs two or more runs, of two or more boots of one SMAP state");
	if (o.phases && phases_csv_load(o.phases, &phases, err, sizeof(err))) {
		fprintf(stderr, "smapbench plan: --phases: %s\n", err);
		return 1;
	}
	count = (size_t)(argc - r.first);
	runs = calloc(count, sizeof(*runs));
	view = calloc(count, sizeof(*view));
	if (!runs || !view) {
		fprintf(stderr, "smapbench plan: out of memory\n");
		goto out;
	}
	for (; loaded < count; loaded++) {
		if (run_input_load("plan", argv[r.first + (int)loaded],
				   "a plan needs run directories with context.csv",
				   &runs[loaded]))
			goto out;
		view[loaded] = &runs[loaded];
	}
	if (series_plan_from_runs(view, count, o.rows, &in, err, sizeof(err))) {
		fprintf(stderr, "smapbench plan: %s\n", err);
		goto out;
	}
	if (isnan(req->cost.repetition))
		req->cost.repetition = in.repetition_seconds;
	if (o.phases)
		take_measured(&phases, &in, given, req, measured, sources);
	req->rows = in.rows;
	req->row_count = in.count;
	if (!(req->cost.repetition > 0)) {
		fprintf(stderr, "smapbench plan: the runs give no repetition time (no results.csv with iterations and median_ns): give --repetition-seconds\n");
	} else if (series_plan_make(req, &plan)) {
		fprintf(stderr, "smapbench plan: these components and limits cannot be planned\n");
	} else {
		series_plan_print(stdout, &in, req, &plan, sources);
		rc = plan.feasible ? 0 : 1;
	}
	series_plan_inputs_free(&in);
out:
	phases_csv_free(&phases);
	for (size_t i = 0; i < loaded; i++)
		rundir_free(&runs[i]);
	free(runs);
	free(view);
	return rc;
}
