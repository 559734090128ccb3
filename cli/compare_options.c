// SPDX-License-Identifier: GPL-2.0
/* compare_options.c - compare's command line; see compare_options.h. */
#include "cli/compare_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "cli/commands.h"

static void compare_usage(FILE *f, const char *name)
{
	fprintf(f,
		"usage: smapbench %s RUN_A RUN_B [--out DIR] [--alpha A] [--margin PCT]\n"
		"       [--seed N] [--resamples N] [--force] [--no-plots]\n"
		"\n"
		"Pairs the benchmarks of two runs by name and reports, per pair, each\n"
		"side's mean of repetition medians, B-A in the unit, in ns and in percent,\n"
		"a hierarchical bootstrap CI of B-A, a permutation p-value over the\n"
		"repetitions, its Benjamini-Hochberg q-value and a verdict for B:\n"
		"faster/slower (CI excludes 0 and q <= A), same (CI within +-PCT%% of A),\n"
		"inconclusive, or unknown (fewer than %d repetitions a side).\n"
		"RUN is a run directory or a Google Benchmark JSON file. Put the SMAP-off\n"
		"run first: deltas are then SMAP's cost.\n"
		"\n"
		"  --out DIR    output directory (default: compare-A-vs-B next to RUN_A);\n"
		"               an existing DIR is replaced only if smapbench compare\n"
		"               wrote it, anything else is refused (status 2)\n"
		"  --alpha A    CI level 1-A and FDR level A, 0.001 <= A < 0.5 (default 0.05)\n"
		"  --margin PCT equivalence margin for \"same\", in percent of A's\n"
		"               center, 0 < PCT <= 100 (default %g)\n"
		"  --seed N     seed of the bootstrap and permutations (default %llu)\n"
		"  --resamples N  bootstrap resamples, %d..10000000 (default %d)\n"
		"  --force      compare runs of different machines, CPUs, microcode,\n"
		"               kernels, counters or virtualisation anyway (it never\n"
		"               lets compare replace a directory it did not write)\n"
		"  --no-plots   write compare.csv%s only, no plots/\n",
		name, COMPARE_MIN_REPETITIONS, 100 * COMPARE_DEFAULT_MARGIN,
		(unsigned long long)COMPARE_DEFAULT_SEED, COMPARE_MIN_RESAMPLES,
		COMPARE_DEFAULT_RESAMPLES,
		strcmp(name, "report") ? "" : " and report.md");
}

int compare_parse_options(int argc, char **argv, struct compare_options *o)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "margin", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "resamples", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = argv[0], *out = NULL;
	struct compare_settings set = compare_default_settings();
	int force = 0, plots = 1, opt;
	unsigned long long number;
	double percent;
	char *end;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:a:m:s:r:fnh", longopts, NULL)) != -1) {
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
		case 's':
		case 'r':
			errno = 0;
			number = strtoull(optarg, &end, 10);
			if (errno || *end || end == optarg || *optarg == '-' ||
			    (opt == 'r' && (number < COMPARE_MIN_RESAMPLES ||
					    number > 10000000))) {
				if (opt == 's')
					fprintf(stderr, "smapbench %s: --seed '%s' is "
						"not an integer in [0, 2^64)\n", name,
						optarg);
				else
					fprintf(stderr, "smapbench %s: --resamples '%s' "
						"is not an integer in [%d, 10000000]\n",
						name, optarg, COMPARE_MIN_RESAMPLES);
				return EXIT_USAGE;
			}
			if (opt == 's')
				set.seed = number;
			else
				set.resamples = (unsigned)number;
			break;
		case 'f':
			force = 1;
			break;
		case 'n':
			plots = 0;
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
	if (argc - optind != 2) {
		fprintf(stderr, "smapbench %s: needs two runs, got %d\n\n", name,
			argc - optind);
		compare_usage(stderr, name);
		return EXIT_USAGE;
	}
	*o = (struct compare_options){
		.request = { .who = name, .run_a = argv[optind],
			     .run_b = argv[optind + 1], .out = out,
			     .settings = set, .force = force, .plots = plots },
	};
	return 0;
}
