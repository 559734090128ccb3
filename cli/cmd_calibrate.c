// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_calibrate.c - `smapbench calibrate RUN...`: the machine's boot
 * variance from runs of one state over two or more boots
 * (analysis/calibrate_dir.h).
 */
#include <stdio.h>

#include "analysis/calibrate_dir.h"
#include "cli/commands.h"
#include "cli/options.h"

struct calibrate_options {
	const char *out;
};

static const struct option_def calibrate_options[] = {
	OPT_TEXT("out", "FILE", struct calibrate_options, out, "file name",
		 "where to write it (default: calibration.csv in the directory\n"
		 "holding the first RUN, where compare looks)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table calibrate_table = {
	.command = "calibrate",
	.synopsis = "RUN RUN... [--out FILE]",
	.about = "How much two boots of this machine differ (sigma_u, the sd between\n"
		 "boots on the log scale), from runs of one SMAP state over two or\n"
		 "more boots (context boot_id), e.g. run-bench.sh --boots N of one\n"
		 "state. compare holds 2 sigma_u^2 in every interval: with a\n"
		 "calibration it can also call rows `same`.\n",
	.options = calibrate_options,
};

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_options o = { 0 };
	struct option_result r;
	char err[256];

	if (options_parse(&calibrate_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&calibrate_table, err);
	if (r.help) {
		options_usage(stdout, &calibrate_table);
		return 0;
	}
	if (argc - r.first < 2)
		return options_refuse(&calibrate_table, "needs two or more runs, of two or more boots");
	return calibrate_write_runs("calibrate", argv + r.first,
				    (size_t)(argc - r.first), o.out);
}
