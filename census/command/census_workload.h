/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_workload.h - what SMAP costs a command, measured and predicted:
 * `smapbench workload COMPARISON --census DIR`.
 *
 * Measured: the command's row (`run --command`) in a comparison of SMAP
 * off (A) against on (B), B - A per execution with its interval, as
 * compare gives it (a series' compare-all: boots as units). Predicted:
 * the pairs the census of the same command counts per execution (on the
 * same kernel, SMAP on) times the cost of one pair, each cost with its
 * interval:
 *
 *   module  inline - nopad of the runs' module rows, this machine's
 *           (census_cost.h, step 1);
 *   series  beta of the comparison's pair-fit.csv;
 *   census  the figure the census itself used (table, given, range).
 *
 * A prediction agrees when its interval and the measured one overlap.
 * Written into the comparison's directory: workload.csv, workload.md and
 * plots/workload.{png,svg} (docs/schema.md, docs/census.md).
 */
#ifndef SMAPBENCH_CENSUS_WORKLOAD_H
#define SMAPBENCH_CENSUS_WORKLOAD_H

#include <stddef.h>

#include "census/command/census_workload_read.h"

struct workload_options {
	const char *compare;	/* the comparison directory: compare.csv */
	const char *census;	/* the command's census directory */
	const char *runs;	/* the runs compared, for the module's cost; or NULL */
	const char *kernel;	/* the census row's kernel; NULL: the only one */
	int force;		/* a census whose command is another's */
	int no_plots;
};

/* "module", "series", "census". */
const char *workload_source_name(enum workload_source s);

/*
 * Whether a census's command (census.csv's `command`, quoted for a
 * shell) is the command of a row named op (suite/command.h): the text
 * itself, or `sh -c 'TEXT'`.
 */
int workload_same_command(const char *census_command, const char *op);

/*
 * The prediction from pairs and a cost (known, cost_low, cost_high,
 * unit, ghz set): ns, ns_low, ns_high, and the verdict against the
 * measured interval.
 */
void workload_predict(struct workload_prediction *p, double pairs,
		      double measured_low_ns, double measured_high_ns);

/* 0; -2 with why in err for bad input; -1 for a failure here. */
int workload_build(const struct workload_options *o, struct workload *w,
		   char *err, size_t errlen);

/* Its files into o->compare: 0, or -1 with why in err. */
int workload_write(const struct workload_options *o, const struct workload *w,
		   char *err, size_t errlen);

#endif /* SMAPBENCH_CENSUS_WORKLOAD_H */
