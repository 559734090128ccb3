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

int cmd_report(int argc, char **argv)
{
	struct compare_options o;
	int rc;

	/* --headline RUN: a mode of its own, which prints and writes nothing */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--headline"))
			continue;
		if (argc != 3 || argv[i == 1 ? 2 : 1][0] == '-') {
			fprintf(stderr, "smapbench report: --headline takes one RUN and no other option\n");
			return EXIT_USAGE;
		}
		return answer_print_run("report", argv[i == 1 ? 2 : 1]);
	}
	rc = compare_parse_options(argc, argv, &o);
	if (rc || o.help)
		return rc;
	if (o.runs == 1)
		return report_write_run("report", o.request.runs_a[0]);
	o.request.report = 1;
	return compare_dir_write(&o.request);
}
