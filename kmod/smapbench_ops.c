// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench_ops.c - what one iteration of every op x variant does.
 *
 *   kapi     get_user(), copy_to_user(), ...: the kernel's own API, whose
 *            STAC/CLAC alternatives this boot patched (NOPs without SMAP)
 *   inline   raw STAC; access; raw CLAC, per access
 *   nopad    NOP3; access; NOP3, per access, inside one raw STAC/CLAC per
 *            sample: inline - nopad is the cost of the two instructions
 *   batched  user_access_begin(); @batch accesses; user_access_end()
 *   masked   masked_user_access_begin(); @batch accesses; user_access_end()
 *
 * inline and nopad are hand-written asm loops, one template per op (and
 * access width) expanded twice: once with STAC/CLAC, once with NOP3 in
 * their slots. Each loop starts on a 64-byte boundary, so the twins have
 * the same bytes at the same offsets modulo 64 except those 3-byte slots,
 * and inline - nopad carries no front-end (alignment, JCC erratum) effect
 * of its own. kapi, batched and masked are C, because they time the
 * kernel's own code; their loops start 64-byte aligned too.
 *
 * Every loop's first instruction carries the local symbol
 * smapbench_loop_<op>_<variant>[_<width>] (the catalogue's op name, the
 * variant's name, and the access width for get/put_user), e.g.
 * smapbench_loop_get_user_inline_8, the asm loops' end ..._end as well:
 * the layout check (tests/kmod/check-layout.sh) and the census find the loops
 * by these names.
 *
 * Dispatch is by explicit case: every switch over the op names each
 * enum smapbench_op, -Wswitch-enum is an error here, so an op added
 * without its cases does not build, and a default that is reached all
 * the same warns and returns -EINVAL.
 *
 * Every user access has a user-access exception table entry: a bad
 * address lands on a fixup and comes back as -EFAULT, and every path out
 * of a loop clears EFLAGS.AC again. Loops run with page faults disabled
 * (see smapbench_main.c), so the caller pre-faults the buffer. Every
 * loop runs zero iterations when asked for zero.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/objtool.h>
#include <linux/printk.h>
#include <linux/stddef.h>
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

static_assert(sizeof(struct smapbench_frame) == SMAPBENCH_SIGFRAME_BYTES);

/*
 * The raw opcodes rather than the kernel's stac()/clac(): those are
 * alternatives that this boot may have patched to NOPs. The "memory"
 * clobber keeps the compiler from moving user accesses across them.
 */
static __always_inline void smapbench_raw_stac(void)
{
	asm volatile(SMAPBENCH_ASM_STAC : : : "memory");
}

static __always_inline void smapbench_raw_clac(void)
{
	asm volatile(SMAPBENCH_ASM_CLAC : : : "memory");
}

/*
 * One raw STAC and one raw CLAC per call of an inline or nopad loop:
 * nopad needs them around its accesses, which run inside the pair;
 * inline executes the same two before its loop (back to back, so that
 * no STAC follows another), so that the twins differ by their
 * per-access brackets alone. A window calls the loop once per chunk
 * (smapbench_main.c), so the pair runs once per chunk in both and
 * cancels in inline - nopad.
 */
static __always_inline void smapbench_sample_open(const int v)
{
	if (v == SMAPBENCH_VARIANT_NOPAD || v == SMAPBENCH_VARIANT_INLINE)
		smapbench_raw_stac();
	if (v == SMAPBENCH_VARIANT_INLINE)
		smapbench_raw_clac();
}

static __always_inline void smapbench_sample_close(const int v)
{
	if (v == SMAPBENCH_VARIANT_NOPAD)
		smapbench_raw_clac();
}

/*
 * Loop names. The first instruction of a timed loop sits on a 64-byte
 * boundary and is named smapbench_loop_<loop>, the instruction after the
 * asm loops' backward branch smapbench_loop_<loop>_end. The padding
 * before the loop is executed once per sample, never per iteration.
 *
 * The asm defines the two labels; C knows them as the objects below, so
 * that the loop functions can hand them down as constants and the asm
 * print their names (%c of an address). No C code reads them.
 */
#define SMAPBENCH_LOOP_SYMBOLS(loop)					\
	extern const u8 smapbench_loop_##loop[], smapbench_loop_##loop##_end[]
#define SMAPBENCH_LOOP_HEAD(loop)	smapbench_loop_##loop
#define SMAPBENCH_LOOP_TAIL(loop)	smapbench_loop_##loop##_end

#define SMAPBENCH_LOOP_NAME		"%c[head]:\n"
#define SMAPBENCH_LOOP_START_NAME	".p2align 6\n" SMAPBENCH_LOOP_NAME
#define SMAPBENCH_LOOP_END_NAME		"%c[tail]:\n"
#define SMAPBENCH_LOOP_NAME_OPERANDS(h, t)				\
	[head] "i" (h), [tail] "i" (t)

/* ---- kapi, batched, masked: C around the kernel's primitives ------- */

/*
 * Opens a block of accesses (batched, masked). masked_user_access_begin()
 * may replace the pointer: use *p afterwards. Returns false when
 * user_access_begin() refuses the range.
 */
static __always_inline bool smapbench_block_open(const int v, void __user **p,
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

static __always_inline void smapbench_block_close(const int v)
{
	if (v == SMAPBENCH_VARIANT_BATCHED || v == SMAPBENCH_VARIANT_MASKED)
		user_access_end();
}

/*
 * rep movsb and rep stosb with a user-access exception entry, for the
 * batched and masked copies (inside an open block): a fault ends the
 * string instruction with RCX holding the bytes left, which is what these
 * return. The asm loops of inline and nopad run the same instructions.
 */
static __always_inline unsigned long smapbench_movsb_raw(void *to,
							 const void *from,
							 unsigned long len)
{
	asm volatile("1:	rep movsb\n"
		     "2:\n"
		     _ASM_EXTABLE_UA(1b, 2b)
		     : "+c" (len), "+D" (to), "+S" (from)
		     : : "memory");
	return len;
}

static __always_inline unsigned long smapbench_stosb_raw(void *to,
							 unsigned long len)
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
 * One access each, kapi through the kernel's API, batched and masked
 * inside the block the caller opened. They return 0 or -EFAULT. @size is
 * a constant for get/put_user, so each width gets its own loop.
 */
static __always_inline int smapbench_get_one(const int v, const void __user *p,
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
	*sum += x;
	return 0;
efault:
	return -EFAULT;
}

static __always_inline int smapbench_put_one(const int v, void __user *p,
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
	return 0;
efault:
	return -EFAULT;
}

static __always_inline int smapbench_copy_to_one(const int v, void __user *p,
						 const void *k,
						 unsigned int size)
{
	if (v == SMAPBENCH_VARIANT_KAPI)
		return copy_to_user(p, k, size) ? -EFAULT : 0;
	return smapbench_movsb_raw((__force void *)p, k, size) ? -EFAULT : 0;
}

static __always_inline int smapbench_copy_from_one(const int v,
						   const void __user *p,
						   void *k, unsigned int size)
{
	if (v == SMAPBENCH_VARIANT_KAPI)
		return copy_from_user(k, p, size) ? -EFAULT : 0;
	return smapbench_movsb_raw(k, (__force const void *)p, size) ?
	       -EFAULT : 0;
}

static __always_inline int smapbench_clear_one(const int v, void __user *p,
					       unsigned int size)
{
	if (v == SMAPBENCH_VARIANT_KAPI)
		return clear_user(p, size) ? -EFAULT : 0;
	return smapbench_stosb_raw((__force void *)p, size) ? -EFAULT : 0;
}

/* The string was written by the caller; only kapi exists for this op. */
static __always_inline int smapbench_strncpy_one(const void __user *p, void *k,
						 unsigned int size)
{
	long len = strncpy_from_user(k, p, size);

	return len < 0 ? (int)len : 0;
}

/*
 * Compare-and-exchange 0 with 0, as the futex fast path does with the
 * expected and new values: a lock cmpxchg on the user word either way.
 */
static __always_inline int smapbench_futex_one(const int v, void __user *p,
					       u64 *sum)
{
	u32 old = 0;

	if (v == SMAPBENCH_VARIANT_KAPI)
		return futex_atomic_cmpxchg_inatomic(&old, p, 0, 0);

#if SMAPBENCH_HAVE_TRY_CMPXCHG_USER
	if (!unsafe_try_cmpxchg_user((u32 __user *)p, &old, 0, efault))
		*sum += old;
	return 0;
efault:
	return -EFAULT;
#else
	/* Without it no batched or masked futex loop is built. */
	BUILD_BUG();
	return -EOPNOTSUPP;
#endif
}

/*
 * The 25 stores, in frame order. Each field gets a constant of its own
 * (its position, 1 to 24, and 0x33 for cs), so the frames of all variants
 * can be compared byte for byte; the asm template below stores the same.
 * Like the kernel's signal code the errors are or-ed: a fault does not
 * skip the remaining stores, which fault too.
 */
static __always_inline int
smapbench_sigframe_one(const int v, struct smapbench_frame __user *f)
{
	int err = 0;

	err |= smapbench_put_one(v, &f->pretcode, 8, 1);
	err |= smapbench_put_one(v, &f->uc_flags, 8, 2);
	err |= smapbench_put_one(v, &f->uc_link, 8, 3);
	err |= smapbench_put_one(v, &f->ss_sp, 8, 4);
	err |= smapbench_put_one(v, &f->ss_flags, 4, 5);
	err |= smapbench_put_one(v, &f->ss_size, 8, 6);
	err |= smapbench_put_one(v, &f->r8, 8, 7);
	err |= smapbench_put_one(v, &f->r9, 8, 8);
	err |= smapbench_put_one(v, &f->r10, 8, 9);
	err |= smapbench_put_one(v, &f->r11, 8, 10);
	err |= smapbench_put_one(v, &f->r12, 8, 11);
	err |= smapbench_put_one(v, &f->r13, 8, 12);
	err |= smapbench_put_one(v, &f->r14, 8, 13);
	err |= smapbench_put_one(v, &f->r15, 8, 14);
	err |= smapbench_put_one(v, &f->di, 8, 15);
	err |= smapbench_put_one(v, &f->si, 8, 16);
	err |= smapbench_put_one(v, &f->bp, 8, 17);
	err |= smapbench_put_one(v, &f->bx, 8, 18);
	err |= smapbench_put_one(v, &f->dx, 8, 19);
	err |= smapbench_put_one(v, &f->ax, 8, 20);
	err |= smapbench_put_one(v, &f->cx, 8, 21);
	err |= smapbench_put_one(v, &f->sp, 8, 22);
	err |= smapbench_put_one(v, &f->ip, 8, 23);
	err |= smapbench_put_one(v, &f->flags, 8, 24);
	err |= smapbench_put_one(v, &f->cs, 2, 0x33);
	return err ? -EFAULT : 0;
}

/* One access of a C variant: kapi, or inside a batched or masked block. */
static __always_inline int smapbench_access_one(const int op, const int v,
						const unsigned int size,
						void __user *p, void *kbuf,
						u32 i, u64 *sum)
{
	switch ((enum smapbench_op)op) {
	case SMAPBENCH_OP_GET_USER:
		return smapbench_get_one(v, p, size, sum);
	case SMAPBENCH_OP_PUT_USER:
		return smapbench_put_one(v, p, size, i);
	case SMAPBENCH_OP_COPY_TO_USER:
		return smapbench_copy_to_one(v, p, kbuf, size);
	case SMAPBENCH_OP_COPY_FROM_USER:
		return smapbench_copy_from_one(v, p, kbuf, size);
	case SMAPBENCH_OP_CLEAR_USER:
		return smapbench_clear_one(v, p, size);
	case SMAPBENCH_OP_STRNCPY_FROM_USER:
		return smapbench_strncpy_one(p, kbuf, size);
	case SMAPBENCH_OP_FUTEX:
		return smapbench_futex_one(v, p, sum);
	case SMAPBENCH_OP_SIGFRAME:
		return smapbench_sigframe_one(v, p);
	/* no user access: their asm loops below */
	case SMAPBENCH_OP_CALIB:
	case SMAPBENCH_OP_CALIB_IMUL:
	case SMAPBENCH_OP_PAIR:
	case SMAPBENCH_OP_STAC:
	case SMAPBENCH_OP_CLAC:
	case SMAPBENCH_OP_POPF_AC:
	case SMAPBENCH_OP_COUNT:
	default:
		break;
	}
	WARN_ON_ONCE(1);
	return -EINVAL;
}

/*
 * @count iterations of a C variant. An iteration is one access for kapi,
 * one block of ctx->batch accesses for batched and masked. Block i + 1
 * starts where block i started: the same ctx->span bytes every
 * iteration. @width is the access width of get/put_user, else 0;
 * @head_name the loop's SMAPBENCH_LOOP_HEAD().
 *
 * The loop is closed by an asm goto, dec and jnz, that clobbers memory:
 * the compiler cannot lay the loop out around the branch (its latch
 * before the head), and every iteration reads its arguments from @ctx
 * again, so no part of an iteration (access_ok(), the size checks of
 * copy_to_user(), ...) is hoisted out of the loop. Each iteration does
 * all that one call of the API does, and the named first instruction is
 * the head the branch goes to.
 *
 * The count is an output of that asm goto only with clang. GCC before
 * 11.5, 12.4 and 13.3 can miscompile an asm goto with outputs (the
 * kernel's CONFIG_GCC_ASM_GOTO_OUTPUT_BROKEN), and a wrong count here is
 * an endless loop with interrupts off; so with GCC the count lives in
 * r15, which this object reserves (-ffixed-r15, Kbuild): the compiler
 * never touches it, the asm goto has no output, and the caller's r15
 * (callee-saved) is kept on the stack and put back. clang has no
 * -ffixed-r15 on x86, and sound asm goto outputs.
 */
static __always_inline int smapbench_c_loop(struct smapbench_ctx *ctx,
					    u32 count, const int op,
					    const int v, const int width,
					    const u8 *head_name)
{
	const bool blocks = v == SMAPBENCH_VARIANT_BATCHED ||
			    v == SMAPBENCH_VARIANT_MASKED;
#ifdef SMAPBENCH_FIXED_R15
	u64 saved_r15;
#else
	/* A register no call clobbers: no copy lands between pad and head. */
	register u32 n asm("r15") = count;
#endif
	u64 sum = 0;
	int ret = 0;
	u32 i = ctx->first, j;

	if (unlikely(!count))
		return 0;
#ifdef SMAPBENCH_FIXED_R15
	asm volatile("mov %%r15, %[saved]\n\t"
		     "mov %k[count], %%r15d"
		     : [saved] "=m" (saved_r15) : [count] "r" (count)
		     : "memory");
	asm volatile(".p2align 6" : "+r" (sum), "+r" (i) : : "memory");
#else
	asm volatile(".p2align 6" : "+r" (n), "+r" (sum), "+r" (i)
		     : : "memory");
#endif
head:
	asm volatile(SMAPBENCH_LOOP_NAME : : [head] "i" (head_name));
	{
		/* Widths and batch 1 are constants, as in the kernel's use. */
		const unsigned int size = width ? width : ctx->size;
		const u32 batch = blocks ? ctx->batch : 1;
		void __user *p = ctx->ubuf;

		if (!smapbench_block_open(v, &p, ctx->span)) {
			ret = -EFAULT;
			goto out;
		}
		for (j = 0; j < batch; j++) {
			ret = smapbench_access_one(op, v, size, p + j * size,
						   ctx->kbuf, i, &sum);
			if (unlikely(ret))
				break;
		}
		smapbench_block_close(v);
		if (unlikely(ret))
			goto out;
	}
	i++;
#ifdef SMAPBENCH_FIXED_R15
	asm goto("dec %%r15d\n\t"
		 "jnz %l[head]"
		 : : : "memory", "cc" : head);
#else
	asm goto("dec %k[n]\n\t"
		 "jnz %l[head]"
		 : [n] "+r" (n) : : "memory", "cc" : head);
#endif
out:
#ifdef SMAPBENCH_FIXED_R15
	asm volatile("mov %[saved], %%r15" : : [saved] "m" (saved_r15));
#endif
	ctx->sink += sum;
	return ret;
}

/* ---- inline and nopad: one asm template per op --------------------- */

/*
 * A raw loop: zero iterations skip it; the loop body is an op's template
 * expanded with STAC and CLAC (inline) or NOP3 (nopad) in its bracket
 * slots. Every access is labelled 2 and has an exception entry to 8,
 * which clears AC where the variant set it (inline: the fixup's CLAC;
 * nopad: its outer CLAC after the loop) and returns -EFAULT.
 */
#define SMAPBENCH_NOP3_BYTES	".byte 0x0f,0x1f,0x00"

#define SMAPBENCH_RAW_LOOP_START					\
	"test %k[n], %k[n]\n\t"						\
	"jz 9f\n"							\
	SMAPBENCH_LOOP_START_NAME					\
	"1:\n\t"
#define SMAPBENCH_RAW_LOOP_END(fixup)					\
	"dec %k[n]\n\t"							\
	"jnz 1b\n"							\
	SMAPBENCH_LOOP_END_NAME						\
	"\tjmp 9f\n"							\
	"8:\t" fixup "\n\t"						\
	"mov %[efault], %k[ret]\n"					\
	"9:\n"
#define SMAPBENCH_ACCESS(open, close, insn)				\
	open "\n2:\t" insn "\n\t" close "\n\t" _ASM_EXTABLE_UA(2b, 8f)

/*
 * One asm loop of an op: @v is a constant, @BODY the op's template,
 * called as BODY(open, close, arg). The operands are the caller's
 * locals: n, ret, sum, i, x (outputs), p, k, len, head_name, tail_name
 * (inputs).
 */
#define SMAPBENCH_RAW_LOOP(v, BODY, arg)				\
do {									\
	if ((v) == SMAPBENCH_VARIANT_INLINE)				\
		asm volatile(SMAPBENCH_RAW_LOOP_START			\
			     BODY(SMAPBENCH_ASM_STAC, SMAPBENCH_ASM_CLAC, \
				  arg)					\
			     SMAPBENCH_RAW_LOOP_END(SMAPBENCH_ASM_CLAC)	\
			     SMAPBENCH_RAW_OPERANDS);			\
	else								\
		asm volatile(SMAPBENCH_RAW_LOOP_START			\
			     BODY(SMAPBENCH_NOP3_BYTES, SMAPBENCH_NOP3_BYTES, \
				  arg)					\
			     SMAPBENCH_RAW_LOOP_END("")			\
			     SMAPBENCH_RAW_OPERANDS);			\
} while (0)

#define SMAPBENCH_RAW_OPERANDS						\
	: [n] "+r" (n), [ret] "+r" (ret), [sum] "+r" (sum), [i] "+r" (i), \
	  [x] "=&r" (x)							\
	: [p] "r" (p), [k] "r" (k), [len] "r" (len),			\
	  [efault] "i" (-EFAULT),					\
	  SMAPBENCH_LOOP_NAME_OPERANDS(head_name, tail_name)		\
	: "rax", "rcx", "rdi", "rsi", "memory", "cc"

/* get_user: load @arg, a width-specific mov into x, and sum it. */
#define SMAPBENCH_GET_BODY(open, close, load)				\
	SMAPBENCH_ACCESS(open, close, load)				\
	"add %q[x], %q[sum]\n\t"

/* put_user: store the iteration count, i, at the access width. */
#define SMAPBENCH_PUT_BODY(open, close, store)				\
	SMAPBENCH_ACCESS(open, close, store)				\
	"inc %q[i]\n\t"

/* copies: @arg sets RDI and RSI, one rep movsb of len bytes. */
#define SMAPBENCH_COPY_BODY(open, close, setup)				\
	setup "\n\t"							\
	"mov %k[len], %%ecx\n\t"					\
	SMAPBENCH_ACCESS(open, close, "rep movsb")

#define SMAPBENCH_CLEAR_BODY(open, close, unused)			\
	"mov %[p], %%rdi\n\t"						\
	"mov %k[len], %%ecx\n\t"					\
	"xor %%eax, %%eax\n\t"						\
	SMAPBENCH_ACCESS(open, close, "rep stosb")

/* futex: lock cmpxchg 0 -> 0, the old value summed. */
#define SMAPBENCH_FUTEX_BODY(open, close, unused)			\
	"xor %%eax, %%eax\n\t"						\
	SMAPBENCH_ACCESS(open, close, "lock cmpxchgl %%eax, (%[p])")	\
	"add %%rax, %q[sum]\n\t"

/*
 * sigframe: the 25 stores of smapbench_sigframe_one(), each in its own
 * brackets, at the offsets of struct smapbench_frame (checked below).
 */
#define SMAPBENCH_SIGFRAME_BODY(open, close, unused)			\
	"# the 25 stores of a signal frame\n\t"				\
	SMAPBENCH_ACCESS(open, close, "movq $1, 0(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $2, 8(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $3, 16(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $4, 24(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movl $5, 32(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $6, 40(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $7, 48(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $8, 56(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $9, 64(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $10, 72(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $11, 80(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $12, 88(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $13, 96(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $14, 104(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $15, 112(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $16, 120(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $17, 128(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $18, 136(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $19, 144(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $20, 152(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $21, 160(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $22, 168(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $23, 176(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movq $24, 184(%[p])")		\
	SMAPBENCH_ACCESS(open, close, "movw $0x33, 192(%[p])")
static_assert(offsetof(struct smapbench_frame, ss_flags) == 32 &&
	      offsetof(struct smapbench_frame, ss_size) == 40 &&
	      offsetof(struct smapbench_frame, cs) == 192);

/*
 * @n iterations of inline or nopad. @width is the access width of
 * get/put_user, else 0; @head_name and @tail_name the loop's
 * SMAPBENCH_LOOP_HEAD() and SMAPBENCH_LOOP_TAIL().
 */
static __always_inline int smapbench_raw_loop(struct smapbench_ctx *ctx,
					      u32 count, const int op,
					      const int v, const int width,
					      const u8 *head_name,
					      const u8 *tail_name)
{
	/*
	 * Fixed registers: the compiler allocates the twins' operands alike
	 * only by chance, and a different register can change an encoding.
	 */
	register u32 n asm("r8") = count;
	register int ret asm("r9") = 0;
	register u64 sum asm("r10") = 0;
	register u64 i asm("r11") = ctx->first;
	register u64 x asm("rdx");
	register void __user *p asm("rbx") = ctx->ubuf;
	register const void *k asm("r12") = ctx->kbuf;
	register u32 len asm("r13") = ctx->size;

	smapbench_sample_open(v);
	switch ((enum smapbench_op)op) {
	case SMAPBENCH_OP_GET_USER:
		switch (width) {
		case 1:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_GET_BODY,
					   "movzbl (%[p]), %k[x]");
			break;
		case 2:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_GET_BODY,
					   "movzwl (%[p]), %k[x]");
			break;
		case 4:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_GET_BODY,
					   "movl (%[p]), %k[x]");
			break;
		default:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_GET_BODY,
					   "movq (%[p]), %q[x]");
			break;
		}
		break;
	case SMAPBENCH_OP_PUT_USER:
		switch (width) {
		case 1:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_PUT_BODY,
					   "movb %b[i], (%[p])");
			break;
		case 2:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_PUT_BODY,
					   "movw %w[i], (%[p])");
			break;
		case 4:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_PUT_BODY,
					   "movl %k[i], (%[p])");
			break;
		default:
			SMAPBENCH_RAW_LOOP(v, SMAPBENCH_PUT_BODY,
					   "movq %q[i], (%[p])");
			break;
		}
		break;
	case SMAPBENCH_OP_COPY_TO_USER:
		SMAPBENCH_RAW_LOOP(v, SMAPBENCH_COPY_BODY,
				   "mov %[p], %%rdi\n\tmov %[k], %%rsi");
		break;
	case SMAPBENCH_OP_COPY_FROM_USER:
		SMAPBENCH_RAW_LOOP(v, SMAPBENCH_COPY_BODY,
				   "mov %[k], %%rdi\n\tmov %[p], %%rsi");
		break;
	case SMAPBENCH_OP_CLEAR_USER:
		SMAPBENCH_RAW_LOOP(v, SMAPBENCH_CLEAR_BODY, "");
		break;
	case SMAPBENCH_OP_FUTEX:
		SMAPBENCH_RAW_LOOP(v, SMAPBENCH_FUTEX_BODY, "");
		break;
	case SMAPBENCH_OP_SIGFRAME:
		SMAPBENCH_RAW_LOOP(v, SMAPBENCH_SIGFRAME_BODY, "");
		break;
	/* kapi only */
	case SMAPBENCH_OP_STRNCPY_FROM_USER:
	/* no user access: their asm loops below */
	case SMAPBENCH_OP_CALIB:
	case SMAPBENCH_OP_CALIB_IMUL:
	case SMAPBENCH_OP_PAIR:
	case SMAPBENCH_OP_STAC:
	case SMAPBENCH_OP_CLAC:
	case SMAPBENCH_OP_POPF_AC:
	case SMAPBENCH_OP_COUNT:
	default:
		WARN_ON_ONCE(1);
		ret = -EINVAL;
		break;
	}
	smapbench_sample_close(v);
	ctx->sink += sum;
	return ret;
}

/* ---- entry points -------------------------------------------------- */

/* One op x variant at one access width: its asm or its C loop. */
static __always_inline int smapbench_run_loop(struct smapbench_ctx *ctx, u32 n,
					      const int op, const int v,
					      const int width,
					      const u8 *head_name,
					      const u8 *tail_name)
{
	if (v == SMAPBENCH_VARIANT_INLINE || v == SMAPBENCH_VARIANT_NOPAD)
		return smapbench_raw_loop(ctx, n, op, v, width, head_name,
					  tail_name);
	return smapbench_c_loop(ctx, n, op, v, width, head_name);
}

/*
 * The loop function of an op x variant, smapbench_<loop>() (e.g.
 * smapbench_get_user_inline()), and the names of its loops:
 * smapbench_loop_<loop> for an op that takes the size at run time,
 * smapbench_loop_<loop>_<width> for get/put_user, which get one loop
 * per width, as the kernel's callers do.
 */
#define SMAPBENCH_DEFINE_LOOP(loop, OP, VARIANT)			\
SMAPBENCH_LOOP_SYMBOLS(loop);						\
static int smapbench_##loop(struct smapbench_ctx *ctx, u32 n)		\
{									\
	return smapbench_run_loop(ctx, n, SMAPBENCH_OP_##OP,		\
				  SMAPBENCH_VARIANT_##VARIANT, 0,	\
				  SMAPBENCH_LOOP_HEAD(loop),		\
				  SMAPBENCH_LOOP_TAIL(loop));		\
}

#define SMAPBENCH_DEFINE_SIZED_LOOP(loop, OP, VARIANT)			\
SMAPBENCH_LOOP_SYMBOLS(loop##_1);					\
SMAPBENCH_LOOP_SYMBOLS(loop##_2);					\
SMAPBENCH_LOOP_SYMBOLS(loop##_4);					\
SMAPBENCH_LOOP_SYMBOLS(loop##_8);					\
static int smapbench_##loop(struct smapbench_ctx *ctx, u32 n)		\
{									\
	switch (ctx->size) {						\
	case 1:								\
		return smapbench_run_loop(ctx, n, SMAPBENCH_OP_##OP,	\
					  SMAPBENCH_VARIANT_##VARIANT, 1, \
					  SMAPBENCH_LOOP_HEAD(loop##_1), \
					  SMAPBENCH_LOOP_TAIL(loop##_1)); \
	case 2:								\
		return smapbench_run_loop(ctx, n, SMAPBENCH_OP_##OP,	\
					  SMAPBENCH_VARIANT_##VARIANT, 2, \
					  SMAPBENCH_LOOP_HEAD(loop##_2), \
					  SMAPBENCH_LOOP_TAIL(loop##_2)); \
	case 4:								\
		return smapbench_run_loop(ctx, n, SMAPBENCH_OP_##OP,	\
					  SMAPBENCH_VARIANT_##VARIANT, 4, \
					  SMAPBENCH_LOOP_HEAD(loop##_4), \
					  SMAPBENCH_LOOP_TAIL(loop##_4)); \
	case 8:								\
		return smapbench_run_loop(ctx, n, SMAPBENCH_OP_##OP,	\
					  SMAPBENCH_VARIANT_##VARIANT, 8, \
					  SMAPBENCH_LOOP_HEAD(loop##_8), \
					  SMAPBENCH_LOOP_TAIL(loop##_8)); \
	default:							\
		return -EINVAL;						\
	}								\
}

/* masked only where the kernel has masked_user_access_begin() */
#if SMAPBENCH_HAVE_MASKED
#define SMAPBENCH_DEFINE_MASKED(DEFINE, loop, OP)			\
	DEFINE(loop, OP, MASKED)
#define SMAPBENCH_MASKED_LOOP(loop)	loop
#else
#define SMAPBENCH_DEFINE_MASKED(DEFINE, loop, OP)			\
	static_assert(!SMAPBENCH_HAVE_MASKED)
#define SMAPBENCH_MASKED_LOOP(loop)	NULL
#endif

/*
 * Per op the table of its loops by variant, smapbench_<name>_loops[], that
 * its catalogue entry points at.
 */
#define SMAPBENCH_ACCESS_LOOPS(name)					\
static const smapbench_loop_t						\
smapbench_##name##_loops[SMAPBENCH_VARIANT_COUNT] = {			\
	[SMAPBENCH_VARIANT_KAPI] = smapbench_##name##_kapi,		\
	[SMAPBENCH_VARIANT_INLINE] = smapbench_##name##_inline,		\
	[SMAPBENCH_VARIANT_BATCHED] = smapbench_##name##_batched,	\
	[SMAPBENCH_VARIANT_NOPAD] = smapbench_##name##_nopad,		\
	[SMAPBENCH_VARIANT_MASKED] =					\
		SMAPBENCH_MASKED_LOOP(smapbench_##name##_masked),	\
}

SMAPBENCH_DEFINE_SIZED_LOOP(get_user_kapi, GET_USER, KAPI);
SMAPBENCH_DEFINE_SIZED_LOOP(get_user_inline, GET_USER, INLINE);
SMAPBENCH_DEFINE_SIZED_LOOP(get_user_batched, GET_USER, BATCHED);
SMAPBENCH_DEFINE_SIZED_LOOP(get_user_nopad, GET_USER, NOPAD);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_SIZED_LOOP, get_user_masked, GET_USER);
SMAPBENCH_ACCESS_LOOPS(get_user);

SMAPBENCH_DEFINE_SIZED_LOOP(put_user_kapi, PUT_USER, KAPI);
SMAPBENCH_DEFINE_SIZED_LOOP(put_user_inline, PUT_USER, INLINE);
SMAPBENCH_DEFINE_SIZED_LOOP(put_user_batched, PUT_USER, BATCHED);
SMAPBENCH_DEFINE_SIZED_LOOP(put_user_nopad, PUT_USER, NOPAD);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_SIZED_LOOP, put_user_masked, PUT_USER);
SMAPBENCH_ACCESS_LOOPS(put_user);

SMAPBENCH_DEFINE_LOOP(copy_to_user_kapi, COPY_TO_USER, KAPI);
SMAPBENCH_DEFINE_LOOP(copy_to_user_inline, COPY_TO_USER, INLINE);
SMAPBENCH_DEFINE_LOOP(copy_to_user_batched, COPY_TO_USER, BATCHED);
SMAPBENCH_DEFINE_LOOP(copy_to_user_nopad, COPY_TO_USER, NOPAD);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_LOOP, copy_to_user_masked,
			COPY_TO_USER);
SMAPBENCH_ACCESS_LOOPS(copy_to_user);

SMAPBENCH_DEFINE_LOOP(copy_from_user_kapi, COPY_FROM_USER, KAPI);
SMAPBENCH_DEFINE_LOOP(copy_from_user_inline, COPY_FROM_USER, INLINE);
SMAPBENCH_DEFINE_LOOP(copy_from_user_batched, COPY_FROM_USER, BATCHED);
SMAPBENCH_DEFINE_LOOP(copy_from_user_nopad, COPY_FROM_USER, NOPAD);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_LOOP, copy_from_user_masked,
			COPY_FROM_USER);
SMAPBENCH_ACCESS_LOOPS(copy_from_user);

SMAPBENCH_DEFINE_LOOP(clear_user_kapi, CLEAR_USER, KAPI);
SMAPBENCH_DEFINE_LOOP(clear_user_inline, CLEAR_USER, INLINE);
SMAPBENCH_DEFINE_LOOP(clear_user_batched, CLEAR_USER, BATCHED);
SMAPBENCH_DEFINE_LOOP(clear_user_nopad, CLEAR_USER, NOPAD);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_LOOP, clear_user_masked, CLEAR_USER);
SMAPBENCH_ACCESS_LOOPS(clear_user);

/* futex blocks need unsafe_try_cmpxchg_user() */
SMAPBENCH_DEFINE_LOOP(futex_kapi, FUTEX, KAPI);
SMAPBENCH_DEFINE_LOOP(futex_inline, FUTEX, INLINE);
SMAPBENCH_DEFINE_LOOP(futex_nopad, FUTEX, NOPAD);
#if SMAPBENCH_HAVE_TRY_CMPXCHG_USER
SMAPBENCH_DEFINE_LOOP(futex_batched, FUTEX, BATCHED);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_LOOP, futex_masked, FUTEX);
#define SMAPBENCH_FUTEX_BATCHED	smapbench_futex_batched
#define SMAPBENCH_FUTEX_MASKED	SMAPBENCH_MASKED_LOOP(smapbench_futex_masked)
#else
#define SMAPBENCH_FUTEX_BATCHED	NULL
#define SMAPBENCH_FUTEX_MASKED	NULL
#endif
static const smapbench_loop_t smapbench_futex_loops[SMAPBENCH_VARIANT_COUNT] = {
	[SMAPBENCH_VARIANT_KAPI] = smapbench_futex_kapi,
	[SMAPBENCH_VARIANT_INLINE] = smapbench_futex_inline,
	[SMAPBENCH_VARIANT_BATCHED] = SMAPBENCH_FUTEX_BATCHED,
	[SMAPBENCH_VARIANT_NOPAD] = smapbench_futex_nopad,
	[SMAPBENCH_VARIANT_MASKED] = SMAPBENCH_FUTEX_MASKED,
};

SMAPBENCH_DEFINE_LOOP(sigframe_kapi, SIGFRAME, KAPI);
SMAPBENCH_DEFINE_LOOP(sigframe_inline, SIGFRAME, INLINE);
SMAPBENCH_DEFINE_LOOP(sigframe_batched, SIGFRAME, BATCHED);
SMAPBENCH_DEFINE_LOOP(sigframe_nopad, SIGFRAME, NOPAD);
SMAPBENCH_DEFINE_MASKED(SMAPBENCH_DEFINE_LOOP, sigframe_masked, SIGFRAME);
SMAPBENCH_ACCESS_LOOPS(sigframe);

/* only through the kernel's API */
SMAPBENCH_DEFINE_LOOP(strncpy_from_user_kapi, STRNCPY_FROM_USER, KAPI);
static const smapbench_loop_t
smapbench_strncpy_from_user_loops[SMAPBENCH_VARIANT_COUNT] = {
	[SMAPBENCH_VARIANT_KAPI] = smapbench_strncpy_from_user_kapi,
};

/*
 * The ops without user memory. Each iteration is one pass of the asm loop
 * body; the loop's own dec/jnz is part of every op (including calib), so
 * it cancels in differences.
 */
#define SMAPBENCH_NONE_LOOP_START					\
	"test %k[n], %k[n]\n\t"						\
	"jz 9f\n"							\
	SMAPBENCH_LOOP_START_NAME					\
	"1:\n\t"
#define SMAPBENCH_NONE_LOOP_END						\
	"dec %k[n]\n\t"							\
	"jnz 1b\n"							\
	SMAPBENCH_LOOP_END_NAME
#define SMAPBENCH_NONE_OPERANDS(name)					\
	SMAPBENCH_LOOP_NAME_OPERANDS(SMAPBENCH_LOOP_HEAD(name##_none),	\
				     SMAPBENCH_LOOP_TAIL(name##_none))

/*
 * The calibration chains: 1024 dependent `add r64, r64` (1 cycle each) and
 * 1024 dependent `imul r64, r64` (3 cycles each). The operand is a
 * register whose value the core learns only when the chain runs: an add of
 * an immediate is folded at rename on recent Intel cores, several a cycle.
 */
SMAPBENCH_LOOP_SYMBOLS(calib_none);
static int smapbench_calib_none(struct smapbench_ctx *ctx, u32 n)
{
	u64 acc = ctx->sink, operand = n | 1;

	asm volatile(SMAPBENCH_NONE_LOOP_START
		     ".rept 1024\n\t"
		     "add %[operand], %[acc]\n\t"
		     ".endr\n\t"
		     SMAPBENCH_NONE_LOOP_END
		     "9:\n"
		     : [acc] "+r" (acc), [n] "+r" (n)
		     : [operand] "r" (operand), SMAPBENCH_NONE_OPERANDS(calib)
		     : "cc");
	ctx->sink += acc;
	return 0;
}

SMAPBENCH_LOOP_SYMBOLS(calib_imul_none);
static int smapbench_calib_imul_none(struct smapbench_ctx *ctx, u32 n)
{
	u64 acc = ctx->sink | 1, operand = (n >> 1) | 3;

	asm volatile(SMAPBENCH_NONE_LOOP_START
		     ".rept 1024\n\t"
		     "imul %[operand], %[acc]\n\t"
		     ".endr\n\t"
		     SMAPBENCH_NONE_LOOP_END
		     "9:\n"
		     : [acc] "+r" (acc), [n] "+r" (n)
		     : [operand] "r" (operand),
		       SMAPBENCH_NONE_OPERANDS(calib_imul)
		     : "cc");
	ctx->sink += acc;
	return 0;
}

SMAPBENCH_LOOP_SYMBOLS(pair_none);
static int smapbench_pair_none(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile(SMAPBENCH_NONE_LOOP_START
		     SMAPBENCH_ASM_STAC "\n\t"
		     SMAPBENCH_ASM_CLAC "\n\t"
		     SMAPBENCH_NONE_LOOP_END
		     "9:\n"
		     : [n] "+r" (n)
		     : SMAPBENCH_NONE_OPERANDS(pair)
		     : "memory", "cc");
	return 0;
}

/*
 * STAC alone, n times, then one CLAC. objtool's uaccess validation would
 * (rightly, for normal code) call the second STAC a "recursive UACCESS
 * enable", so this function is excluded from objtool's checks; it has no
 * stack frame and calls nothing.
 */
SMAPBENCH_LOOP_SYMBOLS(stac_none);
static int smapbench_stac_none(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile(SMAPBENCH_NONE_LOOP_START
		     SMAPBENCH_ASM_STAC "\n\t"
		     SMAPBENCH_NONE_LOOP_END
		     "\t" SMAPBENCH_ASM_CLAC "\n"
		     "9:\n"
		     : [n] "+r" (n)
		     : SMAPBENCH_NONE_OPERANDS(stac)
		     : "memory", "cc");
	return 0;
}
STACK_FRAME_NON_STANDARD(smapbench_stac_none);

/* CLAC alone with AC already clear ("redundant UACCESS disable"). */
SMAPBENCH_LOOP_SYMBOLS(clac_none);
static int smapbench_clac_none(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile(SMAPBENCH_NONE_LOOP_START
		     SMAPBENCH_ASM_CLAC "\n\t"
		     SMAPBENCH_NONE_LOOP_END
		     "9:\n"
		     : [n] "+r" (n)
		     : SMAPBENCH_NONE_OPERANDS(clac)
		     : "memory", "cc");
	return 0;
}
STACK_FRAME_NON_STANDARD(smapbench_clac_none);

/*
 * Set AC and clear it again through the flags image on the stack: what
 * SMAP would have cost without STAC/CLAC. Works on any x86-64: outside
 * ring 3 AC only matters to SMAP.
 */
SMAPBENCH_LOOP_SYMBOLS(popf_ac_none);
static int smapbench_popf_ac_none(struct smapbench_ctx *ctx, u32 n)
{
	asm volatile(SMAPBENCH_NONE_LOOP_START
		     "pushf\n\t"
		     "orl %[ac], (%%rsp)\n\t"
		     "popf\n\t"
		     "pushf\n\t"
		     "andl %[noac], (%%rsp)\n\t"
		     "popf\n\t"
		     SMAPBENCH_NONE_LOOP_END
		     "9:\n"
		     : [n] "+r" (n)
		     : [ac] "i" ((u32)X86_EFLAGS_AC),
		       [noac] "i" (~(u32)X86_EFLAGS_AC),
		       SMAPBENCH_NONE_OPERANDS(popf_ac)
		     : "memory", "cc");
	return 0;
}

/* An op without an access to bracket: its asm loop, smapbench_<name>_none() */
#define SMAPBENCH_DEFINE_NONE_LOOPS(name)				\
static const smapbench_loop_t						\
smapbench_##name##_loops[SMAPBENCH_VARIANT_COUNT] = {			\
	[SMAPBENCH_VARIANT_NONE] = smapbench_##name##_none,		\
}

SMAPBENCH_DEFINE_NONE_LOOPS(calib);
SMAPBENCH_DEFINE_NONE_LOOPS(calib_imul);
SMAPBENCH_DEFINE_NONE_LOOPS(pair);
SMAPBENCH_DEFINE_NONE_LOOPS(stac);
SMAPBENCH_DEFINE_NONE_LOOPS(clac);
SMAPBENCH_DEFINE_NONE_LOOPS(popf_ac);

/* The op table: the catalogue's entries, with each op's loops. */
#define SMAPBENCH_OP(id, op_name, min, max, op_flags, op_align,		\
		     op_variants, ...)					\
	[SMAPBENCH_OP_##id] = {						\
		.name = #op_name,					\
		.min_size = min,					\
		.max_size = max,					\
		.flags = op_flags,					\
		.align = op_align,					\
		.variants = op_variants,				\
		.loop = smapbench_##op_name##_loops,			\
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
 * smapbench_missing_feature() - why this kernel has no loop of a variant
 * @op: enum smapbench_op.
 * @v: enum smapbench_variant the catalogue lists for @op.
 *
 * Return: the kernel API whose absence (kmod/probes/config.sh) left the
 * loop out, or NULL when it must be built.
 */
const char *smapbench_missing_feature(int op, int v)
{
	if (v == SMAPBENCH_VARIANT_MASKED && !SMAPBENCH_HAVE_MASKED)
		return "masked_user_access_begin()";
	if (op == SMAPBENCH_OP_FUTEX && (SMAPBENCH_VARIANTS_BLOCK & BIT(v)) &&
	    !SMAPBENCH_HAVE_TRY_CMPXCHG_USER)
		return "unsafe_try_cmpxchg_user()";
	return NULL;
}

/**
 * smapbench_ops_check() - do the loops built match the catalogue?
 *
 * Every variant the catalogue lists for an op needs a loop, unless this
 * kernel lacks a feature it needs (smapbench_missing_feature()); a loop
 * for a variant it does not list could never be reached. Either is a bug
 * of this file.
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
			    (listed && smapbench_missing_feature(op, v)))
				continue;
			pr_err("op %s variant %d is %s in the catalogue but %s\n",
			       d->name, v, listed ? "listed" : "not listed",
			       built ? "has a loop" : "has no loop");
			return -EINVAL;
		}
	}
	return 0;
}
