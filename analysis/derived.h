/* SPDX-License-Identifier: GPL-2.0 */
/*
 * derived.h - the SMAP tables derived from one run's kmod rows: what one
 * STAC/CLAC pair costs per access (inline - nopad), what batching saves
 * per access, and from which copy size on the pair is under 1% of the
 * copy. Each figure is the mean over the repetitions of a paired
 * difference of two rows that ran side by side in each, with its t
 * interval (derived.c).
 */
#ifndef SMAPBENCH_DERIVED_H
#define SMAPBENCH_DERIVED_H

#include <stddef.h>
#include <stdio.h>

#include "rundata/rundir.h"

/* A pair "costs under 1%" of a copy below this share. */
#define CROSSOVER_SHARE 0.01

/* inline - nopad: one STAC/CLAC pair per access, within one boot. */
struct derived_pair {
	const char *op;
	unsigned long size;
	double inline_center, nopad_center;	/* per access */
	double cost, low, high;		/* paired, per access */
};

/* One pair per access (kapi) against one pair per block of batch. */
struct derived_batch {
	const char *op, *variant;	/* batched or masked */
	unsigned long size, batch;
	unsigned long per_pair;	/* accesses per STAC/CLAC pair (batch x item) */
	double single;		/* kapi cost per access (per field: sigframe) */
	double batched;		/* batched cost per access */
	double saving, low, high;	/* single - batched, per access */
};

/* Copy size above which the pair costs under CROSSOVER_SHARE of the copy. */
struct derived_crossover {
	const char *op;
	unsigned long min_size, max_size;	/* the sweep measured */
	double size, low, high;	/* INFINITY: beyond max_size */
	double share_at_max;	/* pair / copy at max_size */
};

struct derived {
	const char *unit;
	double pair_center, pair_low, pair_high;	/* kmod/pair/none/0 */
	struct derived_pair *pairs;
	size_t pair_count;
	struct derived_batch *batches;
	size_t batch_count;
	struct derived_crossover *crossovers;
	size_t crossover_count;
};

/* 0, or -1 (out of memory; d is then empty). */
int derived_compute(const struct run_dir *run, struct derived *d);
void derived_free(struct derived *d);
/* The three tables, with headings; Markdown headings when markdown. */
void derived_print(FILE *f, const struct run_dir *run,
		   const struct derived *d, int markdown);

#endif /* SMAPBENCH_DERIVED_H */
