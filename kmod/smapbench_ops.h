/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smapbench_ops.h - the timed loops, as seen by the timing engine.
 *
 * smapbench_ops.c owns what one iteration of each op x variant does;
 * smapbench_main.c owns validation, timing and the device. This header is
 * the narrow interface between them.
 */
#ifndef _SMAPBENCH_OPS_H
#define _SMAPBENCH_OPS_H

#include <linux/types.h>
#include <linux/uaccess.h>

#include "uapi/smapbench.h"
/*
 * SMAPBENCH_HAVE_<feature>, 1 or 0: what the build found when it compiled
 * each of kmod/probes/ against this kernel (kmod/probes/config.sh). The
 * module asks these, never the version number, so distribution kernels
 * with backports get what they have. A feature a kernel lacks removes
 * only what needs it: those op x variant pairs answer -EOPNOTSUPP.
 */
#include "smapbench_config.h"

#ifndef CONFIG_X86_64
#error "smapbench.ko is for x86-64 kernels: its timed loops are x86-64 assembly"
#endif

/*
 * STAC and CLAC as bytes, not the kernel's stac()/clac(): those are
 * alternatives that a boot without SMAP patches to NOPs. Kernels before 6.15
 * spelled them __ASM_STAC/__ASM_CLAC in asm/smap.h, later ones use the
 * mnemonics and define neither; the bytes need no header and no
 * particular assembler.
 */
#define SMAPBENCH_ASM_STAC	".byte 0x0f,0x01,0xcb"
#define SMAPBENCH_ASM_CLAC	".byte 0x0f,0x01,0xca"

/**
 * struct smapbench_ctx - what a timed loop works on
 * @ubuf: start of the user buffer; already checked with access_ok() and
 *	faulted in for @span bytes.
 * @kbuf: kernel side of copies (@size bytes), the string source of
 *	strncpy_from_user, NULL for other ops.
 * @size: bytes per access (the run's @size; frame size for sigframe).
 * @batch: accesses per STAC/CLAC block for batched and masked, else 1.
 * @span: bytes of @ubuf one iteration touches (@size * @batch).
 * @first: index of the call's first iteration in its sample: a window
 *	calls the loop once per chunk, and what put_user stores (the
 *	iteration's index) runs on across the calls.
 * @sink: where loaded values go, so the compiler cannot drop the loads.
 */
struct smapbench_ctx {
	void __user *ubuf;
	void *kbuf;
	u32 size;
	u32 batch;
	u32 first;
	unsigned long span;
	u64 sink;
};

/**
 * typedef smapbench_loop_t - one op x variant's timed loop
 * @ctx: what the loop works on.
 * @n: iterations to run; 0 runs none.
 *
 * Returns 0 or -EFAULT; always returns with EFLAGS.AC clear.
 */
typedef int (*smapbench_loop_t)(struct smapbench_ctx *ctx, u32 n);

/**
 * struct smapbench_op_desc - one op: its catalogue entry and its loops
 * @name: for log messages.
 * @min_size: smallest accepted smapbench_run.size.
 * @max_size: largest accepted smapbench_run.size; equal to @min_size for
 *	a fixed unit, which size 0 also selects.
 * @flags: SMAPBENCH_OPF_* of the op.
 * @align: required alignment of the buffer (futex: 4), else 1.
 * @variants: bit (1 << variant) for every variant the ABI defines for the op
 *	at all; a defined one whose @loop is NULL is not built for this kernel.
 * @loop: per variant (SMAPBENCH_VARIANT_COUNT entries), the loop running
 *	@n iterations, NULL where the combination does not exist.
 *
 * All but @loop come from the op's entry in uapi/smapbench_ops.def.
 */
struct smapbench_op_desc {
	const char *name;
	u32 min_size;
	u32 max_size;
	u32 flags;
	u32 align;
	u32 variants;
	const smapbench_loop_t *loop;
};

extern const struct smapbench_op_desc smapbench_ops[SMAPBENCH_OP_COUNT];

const char *smapbench_missing_feature(int op, int v);
int smapbench_ops_check(void);

#endif /* _SMAPBENCH_OPS_H */
