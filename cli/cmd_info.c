// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_info.c - `smapbench info`: this machine's context, which counters
 * work here (and why the others do not), and the module's INFO when
 * /dev/smapbench exists; or the context a run directory recorded.
 *
 * --format=kv prints only the context, one key=value line each, for
 * scripts: run-bench.sh reads the SMAP state from it instead of working
 * it out again from /proc. --smap says that state in one sentence, and
 * --same-machine A B whether two runs ran on one machine (the catalogue's
 * machine keys): run-bench.sh asks both rather than deciding itself.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analysis/smap_case.h"
#include "cli/commands.h"
#include "measure/context.h"
#include "measure/counter.h"
#include "measure/pin.h"
#include "rundata/catalogue.h"
#include "rundata/rundir.h"
#include "suites/kmod/suite.h"
#include "system/run_context.h"

static void info_usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench info [--format=text|kv] [RUN_DIR]\n"
		"       smapbench info --smap [RUN_DIR]\n"
		"       smapbench info --same-machine RUN_A RUN_B\n"
		"       smapbench info --catalogue FILE\n"
		"Prints this machine's run context, the counters and the module's\n"
		"INFO; with RUN_DIR, the context that run recorded instead.\n"
		"  --format=kv     only the context, one key=value line per key\n"
		"                  (newlines in values become spaces), for scripts\n"
		"  --smap          this boot's SMAP state (or RUN_DIR's) and why, one line\n"
		"  --same-machine  whether two runs ran on the same machine (the\n"
		"                  machine keys of docs/schema.md): status 0 and\n"
		"                  \"same machine\", or 1 and why not\n"
		"  --catalogue     what run data holds: FILE context.csv prints each\n"
		"                  key, its roles, who writes it and its unit; FILE\n"
		"                  results.csv, census.csv or table.csv each column,\n"
		"                  its roles and unit (tab-separated, docs/schema.md)\n");
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

/* The SMAP sentence of this boot (path NULL) or of a run. */
static int info_smap(const char *path)
{
	struct context ctx = { 0 };
	struct run_dir run = { 0 };
	char err[512], sentence[512];
	enum smap_case sc;
	const char *method;

	if (path) {
		if (rundir_load(path, &run, err, sizeof(err))) {
			fprintf(stderr, "smapbench info: %s\n", err);
			return 1;
		}
		sc = smap_case_of_run(&run);
		method = rundir_context(&run, "smap_off_method");
	} else {
		run_context_collect(&ctx);
		sc = smap_case_read(context_get(&ctx, "smap_state"),
				    context_get(&ctx, "smap_requested_off"),
				    context_get(&ctx, "smap_off_method"),
				    context_get(&ctx, "smap_cpuid"));
		method = context_get(&ctx, "smap_off_method");
	}
	puts(smap_case_sentence(sc, method, sentence, sizeof(sentence)));
	context_free(&ctx);
	rundir_free(&run);
	return 0;
}

/* Whether runs a and b are of one machine: 0 yes, 1 no (or unreadable). */
static int info_same_machine(const char *a, const char *b)
{
	struct run_dir ra = { 0 }, rb = { 0 };
	char err[512], why[512];
	int same = 0;

	if (rundir_load(a, &ra, err, sizeof(err)) ||
	    rundir_load(b, &rb, err, sizeof(err))) {
		fprintf(stderr, "smapbench info: %s\n", err);
	} else {
		same = context_same_machine(&ra, &rb, why, sizeof(why));
		printf("%s%s\n", same ? "" : "not the same machine: ", why);
	}
	rundir_free(&ra);
	rundir_free(&rb);
	return !same;
}

/* The catalogue's entries of a file, one tab-separated line each. */
static int info_catalogue(const char *file)
{
	static const char *const column_roles[] = { "required", "row_key", "text" };
	const struct file_kind *kind = file_kind_find(file);

	if (!strcmp(file, "context.csv")) {
		for (size_t i = 0; i < context_key_count; i++) {
			const struct context_key *k = &context_keys[i];
			int any = 0;

			printf("%s\t", k->name);
			for (unsigned bit = 1; bit < 1U << KEY_ROLE_COUNT; bit <<= 1)
				if (k->roles & bit)
					printf("%s%s", any++ ? "," : "",
					       context_key_role_name(bit));
			printf("%s\t%s\t%s\n", any ? "" : "-",
			       context_key_writer_name(k->written),
			       k->unit && *k->unit ? k->unit : "-");
		}
		return 0;
	}
	if (!kind) {
		fprintf(stderr, "smapbench info: --catalogue: no file '%s' in the catalogue (context.csv, results.csv, census.csv, table.csv)\n",
			file);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < kind->count; i++) {
		const struct file_column *c = &kind->columns[i];
		int any = 0;

		printf("%s\t", c->name);
		for (unsigned b = 0; b < sizeof(column_roles) / sizeof(*column_roles); b++)
			if (c->roles & (1U << b))
				printf("%s%s", any++ ? "," : "", column_roles[b]);
		printf("%s\t%s\n", any ? "" : "-", c->unit && *c->unit ? c->unit : "-");
	}
	return 0;
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "smap", no_argument, NULL, 's' },
		{ "same-machine", no_argument, NULL, 'm' },
		{ "catalogue", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct context ctx = { 0 };
	int kv = 0, smap = 0, same = 0, c;

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
		case 's':
			smap = 1;
			break;
		case 'm':
			same = 1;
			break;
		case 'c':
			return info_catalogue(optarg);
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
	if (same) {
		if (argc - optind != 2 || smap) {
			fprintf(stderr, "smapbench info: --same-machine takes two run directories, and no other option\n");
			return EXIT_USAGE;
		}
		return info_same_machine(argv[optind], argv[optind + 1]);
	}
	if (argc - optind > 1) {
		fprintf(stderr, "smapbench info: unexpected argument '%s'\n",
			argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (smap)
		return info_smap(optind < argc ? argv[optind] : NULL);
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
