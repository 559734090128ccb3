// SPDX-License-Identifier: GPL-2.0
/* census_options.c - the census of a command's command line; see census_options.h. */
#include "cli/census_options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/table.h"
#include "census/census.h"
#include "cli/commands.h"
#include "cli/options.h"

#define DEFAULT_TABLE "data/table/table.csv"
/* where this machine's runs and comparisons are, for its pair's cost */
#define DEFAULT_RUNS "data"
/*
 * The table's first cell: the catalogue's first op with one, get_user at
 * 8 B (suites/kmod/sweep.h), whose pair a syscall's user access pays.
 */
#define DEFAULT_FIGURE (table_cells()[0].id)
#define DEFAULT_STATES "smap,clearcpuid"
#define DEFAULT_TIMEOUT 1800
#define DEFAULT_NATIVE_RUNS 3
#define DEFAULT_TOP 10
#define MAX_TOP 64

/* What the table parses into, besides the options. */
struct parsed {
	struct census_command_options o;
	const char *pair_ci;
};

static int take_kernel(const char *value, void *values, char *err,
		       size_t errlen)
{
	struct parsed *p = values;

	if (access(value, R_OK)) {
		snprintf(err, errlen, "--kernel %s: no readable file there", value);
		return -1;
	}
	p->o.kernels[p->o.nkernels++] = (char *)value;
	return 0;
}

static int take_states(const char *value, void *values, char *err,
		       size_t errlen)
{
	struct parsed *p = values;
	char copy[256], *save = NULL;
	int valid = *value && strlen(value) < sizeof(copy) &&
		    value[strlen(value) - 1] != ',' && value[0] != ',' &&
		    !strstr(value, ",,");

	snprintf(copy, sizeof(copy), "%s", value);
	for (char *s = strtok_r(copy, ",", &save); valid && s;
	     s = strtok_r(NULL, ",", &save)) {
		int known = 0;

		for (size_t k = 0; census_states[k]; k++)
			known |= !strcmp(census_states[k], s);
		valid = known;
	}
	if (!valid) {
		snprintf(err, errlen, "--states '%s': a comma-separated list of smap, clearcpuid and cpu-off",
			 value);
		return -1;
	}
	p->o.states = value;
	return 0;
}

static const struct option_def command_options[] = {
	OPT_CALL("kernel", "PATH", take_kernel,
		 "kernel image to boot; repeat for more (default: Debian's 6.1\n"
		 "and 6.12, those installed)"),
	OPT_CALL("states", "LIST", take_states,
		 "of smap, clearcpuid, cpu-off (default " DEFAULT_STATES ")"),
	OPT_NUMBER("timeout", "S", struct parsed, o.timeout, 0, 86400,
		   OPTION_LOW_OPEN, "a number of seconds",
		   OPTION_TEXT_OF(DEFAULT_TIMEOUT),
		   "seconds COMMAND may take, natively and in each guest, where\n"
		   "TCG makes it 10 to 100 times slower"),
	OPT_TEXT("out", "DIR", struct parsed, o.out, "directory name",
		 "where the census directory goes (default data)"),
	OPT_WHOLE("top", "N", struct parsed, o.top, 1, MAX_TOP, "a whole number",
		  OPTION_TEXT_OF(DEFAULT_TOP), "kernel functions in the report and the plot"),
	OPT_TEXT("cpu-row", "HOST[:KERNEL]", struct parsed, o.cost.cpu_row,
		 "row", "the estimate (pairs x cost of a pair / native time)\n"
		 "from a row of --table: its --pair-figure, in cycles\n"
		 "(converted with the row's calibration) or ns"),
	OPT_TEXT("table", "FILE", struct parsed, o.cost.table, "file name",
		 "a table.csv of smapbench table (default " DEFAULT_TABLE ")"),
	OPT_TEXT("pair-figure", "ID", struct parsed, o.cost.figure, "figure",
		 "the row's figure, one of table.csv's figure column (default:\n"
		 "the table's first, the pair of get_user at 8 B)"),
	OPT_NUMBER("pair-cycles", "N", struct parsed, o.cost.pair_cycles, 0, 1e6,
		   OPTION_LOW_OPEN, "a number of cycles", NULL,
		   "or the estimate from N core cycles per pair"),
	OPT_TEXT("pair-ci", "LO,HI", struct parsed, pair_ci, "interval",
		 "its interval"),
	OPT_NUMBER("ghz", "G", struct parsed, o.cost.ghz, 0.05, 20,
		   OPTION_LOW_OPEN, "a frequency in GHz", NULL,
		   "core frequency for cycles (default: the row's calibration,\n"
		   "else this machine's calibration chains)"),
	OPT_TEXT("runs", "DIR", struct parsed, o.cost.runs, "directory name",
		 "where this machine's runs and comparisons are, for the\n"
		 "measured cost of a pair (default " DEFAULT_RUNS ")"),
	OPT_NUMBER("native-seconds", "S", struct parsed, o.native_seconds, 0, 1e6,
		   OPTION_LOW_OPEN, "a number of seconds", NULL,
		   "COMMAND's native wall time, given instead of measured here"),
	OPT_WHOLE("native-runs", "N", struct parsed, o.native_runs, 1,
		  CENSUS_NATIVE_MAX_RUNS, "a whole number",
		  OPTION_TEXT_OF(DEFAULT_NATIVE_RUNS),
		  "timed native runs after a warm-up"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table command_table = {
	.command = "census",
	.synopsis = "[OPTIONS] -- COMMAND [ARGUMENT]...",
	.about =
		"How many user-access windows (STAC/CLAC pairs) COMMAND opens in the kernel,\n"
		"where, and what SMAP would cost it. COMMAND runs from this machine's userland\n"
		"in a QEMU TCG guest under the census plugin, once per kernel and SMAP state,\n"
		"after `true` run the same way (the baseline, subtracted); natively it is\n"
		"timed. Writes a census directory under --out (census.csv, sites.csv,\n"
		"syscalls.csv, report.md, plots/) and prints its path. docs/census.md.\n"
		"The cost of a pair is this machine's measured one: the module's inline -\n"
		"nopad from a run of it under --runs, else a boot series' beta\n"
		"(pair-fit.csv), else --table's figure for this CPU model, else a range up\n"
		"to a bpf upper bound (docs/census.md); or given by --cpu-row or\n"
		"--pair-cycles.\n",
	.options = command_options,
	.after =
		"Exit status: 0 written; 1 COMMAND failed, was not found or took longer than\n"
		"--timeout (natively or in a guest), or a boot failed: no directory; 2 bad\n"
		"usage.\n",
	.in_order = 1,
};

void census_command_usage(FILE *f)
{
	options_usage(f, &command_table);
}

static int bad(const char *why)
{
	fprintf(stderr, "smapbench census: %s\n(see smapbench census --help)\n",
		why);
	return EXIT_USAGE;
}

int census_command_parse_options(int argc, char **argv,
				 struct census_command_options *o)
{
	struct parsed p = {
		.o = {
			.states = DEFAULT_STATES, .timeout = DEFAULT_TIMEOUT,
			.out = "data", .native_runs = DEFAULT_NATIVE_RUNS,
			.top = DEFAULT_TOP,
			.cost = { .table = DEFAULT_TABLE, .figure = DEFAULT_FIGURE,
				  .runs = DEFAULT_RUNS },
		},
	};
	struct option_result r;
	char err[512];

	p.o.kernels = calloc((size_t)argc, sizeof(*p.o.kernels));
	*o = p.o;
	if (!p.o.kernels) {
		fprintf(stderr, "smapbench census: out of memory\n");
		return 1;
	}
	if (options_parse(&command_table, argc, argv, &p, &r, err, sizeof(err))) {
		*o = p.o;
		return bad(err);
	}
	*o = p.o;
	if (r.help) {
		census_command_usage(stdout);
		return 1;
	}
	if (r.first >= argc || strcmp(argv[r.first - 1], "--"))
		return bad(r.first < argc ?
			   "the command must follow --: smapbench census [OPTIONS] -- COMMAND [ARGUMENT]..." :
			   "no COMMAND: smapbench census [OPTIONS] -- COMMAND [ARGUMENT]...");
	o->argv = argv + r.first;
	if (o->cost.cpu_row && o->cost.pair_cycles > 0)
		return bad("--cpu-row and --pair-cycles both give the cost of a pair: give one");
	if (p.pair_ci) {
		const char *comma = strchr(p.pair_ci, ',');
		char low[64];

		if (!(o->cost.pair_cycles > 0))
			return bad("--pair-ci needs --pair-cycles");
		snprintf(low, sizeof(low), "%.*s",
			 comma ? (int)(comma - p.pair_ci) : 0, p.pair_ci);
		if (!comma || parse_number(low, 0, 0, 1e6, OPTION_LOW_OPEN,
					   &o->cost.pair_low, NULL) ||
		    parse_number(comma + 1, 0, 0, 1e6, OPTION_LOW_OPEN,
				 &o->cost.pair_high, NULL) ||
		    o->cost.pair_low > o->cost.pair_cycles ||
		    o->cost.pair_high < o->cost.pair_cycles) {
			snprintf(err, sizeof(err), "--pair-ci '%s' is not LO,HI with 0 < LO <= --pair-cycles <= HI",
				 p.pair_ci);
			return bad(err);
		}
	}
	return 0;
}

struct exec_parsed {
	struct census_exec_options o;
};

static const struct option_def exec_options[] = {
	OPT_TEXT("env-file", "F", struct exec_parsed, o.env_file, "file name",
		 "the environment of COMMAND, NUL-separated NAME=VALUE"),
	OPT_TEXT("output", "F", struct exec_parsed, o.output, "file name",
		 "where COMMAND's output goes (default /dev/null)"),
	OPT_NUMBER("timeout", "S", struct exec_parsed, o.timeout, 0, 86400,
		   OPTION_LOW_OPEN, "a number of seconds", NULL,
		   "seconds of guest time COMMAND may take (default: none)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table exec_table = {
	.command = "census exec",
	.synopsis = "[--env-file F] [--output F] [--timeout S] -- COMMAND [ARGUMENT]...",
	.about = "In a guest under the plugin: `true`, then COMMAND, each between\n"
		 "markers (what the census of a command runs).\n",
	.options = exec_options,
	.in_order = 1,
};

int census_exec_parse_options(int argc, char **argv,
			      struct census_exec_options *o)
{
	struct exec_parsed p = { .o.output = "/dev/null" };
	struct option_result r;
	char err[512];

	if (options_parse(&exec_table, argc, argv, &p, &r, err, sizeof(err)))
		return options_refuse(&exec_table, err);
	*o = p.o;
	if (r.help)
		return 1;
	if (r.first >= argc || strcmp(argv[r.first - 1], "--"))
		return options_refuse(&exec_table, "the command must follow --");
	o->argv = argv + r.first;
	return 0;
}
