/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sweep.h - the user-space half of the kmod catalogue: what the kmod
 * suite runs of each op and what the census expects of it. None of it is
 * ABI, so changing a sweep rebuilds smapbench, never the module.
 *
 * Keyed by op id: KMOD_SWEEP_<id> is the rest of the op's entry in
 * kmod_ops[] (catalogue.c), whose ABI half comes from
 * kmod/uapi/smapbench_ops.def. An op of the .def without its
 * KMOD_SWEEP_<id> here does not build. The fields, all named:
 *
 * sizes:	the sizes of the sweep; quick_sizes: those a --quick run
 *		keeps. KMOD_NO_SIZES ({0}) for ops without user memory.
 * batches:	the batch sizes of batched and masked (items per STAC/CLAC
 *		pair); quick_batches: those a --quick run keeps.
 *		KMOD_NO_BATCHES ({0}) when the op has neither variant.
 * headline_size, headline: the variants (SMAPBENCH_VARIANT_BIT()) whose
 *		benchmark at headline_size is a headline row (in report.md
 *		and run-bench.sh's summary); batched and masked at the op's
 *		first batch size. Left out: none.
 * brackets:	STAC, CLAC and POPF that one iteration of the op's own asm
 *		loop executes, for the ops without user access (variant
 *		none); a loop call may add one more after its loop (stac
 *		clears AC once). Left out (all 0) for ops with user
 *		accesses: theirs follow from the variant, one pair per
 *		access (inline, kapi), per block (batched, masked) or per
 *		loop call (nopad). The census checks both (docs/census.md).
 * kind:	KMOD_OP_* flags (catalogue.h) for what reads the op by kind
 *		rather than by name: KMOD_OP_CALIBRATION, a chain that converts
 *		ticks to cycles, not a cost of SMAP; KMOD_OP_PER_WIDTH, one
 *		loop per access width (the module's SMAPBENCH_DEFINE_SIZED_LOOP), whose
 *		loop heads end in _<size>; KMOD_OP_NOT_PLOTTED, no bar in the
 *		ops and delta plots. Left out: none.
 * table_cell:	the op's pair cell in the cross-machine table
 *		(analysis/table.h), named pair_<op>_<table_cell>: a size in
 *		bytes (its row at that size), or for a fixed unit what one
 *		access is ("field", the row of size 0). Left out: no cell.
 */
#ifndef SMAPBENCH_KMOD_SWEEP_H
#define SMAPBENCH_KMOD_SWEEP_H

#include "kmod/uapi/smapbench.h"

/* A list of values as a struct kmod_list. */
#define KMOD_LIST(...) {						\
	.value = (const unsigned[]){ __VA_ARGS__ },			\
	.count = sizeof((const unsigned[]){ __VA_ARGS__ }) / sizeof(unsigned) }

#define KMOD_NO_SIZES	.sizes = KMOD_LIST(0), .quick_sizes = KMOD_LIST(0)
#define KMOD_NO_BATCHES	.batches = KMOD_LIST(0), .quick_batches = KMOD_LIST(0)
/* The batch sizes of every op with blocks: up to a signal frame's 25. */
#define KMOD_BATCHES							\
	.batches = KMOD_LIST(1, 4, 16, 25), .quick_batches = KMOD_LIST(1, 16)
/* Copy sizes: a byte to 64 KiB in factors of 8. */
#define KMOD_COPY_SIZES							\
	.sizes = KMOD_LIST(1, 8, 64, 512, 4096, 65536),			\
	.quick_sizes = KMOD_LIST(1, 64, 4096, 65536)

/* ---- ops without user access: their asm loop's brackets ----------- */

#define KMOD_SWEEP_CALIB						\
	KMOD_NO_SIZES, KMOD_NO_BATCHES,					\
	.kind = KMOD_OP_CALIBRATION | KMOD_OP_NOT_PLOTTED,		\
	.brackets = { .stac = 0, .clac = 0, .popf = 0 }

#define KMOD_SWEEP_CALIB_IMUL						\
	KMOD_NO_SIZES, KMOD_NO_BATCHES,					\
	.kind = KMOD_OP_CALIBRATION | KMOD_OP_NOT_PLOTTED,		\
	.brackets = { .stac = 0, .clac = 0, .popf = 0 }

#define KMOD_SWEEP_PAIR							\
	KMOD_NO_SIZES, KMOD_NO_BATCHES,					\
	.headline = SMAPBENCH_VARIANT_BIT(NONE),			\
	.brackets = { .stac = 1, .clac = 1, .popf = 0 }

#define KMOD_SWEEP_STAC							\
	KMOD_NO_SIZES, KMOD_NO_BATCHES,					\
	.brackets = { .stac = 1, .clac = 0, .popf = 0 }

#define KMOD_SWEEP_CLAC							\
	KMOD_NO_SIZES, KMOD_NO_BATCHES,					\
	.brackets = { .stac = 0, .clac = 1, .popf = 0 }

#define KMOD_SWEEP_POPF_AC						\
	KMOD_NO_SIZES, KMOD_NO_BATCHES,					\
	.brackets = { .stac = 0, .clac = 0, .popf = 2 }

/* ---- ops with user accesses --------------------------------------- */

#define KMOD_SWEEP_GET_USER						\
	.sizes = KMOD_LIST(1, 2, 4, 8), .quick_sizes = KMOD_LIST(1, 2, 4, 8), \
	KMOD_BATCHES,							\
	.kind = KMOD_OP_PER_WIDTH, .table_cell = "8",			\
	.headline_size = 8,						\
	.headline = SMAPBENCH_VARIANT_BIT(KAPI) |			\
		    SMAPBENCH_VARIANT_BIT(INLINE) |			\
		    SMAPBENCH_VARIANT_BIT(NOPAD)

#define KMOD_SWEEP_PUT_USER						\
	.sizes = KMOD_LIST(1, 2, 4, 8), .quick_sizes = KMOD_LIST(1, 2, 4, 8), \
	KMOD_BATCHES,							\
	.kind = KMOD_OP_PER_WIDTH, .table_cell = "8"

#define KMOD_SWEEP_COPY_TO_USER						\
	KMOD_COPY_SIZES, KMOD_BATCHES,					\
	.table_cell = "64",						\
	.headline_size = 64,						\
	.headline = SMAPBENCH_VARIANT_BIT(KAPI)

#define KMOD_SWEEP_COPY_FROM_USER					\
	KMOD_COPY_SIZES, KMOD_BATCHES,					\
	.table_cell = "64"

#define KMOD_SWEEP_CLEAR_USER						\
	KMOD_COPY_SIZES, KMOD_BATCHES

/* kapi only: no batch sizes */
#define KMOD_SWEEP_STRNCPY_FROM_USER					\
	KMOD_COPY_SIZES, KMOD_NO_BATCHES

/* one fixed unit, a u32 */
#define KMOD_SWEEP_FUTEX						\
	.sizes = KMOD_LIST(4), .quick_sizes = KMOD_LIST(4),		\
	KMOD_BATCHES

/* one fixed unit, a frame; a batched frame is one block of its fields */
#define KMOD_SWEEP_SIGFRAME						\
	KMOD_NO_SIZES,							\
	.table_cell = "field",						\
	.batches = KMOD_LIST(1), .quick_batches = KMOD_LIST(1),		\
	.headline = SMAPBENCH_VARIANT_BIT(KAPI) |			\
		    SMAPBENCH_VARIANT_BIT(BATCHED)

#endif /* SMAPBENCH_KMOD_SWEEP_H */
