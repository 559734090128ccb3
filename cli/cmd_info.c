// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_info.c - `smapbench info`: this machine's context, which counters
 * work here (and why the others do not), and the module's INFO when
 * /dev/smapbench exists; or the context a run directory recorded.
 *
 * --format=kv prints only the context, one key=value line each, for
 * scripts: run-bench.sh reads the SMAP state from it instead of working
 * it out again from /proc. --smap says that state in one sentence, and
 * --same-machine A [B] whether two runs, or A and this machine, ran on one
 * machine (the catalogue's machine keys): run-bench.sh asks both rather
 * than deciding itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/smap_case.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "measure/context.h"
#include "measure/counter.h"
#include "measure/pin.h"
#include "rundata/catalogue.h"
#include "rundata/rundir.h"
#include "suites/kmod/suite.h"
#include "system/run_context.h"

struct info_options {
	const char *format;	/* "text" or "kv" */
	int smap, same_machine;
	const char *catalogue;	/* a file name, or NULL */
};

static const char *const formats[] = { "text", "kv", NULL };
/* context.csv, then the catalogue's file kinds: filled by cmd_info() */
static const char *catalogue_files[1 + FILE_KIND_COUNT + 1];

static const struct option_def info_options[] = {
	OPT_CHOICE("format", "F", struct info_options, format, formats, "format",
		   "text", "kv: only the context, one key=value line per key\n"
		   "(newlines in values become spaces), for scripts"),
	OPT_FLAG("smap", struct info_options, smap,
		 "this boot's SMAP state (or RUN_DIR's) and why, one line"),
	OPT_FLAG("same-machine", struct info_options, same_machine,
		 "whether RUN_A and RUN_B (without RUN_B: this machine) ran on\n"
		 "the same machine (the machine keys of docs/schema.md): status 0\n"
		 "and \"same machine\", or 1 and why not"),
	OPT_CHOICE("catalogue", "FILE", struct info_options, catalogue,
		   catalogue_files, "file", NULL,
		   "what run data holds: for context.csv each key, its roles,\n"
		   "who writes it and its unit; for the others each column (of\n"
		   "pair-fit.csv each key), its roles and unit (tab-separated,\n"
		   "docs/schema.md)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table info_table = {
	.command = "info",
	.synopsis = "[--format=text|kv] [RUN_DIR]\n--smap [RUN_DIR]\n"
		    "--same-machine RUN_A [RUN_B]\n--catalogue FILE",
	.about = "Prints this machine's run context, the counters and the module's\n"
		 "INFO; with RUN_DIR, the context that run recorded instead.\n",
	.options = info_options,
};

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

/*
 * Whether runs a and b are of one machine: 0 yes, 1 no (or unreadable).
 * Without b, a against this machine as it is now: its context, collected
 * as a run collects it, stands for the second run.
 */
static int info_same_machine(const char *a, const char *b)
{
	struct run_dir ra = { 0 }, rb = { 0 };
	struct context here = { 0 };
	char err[512], why[512];
	int same = 0, failed;

	failed = rundir_load(a, &ra, err, sizeof(err));
	if (!failed && b) {
		failed = rundir_load(b, &rb, err, sizeof(err));
	} else if (!failed) {
		run_context_collect(&here);
		rb.keys = calloc(here.count + 1, sizeof(*rb.keys));
		rb.values = calloc(here.count + 1, sizeof(*rb.values));
		failed = !rb.keys || !rb.values;
		if (failed)
			snprintf(err, sizeof(err), "out of memory");
		for (size_t i = 0; !failed && i < here.count; i++) {
			rb.keys[i] = here.items[i].key;
			rb.values[i] = here.items[i].value;
		}
		rb.context_count = failed ? 0 : here.count;
	}
	if (failed) {
		fprintf(stderr, "smapbench info: %s\n", err);
	} else {
		same = context_same_machine(&ra, &rb, why, sizeof(why));
		printf("%s%s\n", same ? "" : "not the same machine: ", why);
	}
	rundir_free(&ra);
	if (b) {
		rundir_free(&rb);
	} else {
		free(rb.keys);
		free(rb.values);
		context_free(&here);
	}
	return !same;
}

/* The catalogue's entries of a file, one tab-separated line each. */
static int info_catalogue(const char *file)
{
	static const char *const column_roles[] = { "required", "row_key", "text" };
	const struct file_kind *kind = file_kind_find(file);

	/* the option's choices: context.csv or a kind of the catalogue */
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
	struct info_options o = { .format = "text" };
	struct context ctx = { 0 };
	struct option_result r;
	char err[256];
	int kv, args;

	catalogue_files[0] = "context.csv";
	for (size_t i = 0; file_kinds[i]; i++)
		catalogue_files[1 + i] = file_kinds[i]->file;
	if (options_parse(&info_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&info_table, err);
	if (r.help) {
		options_usage(stdout, &info_table);
		return 0;
	}
	args = argc - r.first;
	kv = !strcmp(o.format, "kv");
	if (o.catalogue)
		return args ? options_refuse(&info_table, "--catalogue takes no run") :
			      info_catalogue(o.catalogue);
	if (o.same_machine) {
		if (args < 1 || args > 2 || o.smap)
			return options_refuse(&info_table, "--same-machine takes one run directory (against this machine) or two, and no other option");
		return info_same_machine(argv[r.first], args == 2 ? argv[r.first + 1] : NULL);
	}
	if (args > 1) {
		snprintf(err, sizeof(err), "unexpected argument '%s'", argv[r.first + 1]);
		return options_refuse(&info_table, err);
	}
	if (o.smap)
		return info_smap(args ? argv[r.first] : NULL);
	if (args)
		return info_run_dir(argv[r.first], kv);

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
