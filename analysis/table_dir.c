// SPDX-License-Identifier: GPL-2.0
/*
 * table_dir.c - the cross-machine table as a directory: table.csv,
 * table.md, left-out.csv and plots/table.{png,svg}; see table.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/gnuplot.h"
#include "analysis/table.h"
#include "rundata/atomic_dir.h"

static const char *const table_files[] = { "table.csv", "table.md",
					     "left-out.csv", NULL };
/* A table directory holds these and plots/: it may be replaced. */
static const struct atomic_dir_kind table_dir = {
	.name = "table", .files = table_files, .subdir = &atomic_dir_plots,
};

/* A file of the table directory: which writer makes it, from which table. */
struct table_file {
	int (*write)(const struct table *t, FILE *f);
	const struct table *t;
};

static int write_table_file(FILE *f, const void *arg)
{
	const struct table_file *file = arg;

	return file->write(file->t, f);
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
			   "A user access's STAC/CLAC pair (inline − nopad), and the bpf overhead at 8 B: an upper bound of the pair");
	gnuplot_set_string(settings, sizeof(settings), "context",
			   "per machine and kernel; bars: 95% interval; the bpf overhead also holds access_ok, hardened usercopy and more (docs/bpf.md)");
	gnuplot_set_number(settings, sizeof(settings), "nrows", (double)rows);
	gnuplot_set_number(settings, sizeof(settings), "nseries",
			   (double)table_cell_count());
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

int table_dir_check(const char *out, char *err, size_t errlen)
{
	return atomic_dir_check(out, &table_dir, err, errlen);
}

int table_dir_write(const struct table *t, const char *out, int plots,
		    char *err, size_t errlen)
{
	struct atomic_dir dir;
	int drawn = 0;

	if (atomic_dir_begin(&dir, out, &table_dir, err, errlen))
		return -1;
	if (plots && t->row_count) {
		drawn = draw(&dir, t);
		if (drawn < 0)
			fprintf(stderr, "smapbench table: no plot; the tables are complete\n");
	}
	if (atomic_dir_write(&dir, "table.csv", write_table_file,
			     &(struct table_file){ table_write_csv, t }, err, errlen) ||
	    atomic_dir_write(&dir, "left-out.csv", write_table_file,
			     &(struct table_file){ table_write_left_out, t }, err,
			     errlen)) {
		atomic_dir_abort(&dir);
		return -1;
	}
	{
		FILE *f = atomic_dir_open(&dir, "table.md", err, errlen);

		if (!f || table_write_md(t, f, drawn > 0 ? "plots/table.png" : NULL) ||
		    atomic_dir_close(f, "table.md", err, errlen)) {
			if (f && !*err)
				snprintf(err, errlen, "cannot write table.md");
			atomic_dir_abort(&dir);
			return -1;
		}
	}
	if (atomic_dir_commit(&dir, err, errlen))
		return -1;
	return drawn < 0 ? 1 : 0;
}
