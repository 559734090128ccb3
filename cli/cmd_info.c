// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_info.c - `smapbench info`: this machine's context, which counters
 * work here (and why the others do not), and the module's INFO when
 * /dev/smapbench exists; or the context a run directory recorded.
 *
 * --format=kv prints only the context, one key=value line each, for
 * scripts: run-bench.sh reads the SMAP state from it instead of working
 * it out again from /proc.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "measure/context.h"
#include "measure/counter.h"
#include "measure/pin.h"
#include "rundata/rundir.h"
#include "suites/kmod/suite.h"
#include "system/run_context.h"

static void info_usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench info [--format=text|kv] [RUN_DIR]\n"
		"Prints this machine's run context, the counters and the module's\n"
		"INFO; with RUN_DIR, the context that run recorded instead.\n"
		"  --format=kv   only the context, one key=value line per key\n"
		"                (newlines in values become spaces), for scripts\n");
}

/* One key=value line; a value never spans lines. */
static void print_kv(const char *key, const char *value)
{
	printf("%s=", key);
	for (const char *p = value; *p; p++)
		putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
	putchar('\n');
}

static void print_pair(int kv, const char *key, const char *value)
{
	if (kv)
		print_kv(key, value);
	else
		printf("  %-32s %s\n", key, value);
}

static int info_run_dir(const char *path, int kv)
{
	struct run_dir run = { 0 };
	char err[512];

	if (rundir_load(path, &run, err, sizeof(err))) {
		fprintf(stderr, "smapbench info: %s\n", err);
		return 1;
	}
	if (!kv)
		printf("context of %s:\n", path);
	for (size_t i = 0; i < run.context_count; i++)
		print_pair(kv, run.keys[i], run.values[i]);
	rundir_free(&run);
	return 0;
}

static void info_counters(void)
{
	printf("topology: %s\ncounters:\n", pin_topology_source());
	for (int i = 0; counter_backends[i]; i++) {
		struct counter *c = counter_backends[i];
		char why[256] = "";

		if (c->open(c, why, sizeof(why)) == 0) {
			printf("  %-10s ok     %s, %.0f %s/s; %s\n", c->name,
			       c->summary, c->hz, c->unit, c->note);
			c->close(c);
		} else {
			printf("  %-10s no     %s\n", c->name, why);
		}
	}
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct context ctx = { 0 };
	int kv = 0, c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "kv")) {
				kv = 1;
			} else if (!strcmp(optarg, "text")) {
				kv = 0;
			} else {
				fprintf(stderr, "smapbench info: --format: unknown format '%s' (text or kv)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			info_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "smapbench info: option '%s' needs a value\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "smapbench info: unknown option '%s'\n(see smapbench info --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "smapbench info: unexpected argument '%s'\n",
			argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (optind < argc)
		return info_run_dir(argv[optind], kv);

	run_context_collect(&ctx);
	if (!kv)
		printf("context:\n");
	for (size_t i = 0; i < ctx.count; i++)
		print_pair(kv, ctx.items[i].key, ctx.items[i].value);
	if (!kv) {
		info_counters();
		kmod_suite_print_info(stdout);
	}
	context_free(&ctx);
	return 0;
}
