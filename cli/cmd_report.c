// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - `smapbench report RUN_A [RUN_B]`: report.md
 * (analysis/report_md.h). One run: RUN/report.md, linking
 * RUN/plots/ when `smapbench plot` made them. Two runs: the comparison
 * directory of `smapbench compare` (made afresh, plots included) with
 * report.md in it. `--headline RUN`: what the run says about SMAP, then
 * the headline rows, printed.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/answer.h"
#include "analysis/report_md.h"
#include "cli/commands.h"
#include "cli/compare_options.h"

static void report_usage(FILE *f)
{
	fputs("usage: smapbench report RUN\n"
	      "       smapbench report --headline RUN\n"
	      "       smapbench report RUN_A RUN_B [--out DIR] [--alpha A] [--margin PCT]\n"
	      "       [--calibration FILE | --no-calibration] [--census DIR] [--force]\n"
	      "       [--no-plots] [--fail-on VERDICTS]\n"
	      "\n"
	      "One run: writes RUN/report.md (warnings, what the run says about SMAP,\n"
	      "headline numbers, STAC/CLAC tables, links to RUN/plots/, all results,\n"
	      "row flags, context); an existing report.md is replaced only if\n"
	      "smapbench wrote it.\n"
	      "Two runs: does what 'smapbench compare' does (compare.csv, plots)\n"
	      "and writes report.md into the comparison directory; the options are\n"
	      "compare's (smapbench compare --help).\n"
	      "--headline: prints what RUN says about SMAP (the pair's cost per\n"
	      "access, or the bpf upper bound; skipped suites; the next step), then\n"
	      "the headline rows of RUN, one line each (center in ns, 95% CI in ns,\n"
	      "cycles where the run's calibration gives them, flags, outliers), and\n"
	      "writes nothing.\n", f);
}

int cmd_report(int argc, char **argv)
{
	struct compare_options o;
	const char *option = NULL;
	int positional = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			report_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--headline")) {
			const char *path = argc == 3 ? argv[i == 1 ? 2 : 1] : "-";

			if (path[0] == '-') {
				fprintf(stderr, "smapbench report: --headline takes one RUN and no other option\n");
				return EXIT_USAGE;
			}
			return answer_print_run("report", path);
		}
		if (argv[i][0] != '-') {
			positional++;
			continue;
		}
		if (!option)
			option = argv[i];
		/* options with a value: the value is not a run */
		if ((!strcmp(argv[i], "--out") || !strcmp(argv[i], "--alpha") ||
		     !strcmp(argv[i], "--calibration") || !strcmp(argv[i], "--census") ||
		     !strcmp(argv[i], "--margin") || !strcmp(argv[i], "--fail-on")) &&
		    i + 1 < argc)
			i++;
	}
	if (positional == 2) {
		int rc = compare_parse_options(argc, argv, &o);

		if (rc || o.help)
			return rc;
		o.request.report = 1;
		return compare_dir_write(&o.request);
	}
	if (positional == 0)
		fprintf(stderr, "smapbench report: needs a run directory, or two "
			"runs to compare\n\n");
	else if (positional > 2)
		fprintf(stderr, "smapbench report: takes one run or two, got %d\n\n",
			positional);
	else if (option)
		fprintf(stderr, "smapbench report: option '%s' applies to a "
			"comparison of two runs only\n\n", option);
	if (positional != 1 || option) {
		report_usage(stderr);
		return EXIT_USAGE;
	}
	return report_write_run("report", argv[1]);
}
