// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_census.c - `smapbench census`: the instruction census
 * (docs/census.md). vm/census.sh boots each kernel in each SMAP state
 * with the census plugin and calls these:
 *
 *   measure   in the guest: every benchmark once, between markers
 *   collect   on the host: the plugin's outputs -> a run directory with
 *             census.csv, the plugin's raw output and the plot
 *   check     the oracle over a census.csv, as TAP lines
 *   table     the syscall rows as a Markdown table (for docs)
 *   exec      in a guest: the baseline and a command, between markers
 *   -- COMMAND  the census of a command (cli/census_options.c)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "census/census.h"
#include "census/command/census_command.h"
#include "cli/census_options.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "rundata/atomic_dir.h"
#include "suites/suite.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench census measure [--suite NAME] [--filter REGEX] [--quick]\n"
		"                                [--min-time SECONDS] [--samples N]\n"
		"       smapbench census collect [--out DIR] STATE=FILE...\n"
		"       smapbench census check CENSUS\n"
		"       smapbench census table CENSUS\n"
		"       smapbench census exec [--env-file F] [--output F] [--timeout S] -- COMMAND...\n"
		"       smapbench census [OPTIONS] -- COMMAND [ARGUMENT]...\n"
		"       smapbench census redraw DIR --out PARENT\n"
		"\n"
		"The instruction census: how many STAC, CLAC and POPF the kernel executes\n"
		"per operation of each benchmark, counted by the QEMU plugin of census/plugin/.\n"
		"vm/census.sh runs all of it; docs/census.md explains the counts.\n"
		"\n"
		"measure   (in a guest under the plugin) run each benchmark once between\n"
		"          markers. --suite all|syscall|kmod|bpf (default all), --filter\n"
		"          keeps names matching a POSIX extended regex, --quick leaves out\n"
		"          the extended ones, --min-time guest seconds per syscall or bpf\n"
		"          benchmark (default 0.05), --samples the kmod RUN's (default 8)\n"
		"collect   read the plugin's output of each boot, STATE one of smap,\n"
		"          clearcpuid, cpu-off, and write a run directory under --out\n"
		"          (default data/) with census.csv, census-sites.csv (where each\n"
		"          STAC ran) and plots/; prints its path\n"
		"check     the oracle on CENSUS (a census.csv or the directory holding\n"
		"          it): TAP lines; exit status 1 if any is not ok\n"
		"table     STAC, CLAC and kernel instructions per call of the syscall\n"
		"          benchmarks on each kernel's SMAP boot, as Markdown\n"
		"exec      (in a guest under the plugin) run `true`, then COMMAND, each\n"
		"          between markers, with the environment of --env-file (NUL-separated)\n"
		"          and their output in --output; what the census of a command runs\n"
		"redraw    the census directory of a command DIR drawn again by this build\n"
		"          from its raw/ and context.csv, as a new directory under PARENT\n"
		"\n"
		"The census of a command:\n\n");
	census_command_usage(f);
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "smapbench census: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see smapbench census --help)\n");
	return EXIT_USAGE;
}

/* ------------------------------------------------------------ measure */

static const struct option_def measure_options[] = {
	OPT_CHOICE("suite", "NAME", struct census_measure_options, suite,
		   suite_names, "suite", "all", "the suites to count"),
	OPT_TEXT("filter", "REGEX", struct census_measure_options, filter,
		 "expression", "only the benchmarks whose name matches (POSIX ERE)"),
	OPT_FLAG("quick", struct census_measure_options, quick,
		 "leave out the extended benchmarks"),
	OPT_NUMBER("min-time", "S", struct census_measure_options, min_time, 0,
		   60, OPTION_LOW_OPEN, "a number of seconds", "0.05",
		   "guest seconds per syscall or bpf benchmark"),
	OPT_WHOLE("samples", "N", struct census_measure_options, samples, 1,
		  4096, "a number", "8", "samples of the kmod RUN"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table measure_table = {
	.command = "census measure",
	.synopsis = "[options]",
	.about = "In a guest under the census plugin: each benchmark once, between\n"
		 "markers.\n",
	.options = measure_options,
};

static int cmd_measure(int argc, char **argv)
{
	struct census_measure_options o = {
		.suite = "all", .min_time = 0.05, .samples = 8,
	};
	struct option_result r;
	char err[256];

	if (options_parse(&measure_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&measure_table, err);
	if (r.help) {
		usage(stdout);
		return 0;
	}
	if (r.first < argc)
		return bad_usage("measure takes no argument '%s'", argv[r.first]);
	return census_measure(&o);
}

/* ------------------------------------------------------------ collect */

/* The options of collect and redraw: where the new directory goes. */
struct out_option {
	const char *out;
};

static const struct option_def collect_options[] = {
	OPT_TEXT("out", "DIR", struct out_option, out, "directory name",
		 "where the census directory goes (default data)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table collect_table = {
	.command = "census collect",
	.synopsis = "[--out DIR] STATE=FILE...",
	.options = collect_options,
};

static int cmd_collect(int argc, char **argv)
{
	struct census census = { 0 };
	struct out_option o = { "data" };
	const char *out;
	struct option_result r;
	char err[1024], written[PATH_MAX];
	int status, first;

	if (options_parse(&collect_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&collect_table, err);
	if (r.help) {
		usage(stdout);
		return 0;
	}
	out = o.out;
	first = r.first;
	if (first == argc)
		return bad_usage("%s", "collect needs STATE=FILE arguments, one per boot");
	for (int i = first; i < argc; i++) {
		char state[32];
		const char *eq = strchr(argv[i], '=');
		int known = 0;

		if (!eq || (size_t)(eq - argv[i]) >= sizeof(state))
			return bad_usage("'%s' is not STATE=FILE", argv[i]);
		snprintf(state, sizeof(state), "%.*s", (int)(eq - argv[i]), argv[i]);
		for (size_t k = 0; census_states[k]; k++)
			known |= !strcmp(census_states[k], state);
		if (!known)
			return bad_usage("'%s': the state must be smap, clearcpuid or cpu-off",
					 argv[i]);
		if (census_load_plugin_output(&census, state, eq + 1, err, sizeof(err))) {
			fprintf(stderr, "smapbench census: %s\n", err);
			census_free(&census);
			return 1;
		}
	}
	/* An interruption removes the directory being built, and gnuplot. */
	atomic_dir_cleanup_on_signals();
	status = census_write_dir(&census, argv + first, argc - first, out,
				  written, sizeof(written), err, sizeof(err)) ? 1 : 0;
	if (status)
		fprintf(stderr, "smapbench census: %s\n", err);
	else
		printf("census directory: %s\n", written);
	census_free(&census);
	return status;
}

/* ------------------------------------------------------------ check, table */

static int load_census(const char *path, struct census *c)
{
	char file[PATH_MAX], err[1024];
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, "smapbench census: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/census.csv", path);
	else
		snprintf(file, sizeof(file), "%s", path);
	if (census_load_csv(c, file, err, sizeof(err))) {
		fprintf(stderr, "smapbench census: %s\n", err);
		return -1;
	}
	if (!c->count) {
		fprintf(stderr, "smapbench census: %s has no rows\n", file);
		return -1;
	}
	return 0;
}

static int cmd_check_or_table(int argc, char **argv, int table)
{
	struct census c = { 0 };
	int failures;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 2)
		return bad_usage("%s needs one census.csv or census directory",
				 argv[0]);
	if (load_census(argv[1], &c))
		return 1;
	if (table) {
		census_table(&c, stdout);
		census_free(&c);
		return 0;
	}
	failures = census_check(&c, stdout);
	census_free(&c);
	return failures ? 1 : 0;
}

/* ------------------------------------------------------------ a command */

static int cmd_exec(int argc, char **argv)
{
	struct census_exec_options o;
	int rc = census_exec_parse_options(argc, argv, &o);

	if (rc == 1) {
		usage(stdout);
		return 0;
	}
	return rc ? rc : census_exec(&o);
}

static int cmd_command(int argc, char **argv)
{
	struct census_command_options o;
	int rc = census_command_parse_options(argc, argv, &o);

	if (!rc)
		rc = census_command(&o);
	else if (rc == 1)
		rc = 0;
	free(o.kernels);
	return rc;
}

static const struct option_def redraw_options[] = {
	OPT_TEXT("out", "PARENT", struct out_option, out, "directory name",
		 "where the new census directory goes"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table redraw_table = {
	.command = "census redraw",
	.synopsis = "DIR --out PARENT",
	.options = redraw_options,
};

static int cmd_redraw(int argc, char **argv)
{
	char written[PATH_MAX], err[2048];
	struct out_option o = { NULL };
	struct option_result r;
	const char *out, *dir;

	if (options_parse(&redraw_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&redraw_table, err);
	if (r.help) {
		usage(stdout);
		return 0;
	}
	if (argc - r.first > 1)
		return bad_usage("redraw takes one census directory and --out DIR, not '%s'",
				 argv[r.first + 1]);
	out = o.out;
	dir = r.first < argc ? argv[r.first] : NULL;
	if (!dir || !out)
		return bad_usage("%s", "redraw needs a census directory of a command and --out DIR");
	atomic_dir_cleanup_on_signals();
	if (census_command_redraw(dir, out, written, sizeof(written), err,
				  sizeof(err))) {
		fprintf(stderr, "smapbench census: %s\n", err);
		return 1;
	}
	printf("census directory: %s\n", written);
	return 0;
}

int cmd_census(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (argv[1][0] == '-')
		return cmd_command(argc, argv);
	if (!strcmp(argv[1], "measure"))
		return cmd_measure(argc - 1, argv + 1);
	if (!strcmp(argv[1], "collect"))
		return cmd_collect(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check_or_table(argc - 1, argv + 1, 0);
	if (!strcmp(argv[1], "table"))
		return cmd_check_or_table(argc - 1, argv + 1, 1);
	if (!strcmp(argv[1], "exec"))
		return cmd_exec(argc - 1, argv + 1);
	if (!strcmp(argv[1], "redraw"))
		return cmd_redraw(argc - 1, argv + 1);
	return bad_usage("no census command '%s' (measure, collect, check, table, exec, redraw; or -- COMMAND for the census of a command)",
			 argv[1]);
}
