// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_table.c - `smapbench table RUN...`: the cross-machine table of
 * what a STAC/CLAC pair costs (analysis/table.h), written as a
 * directory built beside its target and swapped in when complete
 * (table_dir_write()).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/run_select.h"
#include "analysis/table.h"
#include "cli/commands.h"
#include "cli/options.h"
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

struct table_command {
	const char *out;
	struct table_options o;
	int no_plots;
};

static const struct option_def table_options[] = {
	OPT_TEXT("out", "DIR", struct table_command, out, "directory name",
		 "write DIR/table.csv, table.md, left-out.csv and\n"
		 "plots/table.{png,svg}; DIR is built beside itself and\n"
		 "swapped in when complete, and only replaced when it is a\n"
		 "table directory (default: table)"),
	OPT_FLAG("include-tcg", struct table_command, o.include_tcg,
		 "keep runs made under QEMU TCG (emulated timings)"),
	OPT_FLAG("no-plots", struct table_command, no_plots, "no plots/"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table table_table = {
	.command = "table",
	.synopsis = "[options] RUN...",
	.about = "One row per machine and kernel from the run directories given\n"
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
		 "The others are listed as left out, with the run used instead.\n",
	.options = table_options,
};

int cmd_table(int argc, char **argv)
{
	struct table_command cmd = { .out = "table" };
	struct table_options o;
	struct option_result r;
	const char *out;
	char err[PATH_MAX + 512] = "";
	struct table t;
	int plots, written, rc = 1;

	if (options_parse(&table_table, argc, argv, &cmd, &r, err, sizeof(err)))
		return options_refuse(&table_table, err);
	if (r.help) {
		options_usage(stdout, &table_table);
		return 0;
	}
	if (r.first >= argc)
		return options_refuse(&table_table, "no run directory given");
	o = cmd.o;
	out = cmd.out;
	plots = !cmd.no_plots;
	if (table_dir_check(out, err, sizeof(err))) {
		fprintf(stderr, "smapbench table: will not write %s: %s.\n"
			"Nothing was changed. Give --out a new directory, or one "
			"smapbench table wrote.\n", out, err);
		return EXIT_USAGE;
	}
	atomic_dir_cleanup_on_signals();
	o.skip = out;
	if (table_build(argv + r.first, (size_t)(argc - r.first), &o, &t)) {
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
