// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_table.c - `smapbench table RUN...`: the cross-machine table of
 * what a STAC/CLAC pair costs (analysis/table.h), written as a
 * directory built beside its target and swapped in when complete.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/gnuplot.h"
#include "analysis/table.h"
#include "cli/commands.h"
#include "rundata/atomic_dir.h"

static const char *const table_files[] = { "table.csv", "table.md",
					     "left-out.csv", NULL };
/* A table directory holds these and plots/: it may be replaced. */
static const struct atomic_dir_kind table_dir = {
	.name = "table", .files = table_files, .subdir = &atomic_dir_plots,
};

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

static int write_file(const struct atomic_dir *d, const char *name,
		      const struct table *t,
		      int (*writer)(const struct table *, FILE *), char *err,
		      size_t errlen)
{
	FILE *f = atomic_dir_open(d, name, err, errlen);

	if (!f)
		return -1;
	if (writer(t, f)) {
		fclose(f);
		snprintf(err, errlen, "cannot write %s: %s", name, strerror(errno));
		return -1;
	}
	return atomic_dir_close(f, name, err, errlen);
}

/* plots/table.{png,svg}; 1 drawn, 0 nothing to draw, -1 failed (said). */
static int draw(const struct atomic_dir *d, const struct table *t)
{
	char err[PATH_MAX + 256], plots[PATH_MAX + 64], settings[2048] = "";
	struct gnuplot gp;
	size_t rows;
	FILE *f;
	int rc;

	snprintf(plots, sizeof(plots), "%s/plots", d->tmp);
	if (atomic_dir_make_parents(plots)) {
		fprintf(stderr, "smapbench table: cannot create %s: %s\n", plots,
			strerror(errno));
		return -1;
	}
	f = atomic_dir_open(d, "plots/table.dat", err, sizeof(err));
	if (!f || table_write_plot_data(t, f, &rows)) {
		if (f)
			fclose(f);
		fprintf(stderr, "smapbench table: %s\n", f ? "cannot write plots/table.dat" : err);
		return -1;
	}
	if (atomic_dir_close(f, "plots/table.dat", err, sizeof(err))) {
		fprintf(stderr, "smapbench table: %s\n", err);
		return -1;
	}
	if (!rows)
		return 0;
	if (gnuplot_find(&gp, "table"))
		return -1;
	gnuplot_set_string(settings, sizeof(settings), "title",
			   "A user access's STAC/CLAC pair: inline − nopad, and the bpf overhead at 8 B");
	gnuplot_set_string(settings, sizeof(settings), "context",
			   "per machine and kernel; bars: 95% interval (smapbench table)");
	gnuplot_set_number(settings, sizeof(settings), "nrows", (double)rows);
	gnuplot_set_number(settings, sizeof(settings), "nseries",
			   (double)table_cell_count);
	for (size_t k = 0; k < t->row_count; k++)
		if (!strcmp(t->rows[k].virt, "tcg")) {
			gnuplot_set_string(settings, sizeof(settings), "watermark",
					   "includes QEMU TCG rows");
			break;
		}
	rc = gnuplot_draw(&gp, "table", "table.gp", plots, "table", settings);
	gnuplot_free(&gp);
	return rc ? -1 : 1;
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
	struct atomic_dir dir;
	struct table t;
	int c, plots = 1, drawn = 0, rc = 1;

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
	if (atomic_dir_check(out, &table_dir, err, sizeof(err))) {
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
	if (atomic_dir_begin(&dir, out, &table_dir, err, sizeof(err))) {
		fprintf(stderr, "smapbench table: %s\n", err);
		goto done;
	}
	if (plots && t.row_count) {
		drawn = draw(&dir, &t);
		if (drawn < 0)
			fprintf(stderr, "smapbench table: no plot; the tables are complete\n");
	}
	if (write_file(&dir, "table.csv", &t, table_write_csv, err, sizeof(err)) ||
	    write_file(&dir, "left-out.csv", &t, table_write_left_out, err,
		       sizeof(err))) {
		fprintf(stderr, "smapbench table: %s\n", err);
		atomic_dir_abort(&dir);
		goto done;
	}
	{
		FILE *f = atomic_dir_open(&dir, "table.md", err, sizeof(err));

		if (!f || table_write_md(&t, f, drawn > 0 ? "plots/table.png" : NULL) ||
		    atomic_dir_close(f, "table.md", err, sizeof(err))) {
			if (f && !*err)
				snprintf(err, sizeof(err), "cannot write table.md");
			fprintf(stderr, "smapbench table: %s\n", err);
			atomic_dir_abort(&dir);
			goto done;
		}
	}
	if (atomic_dir_commit(&dir, err, sizeof(err))) {
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
	printf("table: %s\n", out);
	rc = drawn < 0 ? 1 : 0;
done:
	table_free(&t);
	return rc;
}
