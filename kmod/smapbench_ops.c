// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench_ops.c - what one iteration of every op x variant does.
 *
 * Every user-memory op is written once, as an always-inline loop that is
 * specialised per variant (and per access width for get/put_user), so
 * that inline and nopad differ only in the bytes of the STAC/CLAC slots
 * and kapi, batched and masked differ only in how the kernel brackets the
 * same accesses:
 *
 *   kapi     get_user(), copy_to_user(), ...: the kernel's own API, whose
 *            STAC/CLAC alternatives this boot patched (NOPs without SMAP)
 *   inline   raw STAC; access; raw CLAC, per access
 *   nopad    NOP3; access; NOP3, per access, inside one raw STAC/CLAC per
 *            sample: inline - nopad is the cost of the two instructions
 *   batched  user_access_begin(); @batch accesses; user_access_end()
 *   masked   masked_user_access_begin(); @batch accesses; user_access_end()
 *
 * The accesses of the raw variants are unsafe_get_user()/unsafe_put_user()
 * or rep movsb/stosb, each with a user-access exception table entry: a bad
 * address lands on a fixup and comes back as -EFAULT, and every path out of
 * a loop clears EFLAGS.AC again. Loops run with interrupts and page faults
 * disabled (see smapbench_main.c), so the caller pre-faults the buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/objtool.h>
#include <linux/printk.h>
#include <linux/uaccess.h>
#include <asm/asm.h>
#include <asm/futex.h>
#include <asm/processor-flags.h>
#include <asm/smap.h>

#include "smapbench_ops.h"

/*
 * The fields an x86-64 rt signal frame setup stores one by one (the
 * return address, the ucontext header and stack, the saved registers of
 * struct sigcontext): the code seed 011 moved into one STAC/CLAC block.
 * Field widths are the kernel's; the layout is ours.
 */
struct smapbench_frame {
	u64 pretcode;
	u64 uc_flags;
	u64 uc_link;
	u64 ss_sp;
	u32 ss_flags;
	u32 pad0;
	u64 ss_size;
	u64 r8;
	u64 r9;
	u64 r10;
	u64 r11;
	u64 r12;
	u64 r13;
	u64 r14;
	u64 r15;
	u64 di;
	u64 si;
	u64 bp;
	u64 bx;
	u64 dx;
	u64 ax;
	u64 cx;
	u64 sp;
	u64 ip;
	u64 flags;
	u16 cs;
	u16 pad1[3];
};

/*
 * The raw opcodes rather than the kernel's stac()/clac(): those are
 * alternatives that this boot may have patched to NOPs. The "memory"
 * clobber keeps the compiler from moving user accesses across them.
 */
static __always_inline void raw_stac(void)
{
	asm volatile(__ASM_STAC : : : "memory");
}

static __always_inline void raw_clac(void)
{
	asm volatile(__ASM_CLAC : : : "memory");
}

/* NOP3 (0f 1f 00): same length as STAC/CLAC, for the nopad variant. */
static __always_inline void raw_nop3(void)
{
	asm volatile(".byte 0x0f,0x1f,0x00" : : : "memory");
}

/* Opens user access around one access: inline and nopad. */
static __always_inline void access_open(const int v)
{
	if (v == SMAPBENCH_VARIANT_INLINE)
		raw_stac();
	else if (v == SMAPBENCH_VARIANT_NOPAD)
		raw_nop3();
}

static __always_inline void access_close(const int v)
{
	if (v == SMAPBENCH_VARIANT_INLINE)
		raw_clac();
	else if (v == SMAPBENCH_VARIANT_NOPAD)
		raw_nop3();
}

/* A faulting access skipped access_close(): clear AC it had set. */
static __always_inline void access_abort(const int v)
{
	if (v == SMAPBENCH_VARIANT_INLINE)
		raw_clac();
}

/*
 * Opens a block of accesses (batched, masked). masked_user_access_begin()
 * may replace the pointer: use *p afterwards. Returns false when
 * user_access_begin() refuses the range.
 */
static __always_inline bool block_open(const int v, void __user **p,
				       unsigned long len)
{
	if (v == SMAPBENCH_VARIANT_BATCHED)
		return user_access_begin(*p, len);
#if SMAPBENCH_HAVE_MASKED
	if (v == SMAPBENCH_VARIANT_MASKED)
		*p = masked_user_access_begin(*p);
#else
	/* Without masked_user_access_begin() there must be no masked loop. */
	BUILD_BUG_ON(v == SMAPBENCH_VARIANT_MASKED);
#endif
	return true;
}

static __always_inline void block_close(const int v)
{
	if (v == SMAPBENCH_VARIANT_BATCHED || v == SMAPBENCH_VARIANT_MASKED)
		user_access_end();
}

/* nopad: one raw STAC/CLAC pair around the whole sample. */
static __always_inline void sample_open(const int v)
{
	if (v == SMAPBENCH_VARIANT_NOPAD)
		raw_stac();
}

static __always_inline void sample_close(const int v)
{
	if (v == SMAPBENCH_VARIANT_NOPAD)
		raw_clac();
}

/*
 * rep movsb and rep stosb with a user-access exception entry: a fault ends
 * the string instruction with RCX holding the bytes left, which is what
 * these return. The raw variants use them for copies so that inline,
 * nopad, batched and masked run the same copy instruction.
 */
static __always_inline unsigned long movsb_raw(void *to, const void *from,
					       unsigned long len)
{
	asm volatile("1:	rep movsb\n"
		     "2:\n"
		     _ASM_EXTABLE_UA(1b, 2b)
		     : "+c" (len), "+D" (to), "+S" (from)
		     : : "memory");
	return len;
}

static __always_inline unsigned long stosb_raw(void *to, unsigned long len)
{
	asm volatile("1:	rep stosb\n"
		     "2:\n"
		     _ASM_EXTABLE_UA(1b, 2b)
		     : "+c" (len), "+D" (to)
		     : "a" (0)
		     : "memory");
	return len;
}

/*
 * One access each. They return 0 or -EFAULT; on -EFAULT AC is as it was
 * before access_open() (set inside a block or a nopad sample, else clear).
 * @size is a constant for get/put_user, so each width gets its own loop.
 */
static __always_inline int get_one(const int v, const void __user *p,
				   const unsigned int size, u64 *sum)
{
	u64 x;

	if (v == SMAPBENCH_VARIANT_KAPI) {
		int ret;

		switch (size) {
		case 1:
			ret = get_user(x, (const u8 __user *)p);
			break;
		case 2:
			ret = get_user(x, (const u16 __user *)p);
			break;
		case 4:
			ret = get_user(x, (const u32 __user *)p);
			break;
		default:
			ret = get_user(x, (const u64 __user *)p);
			break;
		}
		if (unlikely(ret))
			return -EFAULT;
		*sum += x;
		return 0;
	}

	access_open(v);
	switch (size) {
	case 1:
		unsafe_get_user(x, (const u8 __user *)p, efault);
		break;
	case 2:
		unsafe_get_user(x, (const u16 __user *)p, efault);
		break;
	case 4:
		unsafe_get_user(x, (const u32 __user *)p, efault);
		break;
	default:
		unsafe_get_user(x, (const u64 __user *)p, efault);
		break;
	}
	access_close(v);
	*sum += x;
	return 0;
efault:
	access_abort(v);
	return -EFAULT;
}

static __always_inline int put_one(const int v, void __user *p,
				   const unsigned int size, u64 x)
{
	if (v == SMAPBENCH_VARIANT_KAPI) {
		int ret;

		switch (size) {
		case 1:
			ret = put_user((u8)x, (u8 __user *)p);
			break;
		case 2:
			ret = put_user((u16)x, (u16 __user *)p);
			break;
		case 4:
			ret = put_user((u32)x, (u32 __user *)p);
			break;
		default:
			ret = put_user(x, (u64 __user *)p);
			break;
		}
		return unlikely(ret) ? -EFAULT : 0;
	}

	access_open(v);
	switch (size) {
	case 1:
		unsafe_put_user((u8)x, (u8 __user *)p, efault);
		break;
	case 2:
		unsafe_put_user((u16)x, (u16 __user *)p, efault);
		break;
	case 4:
		unsafe_put_user((u32)x, (u32 __user *)p, efault);
		break;
	default:
		unsafe_put_user(x, (u64 __user *)p, efault);
		break;
	}
	access_close(v);
	return 0;
efault:
	access_abort(v);
	return -EFAULT;
}

static __always_inline int copy_to_one(const int v, void __user *p,
				       const void *k, unsigned int size)
{
	unsigned long left;

	if (v == SMAPBENCH_VARIANT_KAPI)
		return copy_to_user(p, k, size) ? -EFAULT : 0;

	access_open(v);
	left = movsb_raw((__force void *)p, k, size);
	access_close(v);
	return unlikely(left) ? -EFAULT : 0;
}

static __always_inline int copy_from_one(const int v, const void __user *p,
					 void *k, unsigned int size)
{
	unsigned long left;

	if (v == SMAPBENCH_VARIANT_KAPI)
		return copy_from_user(k, p, size) ? -EFAULT : 0;

	access_open(v);
	left = movsb_raw(k, (__force const void *)p, size);
	access_close(v);
	return unlikely(left) ? -EFAULT : 0;
}

static __always_inline int clear_one(const int v, void __user *p,
				     unsigned int size)
{
	unsigned long left;

	if (v == SMAPBENCH_VARIANT_KAPI)
		return clear_user(p, size) ? -EFAULT : 0;

	access_open(v);
	left = stosb_raw((__force void *)p, size);
	access_close(v);
	return unlikely(left) ? -EFAULT : 0;
}

/* The string was written by the caller; only kapi exists for this op. */
static __always_inline int strncpy_one(const void __user *p, void *k,
				       unsigned int size)
{
	long len = strncpy_from_user(k, p, size);

	return len < 0 ? (int)len : 0;
}

/*
 * Compare-and-exchange 0 with 0, as the futex fast path does with the
 * expected and new values: a lock cmpxchg on the user word either way.
 */
static __always_inline int futex_one(const int v, void __user *p, u64 *sum)
{
	u32 old = 0;

	if (v == SMAPBENCH_VARIANT_KAPI)
		return futex_atomic_cmpxchg_inatomic(&old, p, 0, 0);

	access_open(v);
	if (!unsafe_try_cmpxchg_user((u32 __user *)p, &old, 0, efault))
		*sum += old;
	access_close(v);
	return 0;
efault:
	access_abort(v);
	return -EFAULT;
}

/*
 * The 25 stores, in frame order. Like the kernel's signal code the errors
 * are or-ed: a fault does not skip the remaining stores, which fault too.
 * Each is put_one() at the field's width, a constant, so every store
 * compiles to its own single-width access.
 */
static __always_inline int sigframe_one(const int v,
					struct smapbench_frame __user *f,
					u64 x)
{
	int err = 0;

	err |= put_one(v, &f->pretcode, sizeof(f->pretcode), x);
	err |= put_one(v, &f->uc_flags, sizeof(f->uc_flags), 0);
	err |= put_one(v, &f->uc_link, sizeof(f->uc_link), 0);
	err |= put_one(v, &f->ss_sp, sizeof(f->ss_sp), x);
	err |= put_one(v, &f->ss_flags, sizeof(f->ss_flags), 0);
	err |= put_one(v, &f->ss_size, sizeof(f->ss_size), x);
	err |= put_one(v, &f->r8, sizeof(f->r8), x);
	err |= put_one(v, &f->r9, sizeof(f->r9), x);
	err |= put_one(v, &f->r10, sizeof(f->r10), x);
	err |= put_one(v, &f->r11, sizeof(f->r11), x);
	err |= put_one(v, &f->r12, sizeof(f->r12), x);
	err |= put_one(v, &f->r13, sizeof(f->r13), x);
	err |= put_one(v, &f->r14, sizeof(f->r14), x);
	err |= put_one(v, &f->r15, sizeof(f->r15), x);
	err |= put_one(v, &f->di, sizeof(f->di), x);
	err |= put_one(v, &f->si, sizeof(f->si), x);
	err |= put_one(v, &f->bp, sizeof(f->bp), x);
	err |= put_one(v, &f->bx, sizeof(f->bx), x);
	err |= put_one(v, &f->dx, sizeof(f->dx), x);
	err |= put_one(v, &f->ax, sizeof(f->ax), x);
	err |= put_one(v, &f->cx, sizeof(f->cx), x);
	err |= put_one(v, &f->sp, sizeof(f->sp), x);
	err |= put_one(v, &f->ip, sizeof(f->ip), x);
	err |= put_one(v, &f->flags, sizeof(f->flags), x);
	err |= put_one(v, &f->cs, sizeof(f->cs), 0x33);
	return err ? -EFAULT : 0;
}

static __always_inline int access_one(struct smapbench_ctx *ctx, const int op,
				      const int v, const unsigned int size,
				      void __user *p, u32 i, u64 *sum)
{
	switch (op) {
	case SMAPBENCH_OP_GET_USER:
		return get_one(v, p, size, sum);
	case SMAPBENCH_OP_PUT_USER:
		return put_one(v, p, size, i);
	case SMAPBENCH_OP_COPY_TO_USER:
		return copy_to_one(v, p, ctx->kbuf, size);
	case SMAPBENCH_OP_COPY_FROM_USER:
		return copy_from_one(v, p, ctx->kbuf, size);
	case SMAPBENCH_OP_CLEAR_USER:
		return clear_one(v, p, size);
	case SMAPBENCH_OP_STRNCPY_FROM_USER:
		return strncpy_one(p, ctx->kbuf, size);
	case SMAPBENCH_OP_FUTEX:
		return futex_one(v, p, sum);
	default:
		return sigframe_one(v, p, i);
	}
}

/*
 * @n iterations of one op x variant. An iteration is one access for kapi,
 * inline and nopad, one block of ctx->batch accesses for batched and
 * masked. Block i + 1 starts where block i started: the same
 * ctx->span bytes every iteration.
 */
static __always_inline int run_loop(struct smapbench_ctx *ctx, u32 n,
				    const int op, const int v,
				    const unsigned int size)
{
	const bool blocks = v == SMAPBENCH_VARIANT_BATCHED ||
			    v == SMAPBENCH_VARIANT_MASKED;
	const u32 batch = blocks ? ctx->batch : 1;
	void __user *const base = ctx->ubuf;
	const unsigned long stride = ctx->size;
	u64 sum = 0;
	int ret = 0;
	u32 i, j;

	sample_open(v);
	for (i = 0; i < n; i++) {
		void __user *p = base;

		if (!block_open(v, &p, ctx->span)) {
			ret = -EFAULT;
			break;
		}
		for (j = 0; j < batch; j++) {
			ret = access_one(ctx, op, v, size, p + j * stride, i,
					 &sum);
			if (unlikely(ret))
				break;
		}
		block_close(v);
		if (unlikely(ret))
			break;
	}
	sample_close(v);
	ctx->sink += sum;
	return ret;
}

/* get/put_user get one loop per width; other ops take the size at run time. */
static __always_inline int run_sized(struct smapbench_ctx *ctx, u32 n,
				     const int op, const int v)
{
	if (op != SMAPBENCH_OP_GET_USER && op != SMAPBENCH_OP_PUT_USER)
		return run_loop(ctx, n, op, v, ctx->size);

	switch (ctx->size) {
	case 1:
		return run_loop(ctx, n, op, v, 1);
	case 2:
		return run_loop(ctx, n, op, v, 2);
	case 4:
		return run_loop(ctx, n, op, v, 4);
	case 8:
		return run_loop(ctx, n, op, v, 8);
	default:
		return -EINVAL;
	}
}

/*
 * One function per op x variant, each a specialised copy of run_loop(),
 * e.g. get_user_inline(), and per op the table of them by variant that the
 * catalogue entry's op table points at: e.g. get_user_loops[].
 */
#define DEFINE_LOOP(name, OP, variant, VARIANT)				\
static int name##_##variant(struct smapbench_ctx *ctx, u32 n)		\
{									\
	return run_sized(ctx, n, SMAPBENCH_OP_##OP,			\
			 SMAPBENCH_VARIANT_##VARIANT);			\
}

#if SMAPBENCH_HAVE_MASKED
#define DEFINE_MASKED_LOOP(name, OP)	DEFINE_LOOP(name, OP, masked, MASKED)
#define MASKED(name)			name
#else
#define DEFINE_MASKED_LOOP(name, OP)
#define MASKED(name)			NULL
#endif

/* An op that accesses user memory: all five variants. */
#define DEFINE_ACCESS_LOOPS(name, OP)					\
DEFINE_LOOP(name, OP, kapi, KAPI)					\
DEFINE_LOOP(name, OP, inline, INLINE)					\
DEFINE_LOOP(name, OP, batched, BATCHED)					\
DEFINE_LOOP(name, OP, nopad, NOPAD)					\
DEFINE_MASKED_LOOP(name, OP)						\
static const smapbench_loop_t name##_loops[SMAPBENCH_VARIANT_COUNT] = {	\
	[SMAPBENCH_VARIANT_KAPI] = name##_kapi,				\
	[SMAPBENCH_VARIANT_INLINE] = name##_inline,			\
	[SMAPBENCH_VARIANT_BATCHED] = name##_batched,			\
	[SMAPBENCH_VARIANT_NOPAD] = name##_nopad,			\
	[SMAPBENCH_VARIANT_MASKED] = MASKED(name##_masked),		\
}

/* An op that exists only through the kernel's API. */
#define DEFINE_KAPI_LOOPS(name, OP)					\
DEFINE_LOOP(name, OP, kapi, KAPI)					\
static const smapbench_loop_t name##_loops[SMAPBENCH_VARIANT_COUNT] = {	\
	[SMAPBENCH_VARIANT_KAPI] = name##_kapi,				\
}

/* An op without an access to bracket: its asm loop, name_loop(). */
#define DEFINE_NONE_LOOPS(name)						\
static const smapbench_loop_t name##_loops[SMAPBENCH_VARIANT_COUNT] = {	\
	[SMAPBENCH_VARIANT_NONE] = name##_loop,				\
}

DEFINE_ACCESS_LOOPS(get_user, GET_USER);
DEFINE_ACCESS_LOOPS(put_user, PUT_USER);
DEFINE_ACCESS_LOOPS(copy_to_user, COPY_TO_USER);
DEFINE_ACCESS_LOOPS(copy_from_user, COPY_FROM_USER);
DEFINE_ACCESS_LOOPS(clear_user, CLEAR_USER);
DEFINE_ACCESS_LOOPS(futex, FUTEX);
DEFINE_ACCESS_LOOPS(sigframe, SIGFRAME);
DEFINE_KAPI_LOOPS(strncpy_from_user, STRNCPY_FROM_USER);

/*
 * The ops without user memory. Each iteration is one pass of the asm loop
 * body; the loop's own dec/jnz is part of every op (including calib), so
 * it cancels in differences. All need n >= 1.
 */

/* 1024 dependent adds: one core cycle each on every x86 core. */
static int calib_loop(struct smapbench_ctx *ctx, u32 n)
{
	u64 acc = 0;

	asm volatile("1:\n\t"
		     ".rept 1024\n\t"
		     "add $1, %[acc]\n\t"
		     ".endr\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b"
		     : [acc] "+r" (acc), [n] "+r" (n)
		     : : "cc");
	ctx->sink += acc;
	return 0;
}

static int pair_loop(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile("1:\n\t"
		     __ASM_STAC "\n\t"
		     __ASM_CLAC "\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b"
		     : [n] "+r" (n)
		     : : "memory", "cc");
	return 0;
}

/*
 * STAC alone, n times, then one CLAC. objtool's uaccess validation would
 * (rightly, for normal code) call the second STAC a "recursive UACCESS
 * enable", so this function is excluded from objtool's checks; it has no
 * stack frame and calls nothing.
 */
static int stac_loop(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile("1:\n\t"
		     __ASM_STAC "\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b\n\t"
		     __ASM_CLAC
		     : [n] "+r" (n)
		     : : "memory", "cc");
	return 0;
}
STACK_FRAME_NON_STANDARD(stac_loop);

/* CLAC alone with AC already clear ("redundant UACCESS disable"). */
static int clac_loop(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile("1:\n\t"
		     __ASM_CLAC "\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b"
		     : [n] "+r" (n)
		     : : "memory", "cc");
	return 0;
}
STACK_FRAME_NON_STANDARD(clac_loop);

/*
 * Set AC and clear it again through the flags image on the stack: what
 * SMAP would have cost without STAC/CLAC. Works on any x86-64: outside
 * ring 3 AC only matters to SMAP.
 */
static int popf_ac_loop(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile("1:\n\t"
		     "pushf\n\t"
		     "orl %[ac], (%%rsp)\n\t"
		     "popf\n\t"
		     "pushf\n\t"
		     "andl %[noac], (%%rsp)\n\t"
		     "popf\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b"
		     : [n] "+r" (n)
		     : [ac] "i" ((u32)X86_EFLAGS_AC),
		       [noac] "i" (~(u32)X86_EFLAGS_AC)
		     : "memory", "cc");
	return 0;
}


DEFINE_NONE_LOOPS(calib);
DEFINE_NONE_LOOPS(pair);
DEFINE_NONE_LOOPS(stac);
DEFINE_NONE_LOOPS(clac);
DEFINE_NONE_LOOPS(popf_ac);

/* The op table: the catalogue's entries, with each op's loops. */
#define SMAPBENCH_OP(id, op_name, min, max, op_flags, op_align,	\
		     op_variants, ...)					\
	[SMAPBENCH_OP_##id] = {						\
		.name = #op_name,					\
		.min_size = min,					\
		.max_size = max,					\
		.flags = op_flags,					\
		.align = op_align,					\
		.variants = op_variants,				\
		.loop = op_name##_loops,				\
	},

const struct smapbench_op_desc smapbench_ops[SMAPBENCH_OP_COUNT] = {
#include "uapi/smapbench_ops.def"
};

#undef SMAPBENCH_OP

/* As many catalogue entries as ops (smapbench_ops_check() sees each). */
#define SMAPBENCH_OP(id, ...)	SMAPBENCH_CATALOGUE_##id,
enum {
#include "uapi/smapbench_ops.def"
	SMAPBENCH_CATALOGUE_COUNT
};

#undef SMAPBENCH_OP
static_assert((int)SMAPBENCH_CATALOGUE_COUNT == (int)SMAPBENCH_OP_COUNT);

/**
 * smapbench_ops_check() - do the loops built match the catalogue?
 *
 * Every variant the catalogue lists for an op needs a loop, masked only
 * where the kernel has masked_user_access_begin(); a loop for a variant
 * it does not list could never be reached. Either is a bug of this file.
 *
 * Return: 0, or -EINVAL after logging the first mismatch.
 */
int smapbench_ops_check(void)
{
	int op, v;

	for (op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct smapbench_op_desc *d = &smapbench_ops[op];

		if (!d->name) {
			pr_err("op %d has no entry in the catalogue\n", op);
			return -EINVAL;
		}
		for (v = 0; v < SMAPBENCH_VARIANT_COUNT; v++) {
			bool listed = d->variants & BIT(v);
			bool built = d->loop[v];

			if (listed == built ||
			    (listed && v == SMAPBENCH_VARIANT_MASKED &&
			     !SMAPBENCH_HAVE_MASKED))
				continue;
			pr_err("op %s variant %d is %s in the catalogue but %s\n",
			       d->name, v, listed ? "listed" : "not listed",
			       built ? "has a loop" : "has no loop");
			return -EINVAL;
		}
	}
	return 0;
}

static_assert(sizeof(struct smapbench_frame) == SMAPBENCH_SIGFRAME_BYTES);
