// SPDX-License-Identifier: GPL-2.0
/* compare_options.c - compare's command line; see compare_options.h. */
#include "cli/compare_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_stats.h"
#include "analysis/compare_write.h"
#include "cli/commands.h"

static void compare_usage(FILE *f, const char *name)
{
	fprintf(f,
		"usage: smapbench %s RUN_A RUN_B [--out DIR] [--alpha A] [--margin PCT]\n"
		"       [--calibration FILE | --no-calibration] [--census DIR] [--force]\n"
		"       [--no-plots] [--fail-on VERDICTS]\n"
		"\n"
		"Pairs the benchmarks of two runs by name and reports, per pair, each\n"
		"side's mean of repetition medians, B-A in the unit, in ns and in percent,\n"
		"the t interval of B/A on the log scale, its variance each side's\n"
		"repetitions' plus 2 sigma_u^2 for two boots, its p-value and\n"
		"Benjamini-Hochberg q-value and a verdict for B: faster/slower (the\n"
		"whole CI beyond +-PCT%% of A, and q <= A), same (equivalent within\n"
		"+-PCT%% by two one-sided tests; calibrated only), inconclusive, or\n"
		"unknown (fewer than %d repetitions a side). Without a calibration\n"
		"sigma_u is assumed %g%%.\n"
		"RUN is a run directory or a Google Benchmark JSON file. Put the SMAP-off\n"
		"run first: deltas are then SMAP's cost; with the SMAP run first they are\n"
		"minus it (\"order reversed\"), and of two runs of one SMAP state they\n"
		"are noise or drift (\"A/A comparison\"), as the output says. A side may\n"
		"be several runs, RUN_A1,RUN_A2,..., each a boot of its own and all of\n"
		"one SMAP state: their boots then tell sigma_u. Writes compare.csv and\n"
		"compare.json (docs/schema.md).\n"
		"\n"
		"  --out DIR    output directory (default: compare-A-vs-B next to RUN_A);\n"
		"               an existing DIR is replaced only if smapbench compare\n"
		"               wrote it, anything else is refused (status 2)\n"
		"  --alpha A    CI level 1-A and FDR level A, 0.001 <= A < 0.5 (default 0.05)\n"
		"  --margin PCT the relevance threshold, in percent of A's center: a smaller\n"
		"               difference is never faster/slower, 0 < PCT <= 100\n"
		"               (default %g)\n"
		"  --calibration FILE  sigma_u from FILE (smapbench calibrate); by default\n"
		"               calibration.csv beside RUN_A, if it is of their machine\n"
		"               and kernel\n"
		"  --no-calibration    assume sigma_u, whatever calibration there is\n"
		"  --census DIR the census of the SMAP run's kernel, for the pair's cost\n"
		"               from the two boots (default: a census directory beside\n"
		"               the SMAP run that has its kernel)\n"
		"  --force      compare runs of different machines, CPUs, microcode,\n"
		"               kernels, counters or virtualisation, or an interrupted\n"
		"               run, anyway (it never lets compare replace a directory\n"
		"               it did not write)\n"
		"  --no-plots   write compare.csv, compare.json%s only, no plots/\n"
		"  --fail-on VERDICTS  comma-separated verdicts (slower, faster, same,\n"
		"               inconclusive, unknown): exit with status %d when any row\n"
		"               has one, after writing everything\n"
		"\n"
		"Exit status: 0 (whatever the verdicts without --fail-on), 1 error,\n"
		"2 bad command line or an output directory not compare's, %d a row\n"
		"with a --fail-on verdict.\n",
		name, COMPARE_MIN_REPETITIONS, 100 * COMPARE_DEFAULT_BOOT_SD,
		100 * COMPARE_DEFAULT_MARGIN,
		strcmp(name, "report") ? "" : " and report.md",
		COMPARE_EXIT_FAIL_ON, COMPARE_EXIT_FAIL_ON);
}

int compare_parse_options(int argc, char **argv, struct compare_options *o)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "margin", required_argument, NULL, 'm' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "calibration", required_argument, NULL, 'c' },
		{ "no-calibration", no_argument, NULL, 'C' },
		{ "census", required_argument, NULL, 'k' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = argv[0], *out = NULL, *calibration = NULL, *census = NULL;
	struct compare_settings set = compare_default_settings();
	int force = 0, plots = 1, no_calibration = 0, opt;
	unsigned fail_on = 0;
	char bad[64];
	double percent;
	char *end;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:a:m:c:Ck:F:fnh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!*optarg) {
				fprintf(stderr, "smapbench %s: --out: empty directory "
					"name\n", name);
				return EXIT_USAGE;
			}
			out = optarg;
			break;
		case 'a':
			errno = 0;
			set.alpha = strtod(optarg, &end);
			if (errno || *end || end == optarg ||
			    !(set.alpha >= 0.001 && set.alpha < 0.5)) {
				fprintf(stderr, "smapbench %s: --alpha '%s' is not a "
					"number in [0.001, 0.5)\n", name, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'm':
			errno = 0;
			percent = strtod(optarg, &end);
			if (errno || *end || end == optarg ||
			    !(percent > 0 && percent <= 100)) {
				fprintf(stderr, "smapbench %s: --margin '%s' is not a "
					"percentage in (0, 100]\n", name, optarg);
				return EXIT_USAGE;
			}
			set.margin = percent / 100;
			break;
		case 'f':
			force = 1;
			break;
		case 'n':
			plots = 0;
			break;
		case 'c':
			if (!*optarg) {
				fprintf(stderr, "smapbench %s: --calibration: empty "
					"file name\n", name);
				return EXIT_USAGE;
			}
			calibration = optarg;
			break;
		case 'C':
			no_calibration = 1;
			break;
		case 'k':
			if (!*optarg) {
				fprintf(stderr, "smapbench %s: --census: empty "
					"directory name\n", name);
				return EXIT_USAGE;
			}
			census = optarg;
			break;
		case 'F':
			if (compare_verdict_mask(optarg, &fail_on, bad, sizeof(bad))) {
				fprintf(stderr, "smapbench %s: --fail-on: '%s' is not a "
					"verdict (slower, faster, same, inconclusive, "
					"unknown, separated by commas)\n", name, bad);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			compare_usage(stdout, name);
			*o = (struct compare_options){ .help = 1 };
			return 0;
		case ':':
			fprintf(stderr, "smapbench %s: option '%s' needs a value\n\n",
				name, argv[optind - 1]);
			compare_usage(stderr, name);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "smapbench %s: unknown option '%s'\n\n",
				name, argv[optind - 1]);
			compare_usage(stderr, name);
			return EXIT_USAGE;
		}
	}
	if (calibration && no_calibration) {
		fprintf(stderr, "smapbench %s: --calibration and --no-calibration "
			"exclude each other\n\n", name);
		compare_usage(stderr, name);
		return EXIT_USAGE;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "smapbench %s: needs two runs, got %d\n\n", name,
			argc - optind);
		compare_usage(stderr, name);
		return EXIT_USAGE;
	}
	*o = (struct compare_options){
		.request = { .who = name, .run_a = argv[optind],
			     .run_b = argv[optind + 1], .out = out,
			     .settings = set, .force = force, .plots = plots,
			     .calibration = calibration,
			     .no_calibration = no_calibration,
			     .census = census, .fail_on = fail_on },
	};
	return 0;
}
