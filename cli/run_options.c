// SPDX-License-Identifier: GPL-2.0
/* run_options.c - parsing `smapbench run` arguments; see run_options.h. */
#include "cli/run_options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "measure/counter.h"
#include "measure/stats.h"
#include "suites/suite.h"

void run_usage(void *file)
{
	fprintf(file,
		"usage: smapbench run [options]\n"
		"  --suite NAME       syscall, kmod, bpf or all (default all)\n"
		"  --filter REGEX     only benchmarks whose name matches (POSIX ERE)\n"
		"  --min-time S       seconds one sample lasts at least (default 0.01)\n"
		"  --repetitions N    repetitions, in random order (default 5)\n"
		"  --samples N        samples per repetition (default 10)\n"
		"  --counter NAME     perf, rdtscp, rdtsc, cpucycles, monotonic for\n"
		"                     user-space timing; kmod-tsc or kmod-pmu for the\n"
		"                     kmod suite (default: best available)\n"
		"  --cpu N            pin to CPU N (default: first thread of the last core)\n"
		"  --no-realtime      do not run at real-time priority (SCHED_FIFO 1,\n"
		"                     taken by default when permitted, so that other\n"
		"                     tasks cannot preempt a sample)\n"
		"  --out DIR          where the run directory goes (default ./data)\n"
		"  --run-dir-file F   write the run directory's absolute path, one\n"
		"                     line, to F (for scripts; empty if no run)\n"
		"  --seed N           seed of the order the benchmarks run in (default:\n"
		"                     a fresh one each run, recorded in context.csv)\n"
		"  --quick            a short run: --min-time 0.002 --repetitions 3\n"
		"                     --samples 5 unless given, and fewer sizes\n"
		"  --full             every size of every sweep (the default runs fewer\n"
		"                     bpf sizes to stay near 2 minutes; docs/harness.md)\n"
		"  --list             list the benchmarks and whether they can run\n"
		"  --help             this text\n"
		"The run directory's path is the last line printed on stdout\n"
		"(\"run directory: PATH\"), for people; scripts use --run-dir-file.\n");
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_unsigned(const char *s, unsigned long long min,
		   unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int known_counter(const char *name)
{
	return counter_find(name) || !strcmp(name, "kmod-tsc") ||
	       !strcmp(name, "kmod-pmu");
}

static int known_suite(const char *name)
{
	for (int i = 0; suite_names[i]; i++)
		if (!strcmp(suite_names[i], name))
			return 1;
	return 0;
}

enum {
	OPT_SUITE = 256, OPT_FILTER, OPT_MIN_TIME, OPT_REPETITIONS,
	OPT_SAMPLES, OPT_COUNTER, OPT_CPU, OPT_OUT, OPT_LIST,
	OPT_HELP, OPT_SEED, OPT_QUICK, OPT_RUN_DIR_FILE, OPT_FULL,
	OPT_NO_REALTIME
};

static const struct option longopts[] = {
	{ "suite", required_argument, NULL, OPT_SUITE },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "min-time", required_argument, NULL, OPT_MIN_TIME },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "counter", required_argument, NULL, OPT_COUNTER },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "full", no_argument, NULL, OPT_FULL },
	{ "no-realtime", no_argument, NULL, OPT_NO_REALTIME },
	{ "run-dir-file", required_argument, NULL, OPT_RUN_DIR_FILE },
	{ NULL, 0, NULL, 0 },
};

/* The options whose --quick default gives way to what the user gave. */
struct given {
	int min_time, repetitions, samples;
};

/* One option c with its value arg into o: 0, or EXIT_USAGE and why. */
static int take_option(int c, const char *arg, struct run_options *o,
		       struct given *g, char *err, size_t errlen)
{
	unsigned long long n;

	switch (c) {
	case OPT_SUITE:
		if (!known_suite(arg)) {
			snprintf(err, errlen,
				 "--suite: unknown suite '%s' (syscall, kmod, bpf or all)",
				 arg);
			return EXIT_USAGE;
		}
		o->suite = arg;
		break;
	case OPT_FILTER:
		o->filter = arg;
		break;
	case OPT_MIN_TIME:
		g->min_time = 1;
		if (parse_double(arg, 1e-6, 60, &o->min_time)) {
			snprintf(err, errlen,
				 "--min-time: '%s' is not a number of seconds in [0.000001, 60]",
				 arg);
			return EXIT_USAGE;
		}
		break;
	case OPT_REPETITIONS:
		if (parse_unsigned(arg, 1, 10000, &n)) {
			snprintf(err, errlen,
				 "--repetitions: '%s' is not an integer in [1, 10000]",
				 arg);
			return EXIT_USAGE;
		}
		o->repetitions = (unsigned)n;
		g->repetitions = 1;
		break;
	case OPT_SAMPLES:
		if (parse_unsigned(arg, 1, 65536, &n)) {
			snprintf(err, errlen,
				 "--samples: '%s' is not an integer in [1, 65536]",
				 arg);
			return EXIT_USAGE;
		}
		o->samples = (unsigned)n;
		g->samples = 1;
		break;
	case OPT_COUNTER:
		if (!known_counter(arg)) {
			snprintf(err, errlen,
				 "--counter: unknown counter '%s' (perf, rdtscp, rdtsc, cpucycles, monotonic, kmod-tsc, kmod-pmu)",
				 arg);
			return EXIT_USAGE;
		}
		o->counter = arg;
		break;
	case OPT_CPU:
		if (parse_unsigned(arg, 0, 4095, &n)) {
			snprintf(err, errlen,
				 "--cpu: '%s' is not a CPU number", arg);
			return EXIT_USAGE;
		}
		o->cpu = (int)n;
		break;
	case OPT_OUT:
		if (!*arg) {
			snprintf(err, errlen, "--out: empty directory name");
			return EXIT_USAGE;
		}
		o->out = arg;
		break;
	case OPT_RUN_DIR_FILE:
		if (!*arg) {
			snprintf(err, errlen, "--run-dir-file: empty file name");
			return EXIT_USAGE;
		}
		o->run_dir_file = arg;
		break;
	case OPT_LIST:
		o->list = 1;
		break;
	case OPT_QUICK:
		o->quick = 1;
		break;
	case OPT_FULL:
		o->full = 1;
		break;
	case OPT_NO_REALTIME:
		o->no_realtime = 1;
		break;
	case 'h':
	case OPT_HELP:
		o->help = 1;
		break;
	case OPT_SEED:
		if (parse_unsigned(arg, 0, UINT64_MAX, &n)) {
			snprintf(err, errlen,
				 "--seed: '%s' is not an unsigned integer", arg);
			return EXIT_USAGE;
		}
		o->seed = n;
		break;
	}
	return 0;
}

/* What the options say together: 0, or EXIT_USAGE and why. */
static int settle_options(struct run_options *o, const struct given *g,
			  char *err, size_t errlen)
{
	/* kmod-* counters time the module's loops: no other suite has any */
	if (o->counter && !strncmp(o->counter, "kmod-", 5) &&
	    strcmp(o->suite, "kmod") && strcmp(o->suite, "all")) {
		snprintf(err, errlen,
			 "--counter %s times the kmod suite only, and --suite %s has "
			 "none of it (use --suite kmod or all, or a user-space counter)",
			 o->counter, o->suite);
		return EXIT_USAGE;
	}
	if (o->quick && o->full) {
		snprintf(err, errlen, "--full and --quick: choose one sweep");
		return EXIT_USAGE;
	}
	if (o->quick) {
		if (!g->min_time)
			o->min_time = 0.002;
		if (!g->repetitions)
			o->repetitions = 3;
		if (!g->samples)
			o->samples = 5;
	}
	return 0;
}

int run_parse_options(int argc, char **argv, struct run_options *o,
		      char *err, size_t errlen)
{
	struct given given = { 0 };
	int c;

	memset(o, 0, sizeof(*o));
	o->suite = "all";
	o->min_time = 0.01;
	o->repetitions = 5;
	o->samples = 10;
	o->cpu = -1;
	o->out = "data";
	/* a fresh order each run unless --seed fixes one; context.csv records it */
	o->seed = stats_random_seed();

	optind = 0;	/* full reset: parsing may happen more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		if (c == ':') {
			snprintf(err, errlen, "option '%s' needs a value",
				 argv[optind - 1]);
			return EXIT_USAGE;
		}
		if (c == '?') {
			snprintf(err, errlen, "unknown option '%s'",
				 argv[optind - 1]);
			return EXIT_USAGE;
		}
		if (take_option(c, optarg, o, &given, err, errlen))
			return EXIT_USAGE;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return settle_options(o, &given, err, errlen);
}
