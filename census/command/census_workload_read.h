/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_workload_read.h - the files `smapbench workload` reads
 * (census_workload.h), each outside input: a comparison's compare.csv and
 * pair-fit.csv, a command census's census.csv and sites.csv, and the runs'
 * contexts. Their readers use rundata/ alone, so that a fuzzer links them
 * without compare and the suites (tests/fuzz/fuzz_workload.c). What a
 * workload is, measured and predicted, is declared here for them.
 */
#ifndef SMAPBENCH_CENSUS_WORKLOAD_READ_H
#define SMAPBENCH_CENSUS_WORKLOAD_READ_H

#include <stddef.h>

#include "rundata/csv.h"

/* The pair costs a prediction can take, in the order they are written. */
enum workload_source {
	WORKLOAD_MODULE,
	WORKLOAD_SERIES,
	WORKLOAD_CENSUS,
	WORKLOAD_SOURCES
};

struct workload_prediction {
	int known;		/* a cost with an interval, so a prediction */
	double cost, cost_low, cost_high;	/* per pair, in unit; cost NAN: a range */
	char unit[8];		/* "cycles" or "ns" */
	double ghz;		/* for cycles */
	double ns, ns_low, ns_high;	/* per execution */
	const char *verdict;	/* agree, disagree, unknown */
	char source[1500];	/* where the cost came from, or why none */
};

struct workload {
	char row[160];		/* the command's row of compare.csv */
	char census_command[4200];	/* as census.csv quotes it */
	char kernel[128];	/* the census row's */
	double pairs;		/* per execution: census.csv's model_pairs */
	/* B - A per execution in ns, and its interval; NAN where unknown */
	double measured_ns, measured_low_ns, measured_high_ns;
	char measured_verdict[32];	/* compare's */
	int tcg;		/* a run compared ran under QEMU's emulator */
	struct workload_prediction p[WORKLOAD_SOURCES];
};

/* The call sites workload.md names: the census's first. */
#define WORKLOAD_SITES	5

/* The census's first call sites of one kernel's SMAP-on boot. */
struct workload_sites {
	int count;
	struct {
		const char *function, *pairs;	/* as sites.csv has them */
		const char *via;	/* via_1; NULL: none */
		double share;		/* of the pairs, 0 to 1; NAN: none */
	} site[WORKLOAD_SITES];
	struct csv_table table;	/* what they point into */
	char why[4200];		/* when there are none to name */
};

/*
 * The command row of compare_dir/compare.csv: w's row, measured_* (B - A
 * in ns, its interval through delta_ns / delta) and measured_verdict. 0,
 * or -2 with why in err: no file, no command row or two.
 */
int workload_read_measured(const char *compare_dir, struct workload *w,
			   char *err, size_t errlen);

/*
 * The row of census_dir/census.csv for kernel's SMAP-on boot (NULL: the
 * only SMAP-on boot): w's census_command, kernel, pairs (model_pairs,
 * else pairs) and p[WORKLOAD_CENSUS]'s cost, the figure the census took.
 * 0, or -2 with why in err: no file, not a command's census, no such
 * boot, or several and no kernel named.
 */
int workload_read_census(const char *census_dir, const char *kernel,
			 struct workload *w, char *err, size_t errlen);

/*
 * Beta of compare_dir/pair-fit.csv into p (known, cost and its interval,
 * unit, ghz), with where from in p->source; or why none there.
 */
void workload_read_series(const char *compare_dir, struct workload_prediction *p);

/*
 * Whether command (census.csv's, quoted for a shell) is `sh -c WORD` or
 * `/bin/sh -c WORD` with one word of a POSIX shell's quoting (unquoted
 * bytes, '...', "..." without expansions, backslashes) and nothing after
 * it: 1 with the word unquoted into text (at most len - 1 bytes), else 0.
 */
int workload_sh_c_text(const char *command, char *text, size_t len);

/* Whether a run under runs (NULL: none) ran under QEMU's emulator. */
int workload_runs_tcg(const char *runs);

/*
 * census_dir/sites.csv's first WORKLOAD_SITES call sites of kernel's
 * SMAP-on boot, in its order (most pairs first): 0, to be freed with
 * workload_sites_free(); or -1 with why in s->why (no file, or it lacks
 * kernel, smap_state, function or pairs), nothing to free.
 */
int workload_read_sites(const char *census_dir, const char *kernel,
			struct workload_sites *s);
void workload_sites_free(struct workload_sites *s);

#endif /* SMAPBENCH_CENSUS_WORKLOAD_READ_H */
