/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - the cross-machine table: what a STAC/CLAC pair costs on each
 * machine and kernel, from many run directories.
 *
 * One row per machine and kernel (host, CPU model, family/model/stepping,
 * microcode, kernel release, virtualisation, counter: the fields that
 * make `compare` refuse two runs). A row's cells come from one boot, its
 * SMAP run when it has one:
 *
 *   pair cells   inline - nopad per access, for each op the kmod
 *                catalogue gives a cell (suites/kmod/sweep.h: table_cell)
 *   bpf cell     the bpf overhead row at 8 B (itself a difference)
 *
 * and, when the same row has a SMAP run and a SMAP-off run (two boots),
 * one delta per headline kapi and syscall benchmark: SMAP - SMAP-off,
 * divided by the pairs the census counted per operation on that kernel
 * (when a census directory is among the inputs) into a cost per pair.
 *
 * Every figure is the report's: one boot's pair cost is derived.c's
 * paired difference over the repetitions, two boots' deltas are
 * compare_stats.h's Welch differences of centers; in core cycles when
 * the run gives a conversion (a cycle counter, the module's calib op,
 * the bpf calib row), else in ns.
 */
#ifndef SMAPBENCH_TABLE_H
#define SMAPBENCH_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "rundata/rundir.h"

/* A per-boot cell: which rows of a run it is computed from. */
enum table_cell_kind {
	TABLE_PAIR,	/* inline - nopad of one op and size, per access */
	TABLE_ROW,	/* one row's own center (a difference already) */
};

struct table_cell_def {
	char id[64];		/* table.csv's cell column */
	char title[64];		/* table.md's column heading */
	enum table_cell_kind kind;
	const char *suite, *op, *variant;
	unsigned long size;
};

/*
 * The cells in column order, table_cell_count() of them: the catalogue's
 * pair cells in op order, then the bpf cell.
 */
const struct table_cell_def *table_cells(void);
size_t table_cell_count(void);
/*
 * Core cycles per unit of b's values, or NAN when the run gives none: 1
 * for a cycle counter; else ns per unit times the core frequency the
 * run's two calibration chains agreed on (calib_ghz).
 */
double table_cycles_per_unit(const struct run_dir *run,
			     const struct run_bench *b);

/* A difference with its interval, in unit. */
struct table_value {
	double value, low, high;	/* NAN: not measured */
	const char *unit;		/* "cycles", "ns" or the run's unit */
	size_t reps;			/* fewest repetitions of a side */
};

/* SMAP run - SMAP-off run, for one benchmark of a paired row. */
struct table_delta {
	const char *name;
	struct table_value delta;
	double relative;		/* delta / SMAP-off center */
	double pairs_per_op;		/* census STAC per op; NAN: none */
	struct table_value per_pair;	/* delta / pairs_per_op */
};

/* An input that is not in the table, and why. */
struct table_left_out {
	char *path;
	char *reason;
};

struct table_input {
	char *path;
	struct run_dir run;
	int used;		/* a row's smap or off run */
};

/* Census counts of one kernel's SMAP boot, from a census directory. */
struct table_census {
	char *path;
	char *kernel;
	char **names;
	double *stac_per_op;
	size_t count;
};

struct table_row {
	/* identity, from the runs' context.csv */
	const char *host, *cpu_model, *family, *model, *stepping, *microcode;
	const char *kernel, *virt, *counter;
	struct table_input *smap, *off;	/* either may be NULL */
	struct table_input *cells_from;	/* smap, else off */
	struct table_value *cells;	/* table_cell_count */
	struct table_delta *deltas;	/* when smap and off */
	size_t delta_count;
	const struct table_census *census;	/* of kernel, or NULL */
	char calibration[256];		/* where its cycles come from, or why none */
};

struct table {
	struct table_input *inputs;
	size_t input_count;
	struct table_census *census;
	size_t census_count;
	struct table_row *rows;
	size_t row_count;
	struct table_left_out *left_out;
	size_t left_out_count;
};

struct table_options {
	int include_tcg;	/* keep QEMU TCG runs */
	const char *skip;	/* an input path that is the output: ignored */
};

/*
 * Load every path (run directories; census directories are read as
 * census input; anything else is left out with its reason) and build the
 * rows. 0, or -1 on no memory.
 */
int table_build(char **paths, size_t count, const struct table_options *o,
		struct table *t);
void table_free(struct table *t);

/* Writers (table_write.c): 0, or -1 when a write failed. */
int table_write_csv(const struct table *t, FILE *f);
int table_write_left_out(const struct table *t, FILE *f);
int table_write_md(const struct table *t, FILE *f, const char *plot);
/* The cells in cycles, one line per row (plots/table.gp). */
int table_write_plot_data(const struct table *t, FILE *f, size_t *rows);

/* Whether out may become (or be replaced by) a table directory: 0, or -1. */
int table_dir_check(const char *out, char *err, size_t errlen);
/*
 * t as the directory out, built beside it and swapped in when complete,
 * with plots/table.{png,svg} when plots is set: 0; 1 when all but the
 * plot was written (said on stderr); -1 with the reason in err, out
 * untouched.
 */
int table_dir_write(const struct table *t, const char *out, int plots,
		    char *err, size_t errlen);

#endif /* SMAPBENCH_TABLE_H */
