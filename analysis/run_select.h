/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_select.h - finding benchmarks in a loaded run by their fields:
 * one row, its sibling in another variant, the sizes of a sweep. What
 * the derived tables, the headline and the plots select with.
 */
#ifndef SMAPBENCH_RUN_SELECT_H
#define SMAPBENCH_RUN_SELECT_H

#include <stddef.h>

#include "rundata/rundir.h"

/* A benchmark by its fields (names differ in what they leave out). */
struct bench_key {
	const char *suite, *op, *variant;
	unsigned long size, batch;
};

int bench_is(const struct run_bench *b, const struct bench_key *k);
/* The row of run with these fields, or NULL. */
const struct run_bench *bench_match(const struct run_dir *run,
				    const struct bench_key *k);
/* The row of b's suite, op and size in another variant and batch. */
const struct run_bench *bench_sibling(const struct run_dir *run,
				      const struct run_bench *b,
				      const char *variant, unsigned long batch);
/*
 * The rows of one suite, op and variant without a batch, size 0 left
 * out, ascending in size (equal sizes in run order): at most max into
 * out; returns how many.
 */
size_t bench_sweep(const struct run_dir *run, const char *suite,
		   const char *op, const char *variant,
		   const struct run_bench **out, size_t max);
/* The unit of the first row of suite in runs, or "". */
const char *suite_unit(const struct run_dir *const *runs, size_t nruns,
		       const char *suite);

/*
 * Which of several runs of one machine, kernel and SMAP state to use
 * (the table's rule): a complete run over an interrupted one (context
 * status), a default or --full run over a --quick one, then more
 * repetitions, then the newest. RUN_PREFERENCE_RULE says it in words.
 */
#define RUN_PREFERENCE_RULE						\
	"of several runs of one machine, kernel and SMAP state, the table "	\
	"uses a complete run over an interrupted one, a default or --full "	\
	"run over a --quick one, then the one with more repetitions, then "	\
	"the newest"

struct run_weight {
	int complete;			/* not status=interrupted */
	int quick;			/* quick=1 */
	unsigned long repetitions;	/* the context's; 0 unrecorded */
	const char *date;		/* "" unrecorded */
};

void run_weight_of(const struct run_dir *run, struct run_weight *w);
/*
 * > 0 when a is preferred to b, < 0 when b is, 0 when they tie; why (if
 * not NULL) gets the first rule that decided, as a phrase: "a complete
 * run, not an interrupted one", "a default or --full run, not a
 * --quick one", "more repetitions (5, not 3)", "a newer run".
 */
int run_weight_compare(const struct run_weight *a, const struct run_weight *b,
		       char *why, size_t len);

#endif /* SMAPBENCH_RUN_SELECT_H */
