/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_cost.h - what one STAC/CLAC pair costs, for the census of a
 * command's estimate: a figure of a `smapbench table` row (table.csv),
 * or cycles given on the command line; and the core frequency that turns
 * cycles into time: the row's calibration, --ghz, or this machine's
 * calibration chains (measure/calib.h). Every figure says where it came
 * from.
 */
#ifndef SMAPBENCH_CENSUS_COST_H
#define SMAPBENCH_CENSUS_COST_H

#include <stddef.h>

/* What one STAC/CLAC pair costs, and where that figure comes from. */
struct census_cost_options {
	const char *table;	/* table.csv of smapbench table */
	const char *cpu_row;	/* HOST or HOST:KERNEL of it, or NULL */
	const char *figure;	/* the row's figure (pair_get_user_8) */
	double pair_cycles;	/* > 0: the cost is given in cycles */
	double pair_low, pair_high;	/* its interval; 0, 0: none */
	double ghz;		/* > 0: the core frequency, given */
};

struct census_pair_cost {
	int known;			/* a cost was given: an estimate can be made */
	double value, low, high;	/* per pair, in unit; low = high = value without an interval */
	int has_interval;
	char unit[8];			/* "cycles" or "ns" */
	double ghz;			/* core frequency for cycles; 0 for ns */
	char source[700];		/* where value came from */
	char ghz_source[400];		/* where ghz came from */
	/* This machine's chains, when they gave ghz (0 otherwise). */
	double calib_add_ghz, calib_imul_ghz;
};

/*
 * Resolve the options into c. 0; -2 with the reason in err for bad
 * input (no such table, row or figure; a unit that is no time); -1 for a
 * failure here (this machine's calibration chains disagree).
 */
int census_cost_resolve(const struct census_cost_options *o,
			struct census_pair_cost *c, char *err, size_t errlen);

/* Seconds one pair takes at v, a value in c's unit. */
double census_cost_seconds(const struct census_pair_cost *c, double v);

#endif /* SMAPBENCH_CENSUS_COST_H */
