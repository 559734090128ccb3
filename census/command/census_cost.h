/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_cost.h - what one STAC/CLAC pair costs, for the census of a
 * command's estimate, and the core frequency that turns cycles into time.
 *
 * Given: a row of a `smapbench table` (--cpu-row), or cycles (--pair-cycles).
 * Otherwise this machine's own measured figure, the first there is of
 *
 *   1. the module's: inline - nopad of a run of this machine (its host,
 *      CPU and microcode; not emulated), analysis/derived.h;
 *   2. a boot series' beta: pair-fit.csv of a comparison of this
 *      machine's boots (rundata/pair_fit_csv.h);
 *   3. the published table's figure for this CPU model (family and
 *      model), any machine;
 *   4. no figure, a range: from 0 to the bpf overhead, an upper bound of
 *      the pair, of this machine or this CPU model; else the range of the
 *      table's pair figures over every CPU. value is then NAN.
 *
 * and none when there is not even a range. Every figure says where it
 * came from, and what was passed over and why.
 */
#ifndef SMAPBENCH_CENSUS_COST_H
#define SMAPBENCH_CENSUS_COST_H

#include <stddef.h>

#include "measure/context.h"

/* What one STAC/CLAC pair costs, and where that figure comes from. */
struct census_cost_options {
	const char *table;	/* table.csv of smapbench table */
	const char *cpu_row;	/* HOST or HOST:KERNEL of it, or NULL */
	const char *figure;	/* the row's figure (pair_get_user_8) */
	double pair_cycles;	/* > 0: the cost is given in cycles */
	double pair_low, pair_high;	/* its interval; 0, 0: none */
	double ghz;		/* > 0: the core frequency, given */
	/* Neither given: this machine's measured figure, from */
	const char *runs;	/* runs and comparisons of it (data) */
	const struct context *machine;	/* this machine; NULL: collected */
	/*
	 * CENSUS_COST_MODULE or CENSUS_COST_SERIES: that step alone, none
	 * when it finds nothing (a prediction from each, side by side);
	 * CENSUS_COST_NONE: the first step that gives one.
	 */
	int only;
};

/* Which figure the cost is. */
enum census_cost_kind {
	CENSUS_COST_NONE,	/* no figure, no range: no estimate */
	CENSUS_COST_GIVEN,	/* --pair-cycles */
	CENSUS_COST_ROW,	/* --cpu-row */
	CENSUS_COST_MODULE,	/* 1. this machine's inline - nopad */
	CENSUS_COST_SERIES,	/* 2. this machine's beta */
	CENSUS_COST_CPU_MODEL,	/* 3. the table's, for this CPU model */
	CENSUS_COST_RANGE,	/* 4. a range only; value NAN */
};

struct census_pair_cost {
	int known;			/* a cost was given: an estimate can be made */
	enum census_cost_kind kind;
	/*
	 * Per pair, in unit; low = high = value without an interval; value
	 * NAN with a range only (CENSUS_COST_RANGE).
	 */
	double value, low, high;
	int has_interval;
	char unit[8];			/* "cycles" or "ns" */
	double ghz;			/* core frequency for cycles; 0 for ns */
	/* where value came from; without one, why none and how to get it */
	char source[1400];
	char ghz_source[400];		/* where ghz came from */
	/* This machine's chains, when they gave ghz (0 otherwise). */
	double calib_add_ghz, calib_imul_ghz;
};

/*
 * Resolve the options into c. 0; -2 with the reason in err for bad
 * input (no such table, row or figure; a unit that is no time); -1 for a
 * failure here (this machine's calibration chains disagree, no memory).
 */
int census_cost_resolve(const struct census_cost_options *o,
			struct census_pair_cost *c, char *err, size_t errlen);

/* Seconds one pair takes at v, a value in c's unit. */
double census_cost_seconds(const struct census_pair_cost *c, double v);

/* The kind's name: "module", "series", "cpu-model", "range", ... */
const char *census_cost_kind_name(enum census_cost_kind kind);

/* census_cost_machine.c: steps 1 to 4 above; as census_cost_resolve(). */
int census_cost_of_machine(const struct census_cost_options *o,
			   struct census_pair_cost *c, char *err,
			   size_t errlen);

/*
 * census_cost_table.c: c's core frequency measured here (0, or -1 with
 * why in err); c from line row of the table loaded in csv (0, or -2 with
 * why in err), spec naming the row; a table.csv loaded, its columns
 * checked (0, or -2 with why in err); c from --cpu-row (0, or -2).
 */
struct csv_table;
int census_cost_measure_ghz(struct census_pair_cost *c, char *err,
			    size_t errlen);
int census_cost_from_row(const struct census_cost_options *o,
			 const struct csv_table *csv, size_t row,
			 const char *spec, struct census_pair_cost *c,
			 char *err, size_t errlen);
int census_cost_load_table(const char *path, struct csv_table *csv, char *err,
			   size_t errlen);
int census_cost_from_cpu_row(const struct census_cost_options *o,
			     struct census_pair_cost *c, char *err, size_t errlen);

#endif /* SMAPBENCH_CENSUS_COST_H */
