/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smapbench.h - the one ABI between smapbench.ko and its user programs.
 *
 * The module times loops of user-memory accesses in ring 0, with and
 * without STAC/CLAC around each access, so that the cost of SMAP can be
 * read off a single boot (inline - nopad) and across boots (kapi on a
 * SMAP boot versus kapi on a boot with SMAP off).
 *
 * Every field below is marked (in) when user space fills it and (out)
 * when the module does. Reserved fields must be zero on input; the
 * module zeroes everything it copies out. The structures have no padding
 * and the same layout for 32-bit callers (the device has a compat ioctl).
 *
 * Both ioctls need CAP_PERFMON or CAP_SYS_ADMIN (else -EPERM): a RUN
 * holds interrupts off and INFO and RUN create a pinned CPU-wide cycle
 * counter, which perf_event_paranoid would otherwise govern.
 */
#ifndef _UAPI_SMAPBENCH_H
#define _UAPI_SMAPBENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Bumped on any incompatible change to the structures or numbers below.
 * struct smapbench_info keeps abi_version first and its size, so INFO
 * answers callers of every version; they must refuse a version they do
 * not know. 2: RUN gained sample_size and sample_flags, the window and
 * refusal fields, and -EPERM, -E2BIG and -EAGAIN. 3: the calib_imul op.
 * 4: futex batched and masked only where the kernel has
 * unsafe_try_cmpxchg_user() (SMAPBENCH_INFO_FUTEX_BLOCKS), the lower
 * budget of PREEMPT_RT kernels (SMAPBENCH_INFO_PREEMPT_RT), and RUN's
 * disturbed count.
 */
#define SMAPBENCH_ABI_VERSION	4

#define SMAPBENCH_DEVICE	"/dev/smapbench"

/* Input bounds; larger requests get -EINVAL. */
#define SMAPBENCH_MAX_SAMPLES		65536
#define SMAPBENCH_MAX_ITERATIONS	(1U << 24)
#define SMAPBENCH_MAX_SIZE		(64U * 1024)
#define SMAPBENCH_MAX_BATCH		64
#define SMAPBENCH_MAX_BUFFER		(4U * 1024 * 1024)
/* Largest smapbench_run.sample_size: room for the sample to grow. */
#define SMAPBENCH_MAX_SAMPLE_SIZE	256

/*
 * The signal frame SMAPBENCH_OP_SIGFRAME writes per iteration: 25 stores
 * (fields) of 2, 4 and 8 bytes in a 200-byte layout.
 */
#define SMAPBENCH_SIGFRAME_BYTES	200
#define SMAPBENCH_SIGFRAME_FIELDS	25

/*
 * The longest interrupts-off window of a RUN, in nanoseconds, counted in
 * TSC ticks at the kernel's tsc_khz (smapbench_run.budget_tsc). No window
 * opens that an interrupts-on measurement says would not fit, and a
 * window that ran longer anyway is never returned as a sample.
 */
#define SMAPBENCH_SAMPLE_BUDGET_NS	1000000
/*
 * The same bound on a PREEMPT_RT kernel, where a high-priority task may
 * not wait a millisecond for a CPU: INFO's sample_budget_ns says which
 * of the two the module applies.
 */
#define SMAPBENCH_SAMPLE_BUDGET_NS_RT	100000

/**
 * enum smapbench_op - what one iteration of the timed loop does
 * @SMAPBENCH_OP_CALIB: dependent chain of 1024 `add r64, r64`, the operand
 *	a register (1 core cycle each; an immediate add would be folded at
 *	rename on recent Intel cores). With calib_imul, cycles per TSC
 *	tick where no PMU is usable. Touches no user memory.
 * @SMAPBENCH_OP_PAIR: STAC immediately followed by CLAC.
 * @SMAPBENCH_OP_STAC: STAC alone (AC is cleared once after the loop).
 * @SMAPBENCH_OP_CLAC: CLAC alone (with AC already clear).
 * @SMAPBENCH_OP_POPF_AC: set EFLAGS.AC through PUSHF/OR/POPF, the
 *	instruction sequence SMAP would need without STAC, then clear it
 *	the same way.
 * @SMAPBENCH_OP_GET_USER: read @size (1, 2, 4 or 8) bytes from user.
 * @SMAPBENCH_OP_PUT_USER: write @size (1, 2, 4 or 8) bytes to user.
 * @SMAPBENCH_OP_COPY_TO_USER: copy @size bytes (1..64 KiB) to user.
 * @SMAPBENCH_OP_COPY_FROM_USER: copy @size bytes (1..64 KiB) from user.
 * @SMAPBENCH_OP_CLEAR_USER: zero @size bytes of user memory.
 * @SMAPBENCH_OP_STRNCPY_FROM_USER: copy a NUL-terminated user string of
 *	@size - 1 characters (the module writes the string first). kapi
 *	only: its cost is the kernel's word-at-a-time loop, not the brackets.
 * @SMAPBENCH_OP_FUTEX: atomic compare-and-exchange (lock cmpxchg) on a
 *	user u32, as the futex fast path does; kapi is
 *	futex_atomic_cmpxchg_inatomic(). The buffer must be 4-byte aligned.
 * @SMAPBENCH_OP_SIGFRAME: write the 25 fields of an x86-64 rt signal
 *	frame (return address, ucontext header and stack, saved registers)
 *	one by one into a SMAPBENCH_SIGFRAME_BYTES frame, field k (from 1)
 *	the value k, cs 0x33. kapi is 25 separate put_user() calls, not the
 *	kernel's signal code, which stores them in one user_access_begin()
 *	block as batched does (one block per frame).
 * @SMAPBENCH_OP_CALIB_IMUL: dependent chain of 1024 `imul r64, r64` (3 core
 *	cycles each): the cross-check of calib; the two must imply one
 *	core frequency. Touches no user memory.
 * @SMAPBENCH_OP_COUNT: number of ops; not an op.
 *
 * Each iteration of calib, calib_imul, pair, stac, clac and popf_ac is one
 * pass of an asm loop whose dec/jnz is counted too (it cancels in
 * differences).
 *
 * smapbench_ops.def, next to this header, is the catalogue of the ops: one
 * entry per op with the sizes and variants RUN accepts, which is also
 * what the module's op table is built from. Any variant or size it does
 * not list for an op is -EINVAL on every machine. A valid pair this
 * machine cannot run is -EOPNOTSUPP: ops with SMAPBENCH_OPF_RAW and the
 * inline and nopad variants execute raw STAC/CLAC, which raise #UD
 * without SMAP in CPUID; masked needs a kernel with
 * masked_user_access_begin(). popf_ac runs everywhere.
 */
enum smapbench_op {
	SMAPBENCH_OP_CALIB = 0,
	SMAPBENCH_OP_PAIR = 1,
	SMAPBENCH_OP_STAC = 2,
	SMAPBENCH_OP_CLAC = 3,
	SMAPBENCH_OP_POPF_AC = 4,
	SMAPBENCH_OP_GET_USER = 5,
	SMAPBENCH_OP_PUT_USER = 6,
	SMAPBENCH_OP_COPY_TO_USER = 7,
	SMAPBENCH_OP_COPY_FROM_USER = 8,
	SMAPBENCH_OP_CLEAR_USER = 9,
	SMAPBENCH_OP_STRNCPY_FROM_USER = 10,
	SMAPBENCH_OP_FUTEX = 11,
	SMAPBENCH_OP_SIGFRAME = 12,
	SMAPBENCH_OP_CALIB_IMUL = 13,
	SMAPBENCH_OP_COUNT
};

/**
 * enum smapbench_variant - how each access is bracketed
 * @SMAPBENCH_VARIANT_KAPI: the kernel's own API (get_user(),
 *	copy_to_user(), ...) as this boot patched it: STAC/CLAC on a SMAP
 *	boot, NOPs when SMAP is off. The cross-boot comparison. It
 *	includes all else one call does (range check, speculation barrier
 *	or address masking, hardened-usercopy check, the copy routine this
 *	CPU gets): kapi - inline is that, docs/methodology.md lists it per
 *	op and kernel.
 * @SMAPBENCH_VARIANT_INLINE: raw STAC and CLAC around every access,
 *	whatever the boot patched in. Needs SMAP in CPUID. A hand-written
 *	asm loop: one mov per get/put_user, rep movsb for copies, rep stosb
 *	for clear_user, lock cmpxchg for futex, 25 movs for sigframe; no
 *	range check, no speculation barrier. Each call of the loop (once per
 *	chunk of a window, see RUN) also runs one STAC and one CLAC before
 *	it, as nopad does around it, so that they cancel in inline - nopad.
 * @SMAPBENCH_VARIANT_BATCHED: one user_access_begin()/user_access_end()
 *	block around @batch accesses (unsafe_get_user()/unsafe_put_user(),
 *	rep movsb/stosb, unsafe_try_cmpxchg_user() inside).
 *	user_access_begin() includes access_ok() and the kernel's
 *	speculation barrier, as in real use.
 * @SMAPBENCH_VARIANT_NOPAD: the inline loop with a 3-byte NOP in place
 *	of each STAC and CLAC (the same bytes otherwise, at the same
 *	offsets modulo 64), inside one outer raw STAC/CLAC per call of
 *	the loop (per chunk of a window, not per iteration; inline runs the
 *	same pair): inline - nopad is the instructions' own cost. Needs
 *	SMAP in CPUID.
 * @SMAPBENCH_VARIANT_MASKED: masked_user_access_begin() blocks of
 *	@batch accesses, on kernels that have it (6.12 and later); futex
 *	batched and masked also need unsafe_try_cmpxchg_user() (5.19).
 * @SMAPBENCH_VARIANT_NONE: for ops that have no access to bracket
 *	(calib, pair, stac, clac, popf_ac).
 * @SMAPBENCH_VARIANT_COUNT: number of variants; not a variant.
 */
enum smapbench_variant {
	SMAPBENCH_VARIANT_KAPI = 0,
	SMAPBENCH_VARIANT_INLINE = 1,
	SMAPBENCH_VARIANT_BATCHED = 2,
	SMAPBENCH_VARIANT_NOPAD = 3,
	SMAPBENCH_VARIANT_MASKED = 4,
	SMAPBENCH_VARIANT_NONE = 5,
	SMAPBENCH_VARIANT_COUNT
};

/* Bit of SMAPBENCH_VARIANT_<v> in a mask of variants (variants_mask). */
#define SMAPBENCH_VARIANT_BIT(v)	(1U << SMAPBENCH_VARIANT_##v)
/* The variants of an op that accesses user memory. */
#define SMAPBENCH_VARIANTS_ACCESS					\
	(SMAPBENCH_VARIANT_BIT(KAPI) | SMAPBENCH_VARIANT_BIT(INLINE) |	\
	 SMAPBENCH_VARIANT_BIT(BATCHED) | SMAPBENCH_VARIANT_BIT(NOPAD) |	\
	 SMAPBENCH_VARIANT_BIT(MASKED))
/* The variants whose iteration is a block of smapbench_run.batch items. */
#define SMAPBENCH_VARIANTS_BLOCK					\
	(SMAPBENCH_VARIANT_BIT(BATCHED) | SMAPBENCH_VARIANT_BIT(MASKED))

/* Flags of an op in the catalogue, smapbench_ops.def */
#define SMAPBENCH_OPF_POW2	(1U << 0) /* size must be a power of two */
#define SMAPBENCH_OPF_RAW	(1U << 1) /* executes STAC/CLAC itself */
#define SMAPBENCH_OPF_KBUF	(1U << 2) /* copies to or from kernel memory */
#define SMAPBENCH_OPF_STRING	(1U << 3) /* reads a string the module writes */

/* smapbench_info.flags */
#define SMAPBENCH_INFO_SMAP_CPUID	(1U << 0) /* CPUID.7.0:EBX[20] */
#define SMAPBENCH_INFO_SMAP_FEATURE	(1U << 1) /* X86_FEATURE_SMAP set */
#define SMAPBENCH_INFO_SMAP_CR4		(1U << 2) /* CR4.SMAP (bit 21) */
#define SMAPBENCH_INFO_SMEP_CPUID	(1U << 3) /* CPUID.7.0:EBX[7] */
#define SMAPBENCH_INFO_SMEP_FEATURE	(1U << 4)
#define SMAPBENCH_INFO_SMEP_CR4		(1U << 5) /* CR4.SMEP (bit 20) */
#define SMAPBENCH_INFO_PMU_CYCLES	(1U << 6) /* core-cycle counter ok */
#define SMAPBENCH_INFO_MASKED_UACCESS	(1U << 7) /* masked variant built */
#define SMAPBENCH_INFO_HYPERVISOR	(1U << 8) /* CPUID.1:ECX[31] */
#define SMAPBENCH_INFO_FUTEX_BLOCKS	(1U << 9) /* futex batched, masked built */
#define SMAPBENCH_INFO_PREEMPT_RT	(1U << 10) /* PREEMPT_RT: the lower budget */
#define SMAPBENCH_INFO_NMI_COUNT	(1U << 11) /* windows see NMIs */
#define SMAPBENCH_INFO_SMI_COUNT	(1U << 12) /* windows see SMIs */

/* Fields of struct smapbench_sample beyond tsc and cycles, on request */
#define SMAPBENCH_SAMPLE_WINDOW		(1U << 0) /* window_tsc */

/**
 * struct smapbench_info - SMAPBENCH_IOC_INFO result, all fields (out)
 * @abi_version: SMAPBENCH_ABI_VERSION the module was built with.
 * @flags: SMAPBENCH_INFO_* bits. The three SMAP bits differ on purpose:
 *	clearcpuid=smap clears the feature bit and CR4.SMAP but not CPUID,
 *	a CPU model without SMAP clears all three.
 *	SMAPBENCH_INFO_PMU_CYCLES: a pinned kernel core-cycle counter could
 *	be created and read on the CPU that answered (RUN decides again
 *	on its own CPU and reports it with SMAPBENCH_RUN_CYCLES).
 * @tsc_khz: the kernel's calibrated TSC frequency, in kHz.
 * @ops_mask: bit (1 << op) set for every enum smapbench_op built in.
 * @variants_mask: bit (1 << variant) set for every variant built in.
 * @max_samples: SMAPBENCH_MAX_SAMPLES.
 * @max_iterations: SMAPBENCH_MAX_ITERATIONS.
 * @max_size: SMAPBENCH_MAX_SIZE.
 * @max_batch: SMAPBENCH_MAX_BATCH.
 * @sample_budget_ns: longest interrupts-off window of one sample:
 *	SMAPBENCH_SAMPLE_BUDGET_NS, or SMAPBENCH_SAMPLE_BUDGET_NS_RT on a
 *	PREEMPT_RT kernel (then SMAPBENCH_INFO_PREEMPT_RT is set).
 * @sample_size: sizeof(struct smapbench_sample) of the module: the bytes
 *	of a sample it can fill.
 * @sample_flags: the SMAPBENCH_SAMPLE_* fields it can fill.
 * @reserved: zero.
 * @release: utsname()->release of the running kernel, NUL-terminated.
 */
struct smapbench_info {
	__u32 abi_version;
	__u32 flags;
	__u64 tsc_khz;
	__u64 ops_mask;
	__u32 variants_mask;
	__u32 max_samples;
	__u32 max_iterations;
	__u32 max_size;
	__u32 max_batch;
	__u32 sample_budget_ns;
	__u32 sample_size;
	__u32 sample_flags;
	__u64 reserved[3];
	char release[72];
};

/**
 * struct smapbench_sample - one timed sample, all fields (out)
 * @tsc: TSC ticks for the whole sample (all iterations).
 * @cycles: core cycles for the whole sample, 0 without a PMU counter.
 * @window_tsc: with SMAPBENCH_SAMPLE_WINDOW, TSC ticks the sample's
 *	window kept interrupts off (the sample, the clock reads and the
 *	checks around it); never above smapbench_run.budget_tsc.
 *
 * A caller names the size of its samples (smapbench_run.sample_size, at
 * least 16: tsc and cycles) and the optional fields it wants
 * (smapbench_run.sample_flags). Fields are only ever added at the end,
 * each behind a flag: the module fills what both sides know and zeroes
 * the rest of each sample, so old callers keep working with new modules
 * and new callers learn from -EINVAL that an old module lacks a field.
 */
struct smapbench_sample {
	__u64 tsc;
	__u64 cycles;
	__u64 window_tsc;
};

/* smallest smapbench_run.sample_size: tsc and cycles */
#define SMAPBENCH_SAMPLE_SIZE_MIN	16

/* smapbench_run.result_flags */
#define SMAPBENCH_RUN_CLAMPED		(1U << 0) /* iterations were cut */
#define SMAPBENCH_RUN_CYCLES		(1U << 1) /* samples[].cycles valid */

/**
 * struct smapbench_run - SMAPBENCH_IOC_RUN argument
 * @op: (in) enum smapbench_op.
 * @variant: (in) enum smapbench_variant.
 * @size: (in) bytes per access: 1, 2, 4 or 8 for get_user/put_user,
 *	1..SMAPBENCH_MAX_SIZE for copies, clear_user and strncpy; 4 (or 0)
 *	for futex; 0 (or SMAPBENCH_SIGFRAME_BYTES) for sigframe; 0 for ops
 *	that touch no user memory. Anything else is -EINVAL.
 * @batch: (in) accesses per STAC/CLAC pair for batched and masked,
 *	1..SMAPBENCH_MAX_BATCH; must be 0 otherwise (else -EINVAL). One
 *	iteration is then one block of @batch accesses to consecutive
 *	@size-byte slots; every iteration reuses the same slots.
 * @iterations: (in) loop iterations per sample, 1..MAX_ITERATIONS.
 * @samples: (in) samples to take and return, 1..MAX_SAMPLES.
 * @buffer: (in) user buffer the accesses target. It must be writable
 *	even for reads: before timing, the module writes every byte it will
 *	touch (zeroes, or the string for strncpy), so the pages are present
 *	when the loops run with page faults disabled. Ignored (with
 *	@buffer_len) by ops that touch no user memory.
 * @buffer_len: (in) length of @buffer in bytes: at least @size (times
 *	@batch for batched and masked), at most SMAPBENCH_MAX_BUFFER, else
 *	-EINVAL. The whole range must be user addresses, and the touched
 *	part mapped and writable, else -EFAULT.
 * @samples_ptr: (in) user array of @samples samples of @sample_size
 *	bytes each, zeroed before timing and written once at the end; a
 *	bad pointer is -EFAULT before any timing.
 * @sample_size: (in) bytes of one element of @samples_ptr: a multiple of
 *	8 from SMAPBENCH_SAMPLE_SIZE_MIN to SMAPBENCH_MAX_SAMPLE_SIZE, large
 *	enough for the fields @sample_flags asks for; else -EINVAL.
 * @sample_flags: (in) SMAPBENCH_SAMPLE_* fields wanted; an unknown bit is
 *	-EINVAL.
 * @iterations_done: (out) iterations actually run per sample; less than
 *	@iterations when a window would have run longer than half the
 *	budget (then SMAPBENCH_RUN_CLAMPED is set). 0 on -E2BIG.
 * @result_flags: (out) SMAPBENCH_RUN_* bits.
 * @timer_overhead_tsc: (out) median TSC ticks of an empty timed region
 *	(two rdtsc_ordered() and, with a PMU, two rdpmc of the module's
 *	pinned cycle counter); reported, not subtracted. Each sample also
 *	includes one indirect call of the loop.
 * @timer_overhead_cycles: (out) the same in core cycles, 0 without PMU.
 * @budget_tsc: (out) smapbench_info.sample_budget_ns in TSC ticks.
 * @iteration_tsc: (out) TSC ticks of one iteration, measured with
 *	interrupts on before any window opened: what sized the windows.
 * @window_max_tsc: (out) the longest interrupts-off window of the run,
 *	discarded ones included; 0 if none opened.
 * @over_budget: (out) windows that ran longer than @budget_tsc (a host
 *	preempting a virtual CPU, an SMI, an iteration slower than
 *	measured); each was discarded and taken again, never returned.
 * @refaults: (out) times a page of the buffer was gone and faulted in
 *	again between windows.
 * @cpu: (out) CPU the samples were taken on; the run stays there.
 * @disturbed: (out) windows discarded because an NMI or an SMI ran
 *	inside them, each taken again. NMIs are seen where the kernel
 *	exports its count (SMAPBENCH_INFO_NMI_COUNT), SMIs where the CPU
 *	has MSR_SMI_COUNT (SMAPBENCH_INFO_SMI_COUNT: Intel, not AMD).
 * @reserved: (in) zero, else -EINVAL; zero on output.
 *
 * Each sample is one window with preemption, interrupts and page faults
 * disabled: clocks read, @iterations_done iterations, clocks read. The
 * count is first sized with interrupts on: the loop runs 1, 2, 4, ...
 * iterations until one run takes an eighth of the budget; the count
 * expected to fill half the budget is then checked and corrected by
 * warm-up windows, which are discarded. Between windows interrupts are
 * on, the task may be rescheduled and a fatal signal ends the run
 * (-EINTR). A window that runs over the budget is discarded and taken
 * again; two in a row halve the count and restart the samples.
 *
 * Errors: -EPERM without CAP_PERFMON or CAP_SYS_ADMIN; -EINVAL for a
 * malformed request (checked first, the same on every machine);
 * -EOPNOTSUPP for a valid one this CPU or kernel cannot run; -EFAULT for
 * bad addresses; -E2BIG when one iteration takes longer than half the
 * budget, so no window of it could keep the bound: refused before any
 * interrupts-off window opens (or, rarely, after windows of one
 * iteration ran over the budget twice in a row); -EAGAIN when a window
 * found a page of the buffer gone 4 times in a row though it was faulted
 * in again each time (something keeps unmapping it: retry, or stop
 * what does that); -EBUSY when an NMI or SMI disturbed 9 windows in a
 * row (perf sampling at a high rate, say: stop it, or retry); -ENOMEM;
 * -EINTR; -EIO only for a module bug (a loop left EFLAGS.AC set; AC is
 * cleared at once and a kernel WARNING logged). The (out) fields are
 * written on success, -E2BIG, -EAGAIN and -EBUSY; samples only on
 * success.
 *
 * Inside a window the loop runs in chunks of about budget / 64, with the
 * TSC read between them: a chunk that would end past the budget is not
 * started, and the window is discarded like one over the budget. So no
 * caller (a contended cache line, a slow emulator) holds interrupts off
 * much past the budget, and every op and variant runs the same checks.
 */
struct smapbench_run {
	__u32 op;
	__u32 variant;
	__u32 size;
	__u32 batch;
	__u32 iterations;
	__u32 samples;
	__u64 buffer;
	__u64 buffer_len;
	__u64 samples_ptr;
	__u32 sample_size;
	__u32 sample_flags;
	__u32 iterations_done;
	__u32 result_flags;
	__u64 timer_overhead_tsc;
	__u64 timer_overhead_cycles;
	__u64 budget_tsc;
	__u64 iteration_tsc;
	__u64 window_max_tsc;
	__u32 over_budget;
	__u32 refaults;
	__u32 cpu;
	__u32 disturbed;
	__u32 reserved[4];
};

/*
 * 0xB8 was free in 6.1's Documentation/userspace-api/ioctl/ioctl-number.rst;
 * later kernels list it for /dev/mshv (uapi/linux/mshv.h). The numbers
 * only ever reach this device, which answers any other command with
 * -ENOTTY, so the two cannot meet; tools that decode ioctls by number
 * alone (strace) may show mshv names. A struct's size is part of its
 * number: a RUN of another ABI version is -ENOTTY too.
 */
#define SMAPBENCH_IOC_MAGIC	0xB8
#define SMAPBENCH_IOC_INFO	_IOR(SMAPBENCH_IOC_MAGIC, 0, struct smapbench_info)
#define SMAPBENCH_IOC_RUN	_IOWR(SMAPBENCH_IOC_MAGIC, 1, struct smapbench_run)

#endif /* _UAPI_SMAPBENCH_H */
