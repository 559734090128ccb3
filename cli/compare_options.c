// SPDX-License-Identifier: GPL-2.0
/* compare_options.c - compare's command line; see compare_options.h. */
#include "cli/compare_options.h"

#include <stdio.h>
#include <string.h>

#include "analysis/compare_stats.h"
#include "cli/commands.h"
#include "cli/options.h"

int compare_verdict_mask(const char *list, unsigned *mask, char *bad,
			 size_t badlen)
{
	*mask = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		int v;

		for (v = 0; v < COMPARE_VERDICTS; v++)
			if (len && strlen(compare_verdict_name(v)) == len &&
			    !strncmp(p, compare_verdict_name(v), len))
				break;
		if (v == COMPARE_VERDICTS) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -1;
		}
		*mask |= 1u << v;
		p += len;
		if (!*p)
			return 0;
	}
}

size_t compare_split_runs(char *list, const char **paths)
{
	size_t n = 0;

	for (char *p = list;; p++) {
		char *comma = strchr(p, ',');

		if (n == COMPARE_MAX_RUNS_A_SIDE)
			return 0;
		paths[n++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma;
	}
	for (size_t i = 0; i < n; i++)
		if (!*paths[i])
			return 0;
	return n;
}

/* What the table parses into, besides the request. */
struct parsed {
	struct compare_options o;
	double margin_percent;
	int no_plots;
};

static int take_fail_on(const char *value, void *values, char *err,
			size_t errlen)
{
	struct parsed *p = values;
	char bad[64];

	if (!compare_verdict_mask(value, &p->o.request.fail_on, bad, sizeof(bad)))
		return 0;
	snprintf(err, errlen, "--fail-on: '%s' is not a verdict (slower, faster, "
		 "same, inconclusive, unknown, separated by commas)", bad);
	return -1;
}

static const struct option_def compare_options[] = {
	OPT_TEXT("out", "DIR", struct parsed, o.request.out, "directory name",
		 "output directory (default: compare-A-vs-B next to RUN_A);\n"
		 "an existing DIR is replaced only if smapbench compare\n"
		 "wrote it, anything else is refused (status 2)"),
	OPT_NUMBER("alpha", "A", struct parsed, o.request.settings.alpha, 0.001,
		   0.5, OPTION_HIGH_OPEN, "a number", "0.05",
		   "CI level 1-A and FDR level A"),
	OPT_NUMBER("margin", "PCT", struct parsed, margin_percent, 0, 100,
		   OPTION_LOW_OPEN, "a percentage", NULL,
		   "the relevance threshold, in percent of A's center: a\n"
		   "smaller difference is never faster/slower"),
	OPT_TEXT("calibration", "FILE", struct parsed, o.request.calibration,
		 "file name",
		 "sigma_u from FILE (smapbench calibrate); by default\n"
		 "calibration.csv beside RUN_A, if it is of their machine\n"
		 "and kernel"),
	OPT_FLAG("no-calibration", struct parsed, o.request.no_calibration,
		 "assume sigma_u, whatever calibration there is"),
	OPT_TEXT("census", "DIR", struct parsed, o.request.census,
		 "directory name",
		 "the census of the SMAP run's kernel, for the pair's cost\n"
		 "from the two boots (default: a census directory beside\n"
		 "the SMAP run that has its kernel)"),
	OPT_FLAG("force", struct parsed, o.request.force,
		 "compare runs of different machines, CPUs, microcode,\n"
		 "kernels, counters or virtualisation, or an interrupted\n"
		 "run, anyway (it never lets compare replace a directory\n"
		 "it did not write)"),
	OPT_FLAG("no-plots", struct parsed, no_plots,
		 "write compare.csv, compare.json (and report.md) only, no\n"
		 "plots/"),
	OPT_CALL("fail-on", "VERDICTS", take_fail_on,
		 "comma-separated verdicts (slower, faster, same,\n"
		 "inconclusive, unknown): exit with the status below when\n"
		 "any row has one, after writing everything"),
	OPT_HELP(),
	OPT_END(),
};

static void compare_about(FILE *f)
{
	fprintf(f,
		"Pairs the benchmarks of two runs by name and reports, per pair, each\n"
		"side's mean of repetition medians, B-A in the unit, in ns and in percent,\n"
		"the t interval of B/A on the log scale, its variance each side's\n"
		"repetitions' plus 2 sigma_u^2 for two boots, its p-value and\n"
		"Benjamini-Hochberg q-value and a verdict for B: faster/slower (the\n"
		"whole CI beyond +-PCT%% of A, and q <= A), same (equivalent within\n"
		"+-PCT%% by two one-sided tests; calibrated only), inconclusive, or\n"
		"unknown (fewer than %d repetitions a side). Without a calibration\n"
		"sigma_u is assumed %g%%. --margin PCT is %g unless given.\n"
		"RUN is a run directory or a Google Benchmark JSON file. Put the SMAP-off\n"
		"run first: deltas are then SMAP's cost; with the SMAP run first they are\n"
		"minus it (\"order reversed\"), and of two runs of one SMAP state they\n"
		"are noise or drift (\"A/A comparison\"), as the output says. A side may\n"
		"be several runs, RUN_A1,RUN_A2,..., each a boot of its own and all of\n"
		"one SMAP state: their boots then tell sigma_u. Writes compare.csv and\n"
		"compare.json (docs/schema.md).\n",
		COMPARE_MIN_REPETITIONS, 100 * COMPARE_DEFAULT_BOOT_SD,
		100 * COMPARE_DEFAULT_MARGIN);
}

static void compare_after(FILE *f)
{
	fprintf(f, "Exit status: 0 (whatever the verdicts without --fail-on), 1 error,\n"
		"2 bad command line or an output directory not compare's, %d a row\n"
		"with a --fail-on verdict.\n", COMPARE_EXIT_FAIL_ON);
}

static const struct option_table compare_table = {
	.command = "compare",
	.synopsis = "RUN_A RUN_B [options]",
	.describe = compare_about,
	.options = compare_options,
	.describe_after = compare_after,
};

static const struct option_table report_table = {
	.command = "report",
	.synopsis = "RUN\n--headline RUN\nRUN_A RUN_B [options]",
	.about =
		"One run: writes RUN/report.md (warnings, what the run says about SMAP,\n"
		"headline numbers, STAC/CLAC tables, links to RUN/plots/, all results,\n"
		"row flags, context); an existing report.md is replaced only if\n"
		"smapbench wrote it. The options are for two runs only.\n"
		"--headline: prints what RUN says about SMAP (its boot's SMAP state,\n"
		"the pair's cost per access, or the bpf upper bound; skipped suites;\n"
		"the next step), then the headline rows of RUN, one line each (center\n"
		"in ns, 95% CI in ns, cycles where the run's calibration gives them,\n"
		"flags, outliers), and writes nothing.\n"
		"Two runs: does what 'smapbench compare' does (compare.csv, plots)\n"
		"and writes report.md into the comparison directory, with compare's\n"
		"options (smapbench compare --help says what they compute).\n",
	.options = compare_options,
	.describe_after = compare_after,
};

void compare_usage(FILE *f, const char *command)
{
	options_usage(f, strcmp(command, "report") ? &compare_table : &report_table);
}

int compare_parse_options(int argc, char **argv, struct compare_options *o)
{
	const char *name = argv[0];
	int report = !strcmp(name, "report");
	const struct option_table *t = report ? &report_table : &compare_table;
	struct parsed p = { .o.request.settings = compare_default_settings() };
	struct option_result r;
	char err[256];
	int runs, any = 0;

	p.margin_percent = 100 * p.o.request.settings.margin;
	if (options_parse(t, argc, argv, &p, &r, err, sizeof(err)))
		return options_refuse(t, err);
	if (r.help) {
		compare_usage(stdout, name);
		*o = (struct compare_options){ .help = 1 };
		return 0;
	}
	runs = argc - r.first;
	for (size_t i = 0; i < sizeof(r.given); i++)
		any |= r.given[i];
	if (p.o.request.calibration && p.o.request.no_calibration) {
		snprintf(err, sizeof(err), "--calibration and --no-calibration exclude each other");
	} else if (report && runs == 1 && any) {
		snprintf(err, sizeof(err), "the options apply to a comparison of two runs only");
	} else if (report && (runs < 1 || runs > 2)) {
		snprintf(err, sizeof(err), runs ? "takes one run or two, got %d" :
			 "needs a run directory, or two runs to compare", runs);
	} else if (!report && runs != 2) {
		snprintf(err, sizeof(err), "needs two runs, got %d", runs);
	} else {
		*o = p.o;
		o->runs = runs;
		o->request.who = name;
		o->request.settings.margin = p.margin_percent / 100;
		o->request.plots = !p.no_plots;
		if (runs == 1) {	/* report RUN: a run, not a list */
			o->request.runs_a[0] = argv[r.first];
			o->request.na = 1;
			return 0;
		}
		o->request.na = compare_split_runs(argv[r.first], o->request.runs_a);
		o->request.nb = compare_split_runs(argv[r.first + 1],
						   o->request.runs_b);
		if (o->request.na && o->request.nb)
			return 0;
		fprintf(stderr, "smapbench %s: a side is one run or a "
			"comma-separated list of 1 to %d runs, without empty "
			"names\n", name, COMPARE_MAX_RUNS_A_SIDE);
		return EXIT_USAGE;
	}
	return options_refuse(t, err);
}
