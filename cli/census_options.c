// SPDX-License-Identifier: GPL-2.0
/* census_options.c - the census of a command's command line; see census_options.h. */
#include "cli/census_options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/table.h"
#include "census/census.h"
#include "cli/commands.h"

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

void census_command_usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench census [OPTIONS] -- COMMAND [ARGUMENT]...\n"
		"\n"
		"How many user-access windows (STAC/CLAC pairs) COMMAND opens in the kernel,\n"
		"where, and what SMAP would cost it. COMMAND runs from this machine's userland\n"
		"in a QEMU TCG guest under the census plugin, once per kernel and SMAP state,\n"
		"after `true` run the same way (the baseline, subtracted); natively it is\n"
		"timed. Writes a census directory under --out (census.csv, sites.csv,\n"
		"syscalls.csv, report.md, plots/) and prints its path. docs/census.md.\n"
		"\n"
		"  --kernel PATH        kernel image to boot; repeat for more (default:\n"
		"                       Debian's 6.1 and 6.12, those installed)\n"
		"  --states LIST        of smap, clearcpuid, cpu-off (default %s)\n"
		"  --timeout S          seconds COMMAND may take, natively and in each guest,\n"
		"                       where TCG makes it 10 to 100 times slower (default %d)\n"
		"  --out DIR            where the census directory goes (default data)\n"
		"  --top N              kernel functions in the report and the plot (default %d)\n"
		"The estimate (pairs x cost of a pair / native time). The cost is this machine's\n"
		"measured one: the module's inline - nopad from a run of it, else a boot series'\n"
		"beta (pair-fit.csv), else --table's figure for this CPU model, else a range\n"
		"up to a bpf upper bound (docs/census.md); or given by one of:\n"
		"  --cpu-row HOST[:KERNEL]  a row of --table: its --pair-figure, in cycles\n"
		"                       (converted with the row's calibration) or ns\n"
		"  --table FILE         a table.csv of smapbench table (default %s)\n"
		"  --pair-figure ID     the row's figure, one of table.csv's figure column\n"
		"                       (default %s)\n"
		"  --pair-cycles N      or: N core cycles per pair\n"
		"  --pair-ci LO,HI      its interval\n"
		"  --ghz G              core frequency for cycles (default: the row's\n"
		"                       calibration, else this machine's calibration chains)\n"
		"  --runs DIR           where this machine's runs and comparisons are (default\n"
		"                       %s)\n"
		"and COMMAND's native wall time:\n"
		"  --native-seconds S   given, instead of measured here\n"
		"  --native-runs N      timed native runs after a warm-up (default %d)\n"
		"\n"
		"Exit status: 0 written; 1 COMMAND failed, was not found or took longer than\n"
		"--timeout (natively or in a guest), or a boot failed: no directory; 2 bad\n"
		"usage.\n",
		DEFAULT_STATES, DEFAULT_TIMEOUT, DEFAULT_TOP, DEFAULT_TABLE,
		DEFAULT_FIGURE, DEFAULT_RUNS, DEFAULT_NATIVE_RUNS);
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "smapbench census: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see smapbench census --help)\n");
	return EXIT_USAGE;
}

/* A number in (low, high]. */
static int number_in(const char *text, double low, double high, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	return !errno && end != text && !*end && isfinite(*v) && *v > low &&
	       *v <= high ? 0 : -1;
}

static int states_valid(const char *list)
{
	char copy[256], *save = NULL;

	if (!*list || strlen(list) >= sizeof(copy))
		return 0;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		int known = 0;

		for (size_t k = 0; census_states[k]; k++)
			known |= !strcmp(census_states[k], s);
		if (!known)
			return 0;
	}
	return list[strlen(list) - 1] != ',' && list[0] != ',' && !strstr(list, ",,");
}

int census_command_parse_options(int argc, char **argv,
				 struct census_command_options *o)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "states", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "top", required_argument, NULL, 'n' },
		{ "cpu-row", required_argument, NULL, 'r' },
		{ "table", required_argument, NULL, 'T' },
		{ "pair-figure", required_argument, NULL, 'f' },
		{ "pair-cycles", required_argument, NULL, 'c' },
		{ "pair-ci", required_argument, NULL, 'i' },
		{ "ghz", required_argument, NULL, 'g' },
		{ "runs", required_argument, NULL, 'D' },
		{ "native-seconds", required_argument, NULL, 'N' },
		{ "native-runs", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pair_ci = NULL;
	double v;
	int c;

	memset(o, 0, sizeof(*o));
	o->states = DEFAULT_STATES;
	o->timeout = DEFAULT_TIMEOUT;
	o->out = "data";
	o->native_runs = DEFAULT_NATIVE_RUNS;
	o->top = DEFAULT_TOP;
	o->cost.table = DEFAULT_TABLE;
	o->cost.figure = DEFAULT_FIGURE;
	o->cost.runs = DEFAULT_RUNS;
	o->kernels = calloc((size_t)argc, sizeof(*o->kernels));
	if (!o->kernels) {
		fprintf(stderr, "smapbench census: out of memory\n");
		return 1;
	}
	optind = 1;
	opterr = 0;	/* our message names the option */
	/* "+": the first word that is no option ends them (COMMAND after --) */
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (access(optarg, R_OK))
				return bad("--kernel %s: no readable file there", optarg);
			o->kernels[o->nkernels++] = optarg;
			break;
		case 's':
			if (!states_valid(optarg))
				return bad("--states '%s': a comma-separated list of smap, clearcpuid and cpu-off",
					   optarg);
			o->states = optarg;
			break;
		case 't':
			if (number_in(optarg, 0, 86400, &o->timeout))
				return bad("--timeout '%s' is not a number of seconds in (0, 86400]",
					   optarg);
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'n':
			if (number_in(optarg, 0, MAX_TOP, &v) || v != floor(v))
				return bad("--top '%s' is not a whole number from 1 to 64", optarg);
			o->top = (unsigned)v;
			break;
		case 'r':
			o->cost.cpu_row = optarg;
			break;
		case 'T':
			o->cost.table = optarg;
			break;
		case 'f':
			o->cost.figure = optarg;
			break;
		case 'c':
			if (number_in(optarg, 0, 1e6, &o->cost.pair_cycles))
				return bad("--pair-cycles '%s' is not a number of cycles in (0, 1000000]",
					   optarg);
			break;
		case 'i':
			pair_ci = optarg;
			break;
		case 'D':
			o->cost.runs = optarg;
			break;
		case 'g':
			if (number_in(optarg, 0.05, 20, &o->cost.ghz))
				return bad("--ghz '%s' is not a frequency in GHz in (0.05, 20]",
					   optarg);
			break;
		case 'N':
			if (number_in(optarg, 0, 1e6, &o->native_seconds))
				return bad("--native-seconds '%s' is not a positive number of seconds",
					   optarg);
			break;
		case 'R':
			if (number_in(optarg, 0, CENSUS_NATIVE_MAX_RUNS, &v) || v != floor(v))
				return bad("--native-runs '%s' is not a whole number from 1 to 100",
					   optarg);
			o->native_runs = (unsigned)v;
			break;
		case 'h':
			census_command_usage(stdout);
			return 1;
		default:
			return bad("%s: unknown option of the census of a command",
				   argv[optind - 1]);
		}
	}
	if (optind >= argc || strcmp(argv[optind - 1], "--"))
		return bad("%s", optind < argc ?
			   "the command must follow --: smapbench census [OPTIONS] -- COMMAND [ARGUMENT]..." :
			   "no COMMAND: smapbench census [OPTIONS] -- COMMAND [ARGUMENT]...");
	o->argv = argv + optind;
	if (o->cost.cpu_row && o->cost.pair_cycles > 0)
		return bad("%s", "--cpu-row and --pair-cycles both give the cost of a pair: give one");
	if (o->cost.cpu_row && !*o->cost.cpu_row)
		return bad("%s", "--cpu-row needs HOST or HOST:KERNEL");
	if (pair_ci) {
		char *comma;

		if (!(o->cost.pair_cycles > 0))
			return bad("%s", "--pair-ci needs --pair-cycles");
		errno = 0;
		o->cost.pair_low = strtod(pair_ci, &comma);
		if (errno || *comma != ',' ||
		    number_in(comma + 1, 0, 1e6, &o->cost.pair_high) ||
		    !(o->cost.pair_low > 0) || o->cost.pair_low > o->cost.pair_cycles ||
		    o->cost.pair_high < o->cost.pair_cycles)
			return bad("--pair-ci '%s' is not LO,HI with 0 < LO <= --pair-cycles <= HI",
				   pair_ci);
	}
	return 0;
}

int census_exec_parse_options(int argc, char **argv,
			      struct census_exec_options *o)
{
	static const struct option longopts[] = {
		{ "env-file", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->output = "/dev/null";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o->env_file = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 't':
			if (number_in(optarg, 0, 86400, &o->timeout))
				return bad("exec --timeout '%s' is not a number of seconds in (0, 86400]",
					   optarg);
			break;
		case 'h':
			return 1;
		default:
			return bad("%s: unknown option of census exec", argv[optind - 1]);
		}
	}
	if (optind >= argc || strcmp(argv[optind - 1], "--"))
		return bad("%s", "census exec [--env-file F] [--output F] [--timeout S] -- COMMAND [ARGUMENT]...");
	o->argv = argv + optind;
	return 0;
}
