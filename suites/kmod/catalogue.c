// SPDX-License-Identifier: GPL-2.0
/*
 * catalogue.c - the module's ops for user space: the ABI catalogue
 * kmod/uapi/smapbench_ops.def joined with what the suite runs of each op
 * (sweep.h); see catalogue.h.
 */
#include "suites/kmod/catalogue.h"

#include <string.h>

#include "suites/kmod/sweep.h"

/*
 * Each op's entry: its ABI half from the .def, the rest from its
 * KMOD_SWEEP_<id> (sweep.h).
 */
#define SMAPBENCH_OP(id, op_name, min, max, op_flags, op_align,	\
		     op_variants, op_accesses)				\
	[SMAPBENCH_OP_##id] = {						\
		.name = #op_name,					\
		.min_size = min, .max_size = max,			\
		.flags = op_flags, .align = op_align,			\
		.variants = op_variants, .accesses = op_accesses,	\
		KMOD_SWEEP_##id						\
	},

const struct kmod_op kmod_ops[SMAPBENCH_OP_COUNT] = {
#include "kmod/uapi/smapbench_ops.def"
};

#undef SMAPBENCH_OP

/* The .def has one entry per op (designated initialisers hide a gap). */
#define SMAPBENCH_OP(id, ...) + 1
_Static_assert(0
#include "kmod/uapi/smapbench_ops.def"
	       == SMAPBENCH_OP_COUNT, "one catalogue entry per enum smapbench_op");
#undef SMAPBENCH_OP

static const char *const variant_names[SMAPBENCH_VARIANT_COUNT] = {
	[SMAPBENCH_VARIANT_KAPI] = "kapi",
	[SMAPBENCH_VARIANT_INLINE] = "inline",
	[SMAPBENCH_VARIANT_BATCHED] = "batched",
	[SMAPBENCH_VARIANT_NOPAD] = "nopad",
	[SMAPBENCH_VARIANT_MASKED] = "masked",
	[SMAPBENCH_VARIANT_NONE] = "none",
};

const char *kmod_variant_name(unsigned variant)
{
	return variant < SMAPBENCH_VARIANT_COUNT ? variant_names[variant] : "?";
}

int kmod_op_find(const char *name)
{
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++)
		if (kmod_ops[op].name && !strcmp(kmod_ops[op].name, name))
			return (int)op;
	return -1;
}

int kmod_op_is(const char *name, unsigned kind)
{
	int op = kmod_op_find(name);

	return op >= 0 && (kmod_ops[op].kind & kind);
}

int kmod_variant_find(const char *name)
{
	for (unsigned v = 0; v < SMAPBENCH_VARIANT_COUNT; v++)
		if (!strcmp(variant_names[v], name))
			return (int)v;
	return -1;
}

int kmod_variant_is_block(unsigned variant)
{
	return variant < SMAPBENCH_VARIANT_COUNT &&
	       (SMAPBENCH_VARIANTS_BLOCK & (1U << variant));
}

int kmod_list_has(const struct kmod_list *list, unsigned value)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->value[i] == value)
			return 1;
	return 0;
}

int kmod_size_accepted(unsigned op, unsigned size)
{
	const struct kmod_op *o;

	if (op >= SMAPBENCH_OP_COUNT)
		return 0;
	o = &kmod_ops[op];
	if (o->min_size == o->max_size)
		return size == 0 || size == o->min_size;
	if (size < o->min_size || size > o->max_size)
		return 0;
	return !(o->flags & SMAPBENCH_OPF_POW2) || !(size & (size - 1));
}

unsigned long kmod_accesses(unsigned op, unsigned variant,
			    unsigned long batch)
{
	if (op >= SMAPBENCH_OP_COUNT)
		return 0;
	return kmod_ops[op].accesses *
	       (kmod_variant_is_block(variant) ? batch : 1);
}

unsigned long kmod_row_accesses(const char *op, const char *variant,
				unsigned long batch)
{
	int o = kmod_op_find(op), v = kmod_variant_find(variant);

	return o < 0 || v < 0 ? 0 : kmod_accesses((unsigned)o, (unsigned)v, batch);
}

int kmod_is_headline(unsigned op, unsigned variant, unsigned size,
		     unsigned batch)
{
	const struct kmod_op *o;

	if (op >= SMAPBENCH_OP_COUNT || variant >= SMAPBENCH_VARIANT_COUNT)
		return 0;
	o = &kmod_ops[op];
	if (!(o->headline & (1U << variant)) || size != o->headline_size)
		return 0;
	/* blocks at the op's first batch size, the others without one */
	return kmod_variant_is_block(variant) ? batch == o->batches.value[0]
					      : batch == 0;
}
