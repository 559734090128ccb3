/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catalogue.h - the module's ops for user space: what RUN accepts of
 * each (kmod/uapi/smapbench_ops.def, the ABI) and what the kmod suite
 * runs of it (sweep.h, keyed by op id). The kmod suite's table, the
 * analysis of its rows (per-access figures, headline, plot selection),
 * the census and the VM selftest all read this, never a list of op names
 * of their own.
 *
 * Needs only the C library: the selftest links it into a static program.
 */
#ifndef SMAPBENCH_KMOD_CATALOGUE_H
#define SMAPBENCH_KMOD_CATALOGUE_H

#include <stddef.h>

#include "kmod/uapi/smapbench.h"

/* A list of the catalogue: sizes or batch sizes. */
struct kmod_list {
	const unsigned *value;
	size_t count;
};

/*
 * One op's entry: name to accesses are the .def's columns, the rest
 * sweep.h's fields.
 */
struct kmod_op {
	const char *name;
	unsigned min_size, max_size;	/* equal: a fixed unit (0 selects it) */
	unsigned flags;			/* SMAPBENCH_OPF_* */
	unsigned align;
	unsigned variants;		/* SMAPBENCH_VARIANT_BIT() mask */
	unsigned accesses;		/* user accesses per item */
	struct kmod_list sizes, quick_sizes;
	struct kmod_list batches, quick_batches;	/* {0}: none */
	unsigned headline_size;
	unsigned headline;		/* variants mask, 0: none */
	/*
	 * STAC, CLAC and POPF of one iteration of the op's own asm loop
	 * (variant none); all 0 for ops with user accesses, whose brackets
	 * the variant decides.
	 */
	struct kmod_brackets {
		unsigned stac, clac, popf;
	} brackets;
	unsigned kind;			/* KMOD_OP_* */
	const char *table_cell;		/* NULL: no cell of the table */
};

/*
 * What kind of op an entry is (its kind field, set in sweep.h), so that
 * plots, census and table ask the catalogue, never a list of names.
 */
#define KMOD_OP_CALIBRATION	(1U << 0) /* converts ticks to cycles */
#define KMOD_OP_PER_WIDTH	(1U << 1) /* a loop per width: heads end _<size> */
#define KMOD_OP_NOT_PLOTTED	(1U << 2) /* no bar in the ops and delta plots */

/* Indexed by enum smapbench_op. */
extern const struct kmod_op kmod_ops[SMAPBENCH_OP_COUNT];

/* "kapi", ..., "none"; "?" for a number out of range. */
const char *kmod_variant_name(unsigned variant);
/* enum smapbench_op of a name, or -1. */
int kmod_op_find(const char *name);
/* Whether the op of this name has one of the KMOD_OP_* bits of kind. */
int kmod_op_is(const char *name, unsigned kind);
/* enum smapbench_variant of a name, or -1. */
int kmod_variant_find(const char *name);
/* A batched or masked variant: an iteration is a block of items. */
int kmod_variant_is_block(unsigned variant);
/* Whether the list holds value. */
int kmod_list_has(const struct kmod_list *list, unsigned value);

/* Whether the module accepts this size for op (its smapbench_check_run() rule). */
int kmod_size_accepted(unsigned op, unsigned size);
/*
 * User accesses of one iteration of op in variant with this batch (the
 * benchmark's batch column): accesses per item, times batch for blocks.
 * 0 for ops that touch no user memory.
 */
unsigned long kmod_accesses(unsigned op, unsigned variant,
			    unsigned long batch);
/* The same for a row by its op and variant names; 0 if either is unknown. */
unsigned long kmod_row_accesses(const char *op, const char *variant,
				unsigned long batch);
/* Whether kmod/op/variant/size/batch is one of the headline rows. */
int kmod_is_headline(unsigned op, unsigned variant, unsigned size,
		     unsigned batch);

#endif /* SMAPBENCH_KMOD_CATALOGUE_H */
