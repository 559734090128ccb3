// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_table.c - `smapbench table RUN...`: the cross-machine table of
 * what a STAC/CLAC pair costs (analysis/table.h), written as a
 * directory built beside its target and swapped in when complete
 * (table_dir_write()).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/run_select.h"
#include "analysis/table.h"
#include "cli/commands.h"
#include "rundata/atomic_dir.h"

/*
 * Which runs each row uses, with their date and repetitions, so that a
 * newer short run chosen over an older long one is seen, not silent.
 */
static void print_rows(const struct table *t)
{
	int replaced = 0;

	for (size_t i = 0; i < t->left_out_count; i++)
		replaced |= strstr(t->left_out[i].reason,
				   "run of the same machine and kernel") != NULL;
	for (size_t k = 0; k < t->row_count; k++) {
		const struct table_row *r = &t->rows[k];
		const struct table_input *runs[] = { r->smap, r->off };
		static const char *const kind[] = { "SMAP", "SMAP-off" };

		printf("row %s, %s:", r->host, r->kernel);
		for (int i = 0; i < 2; i++) {
			const char *reps;

			if (!runs[i])
				continue;
			reps = rundir_context_or(&runs[i]->run, "repetitions", "");
			printf("%s %s run %s (%s%s%s)", i ? ";" : "", kind[i],
			       runs[i]->path,
			       rundir_context_or(&runs[i]->run, "date", "no date"),
			       *reps ? ", repetitions " : "", reps);
		}
		putchar('\n');
	}
	if (replaced)
		printf("%s; a SMAP-off run switched off as users do (clearcpuid, nosmap, a CPU model without SMAP) before that; the others are listed as left out\n",
		       RUN_PREFERENCE_RULE);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench table [options] RUN...\n\n"
		"One row per machine and kernel from the run directories given\n"
		"(e.g. data/*/): the STAC/CLAC pair's cost per access (inline - nopad),\n"
		"the bpf overhead, and, where a machine has a SMAP and a SMAP-off\n"
		"run of one kernel, what SMAP adds to the headline kapi and syscall\n"
		"benchmarks (per pair, with a census directory of that kernel among\n"
		"the inputs). Inputs that cannot be in the table are listed with\n"
		"the reason.\n\n"
		"Which run a row uses: of several runs of one machine, kernel and\n"
		"SMAP state, a complete run over an interrupted one, a default or\n"
		"--full run over a --quick one, then the one with more repetitions,\n"
		"then the newest; of SMAP-off runs, first the one switched off as\n"
		"users do (clearcpuid, then nosmap, then a CPU model without SMAP).\n"
		"The others are listed as left out, with the run used instead.\n\n"
		"options:\n"
		"  --out DIR       write DIR/table.csv, table.md, left-out.csv and\n"
		"                  plots/table.{png,svg} (default: table); DIR is\n"
		"                  built beside itself and swapped in when complete,\n"
		"                  and only replaced when it is a table directory\n"
		"  --include-tcg   keep runs made under QEMU TCG (emulated timings)\n"
		"  --no-plots      no plots/\n"
		"  -h, --help      this text\n");
}

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "smapbench table: %s%s%s\n\n", what, arg ? " " : "",
		arg ? arg : "");
	usage(stderr);
	return EXIT_USAGE;
}

int cmd_table(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "include-tcg", no_argument, NULL, 't' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct table_options o = { 0 };
	const char *out = "table";
	char err[PATH_MAX + 512] = "";
	struct table t;
	int c, plots = 1, written, rc = 1;

	optind = 1;
	opterr = 0;	/* our message names the option */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				return bad_usage("--out needs a directory", NULL);
			out = optarg;
			break;
		case 't':
			o.include_tcg = 1;
			break;
		case 'n':
			plots = 0;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return bad_usage("option needs a value:", argv[optind - 1]);
		default:
			return bad_usage("unknown option", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return bad_usage("no run directory given", NULL);
	if (table_dir_check(out, err, sizeof(err))) {
		fprintf(stderr, "smapbench table: will not write %s: %s.\n"
			"Nothing was changed. Give --out a new directory, or one "
			"smapbench table wrote.\n", out, err);
		return EXIT_USAGE;
	}
	atomic_dir_cleanup_on_signals();
	o.skip = out;
	if (table_build(argv + optind, (size_t)(argc - optind), &o, &t)) {
		fprintf(stderr, "smapbench table: out of memory\n");
		return 1;
	}
	written = table_dir_write(&t, out, plots, err, sizeof(err));
	if (written < 0) {
		fprintf(stderr, "smapbench table: %s\n", err);
		goto done;
	}
	for (size_t i = 0; i < t.left_out_count; i++)
		fprintf(stderr, "smapbench table: left out %s: %s\n",
			t.left_out[i].path, t.left_out[i].reason);
	{
		size_t used = 0;

		for (size_t i = 0; i < t.input_count; i++)
			used += t.inputs[i].used;
		printf("%zu rows from %zu runs, census counts of %zu kernels; %zu inputs left out\n",
		       t.row_count, used, t.census_count, t.left_out_count);
	}
	print_rows(&t);
	printf("table: %s\n", out);
	rc = written;
done:
	table_free(&t);
	return rc;
}
