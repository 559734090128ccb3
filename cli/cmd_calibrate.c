// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_calibrate.c - `smapbench calibrate RUN...`: the machine's boot
 * variance from runs of one state over two or more boots
 * (analysis/calibrate_dir.h).
 */
#include <getopt.h>
#include <stdio.h>

#include "analysis/calibrate_dir.h"
#include "cli/commands.h"

static void calibrate_usage(FILE *f)
{
	fputs("usage: smapbench calibrate RUN RUN... [--out FILE]\n"
	      "\n"
	      "How much two boots of this machine differ (sigma_u, the sd between\n"
	      "boots on the log scale), from runs of one SMAP state over two or\n"
	      "more boots (context boot_id), e.g. run-bench.sh --boots N of one\n"
	      "state. compare holds 2 sigma_u^2 in every interval: with a\n"
	      "calibration it can also call rows `same`.\n"
	      "  --out FILE  where to write it (default: calibration.csv in the\n"
	      "              directory holding the first RUN, where compare looks)\n", f);
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			calibrate_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "smapbench calibrate: %s needs a value\n\n",
				argv[optind - 1]);
			calibrate_usage(stderr);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "smapbench calibrate: unknown option '%s'\n\n",
				argv[optind - 1]);
			calibrate_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "smapbench calibrate: needs two or more runs, of "
			"two or more boots\n\n");
		calibrate_usage(stderr);
		return EXIT_USAGE;
	}
	return calibrate_write_runs("calibrate", argv + optind,
				    (size_t)(argc - optind), out);
}
